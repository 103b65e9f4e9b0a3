"""test_extremes.py: the figure models at every end of their controls, under CPython.

What it is: each figure's model driven to the limits a reader can reach with its controls (the
largest learning rate for many steps, the smallest and largest h at both ends of x, the weight at
both ends for both losses, the mystery point at both ends) and beyond them (a value outside a
slider's range). Every state must be JSON without NaN or Infinity, every text free of "nan" and
"inf", and out-of-range input must be refused with a readable ValueError, never another exception.
What it is not: the drawing (tests/site/test_figure_extremes.py scans the SVG in Chromium).
"""
import json
import math
import re

import pytest

from tutor.figures import (gradient_cost, line_fit, loss_experiment, loss_landscape, mystery_curve, secant_tangent,
                           xor_gradients, xor_surface)

NOT_A_NUMBER_TEXT = re.compile(r"nan|inf", re.IGNORECASE)


def problems_in(value, path="state"):
    """Paths of non-finite numbers and of texts that spell NaN or infinity, anywhere in `value`."""
    if isinstance(value, float):
        return [] if math.isfinite(value) else [path]
    if isinstance(value, str):
        return [f"{path} = {value!r}"] if NOT_A_NUMBER_TEXT.search(value) else []
    if isinstance(value, dict):
        return [problem for key, item in value.items() for problem in problems_in(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [problem for index, item in enumerate(value) for problem in problems_in(item, f"{path}[{index}]")]
    return []


def assert_drawable(state):
    assert problems_in(state) == []
    json.dumps(state, allow_nan=False)  # what the browser receives must parse as JSON


def test_line_fit_at_the_largest_learning_rate_diverges_with_a_message_and_stays_finite():
    state = line_fit.reset(line_fit.LEARNING_RATE_RANGE["max"])
    for _ in range(3):  # far past the step where the numbers overflow
        state = line_fit.step(state, line_fit.MAX_STEPS_PER_CALL)
        assert_drawable(state)
    assert state["diverged_at"] is not None
    assert any("Diverged" in message for message in state["messages"])
    again = line_fit.step(state, 1)  # pressing Step after divergence changes nothing and stays drawable
    assert again["history"] == state["history"]
    assert_drawable(again)


@pytest.mark.parametrize("learning_rate", [0.25, 0.3, 0.5, 0.75, 1.0])
def test_line_fit_loss_axis_spans_every_loss_when_training_blows_up(learning_rate):
    state = line_fit.reset(learning_rate)
    for _ in range(5):
        state = line_fit.step(state, line_fit.MAX_STEPS_PER_CALL)
    low, high = state["history_range"]
    assert 0 < low < high < math.inf
    assert low <= min(loss for loss in state["history"] if loss > 0)
    assert max(state["history"]) <= high * 10  # at most the last decade is cut at the float limit
    assert_drawable(state)


def test_line_fit_at_the_smallest_learning_rate_for_many_steps_converges_drawably():
    state = line_fit.reset(line_fit.LEARNING_RATE_RANGE["min"])
    for _ in range(5):
        state = line_fit.step(state, line_fit.MAX_STEPS_PER_CALL)
    assert state["diverged_at"] is None
    assert state["history"][-1] < state["history"][0]
    assert_drawable(state)


@pytest.mark.parametrize("losses", [[1.7e308, 1.0], [1.7e308], [5e-324, 1.0], [0.0], [0.0, 2.0]])
def test_loss_axis_range_stays_within_floats_for_extreme_losses(losses):
    low, high = line_fit.history_range(losses)
    assert 0 < low < high < math.inf


@pytest.mark.parametrize("learning_rate", [0, line_fit.LEARNING_RATE_RANGE["max"] + 0.01, math.inf, math.nan, "1"])
def test_line_fit_refuses_a_learning_rate_outside_the_slider(learning_rate):
    with pytest.raises(ValueError, match="Learning rate"):
        line_fit.set_learning_rate(line_fit.initial(), learning_rate)


@pytest.mark.parametrize("x", [secant_tangent.X_RANGE["min"], secant_tangent.X_RANGE["max"]])
@pytest.mark.parametrize("h_index", [0, len(secant_tangent.H_CHOICES) - 1])
def test_secant_tangent_at_tiny_and_huge_h_at_both_ends_of_x(x, h_index):
    state = secant_tangent.change(secant_tangent.initial(), x=x, h_index=h_index)
    assert_drawable(state)
    assert state["tangent_slope_text"] == f"{2 * x:g}".replace("-", "\u2212")


@pytest.mark.parametrize("change", [{"x": 5.5}, {"x": -1e308}, {"h_index": -1}, {"h_index": 12}, {"h_index": 0.5}])
def test_secant_tangent_refuses_settings_beyond_its_sliders(change):
    with pytest.raises(ValueError):
        secant_tangent.change(secant_tangent.initial(), **change)


@pytest.mark.parametrize("loss_kind", ["squared", "absolute"])
@pytest.mark.parametrize("w", [loss_experiment.W_RANGE["min"], loss_experiment.W_RANGE["max"]])
def test_loss_experiment_weight_at_both_ends_for_both_losses(loss_kind, w):
    state = loss_experiment.move_weight(loss_experiment.choose_loss(loss_experiment.initial(), loss_kind), w)
    assert_drawable(state)
    for _ in range(30):  # stepping from either end stays inside the plotted range of w
        state = loss_experiment.take_one_step(state)
        assert_drawable(state)
        assert loss_experiment.W_RANGE["min"] <= state["w"] <= loss_experiment.W_RANGE["max"]


@pytest.mark.parametrize("w", [loss_experiment.W_RANGE["min"] - 0.05, loss_experiment.W_RANGE["max"] + 0.05, 1e308])
def test_loss_experiment_refuses_a_weight_beyond_the_slider(w):
    with pytest.raises(ValueError, match="Weight w"):
        loss_experiment.move_weight(loss_experiment.initial(), w)


@pytest.mark.parametrize("x", [mystery_curve.X_RANGE["min"], mystery_curve.X_RANGE["max"]])
def test_mystery_curve_at_both_ends_of_its_slider_before_and_after_reveal(x):
    state = mystery_curve.move_point(mystery_curve.initial(), x)
    assert_drawable(state)
    assert_drawable(mystery_curve.reveal_full_curve(state))


@pytest.mark.parametrize("x", [mystery_curve.X_RANGE["min"] - 0.05, mystery_curve.X_RANGE["max"] + 0.05])
def test_mystery_curve_refuses_a_point_beyond_the_slider(x):
    with pytest.raises(ValueError, match="Known evaluation point x"):
        mystery_curve.move_point(mystery_curve.initial(), x)


@pytest.mark.parametrize("learning_rate", [line_fit.LEARNING_RATE_RANGE["min"], 0.3, line_fit.LEARNING_RATE_RANGE["max"]])
@pytest.mark.parametrize("corner", [("min", "min"), ("max", "max"), ("min", "max")])
def test_loss_landscape_from_every_corner_at_the_ends_of_the_learning_rate(learning_rate, corner):
    w = loss_landscape.W_RANGE[corner[0]]
    b = loss_landscape.B_RANGE[corner[1]]
    state = loss_landscape.set_start(loss_landscape.set_learning_rate(loss_landscape.initial(), learning_rate), w, b)
    assert_drawable(state)
    for _ in range(3):
        state = loss_landscape.step(state, line_fit.MAX_STEPS_PER_CALL)
        assert_drawable(state)
    if learning_rate == line_fit.LEARNING_RATE_RANGE["max"]:
        assert state["diverged_at"] is not None and state["next_point"] is None


@pytest.mark.parametrize("seed", [xor_surface.SEED_RANGE["min"], xor_surface.SEED_RANGE["max"]])
@pytest.mark.parametrize("hidden", [xor_surface.HIDDEN_RANGE["min"], xor_surface.HIDDEN_RANGE["max"]])
def test_xor_surface_at_the_ends_of_seed_and_hidden_neurons_trained_to_its_limit(seed, hidden):
    state = xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), seed), hidden)
    assert_drawable(state)
    state = xor_surface.train_steps(state, xor_surface.MAX_STEPS)
    assert_drawable(state)
    low, high = state["history_range"]
    assert 0 < low < high < math.inf


def test_xor_gradients_after_long_training_stay_drawable():
    state = xor_gradients.initial()
    for _ in range(12):  # the loss falls to about 1e-30: gradients near zero, bars still finite
        state = xor_gradients.train_steps(state)
    assert_drawable(state)
    assert state["bar_range"][0] < 0 < state["bar_range"][1]


@pytest.mark.parametrize("parameters", [gradient_cost.PARAMETERS_RANGE["min"], gradient_cost.PARAMETERS_RANGE["max"]])
def test_gradient_cost_at_both_ends_of_its_slider(parameters):
    assert_drawable(gradient_cost.set_parameters(gradient_cost.initial(), parameters))
