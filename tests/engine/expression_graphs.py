"""expression_graphs.py: random expression programs for the engine's gradient tests.

What it is: a generator of small straight-line programs over the engine's operations (+ * ** -,
unary -, tanh, sum() and every form with a plain number on either side), and one interpreter that
runs such a program on engine Values, on plain floats or on SymPy symbols (see Arithmetic).
Operands are drawn from all earlier results, so leaves are reused and sub-expressions shared (even
`a * a`, `a - a`); the output adds up every result nothing else used, so every step reaches it.

What it is not: a test. test_engine_random_graphs.py compares the engine with central finite
differences; test_engine_symbolic.py compares it with exact SymPy derivatives.
"""
import functools
import math
import operator
from collections import namedtuple
from dataclasses import dataclass

from tinygrad import Value

LARGEST_MAGNITUDE = 50.0  # programs with larger values are redrawn: keeps the checks well conditioned

# How to compute tanh and add up a list, for one kind of number. Floats are added strictly left to
# right: since Python 3.12, sum() of floats compensates rounding errors, while sum() of Values (like
# any chain of +) does not, and the engine's forward values are compared with floats bit for bit.
Arithmetic = namedtuple("Arithmetic", "tanh add_up")
FLOATS = Arithmetic(math.tanh, lambda terms: functools.reduce(operator.add, terms, 0))
ENGINE = Arithmetic(Value.tanh, sum)

# Each operation: how many operands it takes, and how it combines them with an optional number.
OPERATIONS = {
    "add": (2, lambda ops, number, arithmetic: ops[0] + ops[1]),
    "mul": (2, lambda ops, number, arithmetic: ops[0] * ops[1]),
    "sub": (2, lambda ops, number, arithmetic: ops[0] - ops[1]),
    "neg": (1, lambda ops, number, arithmetic: -ops[0]),
    "pow": (1, lambda ops, number, arithmetic: ops[0] ** number),
    "tanh": (1, lambda ops, number, arithmetic: arithmetic.tanh(ops[0])),
    "value_plus_number": (1, lambda ops, number, arithmetic: ops[0] + number),
    "number_plus_value": (1, lambda ops, number, arithmetic: number + ops[0]),
    "value_times_number": (1, lambda ops, number, arithmetic: ops[0] * number),
    "number_times_value": (1, lambda ops, number, arithmetic: number * ops[0]),
    "value_minus_number": (1, lambda ops, number, arithmetic: ops[0] - number),
    "number_minus_value": (1, lambda ops, number, arithmetic: number - ops[0]),
    "sum": (3, lambda ops, number, arithmetic: arithmetic.add_up(ops)),
}


@dataclass(frozen=True)
class Program:
    """Leaf values, then steps `(operation, operand indices, number)`; indices below len(leaves)
    are leaves, the others earlier steps."""

    leaves: tuple
    steps: tuple

    def describe(self):
        names = [f"x{i}" for i in range(len(self.leaves))]
        lines = [f"x{i} = {value!r}" for i, value in enumerate(self.leaves)]
        for operation, operands, number in self.steps:
            names.append(f"v{len(names)}")
            arguments = ", ".join(names[i] for i in operands)
            lines.append(f"{names[-1]} = {operation}({arguments}; {number!r})")
        return "\n".join(lines)


def run(program, leaves, arithmetic):
    """Every result of `program` on `leaves` (numbers of one kind); the last is the output."""
    results = list(leaves)
    for operation, operands, number in program.steps:
        _, apply = OPERATIONS[operation]
        results.append(apply([results[i] for i in operands], number, arithmetic))
    return results


def float_output(program, leaves):
    return run(program, leaves, FLOATS)[-1]


def random_program(rng, max_steps=20):
    """A random program whose intermediate values all stay within LARGEST_MAGNITUDE."""
    while True:
        program = draw_program(rng, max_steps)
        if all(abs(x) <= LARGEST_MAGNITUDE for x in run(program, program.leaves, FLOATS)):
            return program


def draw_program(rng, max_steps):
    leaves = tuple(round(rng.uniform(-1.5, 1.5), 3) for _ in range(rng.randint(1, 4)))
    steps, used = [], set()
    count = len(leaves)
    for _ in range(rng.randint(1, max_steps)):
        operation = rng.choice(list(OPERATIONS))
        arity, _ = OPERATIONS[operation]
        operands = tuple(pick_operand(rng, count) for _ in range(arity))
        number = rng.randint(1, 3) if operation == "pow" else round(rng.uniform(-2, 2), 2)
        steps.append((operation, operands, number))
        used.update(operands)
        count += 1
    unused = tuple(i for i in range(count) if i not in used)
    steps.append(("sum", unused, None) if len(unused) > 1 else ("value_times_number", unused, 1.5))
    return Program(leaves, tuple(steps))


def pick_operand(rng, count):
    """Half the time one of the three newest results (deep chains), else any earlier one (sharing)."""
    if rng.random() < 0.5:
        return count - 1 - rng.randrange(min(3, count))
    return rng.randrange(count)
