"""Exercise (chapter "Training a line and an XOR network"): fit y = 3x − 2 with a loop of your own.

What it is: the hidden checks, hints and solution of the block with exercise="fit_new_line" in
docs/training.md. train_line only knows the points of y = 2x + 1, so the reader completes a loop
that builds the mean squared error of four points on y = 3x − 2, calls backward() and updates
`slope` and `intercept` with gradient_step.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..widgets.graph_trace import values_in_order
from . import NotYet, close, defined, engine, run_checks

HINTS = [
    "Each pass of the loop needs the two steps train_line takes after building the loss: the "
    "backward pass, then the update.",
    "`loss.backward()` fills `slope.grad` and `intercept.grad`.",
    "Then `gradient_step((slope, intercept), 0.05)` moves both parameters against their gradients.",
]

SOLUTION = '''\
from tinygrad import Value, gradient_step

points = [(0, -2), (1, 1), (2, 4), (3, 7)]       # four points on y = 3x - 2
slope, intercept = Value(0), Value(0)
for step in range(500):
    loss = sum((slope * x + intercept - y) ** 2 for x, y in points) * (1 / len(points))
    loss.backward()
    gradient_step((slope, intercept), 0.05)
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
    if not close(found, 3.0, 1e-3):
        raise NotYet(f"slope.data is {found!r}, expected about 3 (within 0.001). Does every pass of the "
                     "loop call loss.backward() and then update the parameters?")


def fitted_intercept(namespace):
    """intercept ends near −2"""
    found = parameter(namespace, "intercept").data
    if not close(found, -2.0, 1e-3):
        raise NotYet(f"intercept.data is {found!r}, expected about -2 (within 0.001). Update it in the "
                     "same step as the slope, from the same loss.")


def trained_by_the_loss(namespace):
    """the last loss was computed from slope and intercept"""
    loss = defined(namespace, "loss", "Value")
    if not isinstance(loss, engine().Value):
        raise NotYet(f"`loss` should be the Value the loop built last, but it is {loss!r}.")
    in_graph = set(values_in_order(loss))
    missing = [name for name in ("slope", "intercept") if parameter(namespace, name) not in in_graph]
    if missing:
        raise NotYet(f"The last `loss` does not depend on {' and '.join(missing)}: build it from "
                     "slope * x + intercept, as the loop in the block does.")


def check(namespace):
    return run_checks(namespace, [fitted_slope, fitted_intercept, trained_by_the_loss])
