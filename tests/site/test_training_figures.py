"""test_training_figures.py: the figures of issue #17 in Chromium, operated by their labels, and the
improvements it asked of the older figures (tick labels, the active edge, the spoken description).

What it is: "Loss landscape", "XOR decision surface", "Gradients of all 17 parameters" and "The cost
of a gradient", each found by its title, driven by mouse and keyboard like a reader, the numbers it
shows read back and checked against the same model under CPython or the issue; every figure of the
site at phone width (375 px) without sideways scrolling.
What it is not: the models' arithmetic (tests/tutor/figures/test_training_models.py).
"""
import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS
from test_figures import (TITLES, button, cpython_model, figure_page, messages, open_figure, readout, settled,
                          shown_number)


def description(figure):
    return settled(figure).locator(".figure__description").inner_text()


def test_loss_landscape_steps_runs_and_shows_the_path_and_the_gradient(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "loss_landscape")
    assert figure.locator(".figure__level").count() >= 8  # level lines drawn from the grid
    assert readout(figure, "dL/dw") == "−24" and readout(figure, "dL/db") == "−11"
    button(figure, "Step").click()
    assert (readout(figure, "w"), readout(figure, "b"), readout(figure, "Steps")) == ("0.2", "0.55", "1")
    assert "w = 0.2, b = 0.55" in description(figure)
    expect(figure.get_by_role("img", name=description(figure), exact=True)).to_have_count(1)  # the landscape, named by it
    expect(figure.locator(".figure__path")).to_have_count(1)
    expect(figure.locator("line.figure__gradient-arrow")).to_have_count(1)
    button(figure, "Run 100 steps").click()
    assert readout(figure, "Steps") == "101"
    assert abs(shown_number(readout(figure, "w")) - 2) < 0.02 and abs(shown_number(readout(figure, "b")) - 1) < 0.03
    assert figure.locator(".figure__level").count() >= 8  # the first state's grid is kept

    figure.get_by_role("slider", name="Learning rate").fill("0.3")
    settled(figure)
    button(figure, "Reset").click()
    button(figure, "Run 100 steps").click()
    assert "left the plotted part" in messages(figure)
    assert shown_number(readout(figure, "Loss")) > 1e6


def test_loss_landscape_start_point_by_click_and_by_keyboard(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "loss_landscape")
    landscape = figure.locator(".figure__landscape")
    landscape.scroll_into_view_if_needed()
    frame = landscape.locator(".figure__frame").bounding_box()
    # The frame spans w from −2 to 6 and b from −3 to 5: its upper right quarter point is w = 4, b = 3.
    page.mouse.click(frame["x"] + 0.75 * frame["width"], frame["y"] + 0.25 * frame["height"])
    assert readout(figure, "Steps") == "0"
    assert abs(shown_number(readout(figure, "w")) - 4) <= 0.1 and abs(shown_number(readout(figure, "b")) - 3) <= 0.1
    start_w = figure.get_by_role("slider", name="Start w")
    assert abs(float(start_w.input_value()) - 4) <= 0.1
    # Dragging moves the start with the pointer: from w = 0, b = −1 to w = 2, b = 4 (lower left to top middle).
    page.mouse.move(frame["x"] + 0.25 * frame["width"], frame["y"] + 0.75 * frame["height"])
    page.mouse.down()
    page.mouse.move(frame["x"] + 0.4 * frame["width"], frame["y"] + 0.4 * frame["height"], steps=5)
    page.mouse.move(frame["x"] + 0.5 * frame["width"], frame["y"] + 0.125 * frame["height"], steps=5)
    page.mouse.up()
    assert abs(shown_number(readout(figure, "w")) - 2) <= 0.1 and abs(shown_number(readout(figure, "b")) - 4) <= 0.1

    start_w.focus()
    page.keyboard.press("End")
    assert readout(figure, "w") == "6"
    expect(start_w).to_have_attribute("aria-valuetext", "start w = 6")
    figure.get_by_role("slider", name="Start b").focus()
    page.keyboard.press("Home")
    assert (readout(figure, "w"), readout(figure, "b")) == ("6", "−3")
    button(figure, "Run 100 steps").focus()
    page.keyboard.press("Enter")
    assert readout(figure, "Steps") == "100"
    button(figure, "Reset").focus()
    page.keyboard.press("Enter")
    assert (readout(figure, "w"), readout(figure, "b"), readout(figure, "Steps")) == ("6", "−3", "0")


def test_at_1280_by_900_the_step_button_and_every_plot_of_the_line_fit_are_on_screen_together(browser, site_url, built_site):
    """A reader presses Step and watches the plots change: scrolled down just far enough to reach "Step", every
    plot of "Fitting a line" and "Loss landscape" lies on screen, under Material's header (issue #36: the
    landscape's three plots were stacked 1,090 px tall, so Step and the landscape were never seen together)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        page = context.new_page()
        page.goto(site_url + figure_page(built_site, "loss_landscape"))
        header = page.locator(".md-header").bounding_box()
        seen = {}
        for name in ("line_fit", "loss_landscape"):
            figure = page.get_by_role("group", name=TITLES[name], exact=True)
            figure.scroll_into_view_if_needed()
            expect(figure.locator("svg.figure__drawing")).not_to_have_count(0, timeout=PYTHON_TIMEOUT_MS)
            figure.evaluate("figure => scrollBy(0, figure.getBoundingClientRect().top - innerHeight)")  # the text before it
            button(figure, "Step").evaluate("step => step.scrollIntoView({ block: 'nearest' })")  # scrolled just far enough
            seen[name] = [box["y"] >= header["y"] + header["height"] - 0.5 and box["y"] + box["height"] <= 900.5
                          for box in (plot.bounding_box() for plot in figure.locator("svg.figure__drawing").all())]
        assert seen == {"line_fit": [True, True], "loss_landscape": [True, True, True]}
    finally:
        context.close()


def test_xor_surface_learns_with_four_neurons_and_stalls_with_two(page, site_url, built_site, clean_run):
    model = cpython_model("xor_surface")
    figure = open_figure(page, site_url, built_site, "xor_surface")
    expect(figure.locator(".figure__surface")).to_have_count(24 * 24)
    expect(figure.locator(".figure__target")).to_have_count(4)
    button(figure, "Train 100 steps").click()
    expected = model.train_steps(model.initial())
    assert (readout(figure, "Steps"), readout(figure, "Loss")) == ("100", expected["loss_text"])
    assert readout(figure, "Output at (0, 1)") == expected["prediction_texts"][1]
    for _ in range(4):
        button(figure, "Train 100 steps").click()
    assert shown_number(readout(figure, "Loss")) < 1e-9
    assert "Learned" in messages(figure)
    expect(figure.locator("[data-hidden]")).to_have_count(4 * 4)
    expect(figure.locator(".figure__hidden-same")).to_have_count(0)

    figure.get_by_role("slider", name="Seed").fill("7")
    settled(figure)
    figure.get_by_role("slider", name="Hidden neurons").fill("2")
    assert (readout(figure, "Parameters"), readout(figure, "Steps")) == ("9", "0")
    for _ in range(10):
        button(figure, "Train 100 steps").click()
    assert readout(figure, "Steps") == "1000"
    assert "Plateau" in messages(figure)
    assert shown_number(readout(figure, "Loss")) > 0.5
    assert "seed 7, after 1000 steps" in description(figure)
    # Issue 28: the hidden neurons' outputs say why: (0, 1) and (1, 1) get the same, saturated, hidden outputs.
    expected = model.set_hidden(model.set_seed(model.initial(), 7), 2)
    for _ in range(10):
        expected = model.train_steps(expected)
    expect(figure.locator("[data-hidden]")).to_have_count(4 * 2)
    shown = [figure.locator(f'[data-hidden="{row}-{k}"] text').text_content() for row in range(4) for k in range(2)]
    assert shown == [text for row in expected["hidden_texts"] for text in row]
    expect(figure.locator(".figure__hidden-same")).to_have_count(2)  # the two rows it cannot tell apart
    [finding] = expected["hidden_findings"]
    assert finding in messages(figure) and "saturated" in finding


def test_xor_surface_has_a_colour_key_that_matches_its_colours(page, site_url, built_site, clean_run):
    """The review: no key to the colours. One line names each colour with the target it leans to, beside a
    swatch painted like the cells, and the prose does not place the table "on the right" (it is below)."""
    figure = open_figure(page, site_url, built_site, "xor_surface")
    key = figure.locator(".figure__key")
    expect(key).to_have_text("Colours:  blue towards +1,  orange towards −1, paler near 0 (the output, the targets "
                             "and the hidden outputs).")
    blue, orange = "rgb(21, 101, 192)", "rgb(230, 81, 0)"  # figures.css: --figure-value and --figure-secant
    assert key.locator(".figure__surface--positive").evaluate("s => getComputedStyle(s).backgroundColor") == blue
    assert key.locator(".figure__surface--negative").evaluate("s => getComputedStyle(s).backgroundColor") == orange
    targets = {figure.locator(".figure__target--positive").first.evaluate("c => getComputedStyle(c).fill"),
               figure.locator(".figure__target--negative").first.evaluate("c => getComputedStyle(c).fill")}
    assert targets == {blue, orange}
    paragraph = page.locator("article p", has_text="hidden neurons' outputs at the four inputs")
    assert "on the right" not in paragraph.inner_text() and '"hidden outputs"' in paragraph.inner_text()
    table_top = figure.locator(".figure__hidden").bounding_box()["y"]
    assert table_top > figure.locator(".figure__picture svg").first.bounding_box()["y"]  # below the surface at 1280 px


def test_gradients_of_all_17_parameters_agree_with_central_differences(page, site_url, built_site, clean_run):
    model = cpython_model("xor_gradients")
    figure = open_figure(page, site_url, built_site, "xor_gradients")
    expect(figure.locator('[data-bar="backward"]')).to_have_count(17)
    expect(figure.locator('[data-bar="finite"]')).to_have_count(17)
    button(figure, "Train 100 steps").click()
    assert readout(figure, "Steps") == "100"
    assert readout(figure, "Gradients from one backward()") == "17"
    assert readout(figure, "Extra loss evaluations") == "34"
    assert shown_number(readout(figure, "Largest difference")) < 1e-6
    expected = model.train_steps(model.initial())
    shown = settled(figure).locator('[data-bar="backward"] title').all_text_contents()
    assert shown == [f"{bar['group']}, {bar['name']}: backward() {bar['backward_text']}, central differences {bar['finite_text']}"
                     for bar in expected["bars"]]
    button(figure, "Reset").click()
    assert readout(figure, "Steps") == "0"


RATIO = "Central differences ÷ reverse mode"


def test_cost_of_a_gradient_from_one_to_a_thousand_parameters(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "gradient_cost")
    assert readout(figure, "Parameters") == "17"
    slider = figure.get_by_role("slider", name="Parameters")
    slider.focus()
    page.keyboard.press("End")
    assert (readout(figure, "Central differences"), readout(figure, RATIO)) == ("4,002,000", "667")
    assert readout(figure, "Reverse mode") == "6,001"
    page.keyboard.press("Home")
    assert (readout(figure, "Reverse mode"), readout(figure, "Central differences"), readout(figure, RATIO)) == ("7", "6", "0.857")
    expect(slider).to_have_attribute("aria-valuetext", "1 parameter")


def test_the_cost_slider_steps_evenly_on_the_logarithmic_axis(page, site_url, built_site, clean_run):
    """The review: a linear 1 to 1,000 slider under a log axis (17 parameters sat at the far left). The slider
    steps through the model's parameter_steps, one arrow key each; the legend shows each line; the y axis's
    label stays clear of its tick labels on a phone-wide drawing too."""
    steps = cpython_model("gradient_cost").PARAMETER_STEPS
    figure = open_figure(page, site_url, built_site, "gradient_cost")
    slider = figure.get_by_role("slider", name="Parameters")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("0", str(len(steps) - 1))
    assert int(slider.input_value()) == steps.index(17)
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert readout(figure, "Parameters") == str(steps[steps.index(17) + 1])
    expect(slider).to_have_attribute("aria-valuetext", f"{steps[steps.index(17) + 1]} parameters")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert readout(figure, "Parameters") == str(steps[steps.index(17) - 1])
    samples = figure.locator(".figure__legend-sample")
    expect(samples).to_have_count(3)
    for index, line in enumerate(("finite", "forward", "reverse")):
        assert f"figure__cost--{line}" in samples.nth(index).get_attribute("class")
    boxes = figure.locator(".figure__axes text").evaluate_all(
        "texts => texts.map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right, r.top, r.bottom]; })")
    label = next(box for box in boxes if box[0] == "operations")
    ticks = [box for box in boxes if box[0] != "operations" and box[0] != "parameters" and box[2] <= label[2] + 40]
    assert ticks and all(label[2] <= tick[1] or label[4] <= tick[3] or tick[4] <= label[3] for tick in ticks), (label, ticks)
    ticks = figure.locator(".figure__axes text").all_text_contents()
    assert {"10", "100", "1000"} <= set(ticks) and not any("e" in tick for tick in ticks if tick[:1].isdigit())


def test_cost_of_a_gradient_draws_forward_mode_with_its_computed_sentence(page, site_url, built_site, clean_run):
    """Issue #28: a third line, forward mode, one pass per parameter; the sentence under it is the model's."""
    model = cpython_model("gradient_cost")
    figure = open_figure(page, site_url, built_site, "gradient_cost")
    expect(figure.locator("path.figure__cost--forward")).to_have_count(1)
    assert readout(figure, "Forward mode") == model.initial()["forward_mode_text"]
    assert model.initial()["messages"][2] in messages(figure)
    slider = figure.get_by_role("slider", name="Parameters")
    slider.focus()
    page.keyboard.press("End")
    expected = model.set_parameters(model.initial(), 1000)
    assert readout(figure, "Forward mode") == expected["forward_mode_text"] == "6,001,000"
    assert expected["messages"][2] in messages(figure) and "1,000 times reverse mode" in messages(figure)
    page.keyboard.press("Home")
    assert readout(figure, "Forward mode") == readout(figure, "Reverse mode")
    assert "as many as reverse mode" in messages(figure)
    colour = figure.locator("path.figure__cost--forward").evaluate("path => getComputedStyle(path).stroke")
    assert colour == "rgb(21, 101, 192)"  # blue, dashed: the third line


# ---- The older figures ------------------------------------------------------------------------

def test_line_fit_loss_axis_reads_10_and_100_and_has_no_step_axis_before_a_step(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "line_fit")
    ticks = figure.locator(".figure__axes text").all_text_contents()
    assert "10" in ticks and "100" in ticks and "1e1" not in ticks
    assert "no steps yet" in ticks
    button(figure, "Step").click()
    ticks = settled(figure).locator(".figure__axes text").all_text_contents()
    assert "no steps yet" not in ticks
    assert "After 1 step at learning rate 0.05: w = 0.2, b = 0.55" in description(figure)
    described_by = {svg.get_attribute("aria-describedby") for svg in figure.locator(".figure__picture svg").all()}
    assert described_by == {figure.locator(".figure__description").get_attribute("id")}


def test_backprop_graph_highlights_the_value_passing_its_gradient_and_its_edges(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "backprop_graph")
    expect(figure.locator(".figure__node--active")).to_have_count(0)
    button(figure, "Seed gradient").click()
    expect(settled(figure).locator(".figure__node--active")).to_have_attribute("data-node", "L")
    button(figure, "Backpropagate one operation").click()
    button(figure, "Backpropagate one operation").click()
    expect(settled(figure).locator(".figure__node--active")).to_have_attribute("data-node", "e")
    expect(figure.locator(".figure__edge--active")).to_have_count(2)
    assert "3 of 7 edges followed backward" in description(figure)
    grad_colour = figure.locator('[data-node="e"] .figure__node-grad').evaluate("text => getComputedStyle(text).fill")
    value_colour = figure.locator('[data-node="e"] .figure__node-value').evaluate("text => getComputedStyle(text).fill")
    assert (value_colour, grad_colour) == ("rgb(21, 101, 192)", "rgb(123, 31, 162)")  # blue values, purple gradients


@pytest.mark.parametrize("name", ["loss_landscape", "xor_surface", "xor_gradients", "gradient_cost", "line_fit", "backprop_graph"])
def test_figures_fit_a_phone_screen(browser, site_url, built_site, name):
    context = browser.new_context(viewport={"width": 375, "height": 800}, service_workers="block")
    try:
        page = context.new_page()
        page.goto(site_url + figure_page(built_site, name))
        figure = page.get_by_role("group", name=TITLES[name], exact=True)
        figure.scroll_into_view_if_needed()
        sizes = figure.evaluate("""figure => ({ figure: figure.getBoundingClientRect().right,
          page: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth,
          widest: Math.max(...[...figure.querySelectorAll("svg, button, input")].map((e) =>
            (e.closest(".figure__scroll") ?? e).getBoundingClientRect().right)),  // a graph scrolls in its frame
          smallestText: Math.min(...[...figure.querySelectorAll("svg")].map((svg) =>
            svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)) * 12 })""")
        assert sizes["scroll"] <= sizes["page"], sizes
        assert sizes["widest"] <= sizes["figure"] + 0.5, sizes
        assert sizes["smallestText"] >= 9, sizes  # a wide graph keeps its size and scrolls sideways instead
    finally:
        context.close()


def boxes_shown(figure):
    """Each box of the loop figure as its lines of text, heading first, in the order drawn."""
    return settled(figure).locator("svg.figure__drawing").evaluate(
        "(svg) => [...svg.querySelectorAll('.figure__node')].map((box) => [...box.querySelectorAll('text')].map((t) => t.textContent))")


def test_the_loop_figure_draws_one_pass_as_four_boxes_with_the_models_numbers(page, site_url, built_site, clean_run):
    model = cpython_model("training_loop")
    figure = open_figure(page, site_url, built_site, "training_loop")
    expected = model.initial()
    assert boxes_shown(figure) == [[box["heading"], *box["lines"]] for box in expected["boxes"]]
    assert (readout(figure, "Pass"), readout(figure, "Loss")) == ("1", expected["loss_text"])
    # Every line of text lies inside its box, at phone width too (the drawing scales down as a whole).
    assert figure.locator("svg.figure__drawing").evaluate("""(svg) => [...svg.querySelectorAll('.figure__node')].every((box) => {
      const frame = box.querySelector('rect').getBBox();
      return [...box.querySelectorAll('text')].every((text) => { const b = text.getBBox();
        return b.x >= frame.x && b.x + b.width <= frame.x + frame.width && b.y >= frame.y && b.y + b.height <= frame.y + frame.height; });
    })""")
    button(figure, "Next pass").click()
    expect(settled(figure).locator('[data-readout="Pass"]')).to_have_text("2")
    assert boxes_shown(figure) == [[box["heading"], *box["lines"]] for box in model.next_pass(expected)["boxes"]]
    button(figure, "Start again").click()
    expect(settled(figure).locator('[data-readout="Pass"]')).to_have_text("1")
