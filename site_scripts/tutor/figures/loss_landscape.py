"""Model of the figure "Loss landscape": the line fit's mean squared error over the plane of (w, b).

What it is: the state of "Fitting a line" (line_fit.py, whose training step this figure calls: one
engine graph, one backward() and the engine's gradient_step per step) plus what the landscape needs:
the loss on a grid of (w, b), computed once with the engine in initial() (later states leave it out;
the view keeps it) and rounded to GRID_DIGITS significant digits (112.14, not 112.14000000000001: the
rounding error of the float arithmetic goes, and no level line moves by as much as 0.01 pixel; the
tests check it), the levels at which to draw level lines, the gradient
at the current point and the step it leads to (line_fit.descend, the same step), and a start point
the reader chooses. At learning rate 0.05 the path runs down into the valley
to w = 2, b = 1; at 0.3 every step overshoots across the valley and lands further out.
What it is not: the view (loss_landscape.mjs draws the level lines with d3-contour, the path and
the arrow, and reuses line_fit.mjs for the line and the loss history).
"""
import math

from tinygrad import Value

from . import line_fit
from .display import checked_number, number_text, state_field

TITLE = "Loss landscape"
PAGE_CALLS = ("initial", "step", "set_learning_rate", "reset", "set_start")
W_RANGE = {"min": -2, "max": 6, "step": 0.1}
B_RANGE = {"min": -3, "max": 5, "step": 0.1}
GRID_SIZE = 41  # samples along each axis, corners included
GRID_DIGITS = 5  # significant digits of the grid's losses: every loss on this grid needs no more
LEVELS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250]
MINIMUM = (2, 1)  # the four points lie on y = 2x + 1


def grid_axis(axis_range):
    low, high = axis_range["min"], axis_range["max"]
    return [low + (high - low) * index / (GRID_SIZE - 1) for index in range(GRID_SIZE)]


def loss_grid():
    """The loss at every grid point, by the engine: rows of constant b (lowest b first), w along a row."""
    ws, bs = grid_axis(W_RANGE), grid_axis(B_RANGE)
    return [[significant(line_fit.mean_squared_error(Value(w), Value(b)).data) for w in ws] for b in bs]


def significant(number, digits=GRID_DIGITS):
    """`number` rounded to `digits` significant digits (112.14000000000001 -> 112.1)."""
    return float(f"{number:.{digits}g}")


def landscape(line_state, with_grid=False):
    """`line_state` (a line_fit state) with the landscape's own fields added."""
    state = dict(line_state)
    w, b, learning_rate = state["w"], state["b"], state["learning_rate"]
    if state["diverged_at"] is None:
        weight_grad, bias_grad = line_fit.gradient(w, b)
        try:
            next_point = list(line_fit.descend(w, b, learning_rate))
        except OverflowError:
            next_point = None
        if next_point is None or not all(math.isfinite(number) for number in (weight_grad, bias_grad)):
            weight_grad = bias_grad = next_point = None
    else:
        weight_grad = bias_grad = next_point = None
    start_w, start_b = state["start"]
    outside = not (W_RANGE["min"] <= w <= W_RANGE["max"] and B_RANGE["min"] <= b <= B_RANGE["max"])
    state.update({
        "w_range": W_RANGE,
        "b_range": B_RANGE,
        "levels": LEVELS,
        "minimum": list(MINIMUM),
        "gradient": None if weight_grad is None else [weight_grad, bias_grad],
        "weight_grad_text": "none" if weight_grad is None else number_text(weight_grad),
        "bias_grad_text": "none" if bias_grad is None else number_text(bias_grad),
        "next_point": next_point,
        "start_w_text": number_text(start_w),
        "start_b_text": number_text(start_b),
        "outside": outside,
        "description": description(state, outside),
    })
    if outside and state["diverged_at"] is None:
        state["messages"] = state["messages"] + ["The current point has left the plotted part of the landscape."]
    if with_grid:
        state["grid"] = loss_grid()
    return state


def description(state, outside):
    where = "outside the plotted area" if outside else "inside the plotted area"
    distance = math.hypot(state["w"] - MINIMUM[0], state["b"] - MINIMUM[1])
    steps = f"{state['steps_text']} step" + ("" if state["steps"] == 1 else "s")
    return (f"Loss landscape after {steps} at learning rate {state['learning_rate_text']}, "
            f"started at w = {number_text(state['start'][0])}, b = {number_text(state['start'][1])}: now w = {state['w_text']}, b = {state['b_text']}, "
            f"loss {state['loss_text']}, {number_text(distance, 3)} from the minimum at w = 2, b = 1, {where}.")


def checked_start(w, b):
    return (checked_number("Start w", w, W_RANGE["min"], W_RANGE["max"]),
            checked_number("Start b", b, B_RANGE["min"], B_RANGE["max"]))


def initial():
    return landscape(line_fit.initial(), with_grid=True)


def step(state, count=1):
    return landscape(line_fit.step(state, count))


def set_learning_rate(state, learning_rate):
    return landscape(line_fit.set_learning_rate(state, learning_rate))


def reset(state):
    """Back to step 0 at the chosen start, keeping the learning rate."""
    w, b = state_field(state, "start")
    return landscape(line_fit.reset(state_field(state, "learning_rate"), *checked_start(w, b)))


def set_start(state, w=None, b=None):
    """Start again from (w, b) (either left out: keep that coordinate of the current start)."""
    start_w, start_b = state_field(state, "start")
    w, b = checked_start(start_w if w is None else w, start_b if b is None else b)
    return landscape(line_fit.reset(state_field(state, "learning_rate"), w, b))
