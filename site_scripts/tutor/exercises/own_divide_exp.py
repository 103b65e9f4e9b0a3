"""Exercise (chapter "Build your own engine", step 6): division and exp, checked against nudged inputs.

What it is: the hints and solution of the block with exercise="own_divide_exp" in docs/build-your-own.md;
its checks are step 6 of tutor.build_own.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step

HINTS = [
    "a / b moves with a at the rate 1/b: the edge to `self` carries `1 / other.data`.",
    "For b, the quotient falls as b grows: the edge to `other` carries `-self.data / other.data ** 2`.",
    "The slope of exp is exp itself, which you already have: `Value(result, ((self, result),))`.",
]

SOLUTION = '''\
def __truediv__(self, other):  # a / b
    other = Value.wrap(other)
    return Value(self.data / other.data,
                 ((self, 1 / other.data), (other, -self.data / other.data ** 2)))


def __rtruediv__(self, other):  # 1 / a: Python calls a.__rtruediv__(1)
    return Value.wrap(other) / self


def exp(self):
    result = math.exp(self.data)
    return Value(result, ((self, result),))


Value.__truediv__ = __truediv__
Value.__rtruediv__ = __rtruediv__
Value.exp = exp

if __name__ == "__main__":
    x, h = 0.7, 1e-6
    point = Value(x)
    (point.exp() / (point + 1)).backward()
    f = lambda t: math.exp(t) / (t + 1)  # the same function, with plain numbers
    print("backward:", point.grad, " nudging:", (f(x + h) - f(x - h)) / (2 * h))
'''


def check(namespace):
    return check_step(namespace, 6)
