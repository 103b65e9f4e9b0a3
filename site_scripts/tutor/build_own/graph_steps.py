"""graph_steps.py: the checks of steps 4 and 5 of "Build your own engine": the topological order and backward().

What it is: step 4 (the reader's topological_order(): every value after its parents, each once, also
for a chain longer than the recursion limit) and step 5 (backward(): the seed, contributions that add
up over paths, the walk from the result back, the same grads twice, random expressions).
What it is not: the operations (value_steps.py) or the network (network_step.py).
"""
import sys

from ..exercises import NotYet, close
from .random_expressions import check_random_expressions
from .reading import attempt, backward_slip, dismantle, edges_of, grad_of, gradients, new_value, order_by_edges


# ---- Step 4: the topological order -------------------------------------------------------------

def reader_order(namespace, root, what, should="return a list of the values, each after its parents"):
    if not callable(getattr(root, "topological_order", None)):
        raise NotYet("Your Value has no `topological_order` method: expected `Value.topological_order = "
                     "topological_order`.")
    order = attempt(f"{what}.topological_order()", root.topological_order, should)
    try:
        return list(order)
    except TypeError:
        raise NotYet(f"{what}.topological_order() returned {order!r}, expected a list of Values.") from None


def order_of_a_small_graph(namespace):
    """the order holds every value once, each after its parents, the output last"""
    a = new_value(namespace, 2)
    b = a * a
    c = a + b
    d = b * c
    e = d + a
    names = {id(a): "a", id(b): "b = a·a", id(c): "c = a + b", id(d): "d = b·c", id(e): "e = d + a"}
    order = reader_order(namespace, e, "e")
    expected = order_by_edges(e)
    counts = {}
    for node in order:
        counts[id(node)] = counts.get(id(node), 0) + 1
    for node in expected:
        name = names.get(id(node), "a value")
        if id(node) not in counts:
            raise NotYet(f"For e = d + a with d = b·c, c = a + b, b = a·a, your order misses {name}: expected every "
                         "value e was computed from, found by following every edge.")
        if counts[id(node)] > 1:
            raise NotYet(f"{name} appears {counts[id(node)]} times in your order, expected once: remember which "
                         "values you have already seen (a set) and skip them.")
    if len(order) != len(expected):
        raise NotYet(f"Your order holds {len(order)} values, expected the {len(expected)} that e depends on.")
    position = {id(node): index for index, node in enumerate(order)}
    if order and order[0] is e and order[-1] is a:
        raise NotYet("Your order starts with e, the output, and ends with a, the input: it is the wrong way round. "
                     "Expected every value after its parents, the output last: return the order as the values "
                     "were added, once all their parents were in it.")
    for node in expected:
        for parent, _ in edges_of(node):
            if position[id(parent)] > position[id(node)]:
                raise NotYet(f"In your order, {names.get(id(node), 'a value')} comes before its parent "
                             f"{names.get(id(parent), 'a value')}, expected every value after its parents: add a "
                             "value to the order only once all its parents are in it.")
    if order[-1] is not e:
        raise NotYet("The last value of your order should be e itself.")


def long_chain(namespace):
    """the order of a long chain needs no recursion"""
    length = sys.getrecursionlimit() + 500
    x = new_value(namespace, 0.5)
    nodes = [x]
    try:
        for _ in range(length):
            x = x * 1.0
            nodes.append(x)
        order = reader_order(namespace, x, f"For a chain of {length:,} multiplications, the last value",
                             "walk with a list as a stack, not by calling itself once per level")
        expected = len(order_by_edges(x))
        if len(order) != expected:
            raise NotYet(f"For a chain of {length:,} multiplications your order holds {len(order):,} values, "
                         f"expected {expected:,}.")
    finally:
        dismantle(nodes)


def step_4_order(namespace):
    """the order holds every value once, each after its parents, the output last"""
    order_of_a_small_graph(namespace)


# ---- Step 5: backward() ------------------------------------------------------------------------

def seeded_and_passed_on(namespace):
    """backward() seeds the output with 1 and fills in every gradient"""
    a, b = new_value(namespace, 2), new_value(namespace, -3)
    out = a * b + a
    found = gradients(out, [a, b], use_backward=True)
    if not close(grad_of(out, "the output"), 1.0):
        raise NotYet(f"After out.backward(), out.grad is {out.grad!r}, expected 1.0: seed the output's gradient "
                     "with 1.0 before walking back (d out/d out = 1).")
    if not (close(found[0], -2.0) and close(found[1], 2.0)):
        raise NotYet(f"For out = a·b + a at a = 2, b = -3, backward() gives a.grad = {found[0]!r}, b.grad = "
                     f"{found[1]!r}, expected -2.0 (b + 1) and 2.0 (a)" + slip_named(out, [a, b], found))


def slip_named(root, leaves, found):
    """The end of a message: the slip of backward() that gives `found`, when the checks recognise it."""
    slip = backward_slip(root, leaves, found)
    return f": {slip}" if slip else "."


def contributions_add(namespace):
    """backward() adds up the contributions of both edges in a * a"""
    a = new_value(namespace, 3)
    out = a * a
    (found,) = gradients(out, [a], use_backward=True)
    if close(found, 6.0):
        return
    slip = backward_slip(out, [a], [found])
    if found == 0 and not slip:
        raise NotYet("After (a * a).backward(), a.grad is still 0.0, expected 6.0: walk reversed(order) and add "
                     "to each parent's grad the node's grad times the local derivative.")
    raise NotYet(f"a * a gives a.grad = {found!r}, expected 6.0" + (f": {slip}" if slip else
                 ": one of the two edges to a is lost. Each edge adds its contribution."))


def walks_backwards(namespace):
    """backward() finishes each value's gradient before passing it on"""
    x = new_value(namespace, 0.5)
    y = x * x
    z = y * y + y
    (found,) = gradients(z, [x], use_backward=True)
    expected = (2 * 0.25 + 1) * 2 * 0.5
    if not close(found, expected):
        slip = backward_slip(z, [x], [found]) or ("each value needs its whole gradient before it passes it on: walk "
                                                 "the order from the output back, and add every contribution.")
        raise NotYet(f"For z = y·y + y with y = x·x at x = 0.5, backward() gives x.grad = {found!r}, expected "
                     f"{expected}: {slip}")


def twice_is_the_same(namespace):
    """calling backward() twice gives the same gradients"""
    a, b = new_value(namespace, 2), new_value(namespace, -3)
    out = a * b
    first = gradients(out, [a, b], use_backward=True)
    second = gradients(out, [a, b], use_backward=True)
    if not (close(first[0], second[0]) and close(first[1], second[1])):
        doubled = " doubled the gradients" if close(second[0], 2 * first[0]) else " changed the gradients"
        raise NotYet(f"Calling backward() twice{doubled} (a.grad {first[0]!r} then {second[0]!r}), expected the "
                     "same: clear them first, set every grad in the order to 0.0 before you seed and walk.")


def random_step_5(namespace):
    """random expressions: your backward() matches nudging the inputs"""
    check_random_expressions(namespace, 3, use_backward=True, seed=2126)
