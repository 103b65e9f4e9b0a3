"""Tests of the "Fitting a line" model under CPython: steps, history, learning rates, divergence.

What it is: the model stepped like its buttons do, compared with the engine's own train_line and
with the issue's behaviour (loss grows at 0.3; overflow becomes a "diverged" message).
What it is not: a test of the plot (tests/site/test_figures.py does that in Chromium).
"""
import json
import math

import pytest
from tinygrad import train_line

from tutor.figures import line_fit


def test_starts_from_w_minus_one_b_zero_with_learning_rate_point_zero_five():
    state = line_fit.initial()
    assert (state["w"], state["b"], state["learning_rate"], state["steps"]) == (-1, 0, 0.05, 0)
    assert state["history"] == [pytest.approx((1**2 + 4**2 + 7**2 + 10**2) / 4)]  # errors −1, −4, −7, −10
    assert state["points"] == [[0, 1], [1, 3], [2, 5], [3, 7]]


@pytest.mark.parametrize("steps", [1, 100, 1000])
def test_stepping_matches_the_engines_train_line(steps):
    state = line_fit.initial()
    while state["steps"] < steps:
        state = line_fit.step(state, count=min(100, steps - state["steps"]))
    w, b, loss = train_line(steps=steps, learning_rate=0.05)
    assert (state["w"], state["b"], state["history"][-1]) == (w, b, loss)
    assert len(state["history"]) == steps + 1


def test_default_rate_lowers_the_loss_every_step():
    history = line_fit.step(line_fit.initial(), count=100)["history"]
    assert all(later < earlier for earlier, later in zip(history, history[1:]))


def test_learning_rate_point_three_makes_the_loss_grow_and_says_so():
    state = line_fit.step(line_fit.reset(0.3), count=100)
    history = state["history"]
    assert history[-1] > 1000 * history[0]
    assert any("loss grew" in message for message in state["messages"])
    assert state["diverged_at"] is None


def test_overflow_is_reported_as_diverged_with_only_finite_numbers():
    state = line_fit.step(line_fit.reset(1), count=1000)
    assert state["diverged_at"] is not None and state["steps"] == state["diverged_at"] - 1
    assert any(message.startswith("Diverged") for message in state["messages"])
    numbers = [state["w"], state["b"], *state["history"], *(y for _, y in state["line"]), *state["history_range"]]
    assert all(math.isfinite(number) for number in numbers)
    json.dumps(state, allow_nan=False)
    assert line_fit.step(state)["steps"] == state["steps"]  # stepping a diverged state changes nothing


def test_reset_keeps_the_chosen_learning_rate():
    state = line_fit.set_learning_rate(line_fit.step(line_fit.initial(), count=5), 0.3)
    assert line_fit.reset(state["learning_rate"])["learning_rate"] == 0.3


def test_bad_learning_rates_and_counts_get_clear_messages():
    with pytest.raises(ValueError, match="Learning rate must lie between"):
        line_fit.set_learning_rate(line_fit.initial(), 5)
    with pytest.raises(ValueError, match="count must be a whole number"):
        line_fit.step(line_fit.initial(), count=0)
    with pytest.raises(ValueError, match="state must be the dictionary this figure returned last"):
        line_fit.step({"w": 1.0})
