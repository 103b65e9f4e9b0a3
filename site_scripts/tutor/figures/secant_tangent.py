"""Model of the figure "Secant and tangent" on f(x) = x².

What it is: the secant through (x, f(x)) and (x + h, f(x + h)) and the tangent at x, whose
slope 2x comes from the engine's backward(). The "Small change h" slider picks one of
H_CHOICES by index, so that 0.001 and 2 are both a few key presses away. It opens where the
chapter works, at x = 5 with h = 1: secant slope 11, tangent slope 10.
What it is not: the view (secant_tangent.mjs draws the parabola and both lines).
"""
from tinygrad import Value

from .display import checked_number, line_through, number_text, sample_curve, state_field

TITLE = "Secant and tangent"
PAGE_CALLS = ("initial", "change")
H_CHOICES = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 1.5, 2]
X_RANGE = {"min": -5, "max": 5, "step": 0.5}
PLOT_X = [-7, 7]
PLOT_Y = [-5, 50]
START = {"x": 5, "h_index": H_CHOICES.index(1)}  # the prose's x = 5 (docs/derivatives.md)


def square(x):
    x = Value.wrap(x)
    return x * x


def new_state(x, h_index):
    x = checked_number("Position x", x, X_RANGE["min"], X_RANGE["max"])
    if h_index not in range(len(H_CHOICES)):
        raise ValueError(f"Small change h must be one of the slider's {len(H_CHOICES)} settings, not {h_index!r}")
    h = H_CHOICES[h_index]
    point = Value(x)
    at_x = square(point)
    at_x.backward()
    tangent_slope = point.grad
    at_x_plus_h = square(x + h).data
    secant_slope = (at_x_plus_h - at_x.data) / h
    return {
        "x": x,
        "h_index": h_index,
        "x_range": X_RANGE,
        "h_texts": [number_text(choice) for choice in H_CHOICES],
        "plot_x": PLOT_X,
        "plot_y": PLOT_Y,
        "x_text": number_text(x),
        "h_text": number_text(h),
        "curve": sample_curve(lambda t: square(t).data, *PLOT_X),
        "points": [[x, at_x.data], [x + h, at_x_plus_h]],
        "secant": line_through(x, at_x.data, secant_slope, *PLOT_X),
        "tangent": line_through(x, at_x.data, tangent_slope, *PLOT_X),
        "secant_slope_text": number_text(secant_slope),
        "tangent_slope_text": number_text(tangent_slope),
        "difference_text": number_text(secant_slope - tangent_slope, 3),
        "direction": "falls" if tangent_slope < 0 else "rises" if tangent_slope > 0 else "is flat",
        "description": (f"At x = {number_text(x)} with h = {number_text(h)}: secant slope {number_text(secant_slope)}, "
                        f"tangent slope {number_text(tangent_slope)}, difference {number_text(secant_slope - tangent_slope, 3)}."),
    }


def initial():
    return new_state(**START)


def change(state, x=None, h_index=None):
    """The figure after a slider moved; the other setting is kept from `state`."""
    return new_state(state_field(state, "x") if x is None else x, state_field(state, "h_index") if h_index is None else h_index)
