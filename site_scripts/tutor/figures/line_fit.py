"""Model of the figure "Fitting a line": gradient descent on y = w·x + b through four points.

What it is: the training loop of the lesson's train_line, one pass of its body per step, with the
engine's own functions: each step makes w and b Values at the current numbers, builds the mean
squared error the way train_line builds it, calls backward() and then the engine's gradient_step,
so an edited engine (its gradient_step, its operations) shows in the figure. The state carries the loss
history and the path of (w, b) from the start, which a reader may choose (the figure "Loss
landscape", loss_landscape.py, steps through this same state). When the numbers overflow (a learning rate that is too large) the state says
"diverged" with a message, and holds no infinite or NaN number for the view to draw.
What it is not: the view (line_fit.mjs plots the points, the line and the loss history).
"""
import math
import sys

from tinygrad import Value, gradient_step

from .display import checked_number, number_text, state_field

TITLE = "Fitting a line"
PAGE_CALLS = ("initial", "step", "reset", "set_learning_rate")
POINTS = [(0, 1), (1, 3), (2, 5), (3, 7)]
START = {"w": -1.0, "b": 0.0}
DEFAULT_LEARNING_RATE = 0.05
LEARNING_RATE_RANGE = {"min": 0.01, "max": 1, "step": 0.01}
PLOT_X = [-0.5, 3.5]
PLOT_Y = [-2, 9]
MAX_STEPS_PER_CALL = 1000


def mean_squared_error(w, b):
    """train_line's loss, written as train_line writes it (with Values it is the engine's graph)."""
    return sum((w * x + b - y) ** 2 for x, y in POINTS) * (1 / len(POINTS))


def gradient(w, b):
    """(dL/dw, dL/db) at (w, b), from one backward() of the engine's graph of the loss."""
    weight, bias = Value(w), Value(b)
    mean_squared_error(weight, bias).backward()
    return weight.grad, bias.grad


def descend(w, b, learning_rate):
    """(w, b) after one pass of train_line's loop: the loss, backward(), the engine's gradient_step.
    OverflowError if the numbers leave float range."""
    weight, bias = Value(w), Value(b)
    mean_squared_error(weight, bias).backward()
    gradient_step((weight, bias), learning_rate)
    new_w, new_b = weight.data, bias.data
    if not (math.isfinite(new_w) and math.isfinite(new_b)):
        raise OverflowError("parameters overflowed")
    return new_w, new_b


def loss_at(w, b):
    """The loss as a float; OverflowError if it is too large to represent."""
    loss = mean_squared_error(w, b)
    if not math.isfinite(loss):
        raise OverflowError("loss overflowed")
    return loss


def new_state(w, b, learning_rate, history, path, diverged_at=None):
    messages = []
    if diverged_at is not None:
        messages.append(
            f"Diverged at step {diverged_at}: the numbers grew past what a float can hold. "
            "Lower the learning rate and press Reset."
        )
    elif len(history) > 1 and history[-1] > history[-2]:
        messages.append("The loss grew on the last step: this learning rate overshoots the minimum.")
    state = {
        "w": w,
        "b": b,
        "learning_rate": learning_rate,
        "learning_rate_range": LEARNING_RATE_RANGE,
        "history": history,
        "path": path,
        "start": path[0],
        "diverged_at": diverged_at,
        "steps": len(history) - 1,
        "points": [list(point) for point in POINTS],
        "plot_x": PLOT_X,
        "plot_y": PLOT_Y,
        "line": [[x, w * x + b] for x in PLOT_X],
        "w_text": number_text(w),
        "b_text": number_text(b),
        "loss_text": number_text(history[-1]),
        "learning_rate_text": number_text(learning_rate),
        "steps_text": str(len(history) - 1),
        "history_range": history_range(history),
        "messages": messages,
    }
    return {**state, "description": description(state)}


def description(state):
    steps = f"{state['steps_text']} step" + ("" if state["steps"] == 1 else "s")
    return (f"After {steps} at learning rate {state['learning_rate_text']}: w = {state['w_text']}, b = {state['b_text']}, "
            f"loss {state['loss_text']}." + (" Training diverged." if state["diverged_at"] is not None else ""))


def history_range(history):
    """Powers of ten below and above every positive loss, for a logarithmic axis. The exponents stay
    within the normal floats (10⁻³⁰⁷ to 10³⁰⁸): 10.0 ** 309 overflows and 10.0 ** -324 is zero."""
    positive = [loss for loss in history if loss > 0] or [1.0]
    lowest, highest = sys.float_info.min_10_exp, sys.float_info.max_10_exp
    low = min(max(math.floor(math.log10(min(positive))), lowest), highest - 1)
    high = min(max(math.ceil(math.log10(max(positive))), low + 1), highest)
    return [10.0**low, 10.0**high]


def checked_learning_rate(learning_rate):
    return checked_number("Learning rate", learning_rate, LEARNING_RATE_RANGE["min"], LEARNING_RATE_RANGE["max"])


def reset(learning_rate=DEFAULT_LEARNING_RATE, w=START["w"], b=START["b"]):
    """The state at step 0 from (w, b); any finite start whose loss a float can hold."""
    w, b = checked_number("w", w), checked_number("b", b)
    try:
        loss = loss_at(w, b)
    except OverflowError:
        raise ValueError(f"the loss at w = {number_text(w)}, b = {number_text(b)} is too large for a float") from None
    return new_state(w, b, checked_learning_rate(learning_rate), [loss], [[w, b]])


def initial():
    return reset()


def unpacked(state):
    """(w, b, learning_rate, history, path, diverged_at) of a state this figure returned, checked."""
    history, path = state_field(state, "history"), state_field(state, "path")
    if not isinstance(history, list) or not history:
        raise ValueError("state['history'] must be the non-empty list of losses this figure returned")
    if not isinstance(path, list) or len(path) != len(history):
        raise ValueError("state['path'] must hold one (w, b) pair per loss in state['history']")
    return (checked_number("w", state_field(state, "w")), checked_number("b", state_field(state, "b")),
            state_field(state, "learning_rate"), list(history), list(path), state_field(state, "diverged_at"))


def set_learning_rate(state, learning_rate):
    w, b, _, history, path, diverged_at = unpacked(state)
    return new_state(w, b, checked_learning_rate(learning_rate), history, path, diverged_at)


def step(state, count=1):
    """The state after `count` more steps (stopping at the first overflow)."""
    if type(count) is not int or not 1 <= count <= MAX_STEPS_PER_CALL:
        raise ValueError(f"count must be a whole number from 1 to {MAX_STEPS_PER_CALL}, not {count!r}")
    w, b, learning_rate, history, path, diverged_at = unpacked(state)
    if diverged_at is not None:
        return new_state(w, b, learning_rate, history, path, diverged_at)
    learning_rate = checked_learning_rate(learning_rate)
    for _ in range(count):
        try:
            new_w, new_b = descend(w, b, learning_rate)
            new_loss = loss_at(new_w, new_b)
        except OverflowError:  # keep the last finite parameters; say which step failed
            return new_state(w, b, learning_rate, history, path, diverged_at=len(history))
        w, b = new_w, new_b
        history.append(new_loss)
        path.append([w, b])
    return new_state(w, b, learning_rate, history, path)
