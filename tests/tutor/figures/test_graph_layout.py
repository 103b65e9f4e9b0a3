"""test_graph_layout.py: every computation graph the site draws keeps each edge label clear of the boxes and of
the other labels, inside the drawing.

What it is: the lesson's graphs (its figures' and the expressions the Graph chapter suggests for show()) and 200
random expression graphs of up to 30 values, each at the end of its backward pass (every label shows both its
lines), laid out by the site's own layout run under Node.js (lay_out_graphs.mjs: dagre, as in the browser). The
rectangles are the layout's own: tests/site/test_figure_geometry.py checks in Chromium that the drawn text
stays inside them.
What it is not: a test of the drawing's numbers (test_graph_figures.py, test_expression_graph.py).
"""
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tinygrad import Value

from tutor.figures import backprop_graph, paths_add_up, x_times_x
from tutor.figures.expression_graph import value_names
from tutor.figures.graph_trace import edge_count, trace, values_in_order

REPO = Path(__file__).resolve().parents[3]
sys.path.append(str(REPO / "tests" / "engine"))  # the engine tests' random programs
from expression_graphs import ENGINE, random_program, run  # noqa: E402

NODE_SCRIPT = Path(__file__).with_name("lay_out_graphs.mjs")
RANDOM_GRAPHS = 200
LARGEST_GRAPH = 30  # values


def finished(root, namespace=None):
    """The graph of `root` as the figures draw it once the backward pass is complete."""
    names = value_names(values_in_order(root), namespace or {})
    return trace(root, names, seeded=True, edges_done=edge_count(root))


def lesson_graphs():
    a, b = Value(3.0), Value(-2.0)
    suggested = {"a * b + a": a * b + a, "a * b * a": a * b * a, "(a * b).tanh() + a": (a * b).tanh() + a}
    built = {"backprop_graph": backprop_graph.build(), "paths_add_up": paths_add_up.build(),
             "x_times_x": x_times_x.build(evaluated=True)}
    graphs = {name: finished(root, {symbol: value for value, (symbol, _) in names.items()})
              for name, (root, names) in built.items()}
    graphs.update({f"show({text})": finished(root, {"a": a, "b": b, "q": root}) for text, root in suggested.items()})
    return graphs


def random_graphs():
    rng = random.Random(36)
    graphs = []
    while len(graphs) < RANDOM_GRAPHS:
        program = random_program(rng, max_steps=14)
        root = run(program, [Value(leaf) for leaf in program.leaves], ENGINE)[-1]
        if len(values_in_order(root)) <= LARGEST_GRAPH:
            graphs.append(finished(root))
    return graphs


def laid_out(graphs):
    node = shutil.which("node")
    assert node, "Node.js is needed to run the site's graph layout (see README: ./dev.sh test installs node_modules)"
    done = subprocess.run([node, str(NODE_SCRIPT)], input=json.dumps(graphs), cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def overlap(first, second):
    """Whether two rectangles [left, top, right, bottom] share more than an edge."""
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def faults(graph, layout):
    """What is wrong with one laid-out graph, in words (nothing when its labels are clear)."""
    name = lambda index: f"the label of edge {graph['edges'][index]['parent']}→{graph['edges'][index]['child']}"  # noqa: E731
    found = []
    for index, label in enumerate(layout["labels"]):
        if not (0 <= label[0] and 0 <= label[1] and label[2] <= layout["width"] and label[3] <= layout["height"]):
            found.append(f"{name(index)} {label} leaves the drawing {layout['width']} × {layout['height']}")
        found += [f"{name(index)} overlaps box {graph['nodes'][box]['symbol']}"
                  for box, rectangle in enumerate(layout["boxes"]) if overlap(label, rectangle)]
        found += [f"{name(index)} overlaps {name(other)}"
                  for other in range(index) if overlap(label, layout["labels"][other])]
    return found


LESSON = lesson_graphs()


@pytest.mark.parametrize("name", LESSON)
def test_the_lessons_graphs_keep_every_label_clear(name):
    graph = LESSON[name]
    (layout,) = laid_out([graph])
    assert len(layout["labels"]) == len(graph["edges"]) and all(edge["contribution_text"] for edge in graph["edges"])
    assert faults(graph, layout) == []


def test_random_expression_graphs_keep_every_label_clear():
    graphs = random_graphs()
    assert max(len(graph["nodes"]) for graph in graphs) > 20  # the sizes the test is about are drawn
    problems = {index: found for index, (graph, layout) in enumerate(zip(graphs, laid_out(graphs)))
                if (found := faults(graph, layout))}
    assert problems == {}
