"""tinygrad.py: a tiny scalar engine for reverse-mode automatic differentiation.

What it is: one file, standard library only. A `Value` wraps a float and remembers
how it was computed, as a tuple of `(parent, local_derivative)` edges. Calling
`backward()` on a result walks those edges from the result back to the inputs and
leaves in every `grad` the derivative of the result with respect to that value.
On top of it sit a neuron, a multi-layer perceptron and two small training loops.

What it is not: a tensor library. Every number is its own Python object, so it is
meant for reading and for small experiments (a line, an XOR network), not speed.

Run `python3 tinygrad.py` to see the examples of the lesson printed.

The `--8<--` comments mark the sections that the lesson's pages quote.
"""
# --8<-- [start:value]
import itertools
import math
import random
from operator import attrgetter

next_creation_index = itertools.count().__next__  # numbers values in the order they are made


class Value:
    """A number that records the operations that produced it."""

    # Slots keep each node small and quick to create. When a node is freed,
    # CPython releases its slots in alphabetical order: `edges` before
    # `topological_order`. `backward()` relies on that; see its last comment.
    __slots__ = ("data", "grad", "edges", "creation_index", "topological_order")

    def __init__(self, data, edges=()):
        self.data = data if type(data) is float else Value.number(data)
        self.grad = 0.0
        self.edges = tuple(edges)  # pairs (parent, d self / d parent)
        self.creation_index = next_creation_index()

    @staticmethod
    def number(data):
        """`data` as a float, or a clear error for what is not a number."""
        if isinstance(data, (int, float)):  # bool is an int too
            return float(data)
        try:
            if isinstance(data, (str, bytes)):
                raise TypeError
            return float(data)  # also Fraction, Decimal, NumPy numbers
        except (TypeError, ValueError):
            raise TypeError(f"Value needs a number such as 3 or 2.5, not {data!r}") from None

    @staticmethod
    def wrap(value):
        """`value` itself if it is a Value, else a new leaf Value holding it."""
        if isinstance(value, Value):
            return value
        return Value(value)

    def __repr__(self):
        return f"Value(data={self.data!r}, grad={self.grad!r})"

    # Every primitive has the same shape: compute the result from the parents'
    # data, then record each parent with d(result)/d(parent) at these numbers.
    # A plain number such as the 2 in w * 2 is a constant: it enters the result
    # but gets no edge, because nothing asks for its gradient. (Value.wrap(2)
    # makes it a leaf with a gradient of its own.)
    def __add__(self, other):
        if isinstance(other, Value):
            return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))
        return Value(self.data + Value.number(other), ((self, 1.0),))

    def __mul__(self, other):
        if isinstance(other, Value):
            return Value(self.data * other.data, ((self, other.data), (other, self.data)))
        other = Value.number(other)
        return Value(self.data * other, ((self, other),))

    def __sub__(self, other):
        if isinstance(other, Value):
            return Value(self.data - other.data, ((self, 1.0), (other, -1.0)))
        return Value(self.data - Value.number(other), ((self, 1.0),))

    def __rsub__(self, other):  # 5 - w
        return Value(Value.number(other) - self.data, ((self, -1.0),))

    def __neg__(self):
        return Value(-self.data, ((self, -1.0),))

    def __pow__(self, exponent):
        if type(exponent) is not int or exponent < 1:
            raise ValueError(
                f"exponent must be a positive whole number such as 1, 2 or 3, not {exponent!r}: "
                "this engine supports only x ** n with n >= 1"
            )
        return Value(self.data**exponent, ((self, exponent * self.data ** (exponent - 1)),))

    def tanh(self):
        result = math.tanh(self.data)
        return Value(result, ((self, 1.0 - result * result),))
    # --8<-- [end:value]

    # --8<-- [start:operators]
    # With the plain number on the left (1 + w, 2 * w), Python asks the Value
    # on the right; order does not matter for + and *. sum() starts from 0.
    __radd__ = __add__
    __rmul__ = __mul__
    # --8<-- [end:operators]

    # --8<-- [start:backward]
    def backward(self):
        """Fill every reachable `grad` with d(self)/d(that value)."""
        # A node is always created after its parents, so sorting the graph by
        # creation puts every parent before its children: a topological order.
        order = sorted(self.ancestors(), key=attrgetter("creation_index"))
        for node in order:
            node.grad = 0.0
        self.grad = 1.0
        # Walking the order backwards finishes each node's gradient before it is
        # passed on. `+=` adds up the contributions of every path: in a * a,
        # both edges point at a.
        for node in reversed(order):
            grad = node.grad
            for parent, local_derivative in node.edges:
                parent.grad += grad * local_derivative
        # Keep the order (without self, the last) for the moment this graph is
        # freed. Freeing a node frees its parents, and theirs, one nested call
        # per level: a graph thousands of levels deep would overflow the small
        # stack of Python in WebAssembly. Because `edges` goes first, the list
        # then releases the nodes newest first, each one alone.
        order.pop()
        self.topological_order = order

    def ancestors(self):
        """The set of self and every value it was computed from."""
        # An explicit stack instead of recursion: a chain of a million
        # operations needs no deep Python call stack.
        found, stack = {self}, [self]
        while stack:
            for parent, _ in stack.pop().edges:
                if parent not in found:
                    found.add(parent)
                    stack.append(parent)
        return found
    # --8<-- [end:backward]


# --8<-- [start:mlp]
class Neuron:
    """Weighted sum of the inputs plus a bias, optionally passed through tanh."""

    def __init__(self, n_inputs, rng, nonlinear=True):
        self.weights = [Value(rng.uniform(-1.0, 1.0)) for _input in range(n_inputs)]
        self.bias = Value(0)
        self.nonlinear = nonlinear

    def __call__(self, inputs):
        activation = sum((weight * x for weight, x in zip(self.weights, inputs)), self.bias)
        return activation.tanh() if self.nonlinear else activation

    def parameters(self):
        return [*self.weights, self.bias]


class MLP:
    """Layers of neurons; every layer but the last uses tanh."""

    def __init__(self, sizes, seed=42):
        rng = random.Random(seed)
        last = len(sizes) - 2
        self.layers = [
            [Neuron(n_in, rng, nonlinear=index < last) for _ in range(n_out)]
            for index, (n_in, n_out) in enumerate(zip(sizes, sizes[1:]))
        ]

    def __call__(self, inputs):
        values = inputs
        for layer in self.layers:
            values = [neuron(values) for neuron in layer]
        return values

    def parameters(self):
        return [p for layer in self.layers for neuron in layer for p in neuron.parameters()]
# --8<-- [end:mlp]


# --8<-- [start:train_line]
def gradient_step(parameters, learning_rate):
    """Move each parameter a little against its gradient: p <- p - learning_rate * dL/dp."""
    for parameter in parameters:
        parameter.data = parameter.data - learning_rate * parameter.grad


def train_line(steps=1000, learning_rate=0.05):
    """Fit y = w*x + b to four points on y = 2x + 1 by gradient descent."""
    points = [(0, 1), (1, 3), (2, 5), (3, 7)]
    w, b = Value(-1), Value(0)
    for _ in range(steps):
        loss = sum((w * x + b - y) ** 2 for x, y in points) * (1 / len(points))
        loss.backward()  # clears the old gradients of this new graph first
        gradient_step((w, b), learning_rate)  # both gradients come from the same graph
    loss_after = sum((w.data * x + b.data - y) ** 2 for x, y in points) / len(points)
    return (w.data, b.data, loss_after)
# --8<-- [end:train_line]


# --8<-- [start:train_xor]
def train_xor(steps=1000, learning_rate=0.1):
    """Train a 2-4-1 network on XOR, with targets -1 (inputs equal) and +1 (inputs differ)."""
    xor_table = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    network = MLP(sizes=[2, 4, 1], seed=42)
    for _ in range(steps):
        loss = sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_table) * (1 / 4)
        loss.backward()
        gradient_step(network.parameters(), learning_rate)
    predictions = [network(inputs)[0].data for inputs, _ in xor_table]
    loss_after = sum((p - target) ** 2 for p, (_, target) in zip(predictions, xor_table)) / 4
    return predictions, loss_after
# --8<-- [end:train_xor]


# --8<-- [start:demo]
def demo():
    """Print the worked examples of the lesson."""
    w, b = Value(1), Value(0)
    loss = (w * 2 + b - 5) ** 2
    loss.backward()
    print("one example: loss", loss.data, "w.grad", w.grad, "b.grad", b.grad)

    a = Value(3)
    q = a * a + a
    q.backward()
    print("a*a + a at a = 3: a.grad", a.grad)

    w_fit, b_fit, line_loss = train_line()
    print(f"line: w = {w_fit:.4f}, b = {b_fit:.4f}, loss = {line_loss:.2e}")

    predictions, xor_loss = train_xor()
    print("xor predictions:", [round(p, 4) for p in predictions], f"loss = {xor_loss:.2e}")


if __name__ == "__main__":
    demo()
# --8<-- [end:demo]
