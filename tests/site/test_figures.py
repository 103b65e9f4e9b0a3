"""test_figures.py: the seven figures in Chromium, operated like a reader: by their labels and keys.

What it is: each figure is found on whichever built page holds its placeholder, by role `group`
and its title from issue #5; its buttons, radios and sliders are found by their exact labels;
the numbers it shows (readouts, graph boxes, messages) are read back and checked against the
issue, or against the same model run here under CPython. Three tests use the keyboard only
(buttons, sliders, radios). One test keeps Python from starting, to check the state every
figure shows before Python is ready.

What it is not: a test of the models' arithmetic in depth (tests/tutor/figures/ does that) or of the
runtime (test_blocks.py).
"""
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REPO, block, box_gradient, run_block, set_code,
                     settled, wait_python_ready)  # (box_gradient, settled: tests import them from here too)

TITLES = {  # exactly as issue #5 names them
    "x_times_x": "x × x, traced",
    "mystery_curve": "A formula you can evaluate but not picture",
    "secant_tangent": "Secant and tangent",
    "loss_experiment": "The loss experiment",
    "backprop_graph": "Backpropagation on the graph",
    "paths_add_up": "Paths add up",
    "line_fit": "Fitting a line",
    "loss_landscape": "Loss landscape",  # issue #17
    "xor_surface": "XOR decision surface",
    "xor_gradients": "Gradients of all 17 parameters",
    "gradient_cost": "The cost of a gradient",
    "backprop_by_hand": "Backpropagate by hand",  # issue #28
    "neuron_by_hand": "A neuron by hand",
    "training_loop": "The loop, once around",  # issue #35
}
SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
NO_PYTHON = """{  // the runtime's worker (named "python") becomes a stub that never answers; others still work
  const RealWorker = window.Worker;
  window.Worker = class extends RealWorker {
    constructor(url, options) {
      if (options?.name === "python") return { postMessage() {}, terminate() {} };
      super(url, options);
    }
  };
}"""


def shown_number(text):
    """The float a figure's text stands for: "−12" -> -12.0, "8.98 × 10⁻⁵" -> 8.98e-05."""
    text = text.strip().replace("\u2212", "-")
    mantissa, _, power = text.partition(" × 10")
    return float(mantissa) * 10 ** int(power.translate(SUPERSCRIPT_DIGITS)) if power else float(text)


def figure_page(built_site, name):
    """The path (relative to the site's base URL) of the built page holding figure `name`."""
    for html_file in sorted(Path(built_site).rglob("index.html")):
        if f'data-widget="{name}"' in html_file.read_text(encoding="utf-8"):
            relative = html_file.parent.relative_to(built_site).as_posix()
            return "" if relative == "." else f"{relative}/"
    pytest.fail(f'no page of the built site holds <div data-widget="{name}">')


def cpython_model(name):
    """The figure's model imported here, to compare what the browser shows with CPython's answer."""
    for folder in (str(REPO / "engine"), str(REPO)):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    return __import__(f"tutor.figures.{name}", fromlist=["initial"])


def open_figure(page, site_url, built_site, name, wait_for_python=True):
    """Open the page holding figure `name`; return the figure (after Python is ready, by default)."""
    page.goto(site_url + figure_page(built_site, name))
    figure = page.get_by_role("group", name=TITLES[name], exact=True)
    expect(figure).to_be_visible()
    figure.scroll_into_view_if_needed()  # as a reader would; Python starts when a figure nears the view
    if wait_for_python:
        wait_python_ready(page)
        expect(figure.locator("button, input").first).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    return figure


def readout(figure, label):
    return settled(figure).locator(f'[data-readout="{label}"]').inner_text()


def button(figure, label):
    return figure.get_by_role("button", name=label, exact=True)


def messages(figure):
    return settled(figure).locator(".figure__messages").inner_text()


# ---- Before Python --------------------------------------------------------------------------

@pytest.mark.parametrize("name", TITLES)
def test_figure_shows_its_starting_state_before_python_is_ready(page, site_url, built_site, name, clean_run):
    page.add_init_script(NO_PYTHON)  # Python never starts on this page
    figure = open_figure(page, site_url, built_site, name, wait_for_python=False)
    expect(figure.locator(".figure__picture svg").first).to_be_visible()
    expect(figure).to_contain_text("becomes interactive when Python is ready")
    controls = figure.locator("button, input")
    assert controls.count() >= 1
    for index in range(controls.count()):
        expect(controls.nth(index)).to_be_disabled()
    svg_markup = figure.locator(".figure__picture").inner_html()
    assert "NaN" not in svg_markup and "Infinity" not in svg_markup


def test_starting_numbers_come_from_the_build(page, site_url, built_site, clean_run):
    page.add_init_script(NO_PYTHON)
    figure = open_figure(page, site_url, built_site, "loss_experiment", wait_for_python=False)
    assert readout(figure, "Prediction gradient") == "−6"
    assert readout(figure, "Weight gradient") == "−12"


# ---- One figure at a time, by mouse ----------------------------------------------------------

def texts_outside_the_drawing(svg):
    """The texts of an SVG drawing that reach outside its viewBox (and are cut off), measured by their own boxes."""
    return svg.evaluate("""(svg) => {
      const view = svg.viewBox.baseVal;
      return [...svg.querySelectorAll("text")].filter((text) => {
        const box = text.getBBox();
        return box.x < view.x || box.y < view.y || box.x + box.width > view.x + view.width
          || box.y + box.height > view.y + view.height;
      }).map((text) => text.textContent);
    }""")


def test_x_times_x_traces_both_operands_to_ten(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "x_times_x")
    button(figure, "Evaluate x × x").click()
    assert readout(figure, "q = x × x") == "25"
    button(figure, "Seed output gradient").click()
    assert readout(figure, "dq/dq") == "1"
    assert "dq/dq = 1" in messages(figure)
    button(figure, "Follow next operand").click()
    assert box_gradient(figure, "x") == "5"
    assert "= 5" in messages(figure)
    button(figure, "Follow next operand").click()
    assert readout(figure, "x.grad") == "10" and box_gradient(figure, "x") == "10"
    contributions = figure.locator(".figure__edge-contribution").all_text_contents()
    assert contributions == ["adds 5", "adds 5"]
    assert texts_outside_the_drawing(figure.locator("svg.figure__graph")) == []  # "× 5" above, "adds 5" below
    done = button(figure, "Follow next operand")
    expect(done).to_have_attribute("aria-disabled", "true")
    done.hover()  # focused by the click, and under the pointer: it still looks unavailable, not orange
    expect(done).to_have_css("background-color", "rgba(0, 0, 0, 0)")
    assert done.evaluate("(b) => getComputedStyle(b).color") == done.evaluate(
        "(b) => getComputedStyle(b.closest('.figure').querySelector('.figure__button:not([aria-disabled=\"true\"])'))"
        ".color")


def test_mystery_curve_shows_local_value_and_slope_then_the_whole_curve(page, site_url, built_site, clean_run):
    model = cpython_model("mystery_curve")
    figure = open_figure(page, site_url, built_site, "mystery_curve")
    expect(figure.locator(".figure__curve")).to_have_count(0)
    figure.get_by_role("slider", name="Known evaluation point x").fill("1.5")
    expected = model.new_state(1.5, revealed=False)
    assert readout(figure, "f(x)") == expected["value_text"]
    assert readout(figure, "f'(x) from backward()") == expected["slope_text"]
    expect(figure.locator(".figure__tangent")).to_have_count(1)
    figure.get_by_role("slider", name="Known evaluation point x").fill("-2")
    expect(settled(figure).locator(".figure__asked-point")).to_have_count(3)  # the start, 1.5 and -2 stay drawn
    assert "The 3 points you asked about" in messages(figure)
    button(figure, "Reveal full curve").click()
    curve = settled(figure).locator(".figure__curve")
    expect(curve).to_have_count(1)
    assert curve.get_attribute("d").count("L") >= 100
    assert readout(figure, "f'(x) from backward()") == model.new_state(-2, revealed=False)["slope_text"]


def test_a_figure_names_the_block_that_replaced_what_it_computes_with_instead_of_drawing(page, site_url, built_site,
                                                                                       clean_run):
    figure = open_figure(page, site_url, built_site, "mystery_curve")
    changing = block(page, 1)
    set_code(changing, "import math\nmath.tanh = lambda x: 0.5")
    run_block(changing)
    expect(changing.get_by_role("log")).to_contain_text("the figures show a notice instead of numbers")
    figure.get_by_role("slider", name="Known evaluation point x").fill("1.2")
    alert = figure.get_by_role("alert")
    expect(alert).to_contain_text("changed what this figure computes with (math.tanh was replaced)",
                                  timeout=PYTHON_TIMEOUT_MS)
    expect(alert).to_contain_text("Press Restart Python to draw it again.")
    assert "-0.0272" not in figure.inner_text().replace("−", "-")  # f(1.2) with that tanh


def test_secant_approaches_the_tangent_and_falls_for_negative_x(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "secant_tangent")
    expect(figure.get_by_role("slider", name="Position x")).to_have_attribute("aria-valuetext", "x = 5")
    expect(figure.get_by_role("slider", name="Small change h")).to_have_attribute("aria-valuetext", "h = 1")
    assert readout(figure, "Secant slope (f(x + h) − f(x)) / h") == "11"  # the chapter's x = 5, h = 1
    assert readout(figure, "Secant minus tangent") == "1"
    figure.get_by_role("slider", name="Small change h").fill("0")  # the first (smallest) setting
    expect(figure.get_by_role("slider", name="Small change h")).to_have_attribute("aria-valuetext", "h = 0.001")
    assert readout(figure, "Secant slope (f(x + h) − f(x)) / h") == "10.001"
    assert readout(figure, "Tangent slope 2x") == "10"
    secant_colour = figure.locator(".figure__secant").evaluate("line => getComputedStyle(line).stroke")
    tangent_colour = figure.locator(".figure__tangent").evaluate("line => getComputedStyle(line).stroke")
    assert (secant_colour, tangent_colour) == ("rgb(230, 81, 0)", "rgb(123, 31, 162)")  # orange, purple
    figure.get_by_role("slider", name="Position x").fill("-3")
    assert shown_number(readout(figure, "Secant slope (f(x + h) − f(x)) / h")) < 0
    assert readout(figure, "Tangent slope 2x") == "−6"


def test_loss_experiment_compares_losses_and_takes_a_step(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "loss_experiment")
    assert (readout(figure, "Prediction gradient"), readout(figure, "Weight gradient")) == ("−6", "−12")
    figure.get_by_role("radio", name="Absolute error").check()
    assert (readout(figure, "Prediction gradient"), readout(figure, "Weight gradient")) == ("−1", "−2")
    figure.get_by_role("slider", name="Weight w").fill("2.5")
    assert readout(figure, "Loss") == "0" and readout(figure, "Weight gradient") == "0"
    assert "subgradient 0" in messages(figure)
    figure.get_by_role("radio", name="Squared error").check()
    settled(figure)
    button(figure, "Reset").click()
    assert readout(figure, "Weight w") == "1"
    button(figure, "Take one step").click()
    assert (readout(figure, "Weight w"), readout(figure, "Prediction"), readout(figure, "Loss")) == ("2.2", "4.4", "0.36")
    expect(figure.get_by_role("slider", name="Weight w")).to_have_attribute("aria-valuetext", "w = 2.2")


def test_backprop_graph_steps_one_operation_at_a_time(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "backprop_graph")
    expect(figure.locator("[data-node]")).to_have_count(8)
    expect(figure.locator("[data-edge]")).to_have_count(7)
    button(figure, "Seed gradient").click()
    assert box_gradient(figure, "L") == "1" and box_gradient(figure, "w") == "–"
    steps = 0
    while button(settled(figure), "Backpropagate one operation").get_attribute("aria-disabled") != "true":
        button(figure, "Backpropagate one operation").click()
        steps += 1
        assert steps <= 4, "the backward pass needs one step per operation: four"
    assert steps == 4
    gradients = {symbol: box_gradient(figure, symbol) for symbol in ("w", "b", "x", "y")}
    assert gradients == {"w": "−12", "b": "−6", "x": "−6", "y": "6"}
    assert readout(figure, "grad of w") == "−12"


def test_paths_add_up_to_seven(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "paths_add_up")
    button(figure, "Seed gradient").click()
    button(figure, "Backpropagate one operation").click()
    assert box_gradient(figure, "a") == "1"
    button(figure, "Backpropagate one operation").click()
    assert box_gradient(figure, "a") == "7"
    assert "1 + 3 + 3 = 7" in messages(figure)


def test_line_fit_steps_runs_resets_and_reports_divergence(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "line_fit")
    expect(figure.get_by_role("slider", name="Learning rate")).to_have_value("0.05")
    start_loss = shown_number(readout(figure, "Loss"))
    button(figure, "Step").click()
    assert (readout(figure, "w"), readout(figure, "b"), readout(figure, "Steps")) == ("0.2", "0.55", "1")
    button(figure, "Run 100 steps").click()
    assert readout(figure, "Steps") == "101" and shown_number(readout(figure, "Loss")) < 1e-3
    assert abs(shown_number(readout(figure, "w")) - 2) < 0.05
    button(figure, "Reset").click()
    assert (readout(figure, "w"), readout(figure, "Steps")) == ("−1", "0")

    figure.get_by_role("slider", name="Learning rate").fill("0.3")
    settled(figure)
    button(figure, "Run 100 steps").click()
    assert shown_number(readout(figure, "Loss")) > 1000 * start_loss
    assert "loss grew" in messages(figure)

    figure.get_by_role("slider", name="Learning rate").fill("1")
    button(figure, "Reset").click()
    for _ in range(3):
        button(figure, "Run 100 steps").click()
    assert "Diverged" in messages(figure)
    expect(figure.locator(".figure__line")).to_have_count(0)
    svg_markup = figure.locator(".figure__picture").inner_html()
    assert "NaN" not in svg_markup and "Infinity" not in svg_markup


# ---- Keyboard only ----------------------------------------------------------------------------

def focused_label(page):
    return page.evaluate("() => document.activeElement.textContent || document.activeElement.labels?.[0]?.textContent")


def assert_focus_visible(page):
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')"
                         " && getComputedStyle(document.activeElement).outlineStyle !== 'none'")


def test_buttons_work_from_the_keyboard(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "x_times_x")
    button(figure, "Evaluate x × x").focus()
    page.keyboard.press("Enter")
    assert readout(figure, "q = x × x") == "25"
    page.keyboard.press("Tab")
    assert focused_label(page) == "Seed output gradient"
    assert_focus_visible(page)
    page.keyboard.press("Space")
    assert readout(figure, "dq/dq") == "1"
    page.keyboard.press("Tab")
    assert focused_label(page) == "Follow next operand"
    page.keyboard.press("Enter")
    assert readout(figure, "x.grad") == "5"
    page.keyboard.press("Enter")  # focus stays on the button
    assert readout(figure, "x.grad") == "10"


def test_sliders_work_from_the_keyboard(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "secant_tangent")
    figure.get_by_role("slider", name="Small change h").focus()
    page.keyboard.press("Home")
    assert_focus_visible(page)
    page.keyboard.press("Tab")
    assert focused_label(page).strip() == "Position x"
    page.keyboard.press("Home")
    assert readout(figure, "Tangent slope 2x") == "−10"
    page.keyboard.press("ArrowRight")
    assert readout(figure, "Tangent slope 2x") == "−9"
    page.keyboard.press("End")  # back to x = 5, where the figure opened
    assert readout(figure, "Secant slope (f(x + h) − f(x)) / h") == "10.001"


def test_radio_choice_works_from_the_keyboard(page, site_url, built_site, clean_run):
    figure = open_figure(page, site_url, built_site, "loss_experiment")
    figure.get_by_role("radio", name="Squared error").focus()
    page.keyboard.press("ArrowRight")
    expect(figure.get_by_role("radio", name="Absolute error")).to_be_checked()
    assert_focus_visible(page)
    assert (readout(figure, "Prediction gradient"), readout(figure, "Weight gradient")) == ("−1", "−2")
    page.keyboard.press("ArrowLeft")
    assert readout(figure, "Weight gradient") == "−12"


def test_mounting_again_adds_nothing(page, site_url, built_site, clean_run):
    page.add_init_script(NO_PYTHON)
    figure = open_figure(page, site_url, built_site, "x_times_x", wait_for_python=False)
    expect(figure.locator("button, input").first).to_be_attached()  # mounted: its view adds every control at once
    controls = figure.locator("button, input").count()
    page.evaluate("async (url) => (await import(url)).mountFigures(document)",
                  site_url + "assets/lesson/browser/figures/figures.mjs")
    assert figure.locator("button, input").count() == controls
    expect(figure.locator(".figure__picture")).to_have_count(1)


def test_figures_reached_by_instant_navigation_use_the_running_python(page, site_url, built_site, clean_run):
    open_figure(page, site_url, built_site, "x_times_x")
    page.evaluate("() => { window.sameDocument = true; }")
    target = figure_page(built_site, "loss_experiment")
    page.locator(f'nav a[href$="{target}"]').first.click()
    figure = page.get_by_role("group", name=TITLES["loss_experiment"], exact=True)
    expect(figure.get_by_role("radio", name="Absolute error")).to_be_enabled()
    assert page.evaluate("() => window.sameDocument === true"), "the click reloaded the page"
    figure.get_by_role("radio", name="Absolute error").check()
    assert readout(figure, "Weight gradient") == "−2"
    expect(figure.locator("svg")).to_have_count(1)


def test_a_frame_that_answers_at_once_can_have_a_slider_and_radios(page, site_url, built_site, clean_run):
    """FigureFrame's slider and radio setters rely on pending(), which the frame itself defines: a frame
    that is not a Figure (like the show() graphs' ReplayedFigure) can use every control."""
    page.add_init_script(NO_PYTHON)
    open_figure(page, site_url, built_site, "x_times_x", wait_for_python=False)
    shown = page.evaluate("""async (url) => {
        const { FigureFrame } = await import(url);
        class Answering extends FigureFrame {
            constructor(element) { super(element, { value: 1 }, true); this.mount((frame) => {
                const setSlider = frame.slider("Amount", { min: 0, max: 10, step: 1 }, "f", (state, value) => ({ value }));
                const setChoice = frame.radios("Kind", [["a", "A"], ["b", "B"]], "g", (state, value) => ({ value }));
                return (state) => { setSlider(state.value, String(state.value)); setChoice("a"); };
            }); }
            request(fn, kwargs) { this.showState({ value: kwargs(this.state).value }); }
        }
        const element = document.body.appendChild(document.createElement("div"));
        const frame = new Answering(element);
        const input = element.querySelector("input[type=range]");
        input.value = "7";
        input.dispatchEvent(new Event("input"));
        return [frame.state.value, input.getAttribute("aria-valuetext"), element.querySelector("input[type=radio]").checked];
    }""", site_url + "assets/lesson/browser/figures/figure.mjs")
    assert shown == [7, "7", True]
