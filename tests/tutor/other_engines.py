"""other_engines.py: engines other than the lesson's, as a reader might paste them into "Edit the engine".

What it is: the texts of two engines for the tests of the engine check (tests/tutor/test_engine_edit.py)
and of the page (tests/site/test_edit_engine.py).
- `article_engine()`: the reference article's own engine, assembled from the code listings of its text
  (constants wrapped as leaves, subtraction and negation built from + and *, a recursive depth-first
  order), completed as a reader would to pass the check: `gradient_step`, and `ancestors`, which the
  check once asked for. The article is read from $REFERENCE_ARTICLE, by default
  /work/shared/reference/article.txt; a test skips when it is not there (its text is not copied into
  this repository).
- `MICROGRAD_STYLE`: an engine in the style of Karpathy's micrograd, written here: each Value keeps
  its parents in `_prev` and a closure `_backward`, and has no `edges`; the lesson's names (MLP,
  gradient_step, train_line, train_xor) are there, so only what the site reads of a Value is missing.
What it is not: a test.
"""
import os
from pathlib import Path

import pytest

REFERENCE_ARTICLE = Path(os.environ.get("REFERENCE_ARTICLE", "/work/shared/reference/article.txt"))

# Each listing of the article's engine by its first and last line, in the order of the file.
ARTICLE_LISTINGS = [
    ("import math", "        return Value(output, ((self, 1.0 - output * output),))"),
    ("    def __neg__(self):", "    __rmul__ = __mul__"),
    ("    def backward(self):", "                parent.grad += node.grad * local_derivative"),
    ("import random", "                for p in neuron.parameters()]"),
    ("def train_line(steps=1000, learning_rate=0.05):", "    return w.data, b.data, final_loss"),
    ("def train_xor(steps=1000, learning_rate=0.1):", "    return predictions, final_loss"),
]

# What the reader of the issue added so that the check accepted the article's engine.
ANCESTORS = '''
    def ancestors(self):
        found, stack = {self}, [self]
        while stack:
            for parent, _ in stack.pop().edges:
                if parent not in found:
                    found.add(parent)
                    stack.append(parent)
        return found
'''
GRADIENT_STEP = '''
def gradient_step(parameters, learning_rate):
    for parameter in parameters:
        parameter.data = parameter.data - learning_rate * parameter.grad
'''


def listing(lines, first, last):
    """The lines of the article from `first` to `last`, both included."""
    start = lines.index(first)
    return "\n".join(lines[start:lines.index(last, start) + 1])


def article_engine():
    """The article's engine as one module's text; skips the test when the article is not available."""
    if not REFERENCE_ARTICLE.is_file():
        pytest.skip(f"the reference article is not at {REFERENCE_ARTICLE} (set REFERENCE_ARTICLE)")
    lines = REFERENCE_ARTICLE.read_text(encoding="utf-8").splitlines()
    parts = [listing(lines, first, last) for first, last in ARTICLE_LISTINGS]
    methods_end = 3  # the first three listings make the class Value
    return "\n\n".join(parts[:methods_end]) + "\n" + ANCESTORS + "\n\n" + "\n\n\n".join(parts[methods_end:]) + \
        "\n\n" + GRADIENT_STEP


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
