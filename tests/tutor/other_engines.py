"""other_engines.py: engines other than the lesson's, as a reader might paste them into "Edit the engine".

What it is: the texts of engines for the tests of the engine check (tests/tutor/test_engine_edit.py)
and of the page (tests/site/test_edit_engine.py), all written here (none read from outside the
repository):
- `READERS_ENGINE`: an engine in another style that the check accepts, written in this project's own
  words (type hints, other names, the weighted sum as a loop): constants wrapped as leaves,
  subtraction and negation built from + and * (so y − 1 is three values more than the lesson's), a
  recursive depth-first order inside backward() and no topological_order(). It draws its starting
  weights as the lesson's engine does, so the exercises' solutions pass on it.
- `MICROGRAD_STYLE`: an engine in the style of Karpathy's micrograd: each Value keeps its parents in
  `_prev` and a closure `_backward`, and has no `edges`; the lesson's names (MLP, gradient_step,
  train_line, train_xor) are there, so only what the site reads of a Value is missing.
- `MICROGRAD` and `MICROGRAD_ROUNDS`: Karpathy's micrograd as a reader brings it (closures, `_prev` a
  set, Layer and MLP(nin, nouts), a backward() that does not zero the grads), then what the reader
  pastes after each refusal; only the last round is accepted.
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
"""A reader's own engine, written with type hints: every number becomes a Value, subtraction adds a negation."""
from __future__ import annotations

import math
import random


class Value:
    def __init__(self, data: float, edges: tuple = ()) -> None:
        self.data: float = float(data)
        self.grad: float = 0.0
        self.edges = tuple(edges)  # pairs: (the value it came from, d self / d that value)

    @staticmethod
    def wrap(number: Value | float) -> Value:
        if isinstance(number, Value):
            return number
        return Value(number)

    def __add__(self, other: Value | float) -> Value:
        right = Value.wrap(other)
        return Value(self.data + right.data, [(self, 1.0), (right, 1.0)])

    def __mul__(self, other: Value | float) -> Value:
        right = Value.wrap(other)
        return Value(self.data * right.data, [(self, right.data), (right, self.data)])

    def __neg__(self) -> Value:
        return self * -1

    def __sub__(self, other: Value | float) -> Value:
        return -Value.wrap(other) + self

    def __rsub__(self, other: Value | float) -> Value:
        return -self + Value.wrap(other)

    def __pow__(self, k: int) -> Value:
        return Value(self.data ** k, [(self, k * self.data ** (k - 1))])

    def tanh(self) -> Value:
        t = math.tanh(self.data)
        return Value(t, [(self, 1 - t * t)])

    __radd__ = __add__
    __rmul__ = __mul__

    def backward(self) -> None:
        finished: list[Value] = []
        visited: set[int] = set()

        def depth_first(v: Value) -> None:
            if id(v) in visited:
                return
            visited.add(id(v))
            for source, _ in v.edges:
                depth_first(source)
            finished.append(v)

        depth_first(self)
        for v in finished:
            v.grad = 0.0
        self.grad = 1.0
        for v in finished[::-1]:
            for source, rate in v.edges:
                source.grad += rate * v.grad


class Neuron:
    def __init__(self, fan_in: int, rng: random.Random, squash: bool = True) -> None:
        self.weights = [Value(rng.uniform(-1, 1)) for _ in range(fan_in)]
        self.bias = Value(0)
        self.squash = squash

    def __call__(self, xs: list) -> Value:
        z = self.bias
        for weight, x in zip(self.weights, xs):
            z = z + weight * x
        return z.tanh() if self.squash else z

    def parameters(self) -> list[Value]:
        return [*self.weights, self.bias]


class MLP:
    def __init__(self, sizes: list[int], seed: int = 42) -> None:
        rng = random.Random(seed)
        depth = len(sizes) - 1
        self.layers = []
        for k in range(depth):
            self.layers.append([Neuron(sizes[k], rng, squash=k < depth - 1) for _ in range(sizes[k + 1])])

    def __call__(self, xs: list) -> list[Value]:
        for layer in self.layers:
            xs = [unit(xs) for unit in layer]
        return xs

    def parameters(self) -> list[Value]:
        return [p for layer in self.layers for unit in layer for p in unit.parameters()]


def gradient_step(parameters: list[Value], learning_rate: float) -> None:
    for p in parameters:
        p.data = p.data - learning_rate * p.grad


def train_line(steps: int = 1000, learning_rate: float = 0.05) -> tuple:
    samples = [(0, 1), (1, 3), (2, 5), (3, 7)]
    w, b = Value(-1), Value(0)
    for _ in range(steps):
        mse = sum((w * x + b - y) ** 2 for x, y in samples) * 0.25
        mse.backward()
        gradient_step([w, b], learning_rate)
    return w.data, b.data, sum((w.data * x + b.data - y) ** 2 for x, y in samples) / 4


def train_xor(steps: int = 1000, learning_rate: float = 0.1) -> tuple:
    cases = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    net = MLP([2, 4, 1], seed=42)
    for _ in range(steps):
        mse = sum((net(x)[0] - y) ** 2 for x, y in cases) * 0.25
        mse.backward()
        gradient_step(net.parameters(), learning_rate)
    outputs = [net(x)[0].data for x, _ in cases]
    return outputs, sum((o - y) ** 2 for o, (_, y) in zip(outputs, cases)) / 4
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
    def __init__(self, sizes, seed=42, **neuron_options):
        random.seed(seed)
        self.layers = [Layer(sizes[i], sizes[i + 1], nonlinear=i != len(sizes) - 2, **neuron_options)
                       for i in range(len(sizes) - 1)]

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


# ---- A reader who learned from micrograd, round by round -----------------------------------------
# MICROGRAD: Karpathy's micrograd as a reader brings it (closures `_backward`, parents in the set
# `_prev`, a backward() that does not zero the grads, Neuron/Layer/MLP(nin, nouts), a network with one
# output returning that Value), with the lesson's training functions written its way. MICROGRAD_ROUNDS:
# what the reader pastes after each refusal, each round fixing what the last refusal named; the last
# is accepted.
MICROGRAD = '''\
"""micrograd, as a reader brings it: each Value keeps its children and a closure that passes its gradient on."""
import math
import random


class Value:
    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0
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

    def __pow__(self, other):
        out = Value(self.data ** other, (self,), f"**{other}")

        def _backward():
            self.grad += (other * self.data ** (other - 1)) * out.grad
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t ** 2) * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], set()
        stack = [(self, False)]
        while stack:
            v, done = stack.pop()
            if done:
                topo.append(v)
            elif v not in visited:
                visited.add(v)
                stack.append((v, True))
                stack.extend((child, False) for child in v._prev)
        self.grad = 1
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other ** -1

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"


class Module:
    def zero_grad(self):
        for p in self.parameters():
            p.grad = 0

    def parameters(self):
        return []


class Neuron(Module):
    def __init__(self, nin, nonlin=True):
        self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer(Module):
    def __init__(self, nin, nout, **kwargs):
        self.neurons = [Neuron(nin, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        out = [n(x) for n in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP(Module):
    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.layers for p in layer.parameters()]


def gradient_step(parameters, learning_rate):
    for p in parameters:
        p.data -= learning_rate * p.grad


def train_line(steps=1000, learning_rate=0.05):
    points = [(0, 1), (1, 3), (2, 5), (3, 7)]
    w, b = Value(-1), Value(0)
    for _ in range(steps):
        loss = sum((w * x + b - y) ** 2 for x, y in points) * (1 / len(points))
        w.grad = b.grad = 0
        loss.backward()
        gradient_step((w, b), learning_rate)
    return w.data, b.data, sum((w.data * x + b.data - y) ** 2 for x, y in points) / len(points)


def train_xor(steps=1000, learning_rate=0.1):
    table = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    random.seed(42)
    model = MLP(2, [4, 1])
    for _ in range(steps):
        loss = sum((model(x) - y) ** 2 for x, y in table) * (1 / 4)
        model.zero_grad()
        loss.backward()
        gradient_step(model.parameters(), learning_rate)
    predictions = [model(x).data for x, _ in table]
    return predictions, sum((p - y) ** 2 for p, (_, y) in zip(predictions, table)) / 4
'''

# Round 2: `wrap`, and `edges` as what micrograd has: the parents, from `_prev`.
EDGES_AS_PARENTS = changed(MICROGRAD, ('''    def __repr__(self):''', '''    @staticmethod
    def wrap(x):
        return x if isinstance(x, Value) else Value(x)

    @property
    def edges(self):
        return tuple(self._prev)

    def __repr__(self):'''))
# Round 3: each Value made with (parent, local derivative) pairs, kept in `edges`; backward() still runs the closures.
EDGES_AS_PAIRS = changed(
    EDGES_AS_PARENTS,
    ('''    def __init__(self, data, _children=(), _op=""):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self._prev = set(_children)''', '''    def __init__(self, data, edges=(), _op=""):
        self.data = data
        self.grad = 0
        self._backward = lambda: None
        self.edges = tuple(edges)
        self._prev = set(parent for parent, _ in self.edges)'''),
    ('''    @property
    def edges(self):
        return tuple(self._prev)

''', ""),
    ('(self, other), "+")', '((self, 1), (other, 1)), "+")'),
    ('(self, other), "*")', '((self, other.data), (other, self.data)), "*")'),
    ('(self,), f"**{other}")', '((self, other * self.data ** (other - 1)),), f"**{other}")'),
    ('(self,), "tanh")', '((self, 1 - t ** 2),), "tanh")'))
# Round 4: backward() follows `edges` (the closures stay, unused), but does not zero the grads first.
FOLLOWS_EDGES = changed(EDGES_AS_PAIRS, ('''        self.grad = 1
        for v in reversed(topo):
            v._backward()''', '''        self.grad = 1
        for v in reversed(topo):
            for parent, local in v.edges:
                parent.grad += local * v.grad'''))
# Round 5: backward() zeroes first; MLP is still micrograd's MLP(nin, nouts).
ZEROES_FIRST = changed(FOLLOWS_EDGES, ('''        self.grad = 1
        for v in reversed(topo):
            for''', '''        for v in topo:
            v.grad = 0
        self.grad = 1
        for v in reversed(topo):
            for'''))
# Round 6: MLP(sizes, seed); a network with one output still returns that Value, not a list.
SIZES_AND_SEED = changed(
    ZEROES_FIRST,
    ('''    def __init__(self, nin, nouts):
        sz = [nin] + nouts
        self.layers = [Layer(sz[i], sz[i + 1], nonlin=i != len(nouts) - 1) for i in range(len(nouts))]''',
     '''    def __init__(self, sizes, seed=42):
        random.seed(seed)
        self.layers = [Layer(sizes[i], sizes[i + 1], nonlin=i != len(sizes) - 2) for i in range(len(sizes) - 1)]'''),
    ('''    random.seed(42)
    model = MLP(2, [4, 1])''', '''    model = MLP([2, 4, 1], seed=42)'''))
# Round 7: every layer returns a list: accepted.
OUTPUTS_AS_LIST = changed(
    SIZES_AND_SEED,
    ("        return out[0] if len(out) == 1 else out", "        return out"),
    ("(model(x) - y) ** 2", "(model(x)[0] - y) ** 2"), ("model(x).data", "model(x)[0].data"))
MICROGRAD_ROUNDS = [MICROGRAD, EDGES_AS_PARENTS, EDGES_AS_PAIRS, FOLLOWS_EDGES, ZEROES_FIRST, SIZES_AND_SEED,
                    OUTPUTS_AS_LIST]
