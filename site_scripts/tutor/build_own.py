"""build_own.py: the hidden checks of the chapter "Build your own engine", installed as `tutor.build_own`.

What it is: the checks of the seven steps in which the reader writes an engine of their own (the
exercises `tutor.exercises.own_value` ... `own_network`; each of those modules holds its step's
hints and solution and calls `check_step`). All steps share the page's namespace: step 1 defines
the reader's `Value`, later steps attach methods to it (`Value.tanh = tanh`). The checks of a step
test that step and, summed up in one line each, every step before it, so a later change that
breaks an earlier step is caught where the reader works now.
Before the reader has a `backward()` (steps 1 to 4) the checks walk the reader's `edges` with a
walk of their own; from step 5 on they call the reader's `backward()`. Each step ends with random
expressions of every operation written so far, whose gradients are compared with central
differences (nudging each input by a tiny amount, with plain floats).
Every problem is said in the reader's terms: which expression, which number was expected, which
was found and what that usually means.

What it is not: the starter code (the chapter's Markdown) or the page's part (exercises.mjs draws
the results, build_own/build-own.mjs joins the steps into the reader's tinygrad.py).
"""
import math
import random
import sys

from .exercises import NotYet, close, defined, run_checks

STEP_TITLES = {
    1: "Value, + and *",
    2: "more operators",
    3: "powers and tanh",
    4: "the topological order",
    5: "backward()",
    6: "division and exp",
    7: "the network",
}
NUDGE = 1e-6  # the h of the central differences (f(x + h) - f(x - h)) / 2h


# ---- Reading the reader's values, with plain-words errors -------------------------------------

def attempt(what, action, should):
    """action(), or NotYet saying that `what` raised, and what it should do instead."""
    try:
        return action()
    except NotYet:
        raise
    except RecursionError:
        raise NotYet(f"{what} raised RecursionError (a function kept calling itself): it should "
                     f"{should}.") from None
    except Exception as error:  # the reader's code failed: say so in the check's words
        raise NotYet(f"{what} raised {type(error).__name__}: {error}. It should {should}.") from None


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


def dismantle(nodes):
    """Cut the edges of a long chain one node at a time, so that freeing it needs no deep recursion
    (Python in the browser would crash freeing a long chain in one nested go)."""
    for node in nodes:
        try:
            node.edges = ()
        except AttributeError:
            pass


# ---- Random expressions, checked against central differences ----------------------------------

# (name, operands, text, with Values, with floats). A Value on the left or on the right of a number.
OPERATIONS = {
    1: [("add", 2, "({} + {})", lambda a, b: a + b),
        ("mul", 2, "({} * {})", lambda a, b: a * b),
        ("add a number", 1, "({} + 1.5)", lambda a: a + 1.5),
        ("mul by a number", 1, "({} * 0.5)", lambda a: a * 0.5)],
    2: [("neg", 1, "(-{})", lambda a: -a),
        ("sub", 2, "({} - {})", lambda a, b: a - b),
        ("rsub", 1, "(2 - {})", lambda a: 2 - a),
        ("radd", 1, "(1 + {})", lambda a: 1 + a),
        ("rmul", 1, "(3 * {})", lambda a: 3 * a)],
    3: [("square", 1, "{}**2", lambda a: a ** 2),
        ("cube", 1, "{}**3", lambda a: a ** 3),
        ("tanh", 1, "tanh({})", None)],
    6: [("div", 2, "({} / {})", lambda a, b: a / b),
        ("rdiv", 1, "(1 / {})", lambda a: 1 / a),
        ("exp", 1, "exp({})", None)],
}
FLOAT_FUNCTIONS = {"tanh": math.tanh, "exp": math.exp}


def operations_up_to(step):
    return [operation for number, operations in OPERATIONS.items() if number <= step for operation in operations]


def apply(operation, operands):
    name, _, _, function = operation
    if function is not None:
        return function(*operands)
    first = operands[0]
    if isinstance(first, float):
        return FLOAT_FUNCTIONS[name](first)
    return getattr(first, name)()


def random_program(rng, step):
    """A random expression of the inputs x, y, z: (inputs, [(operation, operand indices), ...]). Its numbers
    stay moderate (no overflow, no division by almost 0), values are reused (paths meet) and the last
    one depends on all three inputs."""
    operations = operations_up_to(step)
    while True:
        inputs = [round(rng.uniform(-1.5, 1.5), 2) for _ in range(3)]
        program, values, uses = [], list(inputs), [{0}, {1}, {2}]
        for _ in range(rng.randint(3, 7)):
            operation = rng.choice(operations)
            indices = [rng.randrange(len(values)) for _ in range(operation[1])]
            if operation[0] in ("div", "rdiv") and abs(values[indices[-1]]) < 0.3:
                continue
            result = apply(operation, [values[index] for index in indices])
            if not abs(result) < 30:
                continue
            program.append((operation, indices))
            values.append(result)
            uses.append(set().union(*(uses[index] for index in indices)))
        if program and uses[-1] == {0, 1, 2}:
            return inputs, program


def run_program(program, inputs, make=float):
    values = [make(x) for x in inputs]
    for operation, indices in program:
        values.append(apply(operation, [values[index] for index in indices]))
    return values


def program_text(program):
    texts = ["x", "y", "z"]
    for (_, _, text, _), indices in program:
        texts.append(text.format(*(texts[index] for index in indices)))
    outer = program[-1][0][2]
    return texts[-1][1:-1] if outer.startswith("(") and outer.endswith(")") else texts[-1]


def check_random_expressions(namespace, step, use_backward, count=12, seed=2026):
    rng = random.Random(seed + step)
    for _ in range(count):
        inputs, program = random_program(rng, step)
        formula = program_text(program)
        at = ", ".join(f"{name} = {x}" for name, x in zip("xyz", inputs))
        leaves = [new_value(namespace, x) for x in inputs]
        root = attempt(f"f = {formula} with Values", lambda: run_program(program, leaves, make=lambda leaf: leaf)[-1],
                       "compute it like the same formula with plain numbers")
        expected = run_program(program, inputs)[-1]
        if not close(data_of(root, f"f = {formula}"), expected, 1e-9):
            raise NotYet(f"For f = {formula} at {at}, your Value holds {root.data!r}, expected {expected!r}.")
        found = gradients(root, leaves, use_backward)
        for index, name in enumerate("xyz"):
            def f(x):
                nudged = list(inputs)
                nudged[index] = x
                return run_program(program, nudged)[-1]
            estimate = (f(inputs[index] + NUDGE) - f(inputs[index] - NUDGE)) / (2 * NUDGE)
            if not close(found[index], estimate, 1e-4):
                raise NotYet(f"For f = {formula} at {at}, your engine gives df/d{name} = {found[index]!r}, "
                             f"but nudging {name} says it should be about {estimate:.6g}. Check the local "
                             "derivatives of the operations in it.")


# ---- Step 1: Value, + and * --------------------------------------------------------------------

def fresh_value(namespace):
    """Value(3) holds data 3.0, grad 0.0 and no edges"""
    v = new_value(namespace, 3)
    if data_of(v, "Value(3)") != 3.0 or type(v.data) is not float:
        raise NotYet(f"Value(3).data is {v.data!r}, expected 3.0 (a float: `self.data = float(data)`).")
    if grad_of(v, "Value(3)") != 0.0:
        raise NotYet(f"Value(3).grad is {v.grad!r}, expected 0.0: nothing has asked for a gradient yet.")
    if edges_of(v, "Value(3)") != []:
        raise NotYet(f"Value(3).edges is {v.edges!r}, expected an empty tuple: a number typed in has no parents.")


def edge_to(node, parent, what, parent_name):
    """The local derivatives of `node`'s edges that point at `parent`."""
    return [float(local) for other, local in edges_of(node, what) if other is parent]


def check_two_edges(namespace, symbol, expected_a, expected_b, why):
    a, b = new_value(namespace, 2), new_value(namespace, -3)
    what = f"a {symbol} b"
    out = attempt(f"{what} (with a = Value(2), b = Value(-3))",
                  lambda: a + b if symbol == "+" else a * b, "give a new Value")
    edges = edges_of(out, what)
    if len(edges) != 2:
        raise NotYet(f"{what} has {len(edges)} edge{'s' if len(edges) != 1 else ''}, expected 2: one to a and one "
                     f"to b. Pass them to the new Value: Value(result, ((self, ...), (other, ...))).")
    for parent, name, expected in ((a, "a", expected_a), (b, "b", expected_b)):
        found = edge_to(out, parent, what, name)
        if not found:
            raise NotYet(f"{what} has no edge to {name}: expected the pair ({name}, {expected}).")
        if not close(found[0], expected):
            raise NotYet(f"In {what} at a = 2, b = -3, the edge to {name} carries {found[0]!r}, expected {expected} "
                         f"({why(name)}).")


def add_edges(namespace):
    """a + b records an edge to a and an edge to b, each with local derivative 1"""
    check_two_edges(namespace, "+", 1.0, 1.0, lambda name: "nudging either one moves the sum by as much")
    out = data_of(new_value(namespace, 2) + new_value(namespace, -3), "a + b")
    if not close(out, -1.0):
        raise NotYet(f"Value(2) + Value(-3) holds {out!r}, expected -1.0.")


def mul_edges(namespace):
    """a * b records an edge to a carrying b.data and an edge to b carrying a.data"""
    check_two_edges(namespace, "*", -3.0, 2.0,
                    lambda name: "d(a·b)/da is b" if name == "a" else "d(a·b)/db is a")
    out = data_of(new_value(namespace, 2) * new_value(namespace, -3), "a * b")
    if not close(out, -6.0):
        raise NotYet(f"Value(2) * Value(-3) holds {out!r}, expected -6.0.")


def square_keeps_both_edges(namespace):
    """a * a keeps both of its edges to a"""
    a = new_value(namespace, 3)
    out = attempt("a * a", lambda: a * a, "give a new Value")
    (found,) = gradients(out, [a], use_backward=False)
    if not close(found, 6.0):
        raise NotYet(f"a * a gives a.grad = {found!r}, expected 6.0: one of the two edges to a is lost (at a = 3 "
                     "the slope of a·a is 2·a = 6). a * a needs two edges, both pointing at a; keep them in a "
                     "tuple, not a dict or a set.")


def numbers_beside_values(namespace):
    """a number next to a Value works: a + 2 and a * 2"""
    a = new_value(namespace, 3)
    for text, action, data, slope in (("a + 2", lambda: a + 2, 5.0, 1.0), ("a * 2", lambda: a * 2, 6.0, 2.0)):
        out = attempt(f"{text} with a = Value(3)", action, "treat the 2 as a Value (Value.wrap(other))")
        if not close(data_of(out, text), data):
            raise NotYet(f"{text} at a = 3 holds {out.data!r}, expected {data}.")
        (found,) = gradients(out, [a], use_backward=False)
        if not close(found, slope):
            raise NotYet(f"{text} at a = 3 gives a.grad = {found!r}, expected {slope}.")


def random_step_1(namespace):
    """random expressions of + and *: the gradients through your edges match nudging the inputs"""
    check_random_expressions(namespace, 1, use_backward=False)


# ---- Step 2: more operators --------------------------------------------------------------------

def one_input_result(namespace, text, action, data, slope, use_backward=False, at=3, should="give a new Value"):
    a = new_value(namespace, at)
    try:
        out = action(a)
    except TypeError as error:
        raise NotYet(f"{text} raised TypeError ({error}), expected a Value. When the number is on the left, "
                     "Python asks the Value on the right for the reflected method (__radd__, __rmul__, "
                     "__rsub__): attach it to Value.") from None
    except Exception as error:
        raise NotYet(f"{text} raised {type(error).__name__}: {error}. It should {should}.") from None
    if not close(data_of(out, text), data):
        raise NotYet(f"{text} at a = {at} holds {out.data!r}, expected {data}.")
    (found,) = gradients(out, [a], use_backward)
    if not close(found, slope):
        hint = " Does it have an edge back to a?" if found == 0 else ""
        raise NotYet(f"{text} at a = {at} gives a.grad = {found!r}, expected {slope}.{hint}")


def negation(namespace):
    """-a is a Value with an edge back to a"""
    one_input_result(namespace, "-a", lambda a: -a, -3.0, -1.0)


def subtraction(namespace):
    """a - b and a - 2 have the right edges"""
    a, b = new_value(namespace, 3), new_value(namespace, 5)
    out = attempt("a - b", lambda: a - b, "give a new Value")
    if not close(data_of(out, "a - b"), -2.0):
        raise NotYet(f"a - b at a = 3, b = 5 holds {out.data!r}, expected -2.0.")
    found = gradients(out, [a, b], use_backward=False)
    if not (close(found[0], 1.0) and close(found[1], -1.0)):
        raise NotYet(f"a - b gives a.grad = {found[0]!r} and b.grad = {found[1]!r}, expected 1.0 and -1.0: "
                     "a bigger b makes a - b smaller.")
    one_input_result(namespace, "a - 2", lambda a: a - 2, 1.0, 1.0)


def number_on_the_left(namespace):
    """5 - a, 2 + a and 2 * a work, with a number on the left"""
    one_input_result(namespace, "5 - a", lambda a: 5 - a, 2.0, -1.0)
    one_input_result(namespace, "2 + a", lambda a: 2 + a, 5.0, 1.0)
    one_input_result(namespace, "2 * a", lambda a: 2 * a, 6.0, 2.0)


def sum_of_values(namespace):
    """sum([a, b, a]) works and counts a twice"""
    a, b = new_value(namespace, 3), new_value(namespace, 4)
    try:
        out = sum([a, b, a])
    except TypeError as error:
        raise NotYet(f"sum([a, b, a]) raised TypeError ({error}), expected a Value: sum starts from the number 0, "
                     "so 0 + a needs Value.__radd__.") from None
    found = gradients(out, [a, b], use_backward=False)
    if not (close(data_of(out, "sum([a, b, a])"), 10.0) and close(found[0], 2.0) and close(found[1], 1.0)):
        raise NotYet(f"sum([a, b, a]) at a = 3, b = 4 holds {out.data!r} with a.grad = {found[0]!r}, "
                     f"b.grad = {found[1]!r}; expected 10.0, 2.0 and 1.0.")


def random_step_2(namespace):
    """random expressions with - and numbers on either side match nudging the inputs"""
    check_random_expressions(namespace, 2, use_backward=False)


# ---- Step 3: powers and tanh -------------------------------------------------------------------

def powers(namespace):
    """a ** n has the local derivative n · a ** (n - 1)"""
    for n, at in ((1, 3.0), (2, 3.0), (3, 2.0)):
        a = new_value(namespace, at)
        out = attempt(f"a ** {n}", lambda: a ** n, "give a new Value")
        if not close(data_of(out, f"a ** {n}"), at ** n):
            raise NotYet(f"a ** {n} at a = {at:g} holds {out.data!r}, expected {at ** n:g}.")
        (found,) = gradients(out, [a], use_backward=False)
        expected = n * at ** (n - 1)
        if not close(found, expected):
            guess = " (that is a ** n, not n · a ** (n - 1))" if close(found, at ** n) else ""
            raise NotYet(f"a ** {n} at a = {at:g} gives a.grad = {found!r}, expected {expected:g} "
                         f"= {n} · {at:g} ** {n - 1}, the power rule{guess}.")


def tanh_derivative(namespace):
    """a.tanh() has the local derivative 1 - tanh(a)**2"""
    for at in (0.5, -1.2):
        a = new_value(namespace, at)
        if not callable(getattr(a, "tanh", None)):
            raise NotYet("Your Value has no `tanh` method: expected `Value.tanh = tanh`.")
        out = attempt("a.tanh()", a.tanh, "give a new Value")
        t = math.tanh(at)
        if not close(data_of(out, "a.tanh()"), t):
            raise NotYet(f"a.tanh() at a = {at} holds {out.data!r}, expected {t!r}.")
        (found,) = gradients(out, [a], use_backward=False)
        expected = 1 - t * t
        if close(found, expected):
            continue
        if close(found, 1 - at * at):
            guess = " You squared a itself: square the result, tanh(a)."
        elif close(found, 1 - t):
            guess = " You forgot to square tanh(a)."
        else:
            guess = ""
        raise NotYet(f"a.tanh() at a = {at} gives a.grad = {found!r}, expected 1 - tanh({at})**2 = "
                     f"{expected:.6g}.{guess}")


def random_step_3(namespace):
    """random expressions with ** and tanh match nudging the inputs"""
    check_random_expressions(namespace, 3, use_backward=False)


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
                     f"{found[1]!r}, expected -2.0 (b + 1) and 2.0 (a).")


def contributions_add(namespace):
    """backward() adds up the contributions of both edges in a * a"""
    a = new_value(namespace, 3)
    (found,) = gradients(a * a, [a], use_backward=True)
    if found == 0:
        raise NotYet("After (a * a).backward(), a.grad is still 0.0, expected 6.0: walk reversed(order) and add "
                     "to each parent's grad the node's grad times the local derivative.")
    if not close(found, 6.0):
        raise NotYet(f"a * a gives a.grad = {found!r}, expected 6.0: one of the two edges to a is lost. Each "
                     "edge adds its contribution: write parent.grad += ..., not parent.grad = ....")


def walks_backwards(namespace):
    """backward() finishes each value's gradient before passing it on"""
    x = new_value(namespace, 0.5)
    y = x * x
    z = y * y + y
    (found,) = gradients(z, [x], use_backward=True)
    expected = (2 * 0.25 + 1) * 2 * 0.5
    if not close(found, expected):
        raise NotYet(f"For z = y·y + y with y = x·x at x = 0.5, backward() gives x.grad = {found!r}, expected "
                     f"{expected}: walk the order from the output back (reversed), so that each value has its "
                     "whole gradient before it passes it on.")


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


# ---- Step 6: division and exp ------------------------------------------------------------------

def division(namespace):
    """a / b has the edges 1/b to a and -a/b**2 to b"""
    a, b = new_value(namespace, 3), new_value(namespace, 2)
    out = attempt("a / b", lambda: a / b, "give a new Value")
    if not close(data_of(out, "a / b"), 1.5):
        raise NotYet(f"a / b at a = 3, b = 2 holds {out.data!r}, expected 1.5.")
    found = gradients(out, [a, b], use_backward=True)
    if not close(found[0], 0.5):
        raise NotYet(f"a / b at a = 3, b = 2 gives a.grad = {found[0]!r}, expected 1/b = 0.5.")
    if not close(found[1], -0.75):
        raise NotYet(f"a / b at a = 3, b = 2 gives b.grad = {found[1]!r}, expected -a/b**2 = -0.75: a bigger b "
                     "makes a / b smaller, and faster when b is small.")
    one_input_result(namespace, "1 / a", lambda a: 1 / a, 0.5, -0.25, use_backward=True, at=2)
    one_input_result(namespace, "a / 4", lambda a: a / 4, 0.5, 0.25, use_backward=True, at=2)


def exponential(namespace):
    """a.exp() has the local derivative exp(a)"""
    a = new_value(namespace, 0.5)
    if not callable(getattr(a, "exp", None)):
        raise NotYet("Your Value has no `exp` method: expected `Value.exp = exp`.")
    out = attempt("a.exp()", a.exp, "give a new Value")
    e = math.exp(0.5)
    if not close(data_of(out, "a.exp()"), e):
        raise NotYet(f"a.exp() at a = 0.5 holds {out.data!r}, expected {e!r}.")
    (found,) = gradients(out, [a], use_backward=True)
    if not close(found, e):
        raise NotYet(f"a.exp() at a = 0.5 gives a.grad = {found!r}, expected exp(0.5) = {e:.6g}: the slope of exp "
                     "is exp itself, the result you just computed.")


def random_step_6(namespace):
    """random expressions with / and exp: backward() matches nudging the inputs"""
    check_random_expressions(namespace, 6, use_backward=True)


# ---- Step 7: the network -----------------------------------------------------------------------

def a_neuron(namespace):
    """a Neuron computes tanh(w·x + b), or w·x + b when it is linear"""
    Neuron = defined(namespace, "Neuron", "a class")
    inputs = [1.0, -2.0, 0.5]
    for nonlinear in (True, False):
        neuron = attempt("Neuron(3, random.Random(1))", lambda: Neuron(3, random.Random(1), nonlinear=nonlinear),
                         "make a neuron with 3 weights")
        weights = [data_of(w, "a weight") for w in neuron.weights]
        weighted = sum(w * x for w, x in zip(weights, inputs)) + data_of(neuron.bias, "the bias")
        expected = math.tanh(weighted) if nonlinear else weighted
        out = attempt("neuron([1.0, -2.0, 0.5])", lambda: neuron(inputs), "give a Value")
        found = data_of(out, "neuron([1.0, -2.0, 0.5])")
        if close(found, expected):
            continue
        kind = "a neuron with nonlinear=True" if nonlinear else "a neuron with nonlinear=False"
        guess = ""
        if nonlinear and close(found, weighted):
            guess = " That is the weighted sum without tanh: pass it through .tanh() when self.nonlinear."
        elif not nonlinear and close(found, math.tanh(weighted)):
            guess = " A linear neuron (nonlinear=False) must not apply tanh."
        raise NotYet(f"For {kind}, neuron([1.0, -2.0, 0.5]) holds {found!r}, expected {expected!r}.{guess}")


def network_shape(namespace):
    """MLP([2, 4, 1]) answers one Value and has 17 parameters"""
    MLP = defined(namespace, "MLP", "a class")
    network = attempt("MLP([2, 4, 1], seed=42)", lambda: MLP([2, 4, 1], seed=42), "build the network")
    answer = attempt("network([1, 0])", lambda: network([1, 0]), "give a list with one Value")
    if not (isinstance(answer, list) and len(answer) == 1 and hasattr(answer[0], "data")):
        raise NotYet(f"network([1, 0]) returned {answer!r}, expected a list holding one Value.")
    count = len(attempt("network.parameters()", network.parameters, "list the weights and biases"))
    if count != 17:
        raise NotYet(f"network.parameters() lists {count} values, expected 17 (4 neurons with 2 weights and a bias, "
                     "then 1 neuron with 4 weights and a bias).")


def trains_xor(namespace):
    """train_xor() fits XOR: its predictions round to [-1.0, 1.0, 1.0, -1.0]"""
    train_xor = defined(namespace, "train_xor", "a function")
    MLP = defined(namespace, "MLP", "a class")
    untrained = MLP([2, 4, 1], seed=42)
    before = [round(untrained(inputs)[0].data, 4) for inputs in ((0, 0), (0, 1), (1, 0), (1, 1))]
    result = attempt("train_xor()", train_xor, "train the network and return (predictions, loss)")
    try:
        predictions, loss = result
        rounded = [round(float(p), 4) for p in predictions]
    except (TypeError, ValueError):
        raise NotYet(f"train_xor() returned {result!r}, expected (predictions, loss).") from None
    if rounded == [-1.0, 1.0, 1.0, -1.0]:
        return
    if rounded == before:
        raise NotYet(f"After train_xor() the predictions are {rounded}, the same as before training, expected "
                     "[-1.0, 1.0, 1.0, -1.0]: each step must call loss.backward() and then "
                     "gradient_step(network.parameters(), learning_rate).")
    raise NotYet(f"After train_xor() the predictions are {rounded}, expected [-1.0, 1.0, 1.0, -1.0]. Is the loss "
                 "the sum of the squared errors of all four rows, computed anew in every step?")


# ---- One step's checks, with a line for each earlier step ---------------------------------------

CHECKS = {
    1: [fresh_value, add_edges, mul_edges, square_keeps_both_edges, numbers_beside_values, random_step_1],
    2: [negation, subtraction, number_on_the_left, sum_of_values, random_step_2],
    3: [powers, tanh_derivative, random_step_3],
    4: [step_4_order, long_chain],
    5: [seeded_and_passed_on, contributions_add, walks_backwards, twice_is_the_same, random_step_5],
    6: [division, exponential, random_step_6],
    7: [a_neuron, network_shape, trains_xor],
}


def check_step(namespace, step):
    """The results of step `step`: one line per earlier step (its first failure, if any), then each check."""
    results = []
    for earlier in range(1, step):
        failure = next((result for check in CHECKS[earlier]
                        for result in run_checks(namespace, [check]) if not result["passed"]), None)
        summary = f"step {earlier} ({STEP_TITLES[earlier]}) passes too"
        message = ("" if failure is None
                   else f"This step builds on step {earlier}, which should pass first: {failure['message']}")
        results.append({"check": summary, "passed": failure is None, "message": message})
    return results + run_checks(namespace, CHECKS[step])
