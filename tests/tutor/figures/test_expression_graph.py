"""Tests of show(value), the graph view every runnable block has, under CPython.

What it is: blocks are run through the same runner the browser uses (tutor.runtime.runner), so
show() is the one a reader calls; the graph it sends is read back as the page gets it and
checked against the engine: one box per value, one edge per engine edge, the last step's
gradients equal to backward()'s, the reader's grads untouched, clear messages for a non-Value,
for too big a graph and for too many pictures in one run.
What it is not: a test of the drawing (tests/site/test_show.py does that in Chromium).
"""
import pytest
from tinygrad import Value

from block_runs import cpython_run
from tutor.runtime import output, runner
from tutor.figures import expression_graph
from tutor.figures.display import number_text

LOSS_BLOCK = """
from tinygrad import Value
w, x, b, y = Value(1), Value(2), Value(0), Value(5)
loss = (w * x + b - y) ** 2
"""


def run(code, fresh=True):
    """Run `code` as a block of a page; return (error report, text output, [graphs])."""
    ran = cpython_run(code, page="test-page", fresh=fresh)
    return ran.report, ran.text, ran.graphs


def grads_of(state):
    return {node["symbol"]: node["grad_text"] for node in state["graph"]["nodes"]}


def test_show_draws_one_box_per_value_and_one_edge_per_engine_edge():
    report, text, [graph] = run(LOSS_BLOCK + "show(loss)")
    assert report == ""
    assert text == "Graph of loss: 8 values, 7 edges\n"
    assert graph["title"] == "Graph of loss"
    first = graph["states"][0]["graph"]
    assert len(first["nodes"]) == 8 and len(first["edges"]) == 7
    assert {node["symbol"] for node in first["nodes"] if node["is_leaf"]} == {"w", "x", "b", "y"}
    assert sorted(edge["local_text"] for edge in first["edges"]) == sorted(["2", "1", "1", "1", "−1", "−6", "1"])


def test_edge_labels_have_three_significant_digits_so_they_fit_between_boxes():
    """A long label ("adds 2.45765 × 10⁻⁵") ran under the boxes: an edge's labels are rounded to 3 significant
    digits, the boxes' values and the sentences keep 6."""
    _, _, [graph] = run("from tinygrad import Value\nw = Value(0.00245765)\nloss = w * 0.01\nshow(loss)")
    last = graph["states"][-1]["graph"]
    [edge] = [edge for edge in last["edges"] if last["nodes"][edge["parent"]]["symbol"] == "w"]
    assert (edge["local_text"], edge["contribution_text"]) == ("0.01", "0.01")
    [edge] = [edge for edge in last["edges"] if last["nodes"][edge["parent"]]["symbol"] != "w"]
    assert edge["local_text"] == "0.00246" and edge["contribution_text"] == number_text(0.00245765 * 1, 3)
    report, _, [graph] = run("from tinygrad import Value\na = Value(2.45765e-5)\nb = Value(1.23456)\nshow(a * b)")
    last = graph["states"][-1]["graph"]
    assert {edge["contribution_text"] for edge in last["edges"]} == {"1.23", "2.46 × 10⁻⁵"}
    assert {node["data_text"] for node in last["nodes"]} >= {"2.45765 × 10⁻⁵", "1.23456"}


def test_the_steps_end_with_the_gradients_of_backward():
    _, _, [graph] = run(LOSS_BLOCK + "show(loss)")
    states = graph["states"]
    assert not states[0]["seeded"] and states[1]["seeded"] and states[-1]["graph"]["finished"]
    assert [state["can_step"] for state in states] == [False] + [True] * (len(states) - 2) + [False]
    assert len(states) == 2 + 4  # before the seed, the seed, then one step per operation: −, +, ×, **
    w, x, b, y = Value(1), Value(2), Value(0), Value(5)
    loss = (w * x + b - y) ** 2
    loss.backward()
    final = grads_of(states[-1])
    assert {symbol: final[symbol] for symbol in "wxby"} == {
        "w": number_text(w.grad), "x": number_text(x.grad), "b": number_text(b.grad), "y": number_text(y.grad)}
    assert states[-1]["messages"][-1] == "Every value now holds dloss/d(value): the backward pass is complete."


def test_unnamed_values_get_short_ids_and_an_expression_title():
    report, text, [graph] = run("from tinygrad import Value\na = Value(3)\nshow(a * a + a)")
    assert report == "" and text == "Graph of the expression: 3 values, 4 edges\n"
    assert [node["symbol"] for node in graph["states"][0]["graph"]["nodes"]] == ["a", "#2", "#3"]
    assert grads_of(graph["states"][-1])["a"] == "7"


def test_show_leaves_the_readers_grads_as_they_were():
    report, text, _ = run(LOSS_BLOCK + "loss.backward()\nw.grad = 42.0\nshow(loss)\nprint(w.grad, x.grad, loss.grad)")
    assert report == ""
    assert text.splitlines()[-1] == "42.0 -6.0 1.0"
    report, text, _ = run(LOSS_BLOCK + "show(loss)\nprint(w.grad, loss.grad)")
    assert text.splitlines()[-1] == "0.0 0.0"


@pytest.mark.parametrize(("argument", "shown"), [("3", "3 (type int)"), ("None", "None (type NoneType)"),
                                                 ("[w]", "(type list)")])
def test_show_of_something_else_than_a_value_says_what_it_needs(argument, shown):
    report, text, graphs = run(LOSS_BLOCK + f"show({argument})")
    assert graphs == []
    assert report.endswith("\n") and "TypeError: show() draws the graph of a Value, for example show(loss)" in report
    assert shown in report
    assert "runner.py" not in report, "the traceback should show the reader's line, not the runtime's"


def chain_of(values):
    """A block whose `total` has exactly `values` values (odd or even), all in one graph."""
    additions, negated = divmod(values - 1, 2)  # each addition adds the sum and a leaf for k; -total adds one
    return ("from tinygrad import Value\ntotal = Value(0)\n"
            f"for k in range({additions}):\n    total = total + k\n" + "total = -total\n" * negated)


def test_a_graph_too_big_to_draw_is_only_counted():
    limit = expression_graph.MAX_VALUES
    report, text, [graph] = run(chain_of(limit) + "show(total)")
    assert report == "" and len(graph["states"][0]["graph"]["nodes"]) == limit
    report, text, graphs = run(chain_of(limit + 1) + "show(total)")
    assert report == "" and graphs == []
    assert text == (f"Graph of total: {limit + 1} values, {limit} edges. Too many to draw: show() draws graphs "
                    f"of up to {limit} values; show a smaller expression, such as one neuron's output or one "
                    "example's loss.\n")


def test_several_shows_come_in_order_and_a_flood_is_capped():
    report, text, graphs = run(LOSS_BLOCK + "show(w * x)\nshow(loss)")
    assert [graph["title"] for graph in graphs] == ["Graph of the expression", "Graph of loss"]
    report, text, graphs = run(LOSS_BLOCK + "for _ in range(25):\n    show(loss)")
    assert report == "" and len(graphs) == output.GRAPHS_PER_RUN
    assert text.count("Graph of loss: 8 values, 7 edges\n") == 25
    assert f"already drew {output.GRAPHS_PER_RUN} graphs" in text


def test_graphs_pass_the_cap_on_printed_lines():
    report, text, [graph] = run(LOSS_BLOCK + f"for k in range({output.HEAD_LINES + 50}):\n    print(k)\nshow(loss)")
    assert report == "" and graph["title"] == "Graph of loss"
    assert "Graph of loss: 8 values, 7 edges" in text  # among the last lines shown


def test_every_page_namespace_starts_with_show():
    run("x = 1")
    assert callable(runner.namespaces["test-page"]["show"])
    report, _, _ = run("del show", fresh=False)
    assert report == ""
    run("", fresh=True)
    assert "show" in runner.namespaces["test-page"]
