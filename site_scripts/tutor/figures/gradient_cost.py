"""Model of the figure "The cost of a gradient": reverse mode against finite differences, counted.

What it is: for n parameters the engine builds a network of one neuron (the engine's Neuron with
n − 1 weights and a bias, tanh) and the squared error of its answer on one example. Walking the
graph from the loss (in the engine's own order, see graph_order) counts what one forward and one
backward pass cost: every computed value is one operation of the forward pass, every edge is
one multiply-and-add of the backward pass.
Central differences need two evaluations of the loss per parameter, each the whole forward pass
again: 2n × (forward operations). Besides the engine's Neuron, only the values' `edges` are read.
What it is not: the view (gradient_cost.mjs plots both costs against n on logarithmic axes).
"""
import random

from tinygrad import Neuron

from .display import checked_number, cycle_collector_paused, number_text
from .graph_trace import values_in_order

TITLE = "The cost of a gradient"
PAGE_CALLS = ("initial", "set_parameters")
PARAMETERS_RANGE = {"min": 1, "max": 1000, "step": 1}
DEFAULT_PARAMETERS = 17  # as many as the lesson's XOR network has
CURVE_SIZES = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000]


def loss_for(n):
    """The loss of a one-neuron network with n parameters, as an engine graph (forward pass done)."""
    rng = random.Random(n)
    neuron = Neuron(n - 1, rng)
    inputs = [rng.uniform(-1.0, 1.0) for _ in range(n - 1)]
    return (neuron(inputs) - 0.5) ** 2, neuron.parameters()


def graph_order(root):
    """`root` and the values it was computed from, each after its parents: the engine's own
    topological_order() where it has one (the lesson's engine; in Pyodide more than twice as fast as the
    site's walk, which keeps the slider within its 16 ms), else graph_trace.values_in_order (an edited
    engine may leave the method out: the site does not require it)."""
    own = getattr(root, "topological_order", None)
    return own() if callable(own) else values_in_order(root)


def graph_counts(order):
    """(values, computed values, edges) of a graph given as its values in order (graph_order)."""
    return len(order), sum(1 for node in order if node.edges), sum(len(node.edges) for node in order)


def costs(n):
    """{"forward", "backward", "reverse", "finite"}: operations for n parameters (see the module text)."""
    with cycle_collector_paused():
        loss, _ = loss_for(n)
        order = graph_order(loss)
        # The loss goes first, so the list frees the graph: from its end, newest value first, each value
        # dying while the list still holds its parents. Freed from the loss instead, a graph 2,000 values
        # deep nests one call per level and overflows the browser's stack (the engine's freeing comment).
        del loss
        _, forward, edges = graph_counts(order)
        del order
    return {"forward": forward, "backward": edges, "reverse": forward + edges, "finite": 2 * n * forward}


def count_text(count):
    return f"{count:,}"


def checked_parameters(n):
    n = checked_number("Parameters", n, PARAMETERS_RANGE["min"], PARAMETERS_RANGE["max"])
    if n != int(n):
        raise ValueError(f"Parameters must be a whole number, not {number_text(n)}")
    return int(n)


def view(n, with_curve=False):
    cost = costs(n)
    ratio = cost["finite"] / cost["reverse"]
    state = {
        "parameters": n,
        "parameters_range": PARAMETERS_RANGE,
        "parameters_text": count_text(n),
        "forward_text": count_text(cost["forward"]),
        "backward_text": count_text(cost["backward"]),
        "reverse": cost["reverse"],
        "finite": cost["finite"],
        "reverse_text": count_text(cost["reverse"]),
        "finite_text": count_text(cost["finite"]),
        "ratio_text": number_text(ratio, 3),
        "evaluations_text": count_text(2 * n),
        "messages": [
            f"Reverse mode: one forward pass records {count_text(cost['forward'])} operations and one backward pass "
            f"follows {count_text(cost['backward'])} edges, {count_text(cost['reverse'])} in all, for all "
            f"{count_text(n)} gradient{'s' if n != 1 else ''} at once.",
            f"Central differences run the forward pass twice per parameter: {count_text(2 * n)} × "
            f"{count_text(cost['forward'])} = {count_text(cost['finite'])} operations, "
            f"{number_text(ratio, 3)} times as many. The backward pass grows with the graph; finite differences "
            "grow with the graph times the number of parameters.",
        ],
        "description": (f"Cost of all gradients for {count_text(n)} parameter{'s' if n != 1 else ''}: reverse mode {count_text(cost['reverse'])} "
                        f"operations, finite differences {count_text(cost['finite'])}, {number_text(ratio, 3)} times as many."),
    }
    if with_curve:
        curve = [(size, costs(size)) for size in CURVE_SIZES]
        state["curve_reverse"] = [[size, cost["reverse"]] for size, cost in curve]
        state["curve_finite"] = [[size, cost["finite"]] for size, cost in curve]
    return state


def initial():
    return view(DEFAULT_PARAMETERS, with_curve=True)


def set_parameters(state, parameters):
    return view(checked_parameters(parameters))
