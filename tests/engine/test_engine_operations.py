"""test_engine_operations.py: each operation of the engine, backward() itself, and bad input.

What it is: the recorded data and edges of every primitive (+ * ** - unary -, tanh), the reflected
forms with a plain number (2 * w, 5 - w, w + 1, sum(values)), plain numbers made leaves as by
Value.wrap, the rules of backward() (clears, seeds with 1, accumulates every edge, same result
twice), and the clear errors for what is not a number or not a positive whole exponent.

What it is not: the random-graph or reference checks (see the other test_engine_* modules).
Plain functions and asserts only: this module also runs inside Pyodide.
"""
import math
from fractions import Fraction

from tinygrad import Value


def raised_by(action):
    """The exception `action()` raises; fails the test if it raises none."""
    try:
        action()
    except Exception as error:
        return error
    raise AssertionError("expected an error, but none was raised")


def test_value_stores_a_float_with_zero_grad_and_no_edges():
    for given, expected in [(3, 3.0), (2.5, 2.5), (-0.0, -0.0), (True, 1.0), (Fraction(1, 4), 0.25)]:
        value = Value(given)
        assert type(value.data) is float and value.data == expected
        assert value.grad == 0.0 and value.edges == ()


def test_edges_given_as_a_list_are_kept_as_a_tuple_and_used_by_backward():
    a = Value(2)
    custom = Value(10, [(a, 3.0)])
    assert custom.edges == ((a, 3.0),)
    custom.backward()
    assert a.grad == 3.0


def test_binary_operations_record_both_parents_with_local_derivatives():
    a, b = Value(3), Value(-2)
    cases = [
        (a + b, 1.0, ((a, 1.0), (b, 1.0))),
        (a * b, -6.0, ((a, -2.0), (b, 3.0))),
        (a - b, 5.0, ((a, 1.0), (b, -1.0))),
    ]
    for result, data, edges in cases:
        assert result.data == data
        assert result.edges == edges


def test_unary_operations_record_one_parent():
    a = Value(3)
    assert (-a).data == -3.0 and (-a).edges == ((a, -1.0),)
    cube = a**3
    assert cube.data == 27.0 and cube.edges == ((a, 27.0),)  # 3 * 3 ** 2
    assert (a**1).edges == ((a, 1.0),)
    assert (Value(0) ** 1).edges[0][1] == 1.0


def test_tanh_value_and_local_derivative():
    for x in [0.0, 0.5, -1.3, 3.0]:
        z = Value(x)
        t = z.tanh()
        assert t.data == math.tanh(x)
        (parent, local_derivative), = t.edges
        assert parent is z and local_derivative == 1.0 - math.tanh(x) ** 2
        h = 1e-6
        estimate = (math.tanh(x + h) - math.tanh(x - h)) / (2 * h)
        assert abs(local_derivative - estimate) < 1e-8
    assert Value(0).tanh().edges[0][1] == 1.0


def test_tanh_saturates_without_overflow():
    for x, sign in [(50.0, 1.0), (-800.0, -1.0)]:
        z = Value(x)
        t = z.tanh()
        t.backward()
        assert t.data == sign and z.grad == 0.0


def test_plain_numbers_become_leaves_on_either_side():
    w = Value(4)
    cases = [  # result, its data, d result / d w, d result / d number
        (w * 2, 8.0, 2.0, 4.0),
        (2 * w, 8.0, 2.0, 4.0),
        (w + 1, 5.0, 1.0, 1.0),
        (1 + w, 5.0, 1.0, 1.0),
        (w - 5, -1.0, 1.0, -1.0),
        (5 - w, 1.0, -1.0, 1.0),
        (w * 0.5, 2.0, 0.5, 4.0),
    ]
    for result, data, w_local, number_local in cases:
        assert result.data == data
        assert [local for parent, local in result.edges if parent is w] == [w_local]
        (number, local), = [(parent, local) for parent, local in result.edges if parent is not w]
        assert local == number_local
        assert isinstance(number, Value) and number.edges == ()  # a leaf holding the plain number
        result.backward()
        assert (w.grad, number.grad) == (w_local, number_local)


def test_wrap_makes_a_number_a_leaf_and_leaves_a_value_alone():
    w = Value(4)
    assert Value.wrap(w) is w
    two = Value.wrap(2)
    assert isinstance(two, Value) and two.data == 2.0 and two.edges == ()
    product = w * two
    product.backward()
    assert (w.grad, two.grad) == (2.0, 4.0)


def test_sum_of_values_starts_from_zero_and_reaches_every_term():
    values = [Value(x) for x in (1.5, -2.0, 4.0)]
    total = sum(values)
    total.backward()
    assert total.data == 3.5
    assert [v.grad for v in values] == [1.0, 1.0, 1.0]
    weighted = sum(k * v for k, v in zip((1, 2, 3), values))
    weighted.backward()
    assert [v.grad for v in values] == [1.0, 2.0, 3.0]


def test_backward_adds_up_every_path_including_both_operands_of_a_times_a():
    a = Value(-1.5)
    a.backward()
    assert a.grad == 1.0  # the seed
    square = a * a
    square.backward()
    assert square.grad == 1.0 and a.grad == -3.0
    difference = a - a
    difference.backward()
    assert difference.data == 0.0 and a.grad == 0.0
    shared = a * 3
    result = shared * shared + shared  # 9a^2 + 3a
    result.backward()
    assert a.grad == 18 * -1.5 + 3
    assert shared.grad == 2 * shared.data + 1


def test_backward_twice_gives_the_same_gradients():
    x, y = Value(0.7), Value(-1.2)
    hidden = (x * y + x).tanh()
    out = hidden * hidden - 3 * y + hidden**3
    out.backward()
    first = [v.grad for v in (x, y, hidden, out)]
    out.backward()
    assert [v.grad for v in (x, y, hidden, out)] == first


def test_backward_clears_old_gradients_of_the_reachable_graph():
    w = Value(2)
    first = w * 10
    first.backward()
    assert w.grad == 10.0
    second = w * w
    second.backward()
    assert w.grad == 4.0  # not 14: the old contribution was cleared
    w.grad = 123.0
    second.backward()
    assert w.grad == 4.0


def test_backward_from_an_intermediate_node_sees_only_its_ancestors():
    a, b = Value(2), Value(3)
    middle = a * b
    top = middle + b
    top.backward()
    assert (a.grad, b.grad) == (3.0, 3.0)
    middle.backward()
    assert (a.grad, b.grad, middle.grad) == (3.0, 2.0, 1.0)
    assert top.grad == 1.0  # not reachable from middle, left as it was


def test_old_graph_keeps_the_derivatives_recorded_when_it_was_built():
    w = Value(1)
    loss = (w * 2 - 5) ** 2
    loss.backward()
    w.data = 3.0
    loss.backward()
    assert w.grad == -12.0  # recorded at w = 1; build a new graph after changing data
    ((w * 2 - 5) ** 2).backward()
    assert w.grad == 4.0


def test_values_that_are_not_numbers_are_refused_clearly():
    for bad in ["abc", None, "3", b"1", [1.0], object()]:
        error = raised_by(lambda: Value(bad))
        assert isinstance(error, TypeError), repr(error)
        assert "number" in str(error) and repr(bad) in str(error), str(error)


def test_operations_with_a_non_number_are_refused_clearly():
    w = Value(1)
    for action in [lambda: w + "abc", lambda: "abc" + w, lambda: w * None, lambda: "2" - w, lambda: w - [1]]:
        error = raised_by(action)
        assert isinstance(error, TypeError) and "number" in str(error), repr(error)


def test_exponents_other_than_positive_whole_numbers_are_refused_clearly():
    w = Value(2)
    for exponent in [0, -1, -3, 0.5, 2.0, Value(2), True, "2", None]:
        error = raised_by(lambda: w**exponent)
        assert isinstance(error, ValueError), f"{exponent!r}: {error!r}"
        message = str(error)
        assert "positive whole number" in message and repr(exponent) in message, message
