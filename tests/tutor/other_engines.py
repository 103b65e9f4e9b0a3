"""other_engines.py: engines other than the lesson's, as a reader might paste them into "Edit the engine".

What it is: the texts of engines for the tests of the engine check (tests/tutor/test_engine_edit.py)
and of the page (tests/site/test_edit_engine.py), all written here (none read from outside the
repository):
- `READERS_ENGINE`: an engine in another style that the check accepts: constants wrapped as leaves,
  subtraction and negation built from + and * (so y − 1 is three values more than the lesson's), a
  recursive depth-first order inside backward() and no topological_order().
- `MICROGRAD_STYLE`: an engine in the style of Karpathy's micrograd: each Value keeps its parents in
  `_prev` and a closure `_backward`, and has no `edges`; the lesson's names (MLP, gradient_step,
  train_line, train_xor) are there, so only what the site reads of a Value is missing.
- `MUTATED`: the lesson's engine changed in one way a reader might change it: Neuron renamed, the
  MLP's layers kept under another name, micrograd's layout (a Layer class holding `neurons`), a
  recursive topological order, edges kept as lists. Each must be either refused with a message naming
  what is missing, or keep every figure, show() and every exercise's check working.
What it is not: a test.
"""
from pathlib import Path

LESSON = (Path(__file__).resolve().parents[2] / "engine" / "tinygrad.py").read_text(encoding="utf-8")


def changed(text, *replacements):
    """`text` with each (old, new) replaced; every old must be there, so a changed engine fails loudly."""
    for old, new in replacements:
        assert old in text, f"the engine no longer holds {old!r}"
        text = text.replace(old, new)
    return text


READERS_ENGINE = '''\
"""A reader's own engine: every number becomes a Value, subtraction adds a negation."""
import math
import random


class Value:
    def __init__(self, data, edges=()):
        self.data = float(data)
        self.grad = 0.0
        self.edges = tuple(edges)

    @staticmethod
    def wrap(value):
        return value if isinstance(value, Value) else Value(value)

    def __add__(self, other):
        other = Value.wrap(other)
        return Value(self.data + other.data, ((self, 1.0), (other, 1.0)))

    def __mul__(self, other):
        other = Value.wrap(other)
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-Value.wrap(other))

    def __rsub__(self, other):
        return Value.wrap(other) + (-self)

    def __pow__(self, exponent):
        return Value(self.data ** exponent, ((self, exponent * self.data ** (exponent - 1)),))

    def tanh(self):
        output = math.tanh(self.data)
        return Value(output, ((self, 1.0 - output * output),))

    __radd__ = __add__
    __rmul__ = __mul__

    def backward(self):
        order, visited = [], set()

        def visit(node):
            if node not in visited:
                visited.add(node)
                for parent, _ in node.edges:
                    visit(parent)
                order.append(node)

        visit(self)
        for node in order:
            node.grad = 0.0
        self.grad = 1.0
        for node in reversed(order):
            for parent, local_derivative in node.edges:
                parent.grad += node.grad * local_derivative


class Neuron:
    def __init__(self, n_in, rng, nonlinear=True):
        self.weights = [Value(rng.uniform(-1, 1)) for _ in range(n_in)]
        self.bias = Value(0)
        self.nonlinear = nonlinear

    def __call__(self, inputs):
        total = sum((w * x for w, x in zip(self.weights, inputs)), self.bias)
        return total.tanh() if self.nonlinear else total

    def parameters(self):
        return self.weights + [self.bias]


class MLP:
    def __init__(self, sizes, seed=42):
        rng = random.Random(seed)
        self.layers = [[Neuron(n_in, rng, nonlinear=index < len(sizes) - 2) for _ in range(n_out)]
                       for index, (n_in, n_out) in enumerate(zip(sizes, sizes[1:]))]

    def __call__(self, inputs):
        for layer in self.layers:
            inputs = [neuron(inputs) for neuron in layer]
        return inputs

    def parameters(self):
        return [p for layer in self.layers for neuron in layer for p in neuron.parameters()]


def gradient_step(parameters, learning_rate):
    for parameter in parameters:
        parameter.data -= learning_rate * parameter.grad


def train_line(steps=1000, learning_rate=0.05):
    points = [(0, 1), (1, 3), (2, 5), (3, 7)]
    w, b = Value(-1), Value(0)
    for _ in range(steps):
        loss = sum((w * x + b - y) ** 2 for x, y in points) * 0.25
        loss.backward()
        gradient_step([w, b], learning_rate)
    return w.data, b.data, sum((w.data * x + b.data - y) ** 2 for x, y in points) / 4


def train_xor(steps=1000, learning_rate=0.1):
    table = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    network = MLP([2, 4, 1], seed=42)
    for _ in range(steps):
        loss = sum((network(x)[0] - y) ** 2 for x, y in table) * 0.25
        loss.backward()
        gradient_step(network.parameters(), learning_rate)
    predictions = [network(x)[0].data for x, _ in table]
    return predictions, sum((p - y) ** 2 for p, (_, y) in zip(predictions, table)) / 4
'''


MICROGRAD_STYLE = '''\
"""A micrograd-style engine: every Value keeps its parents and a closure that passes its gradient on."""
import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = float(data)
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, exponent):
        out = Value(self.data ** exponent, (self,), f"**{exponent}")

        def _backward():
            self.grad += exponent * self.data ** (exponent - 1) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)
        build_topo(self)
        for v in topo:
            v.grad = 0.0
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    __radd__ = __add__
    __rmul__ = __mul__


class MLP:
    def __init__(self, nouts, seed=42):
        rng = random.Random(seed)
        self.layers = [[([Value(rng.uniform(-1, 1)) for _ in range(n_in)], Value(0)) for _ in range(n_out)]
                       for n_in, n_out in zip(nouts, nouts[1:])]

    def __call__(self, inputs):
        for index, layer in enumerate(self.layers):
            totals = [sum((w * x for w, x in zip(weights, inputs)), bias) for weights, bias in layer]
            inputs = totals if index == len(self.layers) - 1 else [t.tanh() for t in totals]
        return inputs

    def parameters(self):
        return [p for layer in self.layers for weights, bias in layer for p in weights + [bias]]


def gradient_step(parameters, learning_rate):
    for p in parameters:
        p.data -= learning_rate * p.grad


def train_line(steps=1000, learning_rate=0.05, points=((0, 1), (1, 3), (2, 5), (3, 7))):
    w, b = Value(-1), Value(0)
    for _ in range(steps):
        loss = sum((w * x + b - y) ** 2 for x, y in points) * 0.25
        loss.backward()
        gradient_step((w, b), learning_rate)
    return w.data, b.data, sum((w.data * x + b.data - y) ** 2 for x, y in points) / 4


def train_xor(steps=1000, learning_rate=0.1, seed=42):
    table = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    model = MLP([2, 4, 1], seed)
    for _ in range(steps):
        loss = sum((model(x)[0] - y) ** 2 for x, y in table) * 0.25
        loss.backward()
        gradient_step(model.parameters(), learning_rate)
    predictions = [model(x)[0].data for x, _ in table]
    return predictions, sum((p - y) ** 2 for p, (_, y) in zip(predictions, table)) / 4
'''


MICROGRAD_LAYERS = '''
class Neuron:
    """A neuron as micrograd writes it: its own weights, drawn from `random`."""

    def __init__(self, n_in, nonlinear=True):
        self.w = [Value(random.uniform(-1.0, 1.0)) for _ in range(n_in)]
        self.b = Value(0)
        self.nonlinear = nonlinear

    def __call__(self, inputs):
        activation = sum((wi * xi for wi, xi in zip(self.w, inputs)), self.b)
        return activation.tanh() if self.nonlinear else activation

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, n_in, n_out, **kwargs):
        self.neurons = [Neuron(n_in, **kwargs) for _ in range(n_out)]

    def __call__(self, inputs):
        outputs = [neuron(inputs) for neuron in self.neurons]
        return outputs

    def parameters(self):
        return [p for neuron in self.neurons for p in neuron.parameters()]


class MLP:
    def __init__(self, sizes, seed=42):
        random.seed(seed)
        self.layers = [Layer(sizes[i], sizes[i + 1], nonlinear=i != len(sizes) - 2) for i in range(len(sizes) - 1)]

    def __call__(self, inputs):
        for layer in self.layers:
            inputs = layer(inputs)
        return inputs

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]
'''

RECURSIVE_ORDER = '''    def topological_order(self):
        """Self and every value it was computed from, each one after its parents (recursively)."""
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for parent, _ in node.edges:
                    visit(parent)
                order.append(node)

        visit(self)
        return order
'''


def between(text, start, end):
    """The part of `text` from the line `start` up to (not including) the line `end`."""
    first = text.index(start)
    return text[first:text.index(end, first)]


MUTATED = {
    "Neuron renamed": changed(LESSON, ("class Neuron:", "class Unit:"), ("[Neuron(n_in", "[Unit(n_in")),
    "MLP layers renamed": changed(LESSON, ("self.layers", "self.stages")),
    "micrograd's Layer holding neurons": changed(
        LESSON, (between(LESSON, "class Neuron:", "# --8<-- [end:mlp]"), MICROGRAD_LAYERS.lstrip())),
    "recursive topological order": changed(
        LESSON, (between(LESSON, "    def topological_order(self):", "    # --8<-- [end:backward]"), RECURSIVE_ORDER)),
    "edges as lists": changed(LESSON, ("self.edges = tuple(edges)", "self.edges = [list(edge) for edge in edges]")),
}
