"""Exercise (chapter "Loss, gradient and update"): a new example's gradient by the chain rule.

What it is: the hidden checks, hints and solution of the block with exercise="gradient_by_hand" in
docs/loss-and-gradient.md. For the example (x, y) = (3, 10) at w = 1, b = 0.5 the reader works out
dL/de, dL/dw and dL/db of L = (w·x + b − y)² with plain floats; the block then takes one step.
The checks run the block again with other numbers, so that a number typed in does not pass.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from . import NotYet, checked_again, close, needs, number, run_checks

# The checks also run the block with these numbers, so that a number typed in instead of computed does not pass.
OTHER_NUMBERS = {"x": -2.0, "y": 1.0, "w": 0.5, "b": 0.25}

HINTS = [
    "Start at the loss: L = e², so dL/de = 2·e. Write `loss_grad_error = 2 * error`.",
    "The chain rule multiplies along the chain: dL/dw = dL/de · de/dŷ · dŷ/dw, where de/dŷ = 1 "
    "and dŷ/dw = x.",
    "Only the last factor changes for the bias: dŷ/db = 1. With error = −6.5 you should get "
    "dL/dw = −39 and dL/db = −13.",
]

SOLUTION = '''\
x, y = 3.0, 10.0                      # a new training example
w, b = 1.0, 0.5                       # the current parameters
prediction = w * x + b
error = prediction - y
loss = error ** 2

loss_grad_error = 2 * error           # dL/de, from L = e ** 2
w_grad = loss_grad_error * 1 * x      # dL/de * de/dŷ * dŷ/dw
b_grad = loss_grad_error * 1 * 1      # dL/de * de/dŷ * dŷ/db

learning_rate = 0.01
w_after = w - learning_rate * w_grad
b_after = b - learning_rate * b_grad
loss_after = (w_after * x + b_after - y) ** 2
print("loss", loss, "->", loss_after, "  gradient:", (w_grad, b_grad))
'''


def example_error(namespace):
    """The error e = w·x + b − y at the reader's numbers, and x."""
    x, y, w, b = (number(namespace, name) for name in ("x", "y", "w", "b"))
    return w * x + b - y, x


def error_gradient_at(namespace):
    error, _ = example_error(namespace)
    found = number(namespace, "loss_grad_error")
    if close(found, 2 * error):
        return
    sign = (" That is the error with the opposite sign, y − ŷ: the error is e = ŷ − y, prediction minus target."
            if close(found, -2 * error) else "")
    raise NotYet(f"`loss_grad_error` is {found!r}, expected 2·e = {2 * error!r} (the error e is "
                 f"{error!r}). The derivative of e² with respect to e is 2·e.{sign}")


def weight_gradient_at(namespace):
    error, x = example_error(namespace)
    found = number(namespace, "w_grad")
    if not close(found, 2 * error * x):
        raise NotYet(f"`w_grad` is {found!r}, expected 2·e · 1 · x = {2 * error * x!r}. Multiply dL/de "
                     "by de/dŷ = 1 and by dŷ/dw = x.")


def bias_gradient_at(namespace):
    error, _ = example_error(namespace)
    found = number(namespace, "b_grad")
    if not close(found, 2 * error):
        raise NotYet(f"`b_grad` is {found!r}, expected 2·e · 1 · 1 = {2 * error!r}. For the bias the "
                     "last factor is dŷ/db = 1.")


def with_other_numbers(namespace, name, check_at):
    """check_at on the reader's block, then on the block run again with another example and parameters."""
    checked_again(namespace, name, check_at, "the error and x", **OTHER_NUMBERS)


def error_gradient(namespace):
    """loss_grad_error is dL/de = 2·e"""
    with_other_numbers(namespace, "loss_grad_error", error_gradient_at)


@needs(error_gradient)
def weight_gradient(namespace):
    """w_grad is dL/dw = 2·e·x"""
    with_other_numbers(namespace, "w_grad", weight_gradient_at)


@needs(error_gradient)
def bias_gradient(namespace):
    """b_grad is dL/db = 2·e"""
    with_other_numbers(namespace, "b_grad", bias_gradient_at)


def check(namespace):
    return run_checks(namespace, [error_gradient, weight_gradient, bias_gradient])
