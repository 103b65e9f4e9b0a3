"""test_engine_reference.py: every number the lesson states about the engine, computed by the engine.

What it is: the worked examples of the reference article, checked exactly where the lesson prints an
exact result (loss 9.0, gradients -12.0 and -6.0, a*a + a giving 7.0, 17 parameters, XOR predictions
at four decimals) and to the digits it prints where the result is a rounded float (25.010001,
8.8804, -0.1196, 0.36). The gradient check with h = 1e-5 is the lesson's own.

What it is not: a check of the figures or the prose. Plain functions and asserts only: this module
also runs inside Pyodide.
"""
import random

from tinygrad import MLP, Value, train_line, train_xor


def one_example_loss(w, b):
    """The lesson's single example: input 2, target 5, squared error."""
    prediction = w * 2 + b
    return (prediction - 5) ** 2


def test_x_times_x_at_5_has_value_25_and_gradient_10():
    x = Value(5)
    q = x * x
    q.backward()
    assert q.data == 25.0
    assert x.grad == 10.0  # 5 from each operand


def test_secant_slope_near_5_is_the_derivative_plus_the_step():
    h = 0.001
    x, nearby = Value(5), Value(5 + h)
    square, nearby_square = x * x, nearby * nearby
    square.backward()
    assert abs(nearby_square.data - 25.010001) < 1e-9
    secant_slope = (nearby_square.data - square.data) / h
    # (x+h)^2 - x^2 = 2xh + h^2: the secant overshoots the tangent's slope by exactly h.
    assert abs(secant_slope - (x.grad + h)) < 1e-6


def test_one_example_loss_and_gradients():
    w, b = Value(1), Value(0)
    loss = one_example_loss(w, b)
    loss.backward()
    assert loss.data == 9.0
    assert w.grad == -12.0
    assert b.grad == -6.0


def test_gradient_predicts_the_loss_change_of_a_small_step():
    w, b = Value(1), Value(0)
    loss = one_example_loss(w, b)
    loss.backward()
    predicted_change = w.grad * 0.01
    stepped_loss = one_example_loss(Value(1.01), Value(0)).data
    assert abs(predicted_change - -0.12) < 1e-12
    assert abs(stepped_loss - 8.8804) < 1e-12
    assert abs((stepped_loss - loss.data) - -0.1196) < 1e-12


def test_lessons_finite_difference_check_of_w_grad():
    w, b = Value(1), Value(0)
    one_example_loss(w, b).backward()

    def loss_in_plain_floats(weight):
        return (2 * weight - 5) ** 2

    h = 1e-5
    central = (loss_in_plain_floats(1 + h) - loss_in_plain_floats(1 - h)) / (2 * h)
    assert abs(central - w.grad) < 1e-6


def test_one_gradient_descent_step_with_learning_rate_0_1():
    w, b = Value(1), Value(0)
    one_example_loss(w, b).backward()
    new_w = w.data - 0.1 * w.grad
    new_b = b.data - 0.1 * b.grad
    assert abs(new_w - 2.2) < 1e-12 and abs(new_b - 0.6) < 1e-12
    weight_only = one_example_loss(Value(new_w), Value(0))
    assert abs(weight_only.data - 0.36) < 1e-12  # prediction 4.4
    both = one_example_loss(Value(new_w), Value(new_b))
    assert abs(both.data) < 1e-12  # prediction 2.2 * 2 + 0.6 = 5


def test_input_and_target_get_gradients_when_wrapped():
    w, b = Value(1), Value(0)
    x, y = Value.wrap(2), Value.wrap(5)
    loss = (w * x + b - y) ** 2
    loss.backward()
    assert (w.grad, b.grad) == (-12.0, -6.0)
    assert x.grad == -6.0  # d loss / d prediction (-6) times w (1)
    assert y.grad == 6.0


def test_a_times_a_plus_a_at_3_gives_7():
    a = Value(3)
    q = a * a + a
    q.backward()
    assert q.data == 12.0
    assert a.grad == 7.0


def test_mean_loss_gradient_is_a_quarter_of_the_summed_loss_gradient():
    points = [(0, 1), (1, 3), (2, 5), (3, 7)]
    w, b = Value(-1), Value(0)
    summed = sum((w * x + b - y) ** 2 for x, y in points)
    summed.backward()
    summed_gradients = (w.grad, b.grad)
    (summed * (1 / len(points))).backward()
    assert (w.grad * 4, b.grad * 4) == summed_gradients


def test_mlp_2_4_1_has_17_parameters_laid_out_as_the_lesson_says():
    model = MLP([2, 4, 1])
    trainable = model.parameters()
    assert len(trainable) == 17
    hidden, output = model.layers
    assert [len(neuron.weights) for neuron in hidden] == [2, 2, 2, 2]
    assert [len(neuron.weights) for neuron in output] == [4]
    assert [neuron.nonlinear for neuron in hidden + output] == [True] * 4 + [False]
    assert len({id(p) for p in trainable}) == 17


def test_mlp_draws_weights_layer_by_layer_from_random_42_with_zero_biases():
    rng = random.Random(42)
    expected = []
    for n_inputs, n_neurons in [(2, 4), (4, 1)]:
        for _ in range(n_neurons):
            expected += [rng.uniform(-1, 1) for _ in range(n_inputs)] + [0.0]
    assert [p.data for p in MLP([2, 4, 1], seed=42).parameters()] == expected
    assert [p.data for p in MLP([2, 4, 1], seed=7).parameters()] != expected


def test_mlp_output_is_the_hand_computed_forward_pass():
    model = MLP([2, 4, 1], seed=3)
    inputs = [0.5, -2.0]
    hidden = [
        Value(sum((w.data * x for w, x in zip(n.weights, inputs)), n.bias.data)).tanh().data
        for n in model.layers[0]
    ]
    (neuron,) = model.layers[1]
    expected = sum((w.data * h for w, h in zip(neuron.weights, hidden)), neuron.bias.data)
    (output,) = model(inputs)
    assert abs(output.data - expected) < 1e-12


def test_train_line_finds_w_2_and_b_1():
    w, b, final_loss = train_line()
    assert (round(w, 4), round(b, 4)) == (2.0, 1.0)
    assert abs(w - 2) < 1e-6 and abs(b - 1) < 1e-6
    points = [(0, 1), (1, 3), (2, 5), (3, 7)]
    assert final_loss == sum((w * x + b - y) ** 2 for x, y in points) / len(points)
    assert final_loss < 1e-12


def test_train_line_with_learning_rate_0_3_diverges():
    w, b, final_loss = train_line(steps=100, learning_rate=0.3)
    assert final_loss > 1e6  # correct gradients, too large a step


def test_train_xor_predictions_round_to_the_targets():
    predictions, final_loss = train_xor()
    assert [round(p, 4) for p in predictions] == [-1.0, 1.0, 1.0, -1.0]
    targets = [-1, 1, 1, -1]
    assert final_loss == sum((p - y) ** 2 for p, y in zip(predictions, targets)) / len(targets)
    assert final_loss < 1e-8


def test_train_xor_is_not_yet_fitted_after_a_few_steps():
    predictions, final_loss = train_xor(steps=5)
    assert [round(p, 4) for p in predictions] != [-1.0, 1.0, 1.0, -1.0]
    assert final_loss > 0.1
