"""test_engine_order.py: backward()'s topological order is found in work proportional to the graph.

What it is: checks of Value.topological_order() on graphs of 1,000,000 values in CPython (200,000
inside Pyodide, where each Python call costs more): a chain, and a wide graph of 100,000 values (about
a hundred layers) in which every value is used twice, so that the number of paths from the output to
an input is astronomically large (2**97 and more: a walk that revisited would never end).
The order must list every value exactly once, every parent before its children and the output last;
the walk must read each value's edges exactly once (counted by an edges tuple that counts its
iterations, and stops the walk as soon as the count goes over), so no value is visited twice and
nothing is searched again; and backward() must read them exactly twice (once to order, once to pass
gradients on). A graph whose edges were wired after its values were made, newest parent first,
shows that the order comes from the edges alone, not from when values were created (a counter and
a sort would fail it). Exact gradients on the wide graph confirm the order backward() used.

What it is not: a timing (tests/benchmarks/xor.py times the engine; tests never assert timings).
Plain functions and asserts only: this module also runs inside Pyodide.
"""
import contextlib
import gc
import sys

from tinygrad import Value

IN_PYODIDE = sys.platform == "emscripten"
GRAPH_SIZE = 200_000 if IN_PYODIDE else 1_000_000
WIDTH = 1024  # values per layer of the wide graph: a power of two keeps its gradients exact
WIDE_GRAPH_SIZE = 100_000  # a revisit shows at any size (the reads are counted); the million is the chain's


class CountedEdges(tuple):
    """A value's edges that count how often anything iterates over them, in `reads`."""

    reads = 0
    limit = 0  # more reads than this and the walk is stopped: a revisiting walk would never end

    def __iter__(self):
        CountedEdges.reads += 1
        if CountedEdges.reads > CountedEdges.limit:
            raise AssertionError(f"the edges were read more than {CountedEdges.limit:,} times")
        return super().__iter__()


@contextlib.contextmanager
def no_cyclic_garbage_collector():
    """These graphs hold no reference cycles, yet with a million values alive the cyclic collector
    would sweep them again and again (seconds each time); reference counting frees them all."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def count_reads(values, allowed):
    """Give every value edges that count their reads, allowing `allowed` reads in all; reset the count."""
    for value in values:
        if type(value.edges) is not CountedEdges:
            value.edges = CountedEdges(value.edges)
    CountedEdges.reads, CountedEdges.limit = 0, allowed


def chain(length):
    """[start, step, start + step, ... + step]: `length` values in all, each sum using the one before."""
    start, step = Value(0.5), Value(0.25)
    values, node = [start, step], start
    while len(values) < length:
        node = node + step
        values.append(node)
    return values


def wide_graph(size):
    """Layers of WIDTH values, each value half the sum of two neighbours of the layer below (wrapping
    around), and an output that averages the top layer: about `size` values. Returns all values,
    the output last; every value below the output gets the gradient 1 / WIDTH."""
    layer = [Value(i % 7) for i in range(WIDTH)]
    values = list(layer)
    while len(values) + WIDTH < size:
        layer = [Value(0.5 * (left.data + right.data), ((left, 0.5), (right, 0.5)))
                 for left, right in zip(layer, layer[1:] + layer[:1])]
        values += layer
    output = Value(sum(v.data for v in layer) / WIDTH, [(v, 1 / WIDTH) for v in layer])
    return values + [output]


def assert_is_a_topological_order(order, values):
    """`order` lists each of `values` once, every parent before the value computed from it, the output last."""
    assert len(order) == len(values), f"{len(order):,} values in the order, the graph has {len(values):,}"
    position = {id(value): index for index, value in enumerate(order)}
    assert len(position) == len(order), "a value appears twice in the order"
    assert all(id(value) in position for value in values), "a value of the graph is missing from the order"
    assert order[-1] is values[-1], "the output must come last"
    for index, value in enumerate(order):
        for parent, _ in tuple.__iter__(value.edges):  # not counted
            assert position[id(parent)] < index, "a parent comes after a value computed from it"


def test_order_of_a_long_chain_reads_each_value_once():
    with no_cyclic_garbage_collector():
        values = chain(GRAPH_SIZE)
        count_reads(values, allowed=len(values))
        order = values[-1].topological_order()
        assert CountedEdges.reads == len(values), f"{CountedEdges.reads:,} reads for {len(values):,} values"
        assert_is_a_topological_order(order, values)


def test_wide_shared_graph_order_reads_each_value_once_and_backward_twice():
    with no_cyclic_garbage_collector():
        values = wide_graph(WIDE_GRAPH_SIZE)
        assert len(values) > WIDE_GRAPH_SIZE - WIDTH - 2
        count_reads(values, allowed=len(values))
        order = values[-1].topological_order()
        assert CountedEdges.reads == len(values), f"{CountedEdges.reads:,} reads for {len(values):,} values"
        assert_is_a_topological_order(order, values)

        count_reads(values, allowed=2 * len(values))
        values[-1].backward()
        assert CountedEdges.reads == 2 * len(values), f"backward(): {CountedEdges.reads:,} reads"
        assert values[-1].grad == 1.0
        wrong = [value.grad for value in values[:-1] if value.grad != 1 / WIDTH]
        assert not wrong, f"{len(wrong):,} gradients differ from 1/{WIDTH}, e.g. {wrong[0]!r}"


def test_order_follows_edges_wired_after_the_values_were_made():
    with no_cyclic_garbage_collector():
        values = [Value(1.0) for _ in range(GRAPH_SIZE)]
        for value, parent in zip(values, values[1:]):  # each value's parent is made after it
            value.edges = ((parent, 2.0),)
        newest_parent_first = values[::-1]
        count_reads(values, allowed=len(values))
        order = values[0].topological_order()
        assert CountedEdges.reads == len(values)
        assert order == newest_parent_first
        for value in values:  # oldest first: freeing it then frees no chain of parents (see test_engine_deep_graphs)
            value.edges = ()


def test_a_parent_reached_again_deeper_down_still_comes_first():
    # c1 = p + q, q = c2 * 2, c2 = p * 3: p is a parent of c1 and, through q, of c2 too.
    # A walk that marked p as seen when it first saw it, before p was placed, would place c2 before p.
    p = Value(1.0)
    c2 = p * 3
    q = c2 * 2
    c1 = p + q
    values = [p, c2.edges[1][0], c2, q.edges[1][0], q, c1]  # the numbers 3 and 2 are leaves too
    order = c1.topological_order()
    assert_is_a_topological_order(order, values)
    c1.backward()
    assert p.grad == 7.0  # 1 directly, 2 * 3 through q
