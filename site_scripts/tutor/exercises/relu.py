"""Exercise (chapter "Building the engine"): add relu() to Value, with its local derivative.

What it is: the hidden checks, hints and solution of the block with exercise="relu" in
docs/engine.md. The reader writes `relu(self)`, which returns a new Value holding max(0, z) with one
edge back to z, and attaches it to the class (`Value.relu = relu`). The checks call the reader's
`relu` on fresh Values of the engine and run backward() through it.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from . import NotYet, close, defined, engine, needs, run_checks

HINTS = [
    "Follow the shape of `tanh` in the engine: compute the result from `self.data`, then return "
    "`Value(result, ((self, local_derivative),))`.",
    "relu(z) is z itself where z > 0, so its slope there is 1; where z < 0 it is the constant 0, "
    "whose slope is 0.",
    "`local_derivative = 1.0 if self.data > 0 else 0.0`. (At exactly z = 0 relu has no derivative; "
    "0 is the usual choice.)",
]

SOLUTION = '''\
from tinygrad import Value


def relu(self):
    """max(0, z) as a new Value, with an edge back to z carrying the local derivative."""
    result = max(0.0, self.data)
    local_derivative = 1.0 if self.data > 0 else 0.0
    return Value(result, ((self, local_derivative),))


Value.relu = relu                     # every Value now has .relu(), like .tanh()

for z in (Value(2.0), Value(-3.0)):
    out = z.relu() * 3
    out.backward()
    print(f"z = {z.data}: relu(z) = {max(0.0, z.data)}, d(3·relu(z))/dz = {z.grad}")
'''


def gradient_through_relu(namespace, start):
    """(relu(z).data, dz of 3·relu(z)) for z = Value(start), using the reader's relu."""
    relu = defined(namespace, "relu", "a function")
    Value = engine().Value
    z = Value(start)
    result = relu(z)
    if not isinstance(result, Value):
        raise NotYet(f"relu(Value({start})) returned {result!r}; it should return a new Value.")
    (result * 3).backward()
    return result.data, z.grad


def positive_input(namespace):
    """relu(z) passes z and its gradient through where z > 0"""
    data, gradient = gradient_through_relu(namespace, 2.5)
    if not close(data, 2.5):
        raise NotYet(f"relu(Value(2.5)) holds {data!r}, expected 2.5: relu keeps positive numbers.")
    if not close(gradient, 3.0):
        raise NotYet(f"After (3 · relu(z)).backward() at z = 2.5, z.grad is {gradient!r}, expected 3.0: "
                     "the local derivative of relu is 1 where z > 0.")


def negative_input(namespace):
    """relu(z) is 0, with gradient 0, where z < 0"""
    data, gradient = gradient_through_relu(namespace, -1.5)
    if not close(data, 0.0):
        raise NotYet(f"relu(Value(-1.5)) holds {data!r}, expected 0.0.")
    if not close(gradient, 0.0):
        raise NotYet(f"After (3 · relu(z)).backward() at z = -1.5, z.grad is {gradient!r}, expected 0.0: "
                     "relu is flat where z < 0.")


@needs(positive_input, negative_input)
def inside_an_expression(namespace):
    """relu works inside a larger expression"""
    relu = defined(namespace, "relu", "a function")
    a = engine().Value(0.5)
    out = relu(a * a - 1) + relu(a * 4)  # the first relu is off (-0.75), the second on (2.0)
    out.backward()
    if not close(a.grad, 4.0):
        raise NotYet(f"For relu(a·a − 1) + relu(4·a) at a = 0.5, a.grad is {a.grad!r}, expected 4.0 "
                     "(0 through the first relu, which is off, and 4 through the second).")


def check(namespace):
    return run_checks(namespace, [positive_input, negative_input, inside_an_expression])
