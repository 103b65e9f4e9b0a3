"""random_expressions.py: random expressions of the reader's operations, checked against central differences.

What it is: every step ends with check_random_expressions(namespace, step, use_backward): random
formulas of x, y, z made of every operation written so far (OPERATIONS, by step), computed with the
reader's Values and with plain floats; the value must match, and each gradient (from the checks' own
walk, or from the reader's backward() from step 5 on) must match central differences,
(f(x + h) - f(x - h)) / 2h with h = NUDGE. When the reader's backward() is wrong but their edges are
right, the message says so (and names the slip when it recognises it).
What it is not: the checks of one operation (the step modules).
"""
import math
import random

from ..exercises import NotYet, close
from .reading import attempt, backward_slip, data_of, gradients, new_value


NUDGE = 1e-6  # the h of the central differences (f(x + h) - f(x - h)) / 2h
# (name, operands, text, with Values, with floats). A Value on the left or on the right of a number.
OPERATIONS = {
    1: [("add", 2, "({} + {})", lambda a, b: a + b),
        ("mul", 2, "({} * {})", lambda a, b: a * b),
        ("add a number", 1, "({} + 1.5)", lambda a: a + 1.5),
        ("mul by a number", 1, "({} * 0.5)", lambda a: a * 0.5)],
    2: [("neg", 1, "(-{})", lambda a: -a),
        ("sub", 2, "({} - {})", lambda a, b: a - b),
        ("rsub", 1, "(2 - {})", lambda a: 2 - a),
        ("radd", 1, "(1 + {})", lambda a: 1 + a),
        ("rmul", 1, "(3 * {})", lambda a: 3 * a)],
    3: [("square", 1, "{}**2", lambda a: a ** 2),
        ("cube", 1, "{}**3", lambda a: a ** 3),
        ("tanh", 1, "tanh({})", None)],
    6: [("div", 2, "({} / {})", lambda a, b: a / b),
        ("rdiv", 1, "(1 / {})", lambda a: 1 / a),
        ("exp", 1, "exp({})", None)],
}
FLOAT_FUNCTIONS = {"tanh": math.tanh, "exp": math.exp}


def operations_up_to(step):
    return [operation for number, operations in OPERATIONS.items() if number <= step for operation in operations]


def apply(operation, operands):
    name, _, _, function = operation
    if function is not None:
        return function(*operands)
    first = operands[0]
    if isinstance(first, float):
        return FLOAT_FUNCTIONS[name](first)
    return getattr(first, name)()


def random_program(rng, step):
    """A random expression of the inputs x, y, z: (inputs, [(operation, operand indices), ...]). Its numbers
    stay moderate (no overflow, no division by almost 0), values are reused (paths meet) and the last
    one depends on all three inputs."""
    operations = operations_up_to(step)
    while True:
        inputs = [round(rng.uniform(-1.5, 1.5), 2) for _ in range(3)]
        program, values, uses = [], list(inputs), [{0}, {1}, {2}]
        for _ in range(rng.randint(3, 7)):
            operation = rng.choice(operations)
            indices = [rng.randrange(len(values)) for _ in range(operation[1])]
            if operation[0] in ("div", "rdiv") and abs(values[indices[-1]]) < 0.3:
                continue
            result = apply(operation, [values[index] for index in indices])
            if not abs(result) < 30:
                continue
            program.append((operation, indices))
            values.append(result)
            uses.append(set().union(*(uses[index] for index in indices)))
        if program and uses[-1] == {0, 1, 2}:
            return inputs, program


def run_program(program, inputs, make=float):
    values = [make(x) for x in inputs]
    for operation, indices in program:
        values.append(apply(operation, [values[index] for index in indices]))
    return values


def program_text(program):
    texts = ["x", "y", "z"]
    for (_, _, text, _), indices in program:
        texts.append(text.format(*(texts[index] for index in indices)))
    outer = program[-1][0][2]
    return texts[-1][1:-1] if outer.startswith("(") and outer.endswith(")") else texts[-1]


def check_random_expressions(namespace, step, use_backward, count=12, seed=2026):
    rng = random.Random(seed + step)
    for _ in range(count):
        inputs, program = random_program(rng, step)
        formula = program_text(program)
        at = ", ".join(f"{name} = {x}" for name, x in zip("xyz", inputs))
        leaves = [new_value(namespace, x) for x in inputs]
        root = attempt(f"f = {formula} with Values", lambda: run_program(program, leaves, make=lambda leaf: leaf)[-1],
                       "compute it like the same formula with plain numbers")
        expected = run_program(program, inputs)[-1]
        if not close(data_of(root, f"f = {formula}"), expected, 1e-9):
            raise NotYet(f"For f = {formula} at {at}, your Value holds {root.data!r}, expected {expected!r}.")
        found = gradients(root, leaves, use_backward)
        estimates = [nudged_slope(program, inputs, index) for index in range(3)]
        for index, name in enumerate("xyz"):
            if not close(found[index], estimates[index], 1e-4):
                raise NotYet(f"For f = {formula} at {at}, your engine gives df/d{name} = {found[index]!r}, "
                             f"but nudging {name} says it should be about {estimates[index]:.6g}. "
                             + where_it_goes_wrong(root, leaves, found, estimates, use_backward))


def nudged_slope(program, inputs, index):
    """The central difference of the program's result in input `index`, with plain floats."""
    def f(x):
        nudged = list(inputs)
        nudged[index] = x
        return run_program(program, nudged)[-1]
    return (f(inputs[index] + NUDGE) - f(inputs[index] - NUDGE)) / (2 * NUDGE)


def where_it_goes_wrong(root, leaves, found, estimates, use_backward):
    """The local derivatives, or (when the checks' own walk over the reader's edges matches the nudging) backward()."""
    if use_backward:
        walked = gradients(root, leaves, use_backward=False)
        if all(close(a, b, 1e-4) for a, b in zip(walked, estimates)):
            slip = backward_slip(root, leaves, found)
            return ("Your edges carry the right local derivatives (following them back by hand gives the nudged "
                    "slopes), so the slip is in backward(): "
                    + (slip or "look at how it walks the order and adds up the contributions."))
    return "Check the local derivatives of the operations in it."
