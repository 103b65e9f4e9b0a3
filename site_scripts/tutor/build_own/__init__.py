"""The hidden checks of the chapter "Build your own engine", installed as the package `tutor.build_own`.

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
This module holds the steps' titles and `check_step` (a step's checks, with a line for each earlier
step); the checks themselves are in value_steps.py (steps 1–3 and 6), graph_steps.py (4 and 5) and
network_step.py (7), reading the reader's values through reading.py and ending each step with
random_expressions.py.

What it is not: the starter code (the chapter's Markdown) or the page's part (exercises.mjs draws
the results, build_own/build-own.mjs joins the steps into the reader's tinygrad.py).
"""
from ..exercises import WAITING, run_checks
from .graph_steps import (contributions_add, long_chain, random_step_5, seeded_and_passed_on, step_4_order,
                          twice_is_the_same, walks_backwards)
from .network_step import a_neuron, network_shape, trains_xor
from .value_steps import (add_edges, division, exponential, fresh_value, mul_edges, negation, number_on_the_left,
                          numbers_beside_values, powers, random_step_1, random_step_2, random_step_3, random_step_6,
                          square_keeps_both_edges, subtraction, sum_of_values, tanh_derivative)

STEP_TITLES = {
    1: "Value, + and *",
    2: "more operators",
    3: "powers and tanh",
    4: "the topological order",
    5: "backward()",
    6: "division and exp",
    7: "the network",
}

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
    """The results of step `step`: one line per earlier step (its first failure, if any), then each check. The
    checks run in turn: after the first that fails (an earlier step's, or this step's) the others wait, so that
    one mistake gets one message, not more that point elsewhere."""
    results, waits_for = [], None
    for earlier in range(1, step):
        summary = f"step {earlier} ({STEP_TITLES[earlier]}) passes too"
        if waits_for is not None:
            results.append({"check": summary, "passed": False,
                            "message": f"{WAITING}: it waits for “{waits_for}” to pass first."})
            continue
        failure = next((result for check in CHECKS[earlier]
                        for result in run_checks(namespace, [check]) if not result["passed"]), None)
        message = ("" if failure is None
                   else f"This step builds on step {earlier}, which should pass first: {failure['message']}")
        results.append({"check": summary, "passed": failure is None, "message": message})
        if failure is not None and waits_for is None:
            waits_for = summary
    return results + run_checks(namespace, CHECKS[step], in_turn=True, waits_for=waits_for)
