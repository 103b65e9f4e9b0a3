"""test_engine_deep_graphs.py: very deep graphs are built, backpropagated and freed safely.

What it is: a chain of 200,000 additions (two hundred times the recursion limit; in CPython and inside
Pyodide alike) and a loss summed over 50,000 examples. backward() must not recurse
(no RecursionError), must give the exact gradients, and dropping the result must free the whole
graph: the first node's reference count returns to what it was before the graph existed. Inside
Pyodide, freeing a deep graph node by node recursively would overflow the WebAssembly stack and kill
the runtime; tests/pyodide/run_in_pyodide.mjs runs more Python afterwards to prove it survived. A
chain dropped without backward() is freed too (in CPython as deep; in Pyodide, where only backward()
protects a deep graph, a shallow one).

What it is not: a speed test (tests/benchmarks/xor.py times the engine). Plain functions and
asserts only: this module also runs inside Pyodide.
"""
import sys

from tinygrad import Value

IN_PYODIDE = sys.platform == "emscripten"
CHAIN_LENGTH = 200_000  # a recursive walk fails past ~1,000; CPython frees a chain of any depth
UNPROTECTED_CHAIN_LENGTH = 1_000 if IN_PYODIDE else CHAIN_LENGTH
EXAMPLES = 50_000


def test_chain_is_backpropagated_and_freed_without_recursion():
    start, step = Value(0.5), Value(0.25)
    references_before = sys.getrefcount(start)
    node = start
    for _ in range(CHAIN_LENGTH):
        node = node + step
    node.backward()
    assert node.data == 0.5 + 0.25 * CHAIN_LENGTH
    assert start.grad == 1.0
    assert step.grad == float(CHAIN_LENGTH)  # one path per addition
    assert sys.getrefcount(start) > references_before
    del node
    assert sys.getrefcount(start) == references_before, "the chain was not freed"


def test_chain_dropped_without_backward_is_freed():
    # CPython frees a deep chain whatever happened to it. In Pyodide only a shallow one is tried:
    # a chain a few thousand values deep, dropped without backward(), overflows the WebAssembly stack
    # (the engine's order kept by backward() is what prevents that; tests/site/test_robustness.py
    # checks that the page recovers from the crash).
    start = Value(0.5)
    references_before = sys.getrefcount(start)
    node = start
    for _ in range(UNPROTECTED_CHAIN_LENGTH):
        node = node + 1.0
    assert node.data == 0.5 + UNPROTECTED_CHAIN_LENGTH
    del node
    assert sys.getrefcount(start) == references_before, "the chain was not freed"


def test_loss_summed_over_many_examples_has_the_exact_gradient():
    w, b = Value(0.5), Value(-1.0)
    references_before = sys.getrefcount(w)
    xs = [(i % 7) - 3 for i in range(EXAMPLES)]  # small integers keep every sum exact
    loss = sum((w * x + b - 2 * x) ** 2 for x in xs)
    loss.backward()
    residuals = [0.5 * x - 1.0 - 2 * x for x in xs]
    assert w.grad == sum(2 * r * x for r, x in zip(residuals, xs))
    assert b.grad == sum(2 * r for r in residuals)
    del loss
    assert sys.getrefcount(w) == references_before, "the loss graph was not freed"


def test_runtime_still_computes_after_the_deep_graphs_were_freed():
    a = Value(3)
    q = a * a + a
    q.backward()
    assert a.grad == 7.0
