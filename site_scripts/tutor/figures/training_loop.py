"""Model of the figure "The loop, once around": forward, loss, backward and update, with the chapter's numbers.

What it is: one pass of train_line's loop on the chapter's four points, from the chapter's start (w = −1, b = 0)
at its default learning rate (line_fit.py holds all three), computed with the engine: the predictions and the
loss are Values, backward() gives both gradients, the engine's gradient_step moves w and b. The state holds the
four steps as boxes (a heading and a few lines of text each); "next_pass" starts the next pass from the moved
parameters, "reset" goes back to the chapter's start.
What it is not: the view (training_loop.mjs draws the four boxes in a cycle), nor a trainer: line_fit.py is.
"""
from tinygrad import Value, gradient_step

from .display import checked_number, number_text, state_field
from .line_fit import DEFAULT_LEARNING_RATE, POINTS, START, mean_squared_error

TITLE = "The loop, once around"
PAGE_CALLS = ("initial", "next_pass", "reset")
MAX_PASSES = 1000


def one_pass(w, b, learning_rate=DEFAULT_LEARNING_RATE):
    """{"predictions", "loss", "grad_w", "grad_b", "new_w", "new_b"} of one pass of the loop from (w, b)."""
    weight, bias = Value(w), Value(b)
    predictions = [(weight * x + bias).data for x, _ in POINTS]
    loss = mean_squared_error(weight, bias)
    loss.backward()
    grad_w, grad_b = weight.grad, bias.grad
    gradient_step((weight, bias), learning_rate)
    return {"predictions": predictions, "loss": loss.data, "grad_w": grad_w, "grad_b": grad_b,
            "new_w": weight.data, "new_b": bias.data}


def new_state(w, b, passes):
    numbers = one_pass(w, b)
    rate = number_text(DEFAULT_LEARNING_RATE)
    xs = ", ".join(number_text(x) for x, _ in POINTS)
    boxes = [
        {"heading": "1. Forward", "lines": [f"w = {number_text(w)}, b = {number_text(b)}",
                                            f"ŷ = w·x + b at x = {xs}",
                                            "gives " + ", ".join(number_text(p) for p in numbers["predictions"])]},
        {"heading": "2. Loss", "lines": ["mean of (ŷ − y)²", f"L = {number_text(numbers['loss'])}"]},
        {"heading": "3. Backward", "lines": ["loss.backward()", f"dL/dw = {number_text(numbers['grad_w'])}",
                                             f"dL/db = {number_text(numbers['grad_b'])}"]},
        {"heading": "4. Update", "lines": [f"w − {rate} · dL/dw = {number_text(numbers['new_w'])}",
                                           f"b − {rate} · dL/db = {number_text(numbers['new_b'])}"]},
    ]
    return {
        "w": w, "b": b, "passes": passes,
        "pass_text": str(passes + 1),
        "loss_text": number_text(numbers["loss"]),
        "boxes": boxes,
        "description": (f"Pass {passes + 1} of the training loop. " + " ".join(
            f"{box['heading']}: {'; '.join(box['lines'])}." for box in boxes)),
        "messages": [] if passes == 0 else [f"This pass starts where pass {passes} moved w and b."],
    }


def initial():
    return new_state(START["w"], START["b"], 0)


def reset(state=None):
    return initial()


def next_pass(state):
    """The state of the next pass: it starts from the w and b this pass's update moved to."""
    passes = state_field(state, "passes")
    if type(passes) is not int or not 0 <= passes < MAX_PASSES:
        raise ValueError(f"state['passes'] must be a whole number from 0 to {MAX_PASSES - 1}, not {passes!r}")
    numbers = one_pass(checked_number("w", state_field(state, "w")), checked_number("b", state_field(state, "b")))
    return new_state(numbers["new_w"], numbers["new_b"], passes + 1)
