"""test_exercise_hints.py: what the exercises' hints promise, computed with the engine.

What it is: CPython tests that recompute every number and claim in the HINTS of the training
chapter's exercises (site_scripts/tutor/exercises/faster_line.py and xor_seed.py) and find each
computed number, formatted as the hint writes it, in the hint's text, and in the answer key of
docs/teachers.md where it repeats them. A hint that states a range of learning rates, a step count
or "this diverges" is therefore only as true as this file says.
What it is not: the test that the checks pass on the solution and fail on the starter
(test_exercise_checks.py), nor a browser test.
"""
import importlib
import math
from pathlib import Path

import pytest

from tinygrad import MLP, gradient_step, train_line

faster_line = importlib.import_module("tutor.exercises.faster_line")
xor_seed = importlib.import_module("tutor.exercises.xor_seed")

LINE_POINTS = [(0, 1), (1, 3), (2, 5), (3, 7)]  # train_line's points
TEACHERS = " ".join((Path(__file__).resolve().parents[3] / "docs" / "teachers.md").read_text(encoding="utf-8").split())


def loss_after(rate, steps=faster_line.STEPS):
    try:
        return train_line(steps=steps, learning_rate=rate)[2]
    except OverflowError:
        return math.inf


def rates(low, high, spacing):
    """low, low + spacing, ..., high, computed without accumulating rounding."""
    count = round((high - low) / spacing)
    return [round(low + index * spacing, 6) for index in range(count + 1)]


def hint(module, number):
    return module.HINTS[number]


# ---- faster_line -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def passing_rates():
    """Every rate on a grid of 0.001 from 0.001 to 0.3 with which 50 steps reach the target loss."""
    return [rate for rate in rates(0.001, 0.3, 0.001) if loss_after(rate) < faster_line.TARGET_LOSS]


def test_passing_rates_form_the_range_the_hint_states(passing_rates):
    low, high = passing_rates[0], passing_rates[-1]
    assert passing_rates == rates(low, high, 0.001), "the passing rates are not one unbroken range"
    text = hint(faster_line, 2)
    assert f"from {low:.2f} to {high:.3f}" in text, (low, high)
    assert f"run from ${low:.2f}$ to ${high:.3f}$" in TEACHERS
    assert faster_line.SOLUTION.count(f"fast_rate = {0.2}") == 1 and low <= 0.2 <= high
    near = loss_after(0.2)
    assert f"{near:.0e}" == "1e-07" and "0.2 reaches a loss near 1e-7" in text


def test_just_above_the_range_the_loss_still_falls_but_too_slowly(passing_rates):
    text = hint(faster_line, 2)
    assert "At 0.22 the loss still falls" in text
    assert 0.22 > passing_rates[-1]
    assert faster_line.TARGET_LOSS < loss_after(0.22) < loss_after(0.22, steps=10) < loss_after(0.22, steps=0)
    assert loss_after(0.22, steps=200) < faster_line.TARGET_LOSS, "with more steps 0.22 gets there"


def test_doubling_the_default_is_not_enough_yet():
    default = train_line.__defaults__[1]
    assert 2 * default == 0.1
    found = loss_after(0.1)
    assert f"{found:.0e}" == "9e-05" and "to about 9e-05 in 50 steps" in hint(faster_line, 0)
    assert found > faster_line.TARGET_LOSS


def test_from_about_0_24_on_the_loss_grows():
    """Gradient descent on this quadratic loss is stable only below 2 / (largest eigenvalue of its
    Hessian); the hint's "from about 0.24 on" is that bound, rounded, and the engine agrees."""
    n = len(LINE_POINTS)
    sum_x = sum(x for x, _ in LINE_POINTS)
    sum_xx = sum(x * x for x, _ in LINE_POINTS)
    hessian = [[2 * sum_xx / n, 2 * sum_x / n], [2 * sum_x / n, 2.0]]  # of mean((w x + b - y)²)
    assert hessian == [[7.0, 3.0], [3.0, 2.0]]
    trace = hessian[0][0] + hessian[1][1]
    determinant = hessian[0][0] * hessian[1][1] - hessian[0][1] ** 2
    largest = (trace + math.sqrt(trace * trace - 4 * determinant)) / 2
    bound = 2 / largest
    assert round(bound, 2) == 0.24 and "from about 0.24 on" in hint(faster_line, 1)
    assert f"curvature ${largest:.1f}$" in TEACHERS and f"$2 / {largest:.1f} \\approx {bound:.2f}$" in TEACHERS
    start = loss_after(0, steps=0)
    for rate in rates(0.24, 0.3, 0.01):
        assert loss_after(rate, steps=200) > start, f"rate {rate} does not grow"
    for rate in rates(0.2, 0.23, 0.01):
        assert loss_after(rate, steps=200) < start, f"rate {rate} grows"
    assert loss_after(0.3) > 1e15 and "at 0.3 it explodes" in hint(faster_line, 1)


# ---- xor_seed ----------------------------------------------------------------------------------

def train(network, steps, rate=0.1):
    """The starter's loop; returns the loss (a Value, after backward()) of the last step."""
    loss = None
    for _ in range(steps):
        loss = sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_seed.XOR_TABLE) * (1 / 4)
        loss.backward()
        gradient_step(network.parameters(), rate)
    return loss


def predictions(network):
    return [network(inputs)[0].data for inputs, _ in xor_seed.XOR_TABLE]


def learned(network):
    return all(abs(prediction - target) <= xor_seed.TOLERANCE
               for prediction, (_, target) in zip(predictions(network), xor_seed.XOR_TABLE))


def current_loss_and_gradient_length(network):
    loss = sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_seed.XOR_TABLE) * (1 / 4)
    loss.backward()
    return loss.data, math.sqrt(sum(p.grad ** 2 for p in network.parameters()))


def test_seed_7_sits_on_a_plateau_after_1000_steps():
    text = hint(xor_seed, 0)
    network = MLP([2, 2, 1], seed=7)
    train(network, 500)
    loss_500, _ = current_loss_and_gradient_length(network)
    assert sorted(abs(p) < 0.05 for p in predictions(network)) == [False, False, True, True]
    train(network, 500)
    loss_1000, gradient_length = current_loss_and_gradient_length(network)
    near_zero = [abs(p) < 0.05 for p in predictions(network)]
    assert near_zero.count(True) == 2, "two of the four answers stay near 0"
    assert 0.5 < loss_1000 < loss_500
    assert "the loss sits just above $0.5$, two answers stay near $0$" in TEACHERS
    assert f"({loss_500:.3f} after 500 steps, {loss_1000:.3f} after 1,000)" in text
    assert f"about {gradient_length:.3f} after 1,000 steps" in text
    assert not learned(network)


def test_the_plateau_hint_says_what_the_figures_hidden_outputs_show():
    """The first hint explains the plateau by the hidden outputs of the figure "XOR decision surface"; its
    numbers are the figure's after 1,000 steps, and the hidden outputs are the engine's own (read here through
    the network's layers, which the figure does not use)."""
    from tutor.figures import xor_surface
    state = xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), 7), 2)
    for _ in range(10):
        state = xor_surface.train_steps(state)
    network = xor_surface.network_of(7, 2, state["parameters"])
    hidden = [[neuron(inputs).data for neuron in network.layers[0]] for inputs, _ in xor_seed.XOR_TABLE]
    assert sum(hidden, []) == pytest.approx(sum(state["hidden_outputs"], []), abs=1e-12)
    stuck = [1, 3]  # (0, 1) and (1, 1): targets +1 and -1
    gap = max(abs(a - b) for a, b in zip(hidden[1], hidden[3]))
    share = sum((state["predictions"][i] - xor_seed.XOR_TABLE[i][1]) ** 2 for i in stuck) / 4
    flat = max(1 - h ** 2 for i in stuck for h in hidden[i])
    assert all(h < -0.99 for i in stuck for h in hidden[i])  # both neurons saturated near -1 there
    assert state["hidden_same_rows"] == stuck and state["plateau"]
    text = hint(xor_seed, 0)
    assert "the answers to (0, 1) and (1, 1) stay near 0" in text
    assert all(abs(state["predictions"][i]) < 0.01 for i in stuck)
    assert f"close to −1 (they differ by at most {gap:.2g} after 1,000 steps)" in text
    assert f"their two errors alone make {share:.3f} of the loss" in text and f"{share:.3f}" == f"{state['history'][-1]:.3f}"
    assert flat <= 0.02 and "(1 − t² ≤ 0.02 there)" in text
    finding = " ".join(state["hidden_findings"])
    assert f"differ by at most {gap:.2g}" in finding and "1 − t² ≤ 0.02" in finding


def test_seed_7_learns_xor_when_it_runs_long_enough():
    network = MLP([2, 2, 1], seed=7)
    for step in range(1, 10_001):
        train(network, 1)
        if learned(network):
            break
    assert learned(network), "seed 7 never leaves the plateau"
    assert 1000 < step and f"after about {round(step, -2):,} steps" in hint(xor_seed, 2)
    assert f"(about {round(step, -2):,} steps)" in TEACHERS


def test_every_other_seed_up_to_11_learns_within_1000_steps():
    assert "every seed from 0 to 11 except 7 learns XOR within the 1,000 steps" in hint(xor_seed, 1)
    assert "every seed from 0 to 11 except 7 learns within 1,000 steps" in TEACHERS
    learners = []
    for seed in range(12):
        network = MLP([2, 2, 1], seed=seed)
        train(network, 1000)
        learners.append(learned(network))
    assert [seed for seed, ok in enumerate(learners) if not ok] == [7]
    assert "seed=1" in xor_seed.SOLUTION


def test_four_neurons_from_seed_7_learn_within_1000_steps():
    assert "`MLP([2, 4, 1], seed=7)` learns XOR within the 1,000 steps" in hint(xor_seed, 2)
    assert "Four hidden neurons from seed 7 also work" in TEACHERS
    network = MLP([2, 4, 1], seed=7)
    train(network, 1000)
    assert learned(network)
