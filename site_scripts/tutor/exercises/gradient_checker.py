"""Exercise (chapter "Checking the engine"): a finite-difference checker for any function.

What it is: the hidden checks, hints and solution of the block with exercise="gradient_checker" in
docs/checking.md. The reader writes `compare_derivatives(function, x, h=1e-5)`, returning the
engine's derivative (backward() through a Value) and a central-difference estimate (plain floats).
One check hands it a function whose engine derivative is deliberately wrong: a checker that works
must then report two different numbers. Another passes a large h, at which a forward difference, or
an estimate that ignores h, is far from the central difference.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from . import NotYet, close, defined, engine, needs, run_checks

HINTS = [
    "For the engine's number: `point = Value(x)`, then `function(point).backward()`; the derivative "
    "is now in `point.grad`.",
    "For the estimate, call the function with plain floats on both sides of x: "
    "`(function(x + h) - function(x - h)) / (2 * h)`.",
    "Return both, engine first: `return point.grad, estimate`.",
]

SOLUTION = '''\
from tinygrad import Value


def compare_derivatives(function, x, h=1e-5):
    """d function / dx at x twice: (from the engine's backward(), from a central difference).
    `function` uses only operations that floats and Values both have, such as + - * **."""
    point = Value(x)
    function(point).backward()
    engine_derivative = point.grad
    estimate = (function(x + h) - function(x - h)) / (2 * h)
    return engine_derivative, estimate


print(compare_derivatives(lambda t: t * t * t + 2 * t, 1.5))   # both should be about 8.75
'''


def both_derivatives(namespace, function, x, **h):
    """The reader's (engine, estimate) for `function` at x, checked to be a pair of numbers."""
    compare = defined(namespace, "compare_derivatives", "a function")
    result = compare(function, x, **h)
    try:
        engine_derivative, estimate = (float(part) for part in result)
    except (TypeError, ValueError):
        raise NotYet(f"compare_derivatives should return two numbers (engine, estimate), "
                     f"but it returned {result!r}.") from None
    return engine_derivative, estimate


def engine_part(namespace):
    """the engine's derivative of t·t·t + 2·t at t = 1.5 is 8.75"""
    found, _ = both_derivatives(namespace, lambda t: t * t * t + 2 * t, 1.5)
    if not close(found, 8.75, 1e-9):
        raise NotYet(f"The first number returned is {found!r}, expected 8.75 (3·t² + 2 at t = 1.5). "
                     "Build the function from a Value and call backward() on the result.")


def cube(t):
    return t * t * t


def estimate_part(namespace):
    """the estimate is the central difference (f(x + h) − f(x − h)) / 2h, with the h it is given"""
    x, h = 1.0, 0.1  # a large h, so that other differences are far from the central one
    _, found = both_derivatives(namespace, cube, x, h=h)
    central = (cube(x + h) - cube(x - h)) / (2 * h)
    if close(found, central, 1e-9):
        return
    expected = (f"With h = {h} the estimate for t·t·t at t = {x} should be (f({x + h:g}) − f({x - h:g})) / {2 * h:g} "
                f"= {central:.6g}, but your function returned {found!r}.")
    if close(found, (cube(x + h) - cube(x)) / h, 1e-9):
        raise NotYet(f"{expected} That is the forward difference (f(x + h) − f(x)) / h: take one point on each side "
                     "of x, x − h and x + h, and divide by the distance between them, 2h.")
    if close(found, (cube(x) - cube(x - h)) / h, 1e-9):
        raise NotYet(f"{expected} That is the backward difference (f(x) − f(x − h)) / h: take one point on each "
                     "side of x, x − h and x + h, and divide by the distance between them, 2h.")
    if close(found, 3 * x * x, 1e-6):
        raise NotYet(f"{expected} That is the exact slope, so your estimate does not use h: nudge x by the h the "
                     "function is given.")
    raise NotYet(f"{expected} Evaluate the function at x + h and at x − h with plain floats.")


def square_with_a_wrong_derivative(t):
    """t · t, but a Value gets the local derivative 3·t instead of 2·t: a bug for the checker to catch."""
    Value = engine().Value
    if isinstance(t, Value):
        return Value(t.data * t.data, ((t, 3 * t.data),))
    return t * t


@needs(engine_part, estimate_part)
def catches_a_bug(namespace):
    """it tells a wrong engine derivative from the estimate"""
    engine_derivative, estimate = both_derivatives(namespace, square_with_a_wrong_derivative, 2.0)
    if not (close(engine_derivative, 6.0, 1e-9) and close(estimate, 4.0, 1e-4)):
        raise NotYet(f"For t·t whose Value version has a wrong local derivative (3·t instead of 2·t), "
                     f"at t = 2 the engine should say 6.0 and the estimate about 4.0; your function "
                     f"returned ({engine_derivative!r}, {estimate!r}). The two numbers must be computed "
                     "independently: one with a Value and backward(), the other with plain floats.")


def check(namespace):
    return run_checks(namespace, [engine_part, estimate_part, catches_a_bug])
