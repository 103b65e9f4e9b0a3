"""test_mistakes.py: the one table of mistakes a learner makes in the exercises, and what the checks say to each.

What it is: each row is a small edit of an exercise's solution that a learner would plausibly make (`=` for
`+=`, a forgotten bias, a swapped local derivative, a missing reversed(), a sign, a forgotten zeroing, a
number typed in instead of computed, a forward difference for a central one ...). The checks must refuse
it; the first failing message must name that mistake in the learner's terms, and no other message may point
elsewhere: every other failure names the same mistake or says it waits for a failed check
("Not checked yet"). A mistake in an earlier step of "Build your own engine" is reported by a later
step's check too. The checks run as the page runs them: exercises.results(name, namespace, code).
What it is not: the starter/solution test of every exercise (test_exercise_checks.py) or the joined
engine's tests (test_own_engine_checks.py).
"""
import importlib

import pytest
from test_exercise_checks import namespace_after
from test_own_engine_checks import namespace_with, solution
from tutor import exercises
from tutor.build_own import check_step

WAITING = "Not checked yet"


def edited(code, old, new):
    """`code` with `old` replaced by `new`; tuples of them make several edits."""
    for before, after in zip(*((old, new) if isinstance(old, tuple) else ((old,), (new,)))):
        assert before in code, f"the solution has no {before!r}"
        code = code.replace(before, after)
    return code


# (checked step, mistaken step, old, new, what the first failing message says)
OWN_ENGINE = {
    "a lost edge in a * a (edges in a set)": (
        1, 1, "((self, other.data), (other, self.data))", "{(self, other.data), (other, self.data)}",
        "a * a gives a.grad = 3.0, expected 6.0: one of the two edges to a is lost"),
    "swapped local derivatives of *": (
        1, 1, "((self, other.data), (other, self.data))", "((self, self.data), (other, other.data))",
        "the edge to a carries 2.0, expected -3.0 (d(a·b)/da is b)"),
    "+ with one edge": (
        1, 1, "[(self, 1.0), (other, 1.0)]", "[(self, 1.0)]", "a + b has 1 edge, expected 2"),
    "negation without an edge": (
        2, 2, "return self * -1", "return Value(-self.data)",
        "-a at a = 3 gives a.grad = 0.0, expected -1.0. Does it have an edge back to a?"),
    "no __radd__": (
        2, 2, "Value.__radd__ = Value.__add__", "",
        "2 + a raised TypeError (unsupported operand type(s) for +: 'int' and 'Value'), expected a Value"),
    "no __rsub__": (
        2, 2, "Value.__rsub__ = __rsub__\n", "",
        "5 - a raised TypeError (unsupported operand type(s) for -: 'int' and 'Value'), expected a Value. A plain "
        "number stood on the left of - and a Value on its right"),
    "__rsub__ that subtracts the wrong way": (
        2, 2, "return Value.wrap(other) - self", "return self - other", "5 - a at a = 3 holds -2.0, expected 2.0"),
    "subtraction that adds (a sign lost)": (
        2, 2, "return self + (-Value.wrap(other))", "return self + Value.wrap(other)",
        "a - b at a = 3, b = 5 holds 8.0, expected -2.0"),
    "a number on the left inside __neg__, without __rmul__": (
        2, 2, ("return self * -1", "Value.__rmul__ = Value.__mul__  # 2 * a\n"), ("return -1 * self", ""),
        "attach it: Value.__rmul__ = Value.__mul__"),
    "a tanh derivative from the input instead of the result": (
        3, 3, "((self, 1 - result ** 2),)", "((self, 1 - self.data ** 2),)",
        "a.tanh() at a = 0.5 gives a.grad = 0.75, expected 1 - tanh(0.5)**2 = 0.786448. You squared a itself"),
    "tanh's derivative as 1 - t": (
        3, 3, "((self, 1 - result ** 2),)", "((self, 1 - result),)", "You forgot to square tanh(a)"),
    "a power rule that forgets to lower the exponent": (
        3, 3, "exponent * self.data ** (exponent - 1)", "exponent * self.data ** exponent",
        "a ** 1 at a = 3 gives a.grad = 3.0, expected 1 = 1 · 3 ** 0, the power rule"),
    "a power rule without the factor n": (
        3, 3, "exponent * self.data ** (exponent - 1)", "self.data ** (exponent - 1)",
        "you left out the factor 2 in front"),
    "a recursive order": (
        4, 4, solution(4).split("\n\n\nValue.topological_order")[0],
        'def topological_order(self):\n    order = []\n    for parent, _ in self.edges:\n'
        '        order += [node for node in parent.topological_order() if node not in order]\n'
        '    return order + [self]',
        "raised RecursionError (a function kept calling itself): it should walk with a list as a stack"),
    "an order without the seen set": (
        4, 4, "        elif node not in seen:", "        elif True:",
        "times in your order, expected once: remember which values you have already seen"),
    "an order that adds a value before its parents": (
        4, 4, "            stack.append((node, True))\n", "            order.append(node)\n",
        "expected every value after its parents"),
    "an order from the output to the inputs (the wrong way round)": (
        4, 4, "    return order\n", "    return order[::-1]\n", "Your order starts with e, the output"),
    "= instead of +=": (
        5, 5, "parent.grad += node.grad", "parent.grad = node.grad", "write parent.grad += ..., not parent.grad ="),
    "no clearing": (
        5, 5, "    for node in order:\n        node.grad = 0.0\n", "",
        "Calling backward() twice doubled the gradients (a.grad -3.0 then -6.0), expected the same: clear them first"),
    "no seed": (
        5, 5, "    self.grad = 1.0\n", "", "expected 1.0: seed the output"),
    "walking the order forwards": (
        5, 5, "for node in reversed(order):", "for node in order:", "walk the order from the output back (reversed)"),
    "the chain rule without the node's gradient": (
        5, 5, "parent.grad += node.grad * derivative", "parent.grad += derivative",
        "multiply the local derivative by node.grad"),
    "the chain rule without the local derivative": (
        5, 5, "parent.grad += node.grad * derivative", "parent.grad += node.grad",
        "multiply node.grad by the local derivative"),
    "no __rtruediv__": (
        6, 6, "Value.__rtruediv__ = __rtruediv__\n", "", "attach it: Value.__rtruediv__ = __rtruediv__"),
    "a division edge without the minus": (
        6, 6, "-self.data / other.data ** 2", "self.data / other.data ** 2",
        "a / b at a = 3, b = 2 gives b.grad = 0.75, expected -a/b**2 = -0.75"),
    "a division edge of b instead of 1/b": (
        6, 6, "(self, 1 / other.data)", "(self, other.data)", "that is b, not 1/b"),
    "an exp edge of 1": (
        6, 6, "((self, result),)", "((self, 1.0),)",
        "a.exp() at a = 0.5 gives a.grad = 1.0, expected exp(0.5) = 1.64872: the slope of exp is exp itself"),
    "a neuron without tanh": (
        7, 7, "return activation.tanh() if self.nonlinear else activation", "return activation",
        "That is the weighted sum without tanh"),
    "a neuron without its bias": (
        7, 7, "sum((weight * x for weight, x in zip(self.weights, inputs)), self.bias)",
        "sum(weight * x for weight, x in zip(self.weights, inputs))", "the bias is left out"),
    "a training loop without the gradient step": (
        7, 7, "        gradient_step(network.parameters(), learning_rate)\n", "",
        "the same as before training, expected [-1.0, 1.0, 1.0, -1.0]: each step must call loss.backward() and then "
        "gradient_step"),
    "a loss of the errors, not squared": (
        7, 7, "(network(inputs)[0] - target) ** 2 for", "(network(inputs)[0] - target) for",
        "Is the loss the sum of the squared errors of all four rows"),
    "a lost edge in step 1, seen from step 5": (
        5, 1, "((self, other.data), (other, self.data))", "((self, other.data),)",
        "This step builds on step 1, which should pass first: a * b has 1 edge, expected 2"),
    "a wrong tanh in step 3, seen from step 7": (
        7, 3, "((self, 1 - result ** 2),)", "((self, 1 - result),)",
        "This step builds on step 3, which should pass first: a.tanh() at a = 0.5 gives"),
}

# (exercise, old, new, what the first failing message says): edits of the other exercises' solutions
EXERCISES = {
    "x_grad typed in as the number 12": (
        "cube_by_hand", "x_grad += square_grad * x             # ... and through the right operand\n",
        "x_grad += square_grad * x             # ... and through the right operand\nx_grad = 12.0\n",
        "`x_grad` stays 12.0"),
    "square_grad typed in as the number 2": (
        "cube_by_hand", "square_grad += q_grad * x", "square_grad += 2.0", "`square_grad` stays 2.0"),
    "one path of x · x · x forgotten": (
        "cube_by_hand", "x_grad += square_grad * x             # ... and through the right operand\n", "",
        "x reaches q along three paths"),
    "the gradient of a new example typed in": (
        "gradient_by_hand", "w_grad = loss_grad_error * 1 * x", "w_grad = -39.0", "`w_grad` stays -39.0"),
    "the error with the wrong sign (y − ŷ)": (
        "gradient_by_hand", "error = prediction - y", "error = y - prediction", "the error with the opposite sign"),
    "dL/de without the 2": (
        "gradient_by_hand", "loss_grad_error = 2 * error", "loss_grad_error = error", "The derivative of e² with respect to e is 2·e"),
    "the bias's gradient with x in it": (
        "gradient_by_hand", "b_grad = loss_grad_error * 1 * 1", "b_grad = loss_grad_error * 1 * x",
        "For the bias the last factor is dŷ/db = 1"),
    "a forward difference instead of a central one": (
        "gradient_checker", "(function(x + h) - function(x - h)) / (2 * h)", "(function(x + h) - function(x)) / h",
        "That is the forward difference"),
    "a backward difference instead of a central one": (
        "gradient_checker", "(function(x + h) - function(x - h)) / (2 * h)", "(function(x) - function(x - h)) / h",
        "That is the backward difference"),
    "a central difference that ignores h": (
        "gradient_checker", "(function(x + h) - function(x - h)) / (2 * h)",
        "(function(x + 1e-5) - function(x - 1e-5)) / (2 * 1e-5)", "your estimate does not use h"),
    "a checker whose engine number is the estimate too": (
        "gradient_checker", "engine_derivative = point.grad", "engine_derivative = (function(x + h) - function(x - h)) / (2 * h)",
        "The two numbers must be computed independently"),
    "a relu that passes the gradient everywhere": (
        "relu", "local_derivative = 1.0 if self.data > 0 else 0.0", "local_derivative = 1.0",
        "relu is flat where z < 0"),
    "a relu whose local derivative is its result": (
        "relu", "local_derivative = 1.0 if self.data > 0 else 0.0", "local_derivative = result",
        "the local derivative of relu is 1 where z > 0"),
    "a learning rate that overshoots": (
        "faster_line", "fast_rate = 0.2 ", "fast_rate = 0.3 ", "Try a smaller rate"),
    "a fitted line typed in": (
        "fit_new_line",
        ("slope, intercept = Value(0), Value(0)", "for step in range(500):\n    loss = mean_squared_error()\n"
         "    loss.backward()\n    gradient_step((slope, intercept), 0.05)\n"),
        ("slope, intercept = Value(3), Value(-2)", ""),
        "they stay where they were. They must come from training on `points`, not from numbers typed in"),
    "a loss built from a list of its own, not from points": (
        "fit_new_line", "for x, y in points) * (1 / len(points))", "for x, y in [(0, -2), (1, 1), (2, 4), (3, 7)]) * 0.25",
        "They must come from training on `points`, not from numbers typed in or a list of points of your own"),
    "a line fitted without the update": (
        "fit_new_line", "    gradient_step((slope, intercept), 0.05)\n", "", "the loop never changed it"),
}


def own_engine_results(name):
    checked, mistaken, old, new, _ = OWN_ENGINE[name]
    return check_step(namespace_with(checked, {mistaken: edited(solution(mistaken), old, new)}), checked)


def exercise_results(name):
    exercise, old, new, _ = EXERCISES[name]
    code = edited(importlib.import_module(f"tutor.exercises.{exercise}").SOLUTION, old, new)
    return exercises.results(exercise, namespace_after(exercise, code, earlier_solved=True), code)


def assert_named(results, says):
    failed = [f"{result['check']}: {result['message']}" for result in results if not result["passed"]]
    assert failed, "this mistake passes every check"
    assert says in failed[0], "\n".join(failed)
    elsewhere = [message for message in failed if says not in message and WAITING not in message]
    assert not elsewhere, "messages that point elsewhere:\n" + "\n".join(elsewhere)
    assert not any("Your code raised" in message for message in failed), "\n".join(failed)


@pytest.mark.parametrize("name", OWN_ENGINE)
def test_a_mistake_in_your_own_engine_is_named_where_it_is(name):
    assert_named(own_engine_results(name), OWN_ENGINE[name][-1])


@pytest.mark.parametrize("name", EXERCISES)
def test_a_mistake_in_an_exercise_is_named_where_it_is(name):
    assert_named(exercise_results(name), EXERCISES[name][-1])


def test_the_table_is_broad():
    assert len(OWN_ENGINE) + len(EXERCISES) >= 20
    for step in range(1, 8):
        assert sum(1 for checked, mistaken, *_ in OWN_ENGINE.values() if checked == mistaken == step) >= 2, step
    assert len({exercise for exercise, *_ in EXERCISES.values()}) >= 6


def test_the_random_expressions_blame_backward_not_the_local_derivatives_when_the_edges_are_right():
    """Alone (not after the named checks of step 5), the random expressions name `=` for `+=` too."""
    from tutor.build_own.graph_steps import random_step_5
    namespace = namespace_with(5, {5: edited(solution(5), "parent.grad += node.grad", "parent.grad = node.grad")})
    (result,) = exercises.run_checks(namespace, [random_step_5])
    assert not result["passed"]
    assert "so the slip is in backward(): one contribution overwrites another" in result["message"], result["message"]
    assert "Check the local derivatives" not in result["message"]
