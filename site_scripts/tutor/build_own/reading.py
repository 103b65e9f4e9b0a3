"""reading.py: the reader's values read by the checks of "Build your own engine", with plain-words errors.

What it is: the helpers every step's checks read the reader's engine with: attempt(what, action,
should) runs the reader's code and turns what it raises into NotYet in the check's words; new_value,
data_of, grad_of and edges_of read a Value (its edges as pairs (parent, local derivative), a dict
read too so that a lost edge shows as such); order_by_edges and gradients are the checks' own walk
of the reader's edges (before step 5), or the reader's backward() (from step 5); dismantle frees a
long chain one node at a time; reflected_method_missing explains the TypeError of a missing reflected
method, backward_slip names the usual slips of backward() from the gradients it gave.
What it is not: a check (the step modules hold those).
"""
import re

from ..exercises import NotYet, close, defined

# For a number on the left of a Value, Python asks the Value for the reflected method: which one, and how to attach it.
REFLECTED = {"+": "Value.__radd__ = Value.__add__", "*": "Value.__rmul__ = Value.__mul__",
             "-": "Value.__rsub__ = __rsub__", "/": "Value.__rtruediv__ = __rtruediv__"}
NUMBER_ON_THE_LEFT = re.compile(r"unsupported operand type\(s\) for (?P<symbol>[-+*/]): '(int|float)' and '\w+'")


def reflected_method_missing(error):
    """Why a TypeError such as "unsupported operand type(s) for *: 'int' and 'Value'" happened, or ""."""
    found = NUMBER_ON_THE_LEFT.search(str(error)) if isinstance(error, TypeError) else None
    if not found:
        return ""
    symbol = found["symbol"]
    return (f"A plain number stood on the left of {symbol} and a Value on its right (in the expression, or inside "
            f"one of your methods, such as -1 * other). Python then asks the Value for the reflected method; "
            f"attach it: {REFLECTED[symbol]}.")


def attempt(what, action, should):
    """action(), or NotYet saying that `what` raised, and what it should do instead."""
    try:
        return action()
    except NotYet:
        raise
    except RecursionError:
        raise NotYet(f"{what} raised RecursionError (a function kept calling itself): it should "
                     f"{should}.") from None
    except Exception as error:  # noqa: BLE001 - the reader's code failed: say so in the check's words
        why = reflected_method_missing(error)
        raise NotYet(f"{what} raised {type(error).__name__}: {error}. " + (why or f"It should {should}.")) from None


def value_class(namespace):
    return defined(namespace, "Value", "a class")


def new_value(namespace, number):
    Value = value_class(namespace)
    return attempt(f"Value({number})", lambda: Value(number), "make a new Value holding that number")


def data_of(node, what):
    if not hasattr(node, "data"):
        raise NotYet(f"{what} should be a Value, but it is {node!r} (it has no `data`).")
    return node.data


def grad_of(node, what):
    if not hasattr(node, "grad"):
        raise NotYet(f"{what} has no `grad`: expected every Value to start with `self.grad = 0.0` in `__init__`.")
    return node.grad


def edges_of(node, what="a Value"):
    """The edges of `node` as a list of (parent, local derivative); a dict {parent: derivative} is read too,
    so that a lost edge shows up as such."""
    if not hasattr(node, "edges"):
        raise NotYet(f"{what} has no `edges`: expected every Value to keep its edges, "
                     "`self.edges = tuple(edges)` in `__init__`.")
    edges = node.edges
    if isinstance(edges, dict):
        edges = list(edges.items())
    try:
        pairs = list(edges)
    except TypeError:
        raise NotYet(f"The edges of {what} should be a tuple of pairs (parent, local derivative), "
                     f"but they are {edges!r}.") from None
    for pair in pairs:
        if hasattr(pair, "data"):
            raise NotYet(f"The edges of {what} hold values without their local derivatives, such as {pair!r}; "
                         "expected pairs (parent, local derivative). (A dict passed as the edges keeps only its "
                         "keys, and it holds a twice-used parent, as in a * a, only once.)")
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and hasattr(pair[0], "data")):
            raise NotYet(f"Each edge of {what} should be a pair (parent, local derivative), such as "
                         f"(self, 1.0), but one of them is {pair!r}.")
    return pairs


def order_by_edges(root):
    """Every value `root` was computed from, each after its parents (the checks' own walk)."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, parents_done = stack.pop()
        if parents_done:
            order.append(node)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((parent, False) for parent, _ in edges_of(node))
    return order


def gradients(root, leaves, use_backward):
    """d root / d leaf for each leaf: from the reader's backward(), or (before step 5) from the checks'
    own walk over the reader's edges."""
    if use_backward:
        if not callable(getattr(root, "backward", None)):
            raise NotYet("Your Value has no `backward()` method: expected `Value.backward = backward` (step 5).")
        attempt("backward()", root.backward, "fill in every grad")
        return [grad_of(leaf, "an input") for leaf in leaves]
    found = {id(root): 1.0}
    for node in reversed(order_by_edges(root)):
        for parent, local in edges_of(node):
            found[id(parent)] = found.get(id(parent), 0.0) + found.get(id(node), 0.0) * float(local)
    return [found.get(id(leaf), 0.0) for leaf in leaves]


# The slips in backward() that the checks recognise: what each one computes instead (see slipped_gradients), and
# what the message then tells the reader.
BACKWARD_SLIPS = {
    "overwrite": "one contribution overwrites another. Each edge adds its contribution: write parent.grad += ..., "
                 "not parent.grad = ....",
    "forwards": "walk the order from the output back (reversed), so that each value has its whole gradient before "
                "it passes it on.",
    "without the node's gradient": "multiply the local derivative by node.grad, the gradient that has arrived at the "
                                   "node (the chain rule): parent.grad += node.grad * derivative.",
    "without the local derivative": "multiply node.grad by the local derivative of the edge (the chain rule): "
                                    "parent.grad += node.grad * derivative.",
}


def slipped_gradients(order, root, leaves, slip):
    """d root / d leaf for each leaf as backward() computes it with `slip` (None: without a slip), walking `order`."""
    grads = {id(root): 1.0}
    for node in (order if slip == "forwards" else reversed(order)):
        for parent, local in edges_of(node):
            arrived, local = grads.get(id(node), 0.0), float(local)
            contribution = {"without the node's gradient": local,
                            "without the local derivative": arrived}.get(slip, arrived * local)
            previous = 0.0 if slip == "overwrite" else grads.get(id(parent), 0.0)
            grads[id(parent)] = previous + contribution
    return [grads.get(id(leaf), 0.0) for leaf in leaves]


def backward_slip(root, leaves, found):
    """What the reader's backward() did wrong, in their terms, when its gradients `found` are those of one of the
    BACKWARD_SLIPS (walking the reader's own order), or "" when they are not."""
    try:
        order = list(root.topological_order())
    except Exception:  # noqa: BLE001 - the reader's order failed: the checks' own walk stands in
        order = order_by_edges(root)
    if all(close(a, b) for a, b in zip(found, slipped_gradients(order, root, leaves, None))):
        return ""
    for slip, message in BACKWARD_SLIPS.items():
        if all(close(a, b) for a, b in zip(found, slipped_gradients(order, root, leaves, slip))):
            return message
    return ""


def dismantle(nodes):
    """Cut the edges of a long chain one node at a time, so that freeing it needs no deep recursion
    (Python in the browser would crash freeing a long chain in one nested go)."""
    for node in nodes:
        try:
            node.edges = ()
        except AttributeError:
            pass
