"""Model of the figure that `show(value)` draws under a runnable block: any Value's graph, stepped.

What it is: `picture(root, namespace)` reads the real graph of `root` (its `edges`, as
graph_trace does for figure 5) and returns a one-line summary ("Graph of loss: 8 values,
7 edges") and, when the graph is small enough to draw, the figure's data: a title and every
state of the step-through backward pass, precomputed, so the page can step with no call back
to Python. The engine records no operation names, so a value is named by a variable of the
block's namespace that holds it (`w`, `loss`), else by its place in the graph's order (#3).
The grads the reader's own backward() left are untouched (graph_trace restores them).
What it is not: the drawing (shown-graph.mjs, with backprop_graph.mjs and svg.mjs) or show()
itself (tutor.runtime.show puts it in each page's namespace and sends the graph to the page).
"""
from .graph_trace import all_states, values_in_order

MAX_VALUES = 60  # more boxes than this no longer fit a page's width as a readable drawing


# The functions from here to summary(), and graph_trace.values_in_order, use nothing but the
# Value's own attributes: the hook notebooks.py copies them into a chapter's notebook, whose show()
# prints the same line.
def counted(number, noun):
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def variable_name(value, namespace):
    """The first public variable of `namespace` that holds `value` itself, else None."""
    return next((name for name, held in namespace.items() if held is value and not name.startswith("_")), None)


def graph_title(root, namespace):
    name = variable_name(root, namespace)
    return f"Graph of {name}" if name else "Graph of the expression"


def summary(root, namespace):
    """The line show() prints, such as "Graph of loss: 8 values, 7 edges"."""
    values = values_in_order(root)
    edges = sum(len(value.edges) for value in values)
    return f"{graph_title(root, namespace)}: {counted(len(values), 'value')}, {counted(edges, 'edge')}"


def value_names(order, namespace):
    """{value: (symbol, None)} for the values a variable of `namespace` holds (trace() calls the others #k)."""
    return {node: (name, None) for node in order if (name := variable_name(node, namespace))}


def picture(root, namespace):
    """{"summary": one line of text, "figure": {"title", "states"} or None when too big to draw}."""
    line = summary(root, namespace)
    order = values_in_order(root)
    if len(order) > MAX_VALUES:
        return {"summary": f"{line}. Too many to draw: show() draws graphs of up to {MAX_VALUES} values; "
                           "show a smaller expression, such as one neuron's output or one example's loss.",
                "figure": None}
    states = all_states(root, value_names(order, namespace))
    return {"summary": line, "figure": {"title": graph_title(root, namespace), "states": states}}
