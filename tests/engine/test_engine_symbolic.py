"""test_engine_symbolic.py: gradients of random expression graphs against exact SymPy derivatives.

What it is: the same kind of random programs as test_engine_random_graphs.py (expression_graphs.py,
fixed seed), run once on engine Values and once on SymPy symbols; SymPy differentiates the symbolic
result exactly and evaluates it with 30 significant digits at the leaves' values (the very binary
floats the engine saw). The engine must agree to about nine significant digits.

What it is not: runnable in Pyodide (SymPy is not available there offline), so
tests/pyodide/test_engine_in_pyodide.py leaves this one module out, saying why.
"""
import random

import sympy

from expression_graphs import ENGINE, Arithmetic, random_program, run
from tinygrad import Value

SEED = 1130
PROGRAMS = 120
DIGITS = 30
SYMPY = Arithmetic(sympy.tanh, sum)


def test_gradients_match_exact_sympy_derivatives():
    rng = random.Random(SEED)
    for _ in range(PROGRAMS):
        program = random_program(rng, max_steps=12)
        leaves = [Value(x) for x in program.leaves]
        run(program, leaves, ENGINE)[-1].backward()

        symbols = sympy.symbols(f"x0:{len(program.leaves)}")
        expression = run(program, symbols, SYMPY)[-1]
        at_leaves = {symbol: sympy.Float(x, DIGITS) for symbol, x in zip(symbols, program.leaves)}
        for symbol, leaf in zip(symbols, leaves):
            exact = float(sympy.diff(expression, symbol).evalf(DIGITS, subs=at_leaves))
            assert abs(leaf.grad - exact) <= 1e-9 * (1 + abs(exact)), (
                f"d output / d {symbol}: engine {leaf.grad!r}, SymPy {exact!r}\n{program.describe()}"
            )
