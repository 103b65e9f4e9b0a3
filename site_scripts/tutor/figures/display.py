"""Shared helpers of the figure models: how numbers are written, input checks, sampled curves.

What it is: the one place that turns floats into the text a figure shows (so every figure
writes 10.001, −12 and 1.5 × 10³⁷ the same way) and checks the numbers a figure receives.
What it is not: a reader of typed text (the page reads what a reader types: browser/ui/numbers.mjs,
readNumber, and sends the number) nor drawing: curves are lists of [x, y] pairs for the views to plot.
"""
import contextlib
import gc
import math

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
