"""Exercise (chapter "Training a line and an XOR network"): fit y = 3x − 2 with a loop of your own.

What it is: the hidden checks, hints and solution of the block with exercise="fit_new_line" in
docs/training.md. train_line only knows the points of y = 2x + 1, so the reader completes a loop
that builds the mean squared error of four points on y = 3x − 2, calls backward() and updates
`slope` and `intercept` with gradient_step. After the loop the block builds the loss once more, so
the loss it prints belongs to the slope and intercept it prints (as train_line's returned loss does).
The checks run the block again on the points of another line, so that numbers typed in do not pass.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
import math

from . import NotYet, close, defined, engine, needs, run_again, run_checks

POINTS = [(0, -2), (1, 1), (2, 4), (3, 7)]
RATE = 0.05  # train_line's default learning rate: the solution's and the last hint's
# The checks run the block again on four points of another line, so that a slope and intercept typed in do not pass.
OTHER_POINTS = [(0, 2), (1, 1), (2, 0), (3, -1)]
OTHER_LINE = (-1.0, 2.0)  # the slope and intercept of the line through OTHER_POINTS: y = -x + 2

HINTS = [
    "Each pass of the loop needs the two steps train_line takes after building the loss: the "
    "backward pass, then the update.",
    "`loss.backward()` fills `slope.grad` and `intercept.grad`.",
    "Then `gradient_step((slope, intercept), 0.05)` moves both parameters against their gradients. "
    "Leave the line after the loop as it is: it builds the loss again from the updated parameters, "
    "so the printed loss is the loss of the printed slope and intercept.",
]

SOLUTION = '''\
from tinygrad import Value, gradient_step

points = [(0, -2), (1, 1), (2, 4), (3, 7)]       # four points on y = 3x - 2
slope, intercept = Value(0), Value(0)


def mean_squared_error():
    """The loss of the current slope and intercept, built as a new graph."""
    return sum((slope * x + intercept - y) ** 2 for x, y in points) * (1 / len(points))


for step in range(500):
    loss = mean_squared_error()
    loss.backward()
    gradient_step((slope, intercept), 0.05)
loss = mean_squared_error()                      # the loss of the slope and intercept printed below
print(f"slope = {slope.data:.4f}, intercept = {intercept.data:.4f}, loss = {loss.data:.2e}")
'''


def parameter(namespace, name):
    found = defined(namespace, name, "Value")
    if not isinstance(found, engine().Value):
        raise NotYet(f"`{name}` should be a Value the loop trains, but it is {found!r}.")
    return found


def fitted_slope(namespace):
    """slope ends near 3"""
    found = parameter(namespace, "slope").data
    if close(found, 3.0, 1e-3):
        return
    if found == 0:
        raise NotYet("slope.data is still 0, expected about 3: the loop never changed it. Each pass needs "
                     f"loss.backward(), then gradient_step((slope, intercept), rate), for example with train_line's "
                     f"rate {RATE}.")
    if 0 < found < 3:  # from slope 0, small steps approach 3 from below without passing it
        raise NotYet(f"slope.data is {found!r}, expected about 3 (within 0.1 %): on its way, but not there "
                     f"after 500 steps. Is the learning rate too small? With train_line's rate, {RATE}, the loop "
                     "gets there.")
    raise NotYet(f"slope.data is {found!r}, expected about 3: the steps overshoot or go uphill. gradient_step moves "
                 f"against the gradient; is the learning rate too large? With train_line's rate, {RATE}, the "
                 "loop gets there.")


@needs(fitted_slope)
def fitted_intercept(namespace):
    """intercept ends near −2"""
    found = parameter(namespace, "intercept").data
    if not close(found, -2.0, 1e-3):
        raise NotYet(f"intercept.data is {found!r}, expected about -2 (within 0.1 %). Update it in the "
                     "same step as the slope, from the same loss.")


def loss_of_the_final_parameters(namespace):
    """the printed loss is the loss of the printed slope and intercept"""
    loss = defined(namespace, "loss", "Value")
    if not isinstance(loss, engine().Value):
        raise NotYet(f"`loss` should be a Value built from slope and intercept, but it is {loss!r}.")
    slope, intercept = parameter(namespace, "slope").data, parameter(namespace, "intercept").data
    expected = sum((slope * x + intercept - y) ** 2 for x, y in POINTS) / len(POINTS)
    if not math.isclose(loss.data, expected, rel_tol=1e-9, abs_tol=1e-300):
        raise NotYet(f"`loss` holds {loss.data:.3e}, but the mean squared error of the final slope and "
                     f"intercept is {expected:.3e}: it was built before the last update. Build the loss "
                     "once more after the loop, so it belongs to the slope and intercept you print.")


@needs(fitted_slope, fitted_intercept)
def learns_from_the_points(namespace):
    """the loop learns from `points`: on four points of y = −x + 2 it ends near −1 and 2"""
    again = run_again(namespace, points=OTHER_POINTS)
    found = parameter(again, "slope").data, parameter(again, "intercept").data
    if all(close(a, b, 1e-3) for a, b in zip(found, OTHER_LINE)):
        return
    first = parameter(namespace, "slope").data, parameter(namespace, "intercept").data
    said = (f"When the checks run your block again with points = {OTHER_POINTS} (on y = −x + 2), slope.data ends "
            f"at {found[0]!r} and intercept.data at {found[1]!r}, expected about -1 and 2")
    if found == first:
        raise NotYet(f"{said}: they stay where they were. They must come from training on `points`, not from "
                     "numbers typed in or a list of points of your own.")
    raise NotYet(f"{said}. Build the loss from `points` in every pass of the loop.")


def check(namespace):
    return run_checks(namespace, [fitted_slope, fitted_intercept, loss_of_the_final_parameters,
                                  learns_from_the_points])
