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
import math
import random


class Value:
    """A number that records the operations that produced it."""

    def __init__(self, data, edges=()):
        try:
            self.data = data.__float__()  # every kind of number has it; text such as "3" has not
        except AttributeError:
            raise TypeError(f"Value needs a number such as 3 or 2.5, not {data!r}") from None
        self.grad = 0.0
        self.edges = tuple(edges)  # pairs (parent, d self / d parent)

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
    def __add__(self, other):
        other = Value.wrap(other)
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = Value.wrap(other)
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))

    def __sub__(self, other):
        other = Value.wrap(other)
        return Value(self.data - other.data, ((self, 1.0), (other, -1.0)))

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
    # With the plain number on the left (2 * w, 5 - w, and the 0 that sum()
    # starts from), Python asks the Value on the right. Order does not matter
    # for + and *; for - it does.
    __radd__ = __add__
    __rmul__ = __mul__

    def __rsub__(self, other):  # 5 - w
        return Value.wrap(other) - self
    # --8<-- [end:operators]

    # --8<-- [start:backward]
    # --8<-- [start:backward_walk]
    def backward(self):
        """Fill every reachable `grad` with d(self)/d(that value)."""
        order = self.topological_order()
        for node in order:
            node.grad = 0.0
        self.grad = 1.0
        # Backwards through the order, from self towards the inputs: each node's
        # gradient is complete before the node passes it on. `+=` adds up every
        # path: in a * a, both edges point at a.
        for node in reversed(order):
            for parent, derivative in node.edges:
                parent.grad += node.grad * derivative
        # --8<-- [end:backward_walk]
        self.keep_order_for_freeing(order)

    # --8<-- [start:topological_order]
    def topological_order(self):
        """Self and every value it was computed from, each one after its parents."""
        # Depth first, with a list as the stack instead of recursion, so that a
        # chain of a million operations needs no deep call stack. A node goes on
        # the stack once per edge that points at it; the first time it comes off,
        # its parents go on above it (later times are skipped), and once they are
        # all in `order` it comes off a last time, flagged, to join `order` itself.
        order, seen = [], set()
        stack = [(self, False)]
        while stack:
            node, parents_done = stack.pop()
            if parents_done:
                order.append(node)
            elif node not in seen:
                seen.add(node)
                stack.append((node, True))
                for parent, _ in node.edges:
                    stack.append((parent, False))
        return order
    # --8<-- [end:topological_order]
    # --8<-- [end:backward]

    # --8<-- [start:freeing]
    # ---- Freeing a deep graph: only Python in the browser needs this ----------
    # When Python frees a value, the value lets go of its parents, which may free
    # them in turn, and theirs: one nested call per level of the graph. A desktop
    # Python copes with a million levels. Python in the browser runs inside
    # WebAssembly, whose stack is small: a few thousand levels crash it.
    # So backward() leaves its order on self. Python empties the slots below in
    # alphabetical order, so a dying self lets go of `edges` before
    # `order_for_freeing`; that list still holds every other node, and a list
    # lets go of its items from the end, newest first. Each node then dies alone,
    # while the list still holds its parents: no nesting at all.
    # (A deep graph dropped without ever calling backward() gets no such help.)
    __slots__ = ("data", "grad", "edges", "order_for_freeing")

    def keep_order_for_freeing(self, order):
        self.order_for_freeing = order[:-1]  # without self, the last: self must not hold itself
    # --8<-- [end:freeing]


# --8<-- [start:mlp]
class Neuron:
    """Weighted sum of the inputs plus a bias, optionally passed through tanh."""

    def __init__(self, n_in, rng, nonlinear=True):
        self.weights = [Value(rng.uniform(-1.0, 1.0)) for _input in range(n_in)]
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
        values = [Value.wrap(x) for x in inputs]  # leaves, shared by the first layer's neurons
        for layer in self.layers:
            values = [neuron(values) for neuron in layer]
        return values

    def parameters(self):
        return [p for layer in self.layers for neuron in layer for p in neuron.parameters()]
# --8<-- [end:mlp]


# --8<-- [start:train_line]
# --8<-- [start:gradient_step]
def gradient_step(parameters, learning_rate):
    """Move each parameter a little against its gradient: p <- p - learning_rate * dL/dp."""
    for parameter in parameters:
        parameter.data = parameter.data - learning_rate * parameter.grad
# --8<-- [end:gradient_step]


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
    # rounded: the last bits of tanh differ between machines (and in the browser's WebAssembly)
    print("xor predictions:", [round(p, 4) for p in predictions], "loss =", round(xor_loss, 12))


if __name__ == "__main__":
    demo()
# --8<-- [end:demo]
