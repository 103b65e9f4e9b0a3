"""test_show.py: show(value) in a runnable block draws the value's graph, steppable, in Chromium.

What it is: a reader types a block that builds the loss of figure 5 and calls show(); the block
must print the graph's summary, draw one box per engine value and one arrow per engine edge in a
figure named after the variable, and step through the backward pass with figure 5's buttons until
the boxes hold the gradients the engine's backward() computes (here in CPython). Several calls
give several figures in order, running again replaces them, a non-Value and a graph too big to
draw get messages instead of figures, and the page with figures has no serious axe violation.
What it is not: a test of the numbers' model (tests/tutor/figures/test_expression_graph.py) or of figure 5 itself.
"""
import sys

from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, REPO, block, open_lesson, output_text, run_block, set_code
from test_accessibility import serious_violations

LOSS = "from tinygrad import Value\nw, x, b, y = Value(1), Value(2), Value(0), Value(5)\nloss = (w * x + b - y) ** 2\n"


def engine_gradients():
    """The gradients of w, x, b and y after the engine's own backward(), written as figures write numbers."""
    for folder in (str(REPO / "engine"), str(REPO / "site_scripts")):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    from tutor.figures.display import number_text
    namespace = {}
    exec(LOSS + "loss.backward()", namespace)
    return {symbol: number_text(namespace[symbol].grad) for symbol in "wxby"}


def figures(block_locator):
    return block_locator.locator(".runnable__graph")


def box_gradient(figure, symbol):
    text = figure.locator(f'[data-node="{symbol}"] [data-field="grad"]').text_content()
    return text.removeprefix("grad ").strip()


def step_button(figure, label):
    return figure.get_by_role("button", name=label, exact=True)


def test_show_draws_the_graph_and_steps_to_the_engines_gradients(page, site_url, page_errors, outside_requests):
    open_lesson(page, site_url)
    first = block(page, 1)
    set_code(first, LOSS + "show(loss)\nshow(w * x)\n")
    output = run_block(first)
    assert "Graph of loss: 8 values, 7 edges" in output
    assert "Graph of the expression: 3 values, 2 edges" in output
    expect(figures(first)).to_have_count(2, timeout=PYTHON_TIMEOUT_MS)
    figure = first.get_by_role("group", name="Graph of loss", exact=True)
    expect(figure.locator("[data-node]")).to_have_count(8)
    expect(figure.locator("[data-edge]")).to_have_count(7)
    expect(figures(first).nth(1)).to_have_attribute("aria-label", "Graph of the expression")
    expect(figures(first).nth(1).locator("[data-node]")).to_have_count(3)
    assert figure.get_by_role("img").get_attribute("aria-label").startswith("Computation graph of loss")

    step_button(figure, "Seed gradient").click()
    assert box_gradient(figure, "loss") == "1" and box_gradient(figure, "w") == "–"
    expect(figure.locator("[aria-live]")).to_contain_text("Seed: dloss/dloss = 1")
    steps = 0
    while step_button(figure, "Backpropagate one operation").get_attribute("aria-disabled") != "true":
        step_button(figure, "Backpropagate one operation").click()
        steps += 1
        assert steps <= 4, "one step per operation: four"
    assert steps == 4
    expected = engine_gradients()
    assert {symbol: box_gradient(figure, symbol) for symbol in "wxby"} == expected
    assert figure.locator('[data-readout="grad of w"]').inner_text() == expected["w"]
    expect(figure.locator("[aria-live]")).to_contain_text("the backward pass is complete")
    assert serious_violations(page) == []

    run_block(first)  # the same code again: the figures are replaced, not added
    expect(figures(first)).to_have_count(2, timeout=PYTHON_TIMEOUT_MS)
    assert box_gradient(figures(first).first, "w") == "–"
    set_code(first, "print('no graph this time')\n")
    run_block(first)
    expect(figures(first)).to_have_count(0)
    assert page_errors == [] and outside_requests == []


def test_show_explains_a_non_value_and_a_graph_too_big_to_draw(page, site_url, page_errors):
    open_lesson(page, site_url)
    first = block(page, 1)
    set_code(first, "show(3)\n")
    output = run_block(first)
    assert "TypeError: show() draws the graph of a Value, for example show(loss); it got 3 (type int)" in output
    assert first.get_attribute("data-state") == "error"
    set_code(first, "from tinygrad import Value\ntotal = Value(0)\nfor k in range(500):\n    total = total + k * Value(k)\n"
                    "show(total)\nprint('still running')\n")
    output = run_block(first)
    assert "Graph of total: 2,001 values, 2,000 edges. Too many to draw" in output
    assert output_text(first).rstrip().endswith("still running")
    expect(figures(first)).to_have_count(0)
    assert page_errors == []
