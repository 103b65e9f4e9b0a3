"""engine_expectations.py: what the site expects of a Value and an MLP, asked of a reader's engine in its own terms.

What it is: part of the engine check (tutor.engine_edit.problems, once the names are there).
`first_unmet(candidate)` makes a few small values and networks with the candidate module and asks, in
order, what the figures, show() and the blocks rely on (each EXPECTED text says it in the reader's
terms); it answers the first expectation the engine does not meet, with what the engine did instead
and the line of the engine where it went wrong, or "" when all are met. `gradient_difference(candidate)`
compares backward() with central differences on small graphs (random ones, and tanh alone): the first
difference in words, or "".
What it is not: the search for names (engine_edit.missing_names) or the trial of the figures (engine_trial).
"""
import inspect
import linecache
import math
import random
import sys
import traceback

OPERATORS = ("The lesson's blocks and figures compute with +, -, *, ** and unary - on Values, with a plain number "
             "on either side (w * 2, 2 * w, 5 - w, and the 0 that sum() starts from), and call v.tanh(); each "
             "gives a new Value. Python looks these operators up in the class Value itself (`def __add__(self, "
             "other):` in its body): it never asks __getattr__ for them.")
DISTINCT = ("Two values that hold the same number are still two values: the figures keep the values they have "
            "met in a set (as the lesson's topological_order does with `seen`), so Value(2) and Value(2) must be "
            "two members of a set. That rules out a Value that compares or hashes by its number, such as "
            "`class Value(float)`: keep the number in `data` instead.")
EDGES = ("Every Value keeps in `edges` the pairs (parent, local derivative) it was computed from: for c = a * b, "
         "((a, b.data), (b, a.data)); a leaf such as Value(2) has none. The figures and show() walk the graph "
         "through `edges`, and make values themselves as Value(data, [(parent, local derivative), ...]).")
FOLLOWS_EDGES = ("backward() passes each value's gradient on to its parents along `edges`, times the local "
                 "derivative: the site makes values such as |x| as Value(abs(x.data), [(x, sign)]) and relies on "
                 "backward() to reach x through that edge. After leaf = Value(2); made = Value(3, [(leaf, 1.5)]); "
                 "made.backward(), leaf.grad must be 1.5.")
ZEROES_FIRST = ("backward() first sets the grad of every value of the graph to 0, then adds up the new gradients, "
                "so that calling it again gives the same numbers: the figures call backward() on each redraw and "
                "each training step without clearing grads themselves (the lesson's backward() starts with "
                "`for node in order: node.grad = 0.0`).")
NETWORKS = ("The site makes networks as MLP(sizes, seed=...), for example MLP([2, 4, 1], seed=42): one list with "
            "the number of inputs and then the number of neurons of each layer, and the seed its starting "
            "weights are drawn from (the same seed gives the same weights). A network called on a list of inputs "
            "returns a list with one Value per neuron of its last layer, also when there is only one (the site "
            "reads network(inputs)[0]), and parameters() lists its weights and biases, each a Value.")
QUIET_FREEING = ("Python frees the values of a graph when nothing uses them any more, thousands in a figure: "
                 "freeing a Value must not raise. An error in __del__ is reported once for every value freed, "
                 "which makes every figure crawl.")
# What it tries now ("(a * a + a).backward()"): what a check stopped in the middle says it was doing.
trying = "nothing yet"
CHANGING = ("trying",)  # this module's own state: the keeper (tutor.runtime.keeper) leaves it alone
# Central differences: the step, and how far backward() may be from the estimate.
H = 1e-6
TOLERANCE = 1e-4


class Unmet(Exception):
    """An expectation the candidate does not meet; its text is the message for the reader."""


def first_unmet(candidate):
    """What the site expects of `candidate` (a module defining Value and MLP) that it does not do, in words, or ""."""
    global trying
    trying = "nothing yet"
    filename = getattr(candidate, "__file__", None)
    for expectation in (quiet_freeing, operators, distinct_values, edges_of_operations, backward_follows_edges,
                        backward_zeroes_first, networks):
        try:
            expectation(candidate, filename)
        except Unmet as unmet:
            return str(unmet)
    return ""


def attempt(expected, what, action, filename):
    """action(), or Unmet saying `expected` and that `what` fails with the engine, at the engine's line."""
    global trying
    trying = what
    try:
        return action()
    except (KeyboardInterrupt, Unmet):
        raise
    except BaseException as error:  # noqa: BLE001 - whatever the engine raises, the reader's engine did it
        raise Unmet(f"{expected}\nWith your engine, {what} fails: {raised_at(error, filename)}") from None


def operations():
    """(text, result maker, operands, the method of Value that makes it) of what the lesson does with
    values, on a = Value(3) and b = Value(2)."""
    return [("a + b", lambda a, b: a + b, 2, "__add__"), ("a * b", lambda a, b: a * b, 2, "__mul__"),
            ("a - b", lambda a, b: a - b, 2, "__sub__"), ("-a", lambda a, b: -a, 1, "__neg__"),
            ("a ** 2", lambda a, b: a ** 2, 1, "__pow__"), ("a + 2", lambda a, b: a + 2, 1, "__add__"),
            ("2 + a", lambda a, b: 2 + a, 1, "__radd__"), ("2 * a", lambda a, b: 2 * a, 1, "__rmul__"),
            ("5 - a", lambda a, b: 5 - a, 1, "__rsub__"), ("sum([a, b])", lambda a, b: sum([a, b]), 2, "__radd__"),
            ("a.tanh()", lambda a, b: a.tanh(), 1, "tanh")]


def made(candidate, filename, text, maker):
    """The Value `maker` makes from a = Value(3), b = Value(2), with the operands; Unmet if it is not a Value."""
    a, b = candidate.Value(3), candidate.Value(2)
    result = attempt(OPERATORS, text, lambda: maker(a, b), filename)
    if not isinstance(result, candidate.Value):
        raise Unmet(f"{OPERATORS}\nWith your engine, {text} gives {short(result)}, not a Value.")
    return result, a, b


def operators(candidate, filename):
    for text, maker, _, _ in operations():
        made(candidate, filename, text, maker)


def distinct_values(candidate, filename):
    value = candidate.Value
    count = attempt(DISTINCT, "{Value(2), Value(2)}", lambda: len({value(2), value(2)}), filename)
    if count != 2:
        where = class_line(value, filename) if issubclass(value, (int, float)) else defined_at(
            getattr(value, "__eq__", None), filename)
        raise Unmet(f"{DISTINCT}\nWith your engine, the set {{Value(2), Value(2)}} holds one value{where}.")


def edges_of_operations(candidate, filename):
    leaf = attempt(EDGES, "Value(2).edges", lambda: list(candidate.Value(2).edges), filename)
    if leaf:
        raise Unmet(f"{EDGES}\nWith your engine, the leaf Value(2) has edges {short(leaf)}{edges_line(candidate, None, filename)}.")
    for text, maker, operands, method in operations():
        result, a, b = made(candidate, filename, text, maker)
        edges = attempt(EDGES, f"({text}).edges", lambda: list(result.edges), filename)
        wrong = wrong_edge(edges, candidate.Value)
        if not wrong:
            missing = [name for name, operand in (("a", a), ("b", b))[:operands] if not reaches(result, operand)]
            wrong = f"following them never reaches {' or '.join(missing)}" if missing else ""
        if wrong:
            function = inspect.getattr_static(type(a), method, None)
            raise Unmet(f"{EDGES}\nWith your engine, {text} has edges {short(edges)}: {wrong}"
                        f"{edges_line(candidate, function, filename)}.")


def wrong_edge(edges, value):
    """What is wrong with the first edge of `edges` that is not a pair (a Value, a number), or ""."""
    for edge in edges:
        if not isinstance(edge, (tuple, list)) or len(edge) != 2:
            return f"{short(edge)} is not a pair (parent, local derivative)"
        parent, derivative = edge
        if not isinstance(parent, value):
            return f"the parent of the pair {short(edge)} is not a Value"
        if isinstance(derivative, value) or not hasattr(derivative, "__float__"):
            return f"the local derivative of the pair {short(edge)} is not a plain number"
    return ""


def reaches(result, operand):
    """Whether following `edges` from `result` reaches `operand` (the graph of one operation is small)."""
    stack, seen = [result], set()
    while stack:
        node = stack.pop()
        if node is operand:
            return True
        if id(node) not in seen and len(seen) < 1000:
            seen.add(id(node))
            stack.extend(parent for parent, _ in node.edges)
    return False


def backward_follows_edges(candidate, filename):
    value = candidate.Value
    leaf = attempt(FOLLOWS_EDGES, "Value(3, [(leaf, 1.5)])", lambda: value(2), filename)
    result = attempt(FOLLOWS_EDGES, "Value(3, [(leaf, 1.5)])", lambda: value(3, [(leaf, 1.5)]), filename)
    attempt(FOLLOWS_EDGES, "Value(3, [(leaf, 1.5)]).backward()", result.backward, filename)
    if not close(leaf.grad, 1.5):
        closure = (" If your values pass their gradient on in a closure such as `_backward`, the values the site makes "
                   "have none: walk `edges` instead, as the lesson's backward() does." if hasattr(result, "_backward")
                   else "")
        raise Unmet(f"{FOLLOWS_EDGES}\nWith your engine, leaf.grad is {short(leaf.grad)}"
                    f"{defined_at(value.backward, filename)}.{closure}")


def backward_zeroes_first(candidate, filename):
    a = candidate.Value(3)
    q = attempt(ZEROES_FIRST, "a * a + a", lambda: a * a + a, filename)
    grads = []
    for _ in range(2):
        attempt(ZEROES_FIRST, "(a * a + a).backward()", q.backward, filename)
        grads.append(a.grad)
    if not close(grads[0], grads[1]):
        raise Unmet(f"{ZEROES_FIRST}\nWith your engine, q = a * a + a at a = 3 gives a.grad = {short(grads[0])} after "
                    f"one q.backward() and {short(grads[1])} after a second one{defined_at(candidate.Value.backward, filename)}."
                    " (micrograd leaves this to zero_grad(), which the site never calls.)")


def networks(candidate, filename):
    mlp = candidate.MLP
    init = getattr(mlp, "__init__", None)
    try:
        inspect.signature(mlp).bind([2, 3, 1], seed=1)
    except TypeError:
        raise Unmet(f"{NETWORKS}\nYour engine's network is MLP{signature(mlp)}{defined_at(init, filename)}, so "
                    "MLP([2, 3, 1], seed=1) does not fit it.") from None
    except ValueError:  # no signature to read: calling it will tell
        pass
    first, second = (attempt(NETWORKS, "MLP([2, 3, 1], seed=1)", lambda: mlp([2, 3, 1], seed=1), filename)
                     for _ in range(2))
    weights = [attempt(NETWORKS, "MLP([2, 3, 1], seed=1).parameters()", lambda: list(network.parameters()), filename)
               for network in (first, second)]
    if len(weights[0]) != 13 or not all(isinstance(p, candidate.Value) for p in weights[0]):
        raise Unmet(f"{NETWORKS}\nWith your engine, MLP([2, 3, 1], seed=1).parameters() gives {short(weights[0])}, "
                    "not 13 Values (3 neurons with 2 weights and a bias, then 1 neuron with 3 weights and a bias).")
    if [p.data for p in weights[0]] != [p.data for p in weights[1]]:
        raise Unmet(f"{NETWORKS}\nWith your engine, two networks MLP([2, 3, 1], seed=1) start with different "
                    f"weights{defined_at(init, filename)}.")
    outputs = attempt(NETWORKS, "MLP([2, 3, 1], seed=1)([0.5, -1.0])", lambda: first([0.5, -1.0]), filename)
    if not (isinstance(outputs, (list, tuple)) and len(outputs) == 1 and isinstance(outputs[0], candidate.Value)):
        raise Unmet(f"{NETWORKS}\nWith your engine, MLP([2, 3, 1], seed=1)([0.5, -1.0]) gives {short(outputs)}, not a "
                    f"list of one Value{defined_at(getattr(mlp, '__call__', None), filename)}.")


def quiet_freeing(candidate, filename):
    raised = []
    hook, sys.unraisablehook = sys.unraisablehook, raised.append
    try:
        attempt(QUIET_FREEING, "Value(3, [(Value(2), 1.5)])", lambda: candidate.Value(3, [(candidate.Value(2), 1.5)]),
                filename)  # made and freed at once
    finally:
        sys.unraisablehook = hook
    if raised:
        error = raised[0].exc_value
        raise Unmet(f"{QUIET_FREEING}\nWith your engine, freeing a Value raises {last_line(error)}"
                    f"{defined_at(getattr(candidate.Value, '__del__', None), filename)}.")


# ---- Gradients against central differences ----------------------------------------------------------

def gradient_difference(candidate, graphs=20, seed=0):
    """The first gradient of `candidate`'s backward() that differs from a central difference, in words, or "".
    None of them is a number a prediction of "Edit the engine" asks for (a * a + a at 3, tanh at 0).
    Tried on tanh alone at a few points and on `graphs` small random graphs of a, b and c (some used twice)."""
    rng = random.Random(seed)
    tried = [("tanh(a)", {"a": x}) for x in (-1.5, 0.5, 2.0)]
    tried += [(random_formula(rng, 3), {name: round(rng.uniform(-2, 2), 2) for name in "abc"}) for _ in range(graphs)]
    for formula, point in tried:
        names = [name for name in "abc" if name in formula]
        values = {name: candidate.Value(point[name]) for name in names}
        evaluated(formula, values, candidate).backward()
        for name in names:
            estimate = central_difference(formula, point, name, candidate)
            if not close(values[name].grad, estimate, TOLERANCE):
                at = ", ".join(f"{other} = {point[other]}" for other in names)
                return (f"for f = {formula} at {at}, backward() gives {name}.grad = {values[name].grad:.6g}, and the "
                        f"central difference (f({name} + h) − f({name} − h)) / 2h with h = {H:g} gives {estimate:.6g}")
    return ""


def random_formula(rng, depth):
    """A formula of a, b and c with +, -, *, ** 2 and tanh, at most `depth` operations deep."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice("abc")
    kind = rng.choice(["+", "-", "*", "tanh", "square"])
    if kind == "tanh":
        return f"tanh({random_formula(rng, depth - 1)})"
    if kind == "square":
        return f"({random_formula(rng, depth - 1)}) ** 2"
    return f"({random_formula(rng, depth - 1)} {kind} {random_formula(rng, depth - 1)})"


def evaluated(formula, values, candidate):
    """The candidate's Value of `formula` for the Values `values` (tanh written as a function)."""
    return eval(formula, {"__builtins__": {}, "tanh": lambda v: v.tanh()}, dict(values))  # noqa: S307 - our own formula


def central_difference(formula, point, name, candidate):
    def at(shift):
        values = {other: candidate.Value(number + (shift if other == name else 0)) for other, number in point.items()
                  if other in formula}
        return evaluated(formula, values, candidate).data
    return (at(H) - at(-H)) / (2 * H)


# ---- Words ------------------------------------------------------------------------------------------------

def close(x, y, tolerance=1e-9):
    try:
        return math.isclose(float(x), float(y), rel_tol=tolerance, abs_tol=tolerance)
    except (TypeError, ValueError):
        return False


def short(thing, limit=120):
    """repr(thing), cut to `limit` characters; a repr that fails is said so."""
    try:
        text = repr(thing)
    except Exception as failure:  # noqa: BLE001 - the reader's __repr__
        text = f"(a {type(thing).__name__} whose repr() raised {type(failure).__name__})"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def at_line(filename, number):
    text = linecache.getline(filename, number).strip()
    return f"line {number} of your engine" + (f": `{text}`" if text else "")


def defined_at(function, filename):
    """" (line N of your engine: `def ...`)" where `function` starts in the engine, or ""."""
    function = getattr(function, "fget", function)  # a property: its getter
    code = getattr(getattr(function, "__func__", function), "__code__", None)
    if code is None or filename is None or code.co_filename != filename:
        return ""
    number = code.co_firstlineno
    while linecache.getline(filename, number).lstrip().startswith("@"):  # a decorator: the def is below
        number += 1
    return f" ({at_line(filename, number)})"


def class_line(cls, filename):
    """" (line N of your engine: `class Value(float):`)", found in the engine's text, or ""."""
    for number, line in enumerate(linecache.getlines(filename or ""), start=1):
        if line.lstrip().startswith(f"class {cls.__name__}"):
            return f" ({at_line(filename, number)})"
    return ""


def edges_line(candidate, function, filename):
    """Where the edges come from: a property `edges` of Value if there is one, else `function`."""
    descriptor = inspect.getattr_static(candidate.Value, "edges", None)
    return defined_at(descriptor, filename) if isinstance(descriptor, property) else defined_at(function, filename)


def signature(callable_):
    try:
        return str(inspect.signature(callable_))
    except (TypeError, ValueError):
        return "(...)"


def last_line(error):
    return "".join(traceback.format_exception_only(error)).strip()


def raised_at(error, filename):
    """Python's last line of `error`, with the last line of the engine it passed through."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    return last_line(error) + (f" ({at_line(filename, frames[-1].lineno)})" if frames else "")
