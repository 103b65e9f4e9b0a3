"""Exercise (chapter "Derivatives, three ways"): the gradient of x · x · x, by hand.

What it is: the hidden checks, hints and solution of the block with exercise="cube_by_hand" in
docs/derivatives.md. The reader sends dq/dq = 1 back through two multiplications, adding the
contribution of every path, and must arrive at dq/dx = 3·x²; the checks run the block again at x = 3,
so that a number typed in instead of computed does not pass.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from . import NotYet, checked_again, close, needs, number, run_checks

OTHER_X = 3.0  # the checks also run the block at this x, so that a number typed in does not pass

HINTS = [
    "Work from q backwards. q = square * x is a product, so `square_grad` gets q_grad times the "
    "other operand: `square_grad += q_grad * x`.",
    "x is also the right operand of q = square * x. That path adds `q_grad * square` to `x_grad`.",
    "square = x * x uses x twice, like the block above: two more contributions, each "
    "`square_grad * x`. Three paths in all; at x = 2 they add up to 3 · 2² = 12.",
]

SOLUTION = '''\
x = 2.0
square = x * x                        # first multiplication
q = square * x                        # second multiplication: q = x * x * x

q_grad = 1.0                          # dq/dq
square_grad = 0.0
x_grad = 0.0
square_grad += q_grad * x             # q = square * x: d(q)/d(square) = x
x_grad += q_grad * square             # ... and d(q)/dx = square
x_grad += square_grad * x             # square = x * x: the path through the left operand
x_grad += square_grad * x             # ... and through the right operand
print("q =", q, " dq/d(square) =", square_grad, " dq/dx =", x_grad)
'''


def square_gradient_at(namespace):
    x = number(namespace, "x")
    found = number(namespace, "square_grad")
    if not close(found, x):
        raise NotYet(f"`square_grad` is {found!r}, expected {x!r}. In q = square * x the local "
                     "derivative for square is the other operand, x, times q_grad = 1.")


def input_gradient_at(namespace):
    x = number(namespace, "x")
    expected = 3 * x * x
    found = number(namespace, "x_grad")
    if not close(found, expected):
        raise NotYet(f"`x_grad` is {found!r}, expected 3·x² = {expected!r} at x = {x!r}. x reaches q "
                     "along three paths: once directly through q = square * x, and twice through "
                     "square = x * x. Add one contribution per path.")


def at_another_x(namespace, name, check_at):
    """check_at on the reader's block, then on the block run again at another x: a number typed in stays."""
    other = OTHER_X if number(namespace, "x") != OTHER_X else -OTHER_X
    checked_again(namespace, name, check_at, "x and the values of the block", x=other)


def square_gradient(namespace):
    """square_grad is dq/d(square)"""
    at_another_x(namespace, "square_grad", square_gradient_at)


@needs(square_gradient)
def input_gradient(namespace):
    """x_grad is dq/dx = 3·x²"""
    at_another_x(namespace, "x_grad", input_gradient_at)


def check(namespace):
    return run_checks(namespace, [square_gradient, input_gradient])
