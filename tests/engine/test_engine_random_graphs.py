"""test_engine_random_graphs.py: gradients of random expression graphs against finite differences.

What it is: for a few hundred random programs (see expression_graphs.py; fixed seed) the engine's
forward values must equal plain float arithmetic exactly, and every leaf's gradient must match a
central finite difference. It also checks that the programs really exercise what they claim to:
every operation, reused leaves, shared results and an operand used twice in one step.

What it is not: the exact check (test_engine_symbolic.py compares with SymPy, in CPython only).
Plain functions and asserts only: this module also runs inside Pyodide.
"""
import random
from collections import Counter

from expression_graphs import ENGINE, FLOATS, OPERATIONS, float_output, random_program, run
from tinygrad import Value

SEED = 20261130
PROGRAMS = 300
STEP = 1e-5  # the h of the central difference


def engine_gradients(program):
    """The engine's data of every node and gradient of every leaf for `program`."""
    leaves = [Value(x) for x in program.leaves]
    nodes = run(program, leaves, ENGINE)
    nodes[-1].backward()
    return [node.data for node in nodes], [leaf.grad for leaf in leaves]


def central_difference(program, index):
    def output_with(shift):
        leaves = list(program.leaves)
        leaves[index] += shift
        return float_output(program, leaves)

    return (output_with(STEP) - output_with(-STEP)) / (2 * STEP)


def test_forward_values_equal_float_arithmetic_exactly():
    rng = random.Random(SEED)
    for _ in range(PROGRAMS):
        program = random_program(rng)
        engine_data, _ = engine_gradients(program)
        expected = run(program, program.leaves, FLOATS)
        assert engine_data == expected, program.describe()


def test_gradients_match_central_differences():
    rng = random.Random(SEED)
    for _ in range(PROGRAMS):
        program = random_program(rng)
        _, gradients = engine_gradients(program)
        for index, gradient in enumerate(gradients):
            estimate = central_difference(program, index)
            assert abs(gradient - estimate) <= 1e-6 * (1 + abs(estimate)), (
                f"d output / d x{index}: engine {gradient!r}, finite difference {estimate!r}\n"
                + program.describe()
            )


def test_random_programs_cover_every_operation_and_sharing():
    rng = random.Random(SEED)
    operations, reused, same_operand_twice = Counter(), Counter(), 0
    for _ in range(PROGRAMS):
        program = random_program(rng)
        uses = Counter()
        for operation, operands, _ in program.steps:
            operations[operation] += 1
            uses.update(operands)
            same_operand_twice += len(set(operands)) < len(operands)
        leaf_count = len(program.leaves)
        reused["leaf"] += any(uses[i] > 1 for i in range(leaf_count))
        reused["result"] += any(count > 1 for i, count in uses.items() if i >= leaf_count)
    assert set(operations) == set(OPERATIONS), f"operations never drawn: {set(OPERATIONS) - set(operations)}"
    assert min(operations.values()) >= 20, operations
    assert reused["leaf"] >= PROGRAMS // 4 and reused["result"] >= PROGRAMS // 4, reused
    assert same_operand_twice >= 20, same_operand_twice
