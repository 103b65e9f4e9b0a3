"""Model of the figure "x × x, traced": q = x · x at x = 5, then its backward pass one operand at a time.

What it is: pure functions from a small JSON state ({"evaluated", "seeded", "edges_done"})
to the next one, each returning everything the view draws. The multiplication is the
engine's: q's two edges both point at x, each with local derivative 5, and following them
adds 5 twice to x's gradient (10 = 2x).
What it is not: the view (x_times_x.mjs draws the boxes and forwards the buttons).
"""
from tinygrad import Value

from .display import state_field
from .graph_trace import description, edge_count, trace

TITLE = "x × x, traced"
PAGE_CALLS = ("initial", "evaluate", "seed_output_gradient", "follow_next_operand")
X = 5


def build(evaluated):
    """The engine values of the figure: x alone, or x and q = x · x."""
    x = Value(X)
    names = {x: ("x", None)}
    if not evaluated:
        return x, names
    q = x * x
    names[q] = ("q", "x × x")
    return q, names


def new_state(evaluated, seeded, edges_done):
    root, names = build(evaluated)
    graph = trace(root, names, seeded, edges_done)
    if not evaluated:
        messages = [f"x holds {X}. Evaluate x × x to run the forward pass."]
    elif not seeded:
        messages = [
            f"Forward pass: q = x × x = {graph['nodes'][-1]['data_text']}. The multiplication saved both "
            "operands, so each operand's local derivative is the other operand."
        ]
    else:
        messages = graph["messages"]
    if graph["finished"]:
        messages = messages + [f"Both operand paths together: dq/dx = {graph['nodes'][0]['grad_text']}."]
    return {
        "evaluated": evaluated,
        "seeded": seeded,
        "edges_done": edges_done,
        "graph": graph,
        "messages": messages,
        "can_seed": evaluated,
        "can_follow": seeded and not graph["finished"],
        "description": description(graph),
    }


def initial():
    return new_state(evaluated=False, seeded=False, edges_done=0)


def evaluate(state):
    return new_state(evaluated=True, seeded=False, edges_done=0)


def seed_output_gradient(state):
    if not state_field(state, "evaluated"):
        raise ValueError("Evaluate x × x first: there is no output to seed yet.")
    return new_state(evaluated=True, seeded=True, edges_done=0)


def follow_next_operand(state):
    if not state_field(state, "seeded"):
        raise ValueError("Seed the output gradient first: the backward pass starts from dq/dq = 1.")
    root, _ = build(evaluated=True)
    if state_field(state, "edges_done") >= edge_count(root):
        raise ValueError("Both operands have been followed already.")
    return new_state(evaluated=True, seeded=True, edges_done=state_field(state, "edges_done") + 1)
