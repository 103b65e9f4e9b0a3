"""Model of the figure "Backpropagation on the graph": L = (w·x + b − y)² at x = 2, y = 5, w = 1, b = 0.

What it is: the engine builds the loss from four input Values (x and y too, so that they
get gradients: the engine treats a plain number as a constant with no edge); graph_trace
turns the real graph into boxes and edges and replays the backward pass up to a point.
A step here is one operation: all edges of one value, newest value first.
What it is not: the view (backprop_graph.mjs lays the boxes out and forwards the buttons).
"""
from tinygrad import Value

from .graph_trace import operation_stepping

TITLE = "Backpropagation on the graph"
PAGE_CALLS = ("initial", "seed_gradient", "backpropagate_one_operation")
INPUTS = {"w": 1, "x": 2, "b": 0, "y": 5}


def build():
    """The loss and a (symbol, formula) name for every value in its graph."""
    w, x, b, y = (Value(INPUTS[symbol]) for symbol in ("w", "x", "b", "y"))
    product = w * x
    prediction = product + b
    error = prediction - y
    loss = error**2
    names = {w: ("w", None), x: ("x", None), b: ("b", None), y: ("y", None),
             product: ("w·x", "w × x"), prediction: ("ŷ", "w·x + b"),
             error: ("e", "ŷ − y"), loss: ("L", "e²")}
    return loss, names


initial, seed_gradient, backpropagate_one_operation = operation_stepping(build)
