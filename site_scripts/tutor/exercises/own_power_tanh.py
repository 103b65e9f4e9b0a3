"""Exercise (chapter "Build your own engine", step 3): powers with whole exponents from 1, and tanh.

What it is: the hints and solution of the block with exercise="own_power_tanh" in docs/build-your-own.md;
its checks are step 3 of tutor.build_own.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step

HINTS = [
    "Both are new primitives, so each needs one edge back to `self`: "
    "`Value(result, ((self, local_derivative),))`.",
    "The power rule: the slope of x ** n is n · x ** (n - 1), so "
    "`local_derivative = exponent * self.data ** (exponent - 1)`.",
    "The slope of tanh at x is 1 - tanh(x)², and you already have tanh(x) in `result`: "
    "`local_derivative = 1 - result ** 2`.",
]

SOLUTION = '''\
def __pow__(self, exponent):  # a ** 3
    if type(exponent) is not int or exponent < 1:
        raise ValueError(f"exponent must be a whole number from 1, such as 2 or 3, not {exponent!r}")
    local_derivative = exponent * self.data ** (exponent - 1)
    return Value(self.data ** exponent, ((self, local_derivative),))


def tanh(self):
    result = math.tanh(self.data)
    return Value(result, ((self, 1 - result ** 2),))


Value.__pow__ = __pow__
Value.tanh = tanh

if __name__ == "__main__":
    a = Value(0.5)
    print((a ** 3).edges[0][1], a.tanh().edges[0][1])  # 3 · 0.5², 1 - tanh(0.5)²
'''


def check(namespace):
    return check_step(namespace, 3)
