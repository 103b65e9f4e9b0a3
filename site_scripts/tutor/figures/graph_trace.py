"""A backward pass replayed one edge at a time, for the figures that draw a computation graph.

What it is: given the result of an engine computation and a name for each value in it,
`trace()` returns the graph as plain data (one node per Value, one edge per engine edge,
read from the real `edges`) together with the gradients after the first `edges_done` edges
of the backward pass. Its order is a topological one, found by `values_in_order()` from the
values' `edges` alone, and walked from the output, each value passing `grad × local
derivative` to its parents. `all_states()` precomputes every step of that replay at once
(for show() under a block, whose figure steps with no call back to Python) and leaves the
values' grads as it found them. The site reads nothing of a Value but `data`, `grad` and
`edges`, so the figures work with any engine the page "Edit the engine" accepts.
What it is not: a second autodiff engine. The gradients it ends with are the ones
`backward()` computes (the tests check that); it only lets a reader stop half-way.
"""
from .display import number_text, state_field

OPERAND_NAMES = {1: ("operand",), 2: ("left operand", "right operand")}
EDGE_DIGITS = 3  # significant digits of an edge's labels ("× 0.642", "adds 2.46 × 10⁻⁵"): they sit between boxes


def values_in_order(root):
    """`root` and every value it was computed from, each after the values it was computed from.

    A depth-first walk over `edges` with a stack of its own (no recursion, so a chain of any
    length works), reading each value's edges once: parents come in the order of the edges,
    as a recursive walk would place them. The site's one walk over a graph.
    """
    order, seen = [], {root}
    stack = [(root, iter(root.edges))]  # each value being visited, with the edges it has yet to follow
    while stack:
        node, edges = stack[-1]
        for parent, _ in edges:
            if parent not in seen:
                seen.add(parent)
                stack.append((parent, iter(parent.edges)))
                break
        else:  # every parent is placed: now the value itself
            stack.pop()
            order.append(node)
    return order


def backward_schedule(root):
    """The graph's values in a topological order and the edges in the order the replay follows them."""
    order = values_in_order(root)
    schedule = [(child, position) for child in reversed(order) for position in range(len(child.edges))]
    return order, schedule


def operation_ends(schedule):
    """How many edges are done after each whole operation (all edges of one value)."""
    ends = []
    for index, (child, _) in enumerate(schedule):
        if index + 1 == len(schedule) or schedule[index + 1][0] is not child:
            ends.append(index + 1)
    return ends


def next_operation_end(root, edges_done):
    """`edges_done` advanced to the end of the next operation of the backward pass."""
    _, schedule = backward_schedule(root)
    return next((end for end in operation_ends(schedule) if end > edges_done), len(schedule))


def chain_rule(root):
    """(order, gradients, uses) of the graph of `root`: its values in order, {value: d root / d value}
    summed over every use, and {value: [(child, position, local derivative), ...]}, the edges that point
    at each value, in the order the backward pass follows them. Computed from the edges alone, the way
    the replay below computes them (the tests check that backward() agrees), for the figures that check a
    reader's own gradients against it."""
    order, schedule = backward_schedule(root)
    gradients = {node: 0.0 for node in order}
    uses = {node: [] for node in order}
    gradients[root] = 1.0
    for child, position in schedule:
        parent, local_derivative = child.edges[position]
        uses[parent].append((child, position, local_derivative))
        gradients[parent] += gradients[child] * local_derivative
    return order, gradients, uses


def completion_order(root):
    """The values in the order their gradients become complete in the backward pass: the root, then
    each value once the last edge that points at it has been followed (operation by operation)."""
    order, schedule = backward_schedule(root)
    last_edge = {}
    for index, (child, position) in enumerate(schedule):
        last_edge[child.edges[position][0]] = index
    return [root] + sorted((node for node in order if node in last_edge), key=last_edge.get)


def edge_count(root):
    return len(backward_schedule(root)[1])


def trace(root, names, seeded, edges_done):
    """The graph of `root` with gradients after seeding (if `seeded`) and `edges_done` edges.

    `names` maps each Value to (symbol, formula): the symbol ("w", "e", "L") names it in
    sentences, the formula ("ŷ − y", or None for an input) says how it was computed. A value
    `names` leaves out (an edited engine may make more values, such as a leaf for a number)
    is called #k, after its place k in the order.
    """
    order, schedule = backward_schedule(root)
    names = {node: names.get(node) or (f"#{index}", None) for index, node in enumerate(order, start=1)}
    if not 0 <= edges_done <= len(schedule) or (edges_done and not seeded):
        raise ValueError(f"edges_done must lie between 0 and {len(schedule)} after seeding, not {edges_done!r}")
    ids = {node: index for index, node in enumerate(order)}
    final = chain_rule(root)[1]  # each value's gradient once the pass is over: what each edge will add
    contributions = {node: [] for node in order}
    for node in order:
        node.grad = 0.0
    if seeded:
        root.grad = 1.0
    edges, messages = [], []
    # The value whose gradient was passed on last (the seeded root before any edge): the figure
    # highlights it and the edges it just followed.
    active = schedule[edges_done - 1][0] if edges_done else root if seeded else None
    for index, (child, position) in enumerate(schedule):
        parent, local_derivative = child.edges[position]
        operand = OPERAND_NAMES.get(len(child.edges), ("operand",) * len(child.edges))[position]
        edge = {
            "parent": ids[parent],
            "child": ids[child],
            "operand": operand,
            "local_text": number_text(local_derivative, EDGE_DIGITS),
            "contribution_text": None,
            # the longest line this edge's label shows in the pass, so the drawing keeps room for it from the start
            "widest_label": max(f"× {number_text(local_derivative, EDGE_DIGITS)}",
                                f"adds {number_text(final[child] * local_derivative, EDGE_DIGITS)}", key=len),
            "state": "done" if index < edges_done else "next" if seeded and index == edges_done else "waiting",
            "active": index < edges_done and child is active,
        }
        if index < edges_done:
            contribution = child.grad * local_derivative
            parent.grad += contribution
            contributions[parent].append(number_text(contribution))
            edge["contribution_text"] = number_text(contribution, EDGE_DIGITS)
            if messages and schedule[index - 1][0] is not child:
                messages = []  # only the sentences of the operation done last
            messages.append(
                f"{operand.capitalize()} of {names[child][0]}: {number_text(child.grad)} × {number_text(local_derivative)}"
                f" = {number_text(contribution)}, added to the gradient of {names[parent][0]}, now {number_text(parent.grad)}."
            )
        edges.append(edge)
    reached = {root} if seeded else set()
    reached.update(order[edge["parent"]] for edge in edges if edge["state"] == "done")
    nodes = [
        {
            "id": ids[node],
            "symbol": names[node][0],
            "formula": names[node][1],
            "data_text": number_text(node.data),
            "grad_text": number_text(node.grad) if node in reached else None,
            "contributions": contributions[node],
            "is_root": node is root,
            "is_active": node is active,
            "is_leaf": not node.edges,
        }
        for node in order
    ]
    if seeded and not messages:
        symbol = names[root][0]
        messages = [f"Seed: d{symbol}/d{symbol} = 1, the gradient of {symbol} with respect to itself."]
    return {
        "nodes": nodes,
        "edges": edges,
        "seeded": seeded,
        "edges_done": edges_done,
        "finished": seeded and edges_done == len(schedule),
        "messages": messages,
    }


def description(graph):
    """One sentence for screen readers: every value with its gradient so far, and how far the backward pass is."""
    values = "; ".join(
        (f"{node['symbol']} = {node['formula']}" if node["formula"] else node["symbol"]) + f" is {node['data_text']}"
        + ("" if node["grad_text"] is None else f" with gradient {node['grad_text']}") for node in graph["nodes"])
    done = sum(edge["state"] == "done" for edge in graph["edges"])
    progress = f"{done} of {len(graph['edges'])} edges followed backward" if graph["seeded"] else "not seeded yet"
    return f"Computation graph: {values}. Backward pass: {progress}."


def stepping_state(root, names, seeded, edges_done, closing_sentence):
    """The state of a figure that steps through the backward pass one operation at a time:
    {"seeded", "edges_done", "graph", "messages", "can_step"}. `closing_sentence(graph)` is said
    once the pass is complete."""
    graph = trace(root, names, seeded, edges_done)
    if not seeded:
        symbol, result = graph["nodes"][-1]["symbol"], graph["nodes"][-1]["data_text"]  # the root comes last
        messages = [f"Forward pass done: {symbol} = {result}. Seed the gradient to start the backward pass."]
    elif graph["finished"]:
        messages = graph["messages"] + [closing_sentence(graph)]
    else:
        messages = graph["messages"]
    return {"seeded": seeded, "edges_done": edges_done, "graph": graph, "messages": messages,
            "can_step": seeded and not graph["finished"], "description": description(graph)}


def pass_complete(graph):
    """The closing sentence that names the root: "Every value now holds dL/d(value): …"."""
    symbol = next(node["symbol"] for node in graph["nodes"] if node["is_root"])
    return f"Every value now holds d{symbol}/d(value): the backward pass is complete."


def all_states(root, names, closing_sentence=pass_complete):
    """Every state of the stepping in order: before the seed, seeded, then after each operation.
    The grads of the graph's values are put back as they were."""
    order, schedule = backward_schedule(root)
    grads_before = [(node, node.grad) for node in order]
    try:
        return ([stepping_state(root, names, False, 0, closing_sentence),
                 stepping_state(root, names, True, 0, closing_sentence)]
                + [stepping_state(root, names, True, end, closing_sentence) for end in operation_ends(schedule)])
    finally:
        for node, grad in grads_before:
            node.grad = grad


def operation_stepping(build, closing_sentence=pass_complete):
    """The functions of a figure whose two buttons seed the gradient and backpropagate one operation.

    `build()` returns (root, names) afresh; `closing_sentence(graph)` is said once the pass is
    complete. Returns (initial, seed_gradient, backpropagate_one_operation), each returning the
    figure's whole state (see stepping_state).
    """
    def new_state(seeded, edges_done):
        root, names = build()
        return stepping_state(root, names, seeded, edges_done, closing_sentence)

    def initial():
        return new_state(seeded=False, edges_done=0)

    def seed_gradient(state):
        return new_state(seeded=True, edges_done=0)

    def backpropagate_one_operation(state):
        root, names = build()
        if not state_field(state, "seeded"):
            symbol = names[root][0]
            raise ValueError(f"Seed the gradient first: backpropagation starts from d{symbol}/d{symbol} = 1.")
        if state_field(state, "edges_done") >= edge_count(root):
            raise ValueError("The backward pass is complete: seed the gradient again to replay it.")
        return new_state(seeded=True, edges_done=next_operation_end(root, state_field(state, "edges_done")))

    return initial, seed_gradient, backpropagate_one_operation
