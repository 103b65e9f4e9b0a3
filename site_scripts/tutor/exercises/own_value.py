"""Exercise (chapter "Build your own engine", step 1): the reader's own Value, with + and * and their edges.

What it is: the hints and solution of the block with exercise="own_value" in docs/build-your-own.md;
its checks are step 1 of tutor.build_own (each check's words are there).
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step

HINTS = [
    "In `__init__`, one line: `self.edges = tuple(edges)`.",
    "An edge is a pair (parent, local derivative). For a sum, nudging either parent by a little moves the "
    "result by just as much: `Value(self.data + other.data, [(self, 1.0), (other, 1.0)])`.",
    "For a product, the slope towards `self` is the other factor: `((self, other.data), (other, self.data))`. "
    "Keep both pairs even when `self` and `other` are the same Value, as in `a * a`.",
]

SOLUTION = '''\
"""tinygrad.py: my own engine, written step by step in the lesson's chapter "Build your own engine".

What it is: a Value that remembers how it was computed, with backward() to fill in every gradient,
and a small network trained on XOR. What it is not: fast; every number is its own Python object.
"""
import math
import random


class Value:
    """A number that remembers how it was computed."""

    def __init__(self, data, edges=()):
        self.data = float(data)
        self.grad = 0.0
        self.edges = tuple(edges)  # pairs (parent, local derivative)

    @staticmethod
    def wrap(value):
        """`value` itself if it is a Value, else a new Value holding the number."""
        if isinstance(value, Value):
            return value
        return Value(value)

    def __repr__(self):
        return f"Value(data={self.data!r}, grad={self.grad!r})"

    def __add__(self, other):
        other = Value.wrap(other)
        return Value(self.data + other.data, [(self, 1.0), (other, 1.0)])

    def __mul__(self, other):
        other = Value.wrap(other)
        return Value(self.data * other.data, ((self, other.data), (other, self.data)))


if __name__ == "__main__":
    a = Value(3.0)
    b = a * a + 2
    print(b.data, "computed from", len(b.edges), "parents")
'''


def check(namespace):
    return check_step(namespace, 1)
