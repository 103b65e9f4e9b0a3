"""Tests of the model of the figure "The loop, once around" (training_loop.py) under CPython (#35).

What it is: the four boxes' numbers recomputed here with plain floats and the derivative worked by hand
(dL/dw = 2/n · Σ (ŷ − y)·x, dL/db = 2/n · Σ (ŷ − y)), and the passes compared with the figure "Fitting a line",
which runs the same loop: after k passes both are at the same w and b.
What it is not: the drawing (tests/site/test_training_figures.py renders it in Chromium).
"""
import json

import pytest

from tutor.figures import line_fit, training_loop
from tutor.figures.display import number_text


def by_hand(w, b, rate=line_fit.DEFAULT_LEARNING_RATE):
    predictions = [w * x + b for x, _ in line_fit.POINTS]
    errors = [p - y for p, (_, y) in zip(predictions, line_fit.POINTS)]
    n = len(errors)
    grad_w = 2 / n * sum(e * x for e, (x, _) in zip(errors, line_fit.POINTS))
    grad_b = 2 / n * sum(errors)
    return predictions, sum(e * e for e in errors) / n, grad_w, grad_b, w - rate * grad_w, b - rate * grad_b


def shown_lines(state):
    return " | ".join(line for box in state["boxes"] for line in box["lines"])


def test_the_first_pass_shows_the_chapters_start_and_numbers_worked_by_hand():
    state = training_loop.initial()
    assert [box["heading"] for box in state["boxes"]] == ["1. Forward", "2. Loss", "3. Backward", "4. Update"]
    predictions, loss, grad_w, grad_b, new_w, new_b = by_hand(line_fit.START["w"], line_fit.START["b"])
    lines = shown_lines(state)
    assert f"w = {number_text(line_fit.START['w'])}, b = {number_text(line_fit.START['b'])}" in lines
    assert "gives " + ", ".join(number_text(p) for p in predictions) in lines
    for text in (f"L = {number_text(loss)}", f"dL/dw = {number_text(grad_w)}", f"dL/db = {number_text(grad_b)}",
                 f"dL/dw = {number_text(new_w)}", f"dL/db = {number_text(new_b)}"):
        assert text in lines, (text, lines)
    assert state["loss_text"] == number_text(loss) == line_fit.initial()["loss_text"]  # the chapter's starting loss
    assert state["pass_text"] == "1"


def test_each_pass_starts_where_the_last_update_moved_and_follows_the_line_fit_figure():
    state, fit = training_loop.initial(), line_fit.initial()
    for passes in range(1, 6):
        _, _, _, _, new_w, new_b = by_hand(state["w"], state["b"])
        state = training_loop.next_pass(json.loads(json.dumps(state, allow_nan=False)))
        fit = line_fit.step(fit, 1)
        assert (state["w"], state["b"]) == pytest.approx((new_w, new_b))
        assert (state["w"], state["b"]) == (fit["w"], fit["b"])
        assert state["pass_text"] == str(passes + 1) and state["loss_text"] == fit["loss_text"]
        predictions, _, grad_w, grad_b, _, _ = by_hand(state["w"], state["b"])
        lines = shown_lines(state)
        assert "gives " + ", ".join(number_text(p) for p in predictions) in lines, lines
        assert f"dL/dw = {number_text(grad_w)}" in lines and f"dL/db = {number_text(grad_b)}" in lines
    assert training_loop.reset(state) == training_loop.initial()


@pytest.mark.parametrize("state", [{}, {"passes": -1, "w": 0, "b": 0}, {"passes": 0, "w": "x", "b": 0}, None])
def test_a_state_it_did_not_return_is_refused_with_a_message(state):
    with pytest.raises(ValueError, match="must be|state"):
        training_loop.next_pass(state)
