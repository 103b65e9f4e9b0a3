"""Model of the figure "Backpropagate by hand": the reader fills in every box's gradient, from the output back.

What it is: the graph of "Backpropagation on the graph" (backprop_graph.build: L = (w·x + b − y)² at
w = 1, x = 2, b = 0, y = 5), or, chosen by the reader, the graph of "Paths add up" (q = a·a + a at
a = 3), where one value is used three times. Each box has a field, opened one at a time in the order
the backward pass completes the gradients (graph_trace.completion_order). An entry is compared with the
gradient the chain rule gives from the engine's edges (graph_trace.chain_rule: each use hands back the
result's gradient times the local derivative stored on its edge, and the uses add up); a wrong one is
compared with the usual slips, computed from the same edges (one path of several, the local derivative
left out or taken from the other operand, the sign, the value instead of its gradient) and the sentence
names the rule that was missed. Text that is not a number never comes here: the page says why (figure.mjs's
numberField). Once every box is right, the engine's own backward() fills a copy of the graph and the
state says whether it agrees box by box (an edited engine may not). Every state says how many boxes of both
graphs are right (`progress`), which the page keeps for the reader's work file.
What it is not: the view (backprop_by_hand.mjs draws the graphs with svg.mjs and the fields with the
frame's number fields), or a second engine: expected gradients come from the engine's own edges.
"""
from itertools import combinations

from . import backprop_graph, paths_add_up
from .by_hand import checked_entries, entry, kept, open_row, rows
from .display import exact_text, number_text, state_field
from .graph_trace import EDGE_DIGITS, chain_rule, completion_order, description, trace, values_in_order

TITLE = "Backpropagate by hand"
PAGE_CALLS = ("initial", "check_entry", "choose_graph", "start_again")
SAVES_PROGRESS = True  # its states carry `progress`, the boxes right: the work file and the class overview count it
GRAPHS = {  # choice -> (the radio's label, build() returning (root, names))
    "loss": ("L = (w·x + b − y)²", backprop_graph.build),
    "paths": ("q = a·a + a", paths_add_up.build),
}
DEFAULT_GRAPH = "loss"
OPERAND = ("left operand", "right operand")
MAX_PATHS_COMPARED = 8  # uses of one value whose partial sums a wrong entry is compared with


def agrees(number, expected):
    return abs(number - expected) <= 1e-9 * max(1.0, abs(expected))


def factor(number):
    """A number as the right-hand factor of a product: −1 in brackets, 2 without."""
    text = number_text(number)
    return f"({text})" if number < 0 else text


class Graph:
    """One of the figure's graphs, built afresh by the engine, with what the checks need to know."""

    def __init__(self, choice):
        self.choice = choice
        self.formula, build = GRAPHS[choice]
        self.root, names = build()
        self.order = values_in_order(self.root)
        self.picture = trace(self.root, names, seeded=False, edges_done=0)  # boxes and edges, no gradient yet
        self.symbol = {value: node["symbol"] for value, node in zip(self.order, self.picture["nodes"])}
        _, self.gradients, self.uses = chain_rule(self.root)
        self.filling = completion_order(self.root)
        self.boxes = [{"key": self.symbol[value], "label": f"Gradient of {self.symbol[value]}",
                       "expected": self.gradients[value], "hint": self.edges_hint(value)} for value in self.filling]
        self.by_key = {self.symbol[value]: value for value in self.filling}

    def use_name(self, child, position):
        """How a sentence names one use of a value: "L", or "a·a's left operand" when both operands are that value."""
        parent = child.edges[position][0]
        if sum(1 for other, _ in child.edges if other is parent) > 1:
            return f"{self.symbol[child]}'s {OPERAND[position] if position < 2 else f'operand {position + 1}'}"
        return self.symbol[child]

    def edges_hint(self, value):
        """What the graph writes on the edges out of `value`, for beside its field: "its edge to w·x: × 2",
        "its edges to a·a: × 3, × 3; to q: × 1", or "the output" for the root."""
        if value is self.root:
            return "the output: start here"
        by_child = {}
        for child, _, local in self.uses[value]:
            by_child.setdefault(child, []).append(f"× {number_text(local)}")
        parts = [f"to {self.symbol[child]}: {', '.join(locals_)}" for child, locals_ in by_child.items()]
        return f"its edge{'s' if len(self.uses[value]) > 1 else ''} {'; '.join(parts)}"

    def contribution(self, use):
        child, _, local_derivative = use
        return self.gradients[child] * local_derivative

    def product_text(self, value):
        """"−6 × 2 = −12": the gradient of `value` as the chain rule builds it."""
        terms = [f"{number_text(self.gradients[child])} × {factor(local)}" for child, _, local in self.uses[value]]
        return f"{' + '.join(terms)} = {number_text(self.gradients[value])}"


def right_sentence(graph, value):
    symbol = graph.symbol[value]
    if value is graph.root:
        return f"Right: d{symbol}/d{symbol} = 1. The backward pass starts here, at the output."
    return f"Right: the gradient of {symbol} is {graph.product_text(value)}."


def slip(graph, value, number):
    """The sentence for a wrong `number` typed as the gradient of `value`: which rule it missed."""
    symbol, output = graph.symbol[value], graph.symbol[graph.root]
    typed = exact_text(number)
    if value is graph.root:
        return (f"Not {typed}. The backward pass starts at {output} itself: when {output} moves by a small amount, "
                f"{output} moves by exactly that amount, so d{output}/d{output} = 1.")
    uses = graph.uses[value]
    expected = graph.gradients[value]
    if 1 < len(uses) <= MAX_PATHS_COMPARED:
        for size in range(1, len(uses)):
            for chosen in combinations(range(len(uses)), size):
                if agrees(number, sum(graph.contribution(uses[index]) for index in chosen)):
                    missing = [f"the one through {graph.use_name(child, position)} ({number_text(graph.contribution(use))})"
                               for index, use in enumerate(uses) if index not in chosen
                               for child, position, _ in [use]]
                    return (f"That adds up {size} of the {len(uses)} paths into {symbol}: {' and '.join(missing)} "
                            f"{'is' if len(missing) == 1 else 'are'} missing. {symbol} is used {len(uses)} times, and its "
                            "gradient is the sum of what arrives along every use.")
    if expected and agrees(number, -expected):
        return (f"The size is right, the sign is not. Look again at the sign of the local derivative on each edge "
                f"into {symbol}, and of the gradient it multiplies.")
    children = sorted({graph.symbol[child] for child, _, _ in uses})
    passed_on = sum(graph.gradients[child] for child, _, _ in uses)
    if agrees(number, passed_on):
        locals_text = ", ".join(f"× {number_text(local)}" for _, _, local in uses)
        return (f"That passes the gradient of {' and '.join(children)} on unchanged: the local derivative is missing. "
                f"Multiply by the number on the edge into {symbol} ({locals_text}): it says how much "
                f"{' and '.join(children)} moves when {symbol} moves.")
    if len(uses) == 1:
        child, position, local = uses[0]
        if len(child.edges) == 2 and child.edges[0][0] is not child.edges[1][0]:
            other, other_local = child.edges[1 - position]
            if other_local != local and agrees(number, graph.gradients[child] * other_local):
                product = agrees(local, other.data) and agrees(other_local, value.data)  # each edge carries the other's value
                why = f" (the other operand, {graph.symbol[other]} = {number_text(other.data)})" if product else ""
                return (f"That used × {number_text(other_local)}, the number on {graph.symbol[other]}'s edge. "
                        f"The edge from {symbol} carries × {number_text(local)}{why}.")
    if agrees(number, sum(local for _, _, local in uses)):
        return (f"That is the local derivative alone. Multiply it by the gradient of {' and '.join(children)}: "
                f"{output} reacts to {symbol} only through {' and '.join(children)}.")
    if agrees(number, value.data) and not agrees(value.data, expected):
        return (f"That is the value of {symbol}, not its gradient. The gradient says how much {output} moves when "
                f"{symbol} moves: the gradient of {' and '.join(children)} times the local derivative on the edge.")
    return (f"Not {typed}. Each edge into {symbol} hands back the gradient of its result times the local derivative "
            f"written on it; {symbol} is used by {', '.join(graph.use_name(child, position) for child, position, _ in uses)}.")


def drawn(graph, form):
    """The graph as the reader has filled it: right boxes show their gradient, the open box is marked,
    the edges into filled boxes show what they added and the edges into the open box are next."""
    picture = {**graph.picture, "nodes": [dict(node) for node in graph.picture["nodes"]],
               "edges": [dict(edge) for edge in graph.picture["edges"]], "seeded": True, "messages": []}
    right = {row["key"] for row in form if row["right"]}
    current = open_row(form)
    for node in picture["nodes"]:
        node["grad_text"] = number_text(graph.gradients[graph.by_key[node["symbol"]]]) if node["symbol"] in right else None
        node["is_active"] = current is not None and node["symbol"] == current["key"]
    # trace() lists the edges in the order of the backward pass: each value's edges, newest value first
    schedule = [(child, position) for child in reversed(graph.order) for position in range(len(child.edges))]
    for edge, (child, position) in zip(picture["edges"], schedule):
        parent, local_derivative = child.edges[position]
        if graph.symbol[parent] in right:
            edge.update(state="done", contribution_text=number_text(graph.gradients[child] * local_derivative, EDGE_DIGITS))
        else:
            edge["state"] = "next" if current is not None and graph.symbol[parent] == current["key"] else "waiting"
    for node, value in zip(picture["nodes"], graph.order):
        node["contributions"] = ([number_text(graph.contribution(use)) for use in graph.uses[value]]
                                 if node["symbol"] in right else [])
    picture["finished"] = current is None
    return picture


def filled_by_backward(choice):
    """The same graph after the engine's own backward(): every box holds the grad backward() left."""
    graph = Graph(choice)
    graph.root.backward()
    picture = {**graph.picture, "nodes": [dict(node) for node in graph.picture["nodes"]],
               "edges": [{**edge, "state": "done"} for edge in graph.picture["edges"]], "seeded": True,
               "finished": True, "messages": []}
    for node, value in zip(picture["nodes"], graph.order):
        node.update(grad_text=number_text(value.grad), is_active=False)
    return picture, {graph.symbol[value]: value.grad for value in graph.order}


def comparison(graph, engine_gradients):
    """What backward() says next to the reader's gradients (the chain rule's, since every box is right)."""
    differing = [f"{key} ({number_text(engine_gradients.get(key, float('nan')))} instead of {number_text(box['expected'])})"
                 for box in graph.boxes for key in [box["key"]]
                 if key not in engine_gradients or not agrees(engine_gradients[key], box["expected"])]
    if not differing:
        return f"Every box is filled. The engine's backward() filled the same graph (drawn above) and agrees with all {len(graph.boxes)} of your gradients."
    return (f"Every box is filled. The engine's backward() filled the same graph (drawn above) but differs in {len(differing)} "
            f"box{'es' if len(differing) > 1 else ''}: {'; '.join(differing)}. The engine in use does not follow the chain rule there.")


def new_state(choice, entries, messages, warning=False):
    """Everything the view draws, for the graph `choice` and the entries of every field of both graphs."""
    graphs = {name: Graph(name) for name in GRAPHS}
    forms = {name: rows(graph.boxes, entries[name], agrees) for name, graph in graphs.items()}
    graph, form = graphs[choice], forms[choice]
    current = open_row(form)
    engine_graph = None
    if current is None:
        engine_graph, engine_gradients = filled_by_backward(choice)
        if not warning:
            messages = messages + [comparison(graph, engine_gradients)]
    elif not warning:
        messages = messages + [f"Next: the gradient of {current['key']}."]
    right = sum(row["right"] for row in form)
    picture = drawn(graph, form)
    return {
        "choice": choice,
        "choices": [[name, label] for name, (label, _) in GRAPHS.items()],
        "entries": {name: kept(forms[name], entries[name]) for name in GRAPHS},
        "forms": {name: [{**{key: row[key] for key in ("key", "label", "text", "right", "open", "invalid")}, "hint": box["hint"]}
                         for row, box in zip(form, graphs[name].boxes)] for name, form in forms.items()},
        "graph": picture,
        "engine_graph": engine_graph,
        "finished": current is None,
        "right_text": f"{right} of {len(form)}",
        # the boxes right in both graphs, which the page saves (the most so far) for "Your work" and the class overview
        "progress": {"right": sum(row["right"] for form in forms.values() for row in form),
                     "total": sum(len(form) for form in forms.values())},
        "messages": messages,
        "warning": warning,
        "description": description(picture) + (f" After backward(): {description(engine_graph)}" if engine_graph else ""),
    }


def empty_entries():
    return {name: {} for name in GRAPHS}


def unpacked(state):
    """(choice, entries) of a state this figure returned, checked."""
    choice = checked_choice(state_field(state, "choice"))
    entries = state_field(state, "entries")
    if not isinstance(entries, dict) or set(entries) != set(GRAPHS):
        raise ValueError(f"state['entries'] must hold the entries of the graphs {', '.join(GRAPHS)}")
    return choice, {name: checked_entries(entries[name], [box["key"] for box in Graph(name).boxes]) for name in GRAPHS}


def checked_choice(choice):
    if choice not in GRAPHS:
        raise ValueError(f"the graph must be one of {', '.join(GRAPHS)}, not {choice!r}")
    return choice


def opening(choice):
    graph = Graph(choice)
    return f"Fill in the gradient of every box of {graph.formula}, from the output back."


def initial():
    return new_state(DEFAULT_GRAPH, empty_entries(), [opening(DEFAULT_GRAPH)])


def choose_graph(state, choice):
    _, entries = unpacked(state)
    choice = checked_choice(choice)
    return new_state(choice, entries, [opening(choice)] if not entries[choice] else [])


def start_again(state):
    """The chosen graph with every field empty again (the other graph keeps its entries)."""
    choice, entries = unpacked(state)
    entries[choice] = {}
    return new_state(choice, entries, [opening(choice)])


def check_entry(state, box, text, number):
    """Check `number`, typed as `text` into the field of `box` (a symbol such as "e"): the next state, whose
    messages say whether it is right, or which rule a wrong number missed."""
    choice, entries = unpacked(state)
    graph = Graph(choice)
    form = rows(graph.boxes, entries[choice], agrees)
    if not isinstance(box, str):
        raise ValueError(f"box must name a box of the graph, not {box!r}")
    entries[choice][box] = entry(form, box, text, number)
    value, number = graph.by_key[box], entries[choice][box]["number"]
    if agrees(number, graph.gradients[value]):
        return new_state(choice, entries, [right_sentence(graph, value)])
    return new_state(choice, entries, [slip(graph, value, number)], warning=True)
