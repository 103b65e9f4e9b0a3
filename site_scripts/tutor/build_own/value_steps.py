"""value_steps.py: the checks of steps 1, 2, 3 and 6 of "Build your own engine": a Value and its operations.

What it is: step 1 (Value, + and *: the data, grad and edges of a new Value, the two edges of a sum
and of a product, a * a keeping both edges, plain numbers beside Values), step 2 (negation,
subtraction, a number on the left, sum()), step 3 (powers and tanh, each local derivative with the
slip that usually causes a wrong one) and step 6 (division and exp), each ending with random
expressions (random_expressions.py).
What it is not: the graph's order and backward() (graph_steps.py) or the network (network_step.py).
"""
import math

from ..exercises import NotYet, close
from .random_expressions import check_random_expressions
from .reading import attempt, data_of, edges_of, grad_of, gradients, new_value, reflected_method_missing


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
        why = reflected_method_missing(error) or ("When the number is on the left, Python asks the Value on the right for "
                                            "the reflected method (__radd__, __rmul__, __rsub__): attach it to Value.")
        raise NotYet(f"{text} raised TypeError ({error}), expected a Value. {why}") from None
    except Exception as error:  # noqa: BLE001 - the reader's code failed: say so in the check's words
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
            guess = (" (that is a ** n, not n · a ** (n - 1))" if close(found, at ** n)
                     else f" (you left out the factor {n} in front)" if close(found, at ** (n - 1)) else "")
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


# ---- Step 6: division and exp ------------------------------------------------------------------

def division(namespace):
    """a / b has the edges 1/b to a and -a/b**2 to b"""
    a, b = new_value(namespace, 3), new_value(namespace, 2)
    out = attempt("a / b", lambda: a / b, "give a new Value")
    if not close(data_of(out, "a / b"), 1.5):
        raise NotYet(f"a / b at a = 3, b = 2 holds {out.data!r}, expected 1.5.")
    found = gradients(out, [a, b], use_backward=True)
    if not close(found[0], 0.5):
        guess = ": that is b, not 1/b" if close(found[0], 2.0) else ""
        raise NotYet(f"a / b at a = 3, b = 2 gives a.grad = {found[0]!r}, expected 1/b = 0.5{guess}.")
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
