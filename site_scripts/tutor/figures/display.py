"""Shared helpers of the figure models: how numbers are written, input checks, sampled curves.

What it is: the one place that turns floats into the text a figure shows (so every figure
writes 10.001, −12 and 1.5 × 10³⁷ the same way), checks the numbers a figure receives, and reads
the numbers a reader types into a figure's field (typed_number), with a plain sentence for text
that is not one. The checked predictions read their answers in the page, without Python
(browser/predictions/judge.mjs readNumber): the same rules and the same sentences, word for word,
which tests/article/test_predictions.py checks on a table of entries.
What it is not: drawing. Curves are returned as lists of [x, y] pairs for the views to plot.
"""
import contextlib
import gc
import math
import re

MINUS = "\u2212"
SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def number_text(value, digits=6):
    """`value` rounded to `digits` significant digits, with a real minus sign."""
    if not math.isfinite(value):
        return "overflow"
    text = f"{value:.{digits}g}"
    if text in ("0", "-0"):
        return "0"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa} × 10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    return text.replace("-", MINUS, 1) if text.startswith("-") else text


def exact_text(value):
    """`value` written so that it reads back as the same float: number_text's six digits when they do, else
    every digit it needs (a reader's −6.0000001 is not "−6")."""
    text = number_text(value)
    if not math.isfinite(value) or "×" in text or float(text.replace(MINUS, "-")) == value:
        return text
    return repr(float(value)).replace("-", MINUS, 1)


def checked_number(name, value, low=None, high=None):
    """`value` as a float, or a ValueError a reader can act on."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must lie between {number_text(low)} and {number_text(high)}, not {number_text(value)}")
    return value


TYPED_LENGTH = 40  # characters: longer text in a number field is refused before Python reads it
MINUS_SIGNS = re.compile("[\u2212\u2012\u2013\u2014\ufe63\uff0d]")  # −, dashes: what a reader copies from the page
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)  # 0-9, as JavaScript's \d
DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+", re.ASCII)
FRACTION = re.compile(r"([+-]?\d+(?:\.\d*)?)/(\d+(?:\.\d*)?)", re.ASCII)


def typed_number(text, what):
    """(the number, None) for the text a reader typed into the field of `what` ("the gradient of e"),
    or (None, one sentence saying what is wrong with the text). Never raises for text: a field may
    hold anything. Accepts the minus sign figures write (−6) as well as the keyboard's (-6); digits only
    (no "inf", "nan" or 1_000), as judge.mjs's readNumber."""
    if not isinstance(text, str):
        raise ValueError(f"the entry must be the text of the field, not {text!r}")
    shown = text.strip()
    if not shown:
        return None, f"Type a number for {what} first."
    if len(shown) > TYPED_LENGTH:
        return None, f"That is too long for a number ({len(shown)} characters): type a few digits, such as −6 or 0.25."
    plain = MINUS_SIGNS.sub("-", shown)
    if DECIMAL_COMMA.fullmatch(plain):
        return None, f"Write the decimal point as a point: {plain.replace(',', '.').replace('-', MINUS)} rather than {shown}."
    if (fraction := FRACTION.fullmatch(plain)) and float(fraction[2]):
        return None, f"Type {shown} as a decimal, {number_text(float(fraction[1]) / float(fraction[2]))}."
    if not NUMBER.fullmatch(plain):
        return None, f"“{shown}” is not a number. Type digits, such as −6 or 0.5."
    value = float(plain)
    if not math.isfinite(value):
        return None, (f"“{shown}” is infinite for a float (the largest is about 1.8 × 10³⁰⁸); "
                      "no number here is anywhere near that big.")
    return value, None


def sample_curve(function, low, high, count=161):
    """[[x, function(x)], ...] at `count` evenly spaced x from low to high."""
    xs = [low + (high - low) * index / (count - 1) for index in range(count)]
    return [[x, function(x)] for x in xs]


def line_through(x, y, slope, low, high):
    """The two end points, at x = low and x = high, of the line through (x, y) with `slope`."""
    return [[low, y + slope * (low - x)], [high, y + slope * (high - x)]]


def state_field(state, name):
    """state[name], or a clear error when `state` is not a state this figure returned."""
    if not isinstance(state, dict) or name not in state:
        raise ValueError(f"state must be the dictionary this figure returned last, with a {name!r} entry")
    return state[name]


@contextlib.contextmanager
def cycle_collector_paused():
    """Run the body with Python's cyclic garbage collector off (as it was after). An engine graph has no
    reference cycles (edges point from a value to its parents only), so reference counting frees it
    and the collector's passes over thousands of new Values find nothing: pausing it halves the time
    a figure needs to build big graphs in Pyodide."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
