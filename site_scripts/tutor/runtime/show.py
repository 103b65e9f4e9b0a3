"""show.py: `show(value)`, which every page's namespace holds.

What it is: `shower(namespace)` makes the `show` of one page's namespace. show(value) prints a
one-line summary of the graph of a Value ("Graph of loss: 8 values, 7 edges") and, inside a run,
hands the graph itself to the run's output (output.py), which sends it to the page as a "graph"
event after the text printed before it; the page draws it under the block. The graph's states come
from tutor.figures.expression_graph, imported when show() is called (the engine may be another one
by then). Only the first output.GRAPHS_PER_RUN graphs of a run are drawn; later ones print only
their summary.
What it is not: the drawing (shown-graph.mjs) or the graph's states (expression_graph.py).
"""
import importlib
import reprlib

from . import output

GRAPHS_MODULE = "tutor.figures.expression_graph"


def shower(namespace):
    """The `show` function of one page's namespace (it names values by that namespace's variables)."""
    def show(value):
        """Print a summary of the graph that computed `value` (a Value) and draw it under the block,
        with buttons that step through its backward pass. The grads you computed are left as they are."""
        engine_value = importlib.import_module("tinygrad").Value
        if not isinstance(value, engine_value):
            raise TypeError(f"show() draws the graph of a Value, for example show(loss); it got "
                            f"{reprlib.repr(value)} (type {type(value).__name__})")
        graphs = importlib.import_module(GRAPHS_MODULE)
        running = output.current()  # None outside a run of a block: then only the summary is printed
        if running is not None and not running.graphs_left:
            print(graphs.summary(value, namespace))
            running.refuse_graph()
            return
        shown = graphs.picture(value, namespace)
        print(shown["summary"])
        if shown["figure"] is not None and running is not None:
            running.graph(shown["figure"])

    return show
