"""Exercise (chapter "Build your own engine", step 2): negation, subtraction and the reflected operators.

What it is: the hints and solution of the block with exercise="own_operators" in docs/build-your-own.md;
its checks are step 2 of tutor.build_own.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step

HINTS = [
    "You need no new local derivatives: `-a` is `a * -1`, and `a - b` is `a + (-b)`. Build them from step 1 "
    "and the edges come for free.",
    "`5 - a` makes Python call `a.__rsub__(5)`: the number is `other`, so return `Value.wrap(other) - self`.",
    "With the number on the left, + and * give the same as with it on the right: "
    "`Value.__radd__ = Value.__add__` and `Value.__rmul__ = Value.__mul__`.",
]

SOLUTION = '''\
def __neg__(self):  # -a
    return self * -1


def __sub__(self, other):  # a - b
    return self + (-Value.wrap(other))


def __rsub__(self, other):  # 5 - a: Python calls a.__rsub__(5)
    return Value.wrap(other) - self


Value.__neg__ = __neg__
Value.__sub__ = __sub__
Value.__rsub__ = __rsub__
Value.__radd__ = Value.__add__  # 2 + a, and the 0 that sum() starts from
Value.__rmul__ = Value.__mul__  # 2 * a

if __name__ == "__main__":
    a = Value(3.0)
    print((5 - a).data, (2 * a).data, sum([a, a, a]).data)
'''


def check(namespace):
    return check_step(namespace, 2)
