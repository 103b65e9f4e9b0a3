"""Model of the figure "The cost of a gradient": reverse mode, forward mode and finite differences, counted.

What it is: for n parameters the engine builds a network of one neuron with n − 1 inputs and a bias
(the engine's MLP([n − 1, 1]), whose one layer has no tanh, followed by the engine's tanh) and the
squared error of its answer on one example. Walking the graph from the loss (in the engine's own
order, see graph_order) counts what each way of getting all n gradients costs, in the same unit:
every computed value is one operation of a forward pass, every edge one multiply-and-add.
- Reverse mode: one forward pass and one backward pass, (forward operations) + (edges), for all n.
- Forward mode (dual numbers): each value carries one derivative along, with respect to one
  parameter, so each of the n passes computes every value and, per edge, one multiply-and-add of
  derivatives: n × ((forward operations) + (edges)).
- Central differences: two evaluations of the loss per parameter: 2n × (forward operations).
Of the engine, only MLP(sizes, seed)(inputs), parameters(), tanh, the values' `edges` and, where the
engine defines it, Value.topological_order() (see graph_order) are used.
What it is not: the view (gradient_cost.mjs plots the three costs against n on logarithmic axes).
"""
import random

from tinygrad import MLP

from .display import checked_number, cycle_collector_paused, number_text
from .graph_trace import values_in_order

TITLE = "The cost of a gradient"
PAGE_CALLS = ("initial", "set_parameters")
PARAMETERS_RANGE = {"min": 1, "max": 1000, "step": 1}
DEFAULT_PARAMETERS = 17  # as many as the lesson's XOR network has
# What the slider steps through, one arrow key at a time: about evenly on the figure's logarithmic axis (each
# step at most twice the one before; 10 and 100 a third and two thirds of the way), with the default on it.
PARAMETER_STEPS = sorted({*range(1, 10), DEFAULT_PARAMETERS, 1000,
                          *(int(decade * factor) for decade in (10, 100) for factor in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8))})
CURVE_SIZES = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000]


def loss_for(n):
    """The loss of a one-neuron network with n parameters, as an engine graph (forward pass done)."""
    network = MLP([n - 1, 1], seed=n)
    rng = random.Random(-n)
    inputs = [rng.uniform(-1.0, 1.0) for _ in range(n - 1)]
    return (network(inputs)[0].tanh() - 0.5) ** 2, network.parameters()


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
    """{"forward", "backward", "reverse", "forward_mode", "finite"}: operations for n parameters (see the module text)."""
    with cycle_collector_paused():
        loss, _ = loss_for(n)
        order = graph_order(loss)
        # The loss goes first, so the list frees the graph: from its end, newest value first, each value
        # dying while the list still holds its parents. Freed from the loss instead, a graph 2,000 values
        # deep nests one call per level and overflows the browser's stack (the engine's freeing comment).
        del loss
        _, forward, edges = graph_counts(order)
        del order
    return {"forward": forward, "backward": edges, "reverse": forward + edges, "forward_mode": n * (forward + edges),
            "finite": 2 * n * forward}


def count_text(count):
    return f"{count:,}"


def checked_parameters(n):
    n = checked_number("Parameters", n, PARAMETERS_RANGE["min"], PARAMETERS_RANGE["max"])
    if n != int(n):
        raise ValueError(f"Parameters must be a whole number, not {number_text(n)}")
    return int(n)


def new_state(n, with_curve=False):
    cost = costs(n)
    ratio = cost["finite"] / cost["reverse"]
    forward_ratio = cost["forward_mode"] / cost["reverse"]
    state = {
        "parameters": n,
        "parameters_range": PARAMETERS_RANGE,
        "parameter_steps": PARAMETER_STEPS,
        "parameters_text": count_text(n),
        "forward_text": count_text(cost["forward"]),
        "backward_text": count_text(cost["backward"]),
        "reverse": cost["reverse"],
        "finite": cost["finite"],
        "reverse_text": count_text(cost["reverse"]),
        "finite_text": count_text(cost["finite"]),
        "forward_mode": cost["forward_mode"],
        "forward_mode_text": count_text(cost["forward_mode"]),
        "ratio_text": number_text(ratio, 3),
        "evaluations_text": count_text(2 * n),
        "messages": [
            f"Reverse mode: one forward pass records {count_text(cost['forward'])} operations and one backward pass "
            f"follows {count_text(cost['backward'])} edges, {count_text(cost['reverse'])} in all, "
            + ("for the one gradient." if n == 1 else f"for all {count_text(n)} gradients at once."),
            f"Central differences run the forward pass twice per parameter: {count_text(2 * n)} × "
            f"{count_text(cost['forward'])} = {count_text(cost['finite'])} operations, "
            f"{compared_with_reverse(cost, ratio)}. The backward pass grows with the graph; finite differences "
            "grow with the graph times the number of parameters.",
            forward_mode_sentence(n, cost, forward_ratio),
        ],
        "description": (f"Cost of all gradients for {count_text(n)} parameter{'s' if n != 1 else ''}: reverse mode {count_text(cost['reverse'])} "
                        f"operations, forward mode {count_text(cost['forward_mode'])}, "
                        f"finite differences {count_text(cost['finite'])}, {compared_with_reverse(cost, ratio, 'reverse mode', why=False)}."),
    }
    if with_curve:
        curve = [(size, costs(size)) for size in CURVE_SIZES]
        state["curve_reverse"] = [[size, cost["reverse"]] for size, cost in curve]
        state["curve_finite"] = [[size, cost["finite"]] for size, cost in curve]
        state["curve_forward"] = [[size, cost["forward_mode"]] for size, cost in curve]
    return state


def compared_with_reverse(cost, ratio, what="as many", why=True):
    """How central differences' count compares with reverse mode's: "11.6 times as many" ("... times reverse
    mode"), or, below one (a single parameter), "fewer than reverse mode's 7" (and, with `why`, why)."""
    if cost["finite"] < cost["reverse"]:
        fewer = f"fewer than reverse mode's {count_text(cost['reverse'])}"
        return fewer + (": with a single parameter, two forward passes cost less than one forward and one backward "
                        "pass" if why else "")
    if cost["finite"] == cost["reverse"]:
        return "as many as reverse mode"
    return f"{number_text(ratio, 3)} times {what}"


def forward_mode_sentence(n, cost, forward_ratio):
    """The sentence about forward mode: its count, how it compares with reverse mode, and why."""
    passes = f"{count_text(n)} pass{'es' if n != 1 else ''}"
    count = (f"Forward mode carries one derivative along with every value, for one parameter per pass: {passes} × "
             f"({count_text(cost['forward'])} + {count_text(cost['backward'])}) = {count_text(cost['forward_mode'])} operations")
    if cost["forward_mode"] == cost["reverse"]:
        return (f"{count}, as many as reverse mode: with one parameter, one pass each way. Forward mode needs a pass per "
                "input, reverse mode a pass per output, so forward mode wins when a few inputs feed many outputs.")
    times = count_text(int(forward_ratio)) if forward_ratio.is_integer() else number_text(forward_ratio, 3)
    return (f"{count}, {times} times reverse mode. Forward mode needs a pass per input, reverse "
            "mode a backward pass per output: for one loss and many parameters reverse mode wins; for one input and "
            "many outputs, forward mode would.")


def initial():
    return new_state(DEFAULT_PARAMETERS, with_curve=True)


def set_parameters(state, parameters):
    return new_state(checked_parameters(parameters))
