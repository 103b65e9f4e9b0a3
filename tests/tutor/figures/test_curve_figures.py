"""Tests of the plotted figures' models (mystery_curve, secant_tangent, loss_experiment) under CPython.

What it is: the numbers each figure shows, checked against issue #5 and against derivatives
computed independently (sympy for the mystery formula, finite differences for the loss).
What it is not: a test of the drawing (tests/site/test_figures.py does that in Chromium).
"""
import math
from pathlib import Path

import pytest
import sympy

from tutor.figures import display, loss_experiment, mystery_curve, secant_tangent

REPO = Path(__file__).resolve().parents[3]


def turning_points(curve):
    ys = [y for _, y in curve]
    return sum(1 for left, middle, right in zip(ys, ys[1:], ys[2:]) if (middle - left) * (right - middle) < 0)


def test_number_text_writes_minus_signs_powers_and_overflow():
    assert display.number_text(-12.0) == "−12"
    assert display.number_text(10.000999999999479) == "10.001"
    assert display.number_text(-0.0) == "0"
    assert display.number_text(1.5e37) == "1.5 × 10³⁷"
    assert display.number_text(float("inf")) == "overflow"


def test_mystery_curve_gives_value_and_slope_matching_symbolic_calculus():
    t = sympy.symbols("t")
    formula = sympy.Rational(1, 10) * t**3 - t + 2 * sympy.tanh(4 * t - 2)
    for x in (-2.5, -1, 0.3, 1.75):
        state = mystery_curve.move_point(mystery_curve.initial(), x)
        value, slope = mystery_curve.value_and_slope(x)
        assert value == pytest.approx(float(formula.subs(t, x)), abs=1e-12)
        assert slope == pytest.approx(float(sympy.diff(formula, t).subs(t, x)), abs=1e-12)
        assert state["value_text"] == display.number_text(value, 4)
        assert state["slope_text"] == display.number_text(slope, 4)
        (x0, y0), (x1, y1) = state["tangent"]
        assert (y1 - y0) / (x1 - x0) == pytest.approx(slope)


def test_mystery_curve_stays_hidden_until_revealed_and_then_turns_several_times():
    state = mystery_curve.initial()
    assert state["curve"] is None and not state["revealed"]
    state = mystery_curve.reveal_full_curve(state)
    assert turning_points(state["curve"]) >= 4
    assert mystery_curve.move_point(state, 2)["revealed"]


def test_mystery_curve_keeps_the_points_asked_about_so_the_shape_emerges_from_them():
    """The chapter says the shape appears once many points are plotted: the figure keeps every point asked about."""
    state = mystery_curve.initial()
    for x in (0.5, -2, 0.5, 2.5):
        state = mystery_curve.move_point(state, x)
    assert state["asked"] == [mystery_curve.START_X, -2, 0.5, 2.5]  # each once, the latest last
    assert state["asked_points"] == [[x, mystery_curve.value_and_slope(x)[0]] for x in state["asked"]]
    assert mystery_curve.reveal_full_curve(state)["asked"] == state["asked"]
    for x in range(100):
        state = mystery_curve.move_point(state, -3 + x * 0.05)
    assert len(state["asked"]) == mystery_curve.KEPT
    with pytest.raises(ValueError, match="A point asked about must be a number"):
        mystery_curve.move_point({**state, "asked": ["<b>1</b>"]}, 1)
    assert "once many points were plotted" in " ".join((REPO / "docs" / "derivatives.md").read_text(encoding="utf-8").split())


def test_mystery_curve_rejects_points_off_the_slider():
    with pytest.raises(ValueError, match="Known evaluation point x must lie between"):
        mystery_curve.move_point(mystery_curve.initial(), 10)
    with pytest.raises(ValueError, match="must be a number"):
        mystery_curve.move_point(mystery_curve.initial(), "two")


def test_secant_opens_where_the_chapter_works_at_x_five_with_h_one():
    state = secant_tangent.initial()
    assert (state["x_text"], state["h_text"]) == ("5", "1")
    assert (state["secant_slope_text"], state["tangent_slope_text"]) == ("11", "10")  # (36 - 25) / 1 and 2x


def test_secant_minus_tangent_is_exactly_h_for_every_setting():
    """The chapter's claim: for x², the secant slope is 2x + h, so the readout "Secant minus tangent" shows h."""
    for x in (-5, -3, 0, 2.5, 5):
        for index, h in enumerate(secant_tangent.H_CHOICES):
            state = secant_tangent.change(secant_tangent.initial(), x=x, h_index=index)
            assert state["difference_text"] == display.number_text(h) == state["h_text"], (x, h)


def test_secant_at_five_with_tiny_h_is_close_to_the_tangent():
    state = secant_tangent.change(secant_tangent.initial(), x=5)
    state = secant_tangent.change(state, h_index=secant_tangent.H_CHOICES.index(0.001))
    assert state["secant_slope_text"] == "10.001"
    assert state["tangent_slope_text"] == "10"
    assert state["h_text"] == "0.001"


def test_secant_slope_shrinks_toward_two_x_as_h_shrinks():
    state = secant_tangent.change(secant_tangent.initial(), x=5)
    gaps = []
    for index in range(len(secant_tangent.H_CHOICES)):
        shown = secant_tangent.change(state, h_index=index)
        gaps.append(float(shown["difference_text"]))
    assert gaps == sorted(gaps) and gaps[0] < gaps[-1]


def test_negative_position_gives_negative_slopes():
    state = secant_tangent.change(secant_tangent.initial(), x=-3)
    assert state["tangent_slope_text"] == "−6"
    assert state["secant_slope_text"].startswith("−")
    assert state["direction"] == "falls"


def test_secant_rejects_settings_off_the_sliders():
    with pytest.raises(ValueError, match="Small change h"):
        secant_tangent.change(secant_tangent.initial(), h_index=len(secant_tangent.H_CHOICES))
    with pytest.raises(ValueError, match="Position x"):
        secant_tangent.change(secant_tangent.initial(), x=float("nan"))


def test_squared_error_at_w_one_gives_the_lessons_gradients():
    state = loss_experiment.initial()
    assert (state["loss_kind"], state["w_text"], state["prediction_text"], state["loss_text"]) == ("squared", "1", "2", "9")
    assert state["prediction_gradient_text"] == "−6"
    assert state["weight_gradient_text"] == "−12"


def test_absolute_error_at_w_one_gives_minus_one_and_minus_two():
    state = loss_experiment.choose_loss(loss_experiment.initial(), "absolute")
    assert (state["prediction_gradient_text"], state["weight_gradient_text"], state["loss_text"]) == ("−1", "−2", "3")


def test_absolute_error_uses_subgradient_zero_at_zero_error_and_says_so():
    state = loss_experiment.move_weight(loss_experiment.choose_loss(loss_experiment.initial(), "absolute"), 2.5)
    assert state["loss_text"] == "0" and state["weight_gradient_text"] == "0"
    assert any("subgradient 0" in message for message in state["messages"])
    assert loss_experiment.take_one_step(state)["w_text"] == "2.5"
    squared = loss_experiment.choose_loss(state, "squared")
    assert not any("subgradient" in message for message in squared["messages"])


def test_one_step_from_reset_moves_w_from_one_to_two_point_two():
    moved = loss_experiment.move_weight(loss_experiment.initial(), 3.4)
    state = loss_experiment.take_one_step(loss_experiment.reset(moved))
    assert (state["w_text"], state["prediction_text"], state["loss_text"]) == ("2.2", "4.4", "0.36")


@pytest.mark.parametrize("loss_kind", ["squared", "absolute"])
@pytest.mark.parametrize("w", [-0.5, 1, 3.3])
def test_loss_gradients_agree_with_a_central_difference(loss_kind, w):
    weight, _, _ = loss_experiment.forward_backward(loss_kind, w)
    h = 1e-6

    def loss(t):
        return loss_experiment.forward_backward(loss_kind, t)[2].data

    assert weight.grad == pytest.approx((loss(w + h) - loss(w - h)) / (2 * h), rel=1e-6)


@pytest.mark.parametrize("loss_kind", ["squared", "absolute"])
def test_weight_gradient_is_the_prediction_gradient_times_the_input_everywhere(loss_kind):
    """The chapter's claim: x stays 2, so the weight gradient is always the prediction gradient times 2."""
    steps = round((loss_experiment.W_RANGE["max"] - loss_experiment.W_RANGE["min"]) / loss_experiment.W_RANGE["step"])
    for k in range(steps + 1):
        weight, prediction, _ = loss_experiment.forward_backward(
            loss_kind, loss_experiment.W_RANGE["min"] + k * loss_experiment.W_RANGE["step"])
        assert weight.grad == prediction.grad * 2 == prediction.grad * loss_experiment.X


def test_loss_experiment_rejects_unknown_losses_and_far_weights():
    with pytest.raises(ValueError, match="squared, absolute"):
        loss_experiment.choose_loss(loss_experiment.initial(), "cubic")
    with pytest.raises(ValueError, match="Weight w must lie between"):
        loss_experiment.move_weight(loss_experiment.initial(), 1e9)


def test_curves_hold_only_finite_numbers():
    states = [mystery_curve.reveal_full_curve(mystery_curve.initial()), secant_tangent.initial(),
              loss_experiment.initial(), loss_experiment.choose_loss(loss_experiment.initial(), "absolute")]
    for state in states:
        assert all(math.isfinite(y) for _, y in state["curve"])
