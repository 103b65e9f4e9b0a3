"""Model of the figure "Paths add up": q = a·a + a at a = 3, where three edges reach a.

What it is: the same graph replay as backprop_graph (one operation per step), for a
graph in which one input is used three times. a's gradient collects three
contributions, 1 through the sum and 3 through each operand of a·a, adding to 7 = 2a + 1.
The closing sentence compares that sum with what the engine's backward() gives, so an edited
engine that loses a path (page "Edit the engine") shows the difference.
What it is not: the view (paths_add_up.mjs shares the graph drawing with backprop_graph.mjs).
"""
from tinygrad import Value

from .display import number_text
from .graph_trace import operation_stepping

TITLE = "Paths add up"
PAGE_CALLS = ("initial", "seed_gradient", "backpropagate_one_operation")
A = 3


def build():
    a = Value(A)
    square = a * a
    q = square + a
    return q, {a: ("a", None), square: ("a·a", "a × a"), q: ("q", "a·a + a")}


def gradient_from_backward():
    """a.grad as the engine's own backward() leaves it (an edited engine may lose paths)."""
    q, names = build()
    q.backward()
    return next(value.grad for value, (symbol, _) in names.items() if symbol == "a")


def sum_of_paths(graph):
    a = graph["nodes"][0]
    paths = f"Three paths reach a: {' + '.join(a['contributions'])} = {a['grad_text']}."
    from_backward = number_text(gradient_from_backward())
    if from_backward == a["grad_text"]:
        return f"{paths} The engine's backward() gives the same a.grad."
    return f"{paths} But the engine's backward() gives a.grad = {from_backward}: it does not add up every path."


initial, seed_gradient, backpropagate_one_operation = operation_stepping(build, closing_sentence=sum_of_paths)
