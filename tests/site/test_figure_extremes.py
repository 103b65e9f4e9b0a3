"""test_figure_extremes.py: the figures in Chromium with their controls driven to every end.

What it is: a reader's keyboard moves each slider to its ends (Home and End) and presses the
buttons many times: "Fitting a line" at the largest learning rate for hundreds of steps (it
diverges) and at the smallest; "Secant and tangent" with the smallest and largest h at both ends of
x; "The loss experiment" with w at both ends for both losses, stepping from there; "A formula you
can evaluate but not picture" at both ends with the full curve shown. After every move the figure
must show no error, no text saying NaN or Infinity, and no SVG attribute holding NaN or Infinity;
the page must raise no uncaught error.
What it is not: the models' arithmetic at the extremes (tests/tutor/figures/test_extremes.py).
One browser context serves the module; a test opens its figure's page only if it is not shown yet.
"""
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, UI_TIMEOUT_MS
from test_figures import TITLES, figure_page

NON_FINITE_DRAWING = """figure => {
  const found = [];
  for (const element of figure.querySelectorAll("svg, svg *")) {
    for (const attribute of element.attributes) {
      if (/NaN|Infinity/i.test(attribute.value)) found.push(`<${element.tagName} ${attribute.name}="${attribute.value.slice(0, 60)}">`);
    }
  }
  const text = figure.innerText + " " + [...figure.querySelectorAll("svg text")].map((node) => node.textContent).join(" ")
    + " " + [...figure.querySelectorAll("[aria-label], [aria-valuetext]")]
      .map((node) => `${node.getAttribute("aria-label") ?? ""} ${node.getAttribute("aria-valuetext") ?? ""}`).join(" ");
  for (const word of text.match(/\\b(NaN|-?Infinity|inf|nan|undefined)\\b/gi) ?? []) found.push(`text: ${word}`);
  return found;
}"""


@pytest.fixture(scope="module")
def session(browser):
    """One page for the module, with its uncaught errors recorded."""
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield SimpleNamespace(page=page, errors=errors)
    context.close()


def shown_figure(session, site_url, built_site, name):
    """Figure `name`, interactive, on its page (opened only if another page is showing)."""
    page = session.page
    address = site_url + figure_page(built_site, name)
    if page.url.split("#")[0] != address:
        page.goto(address)
    figure = page.get_by_role("group", name=TITLES[name], exact=True)
    figure.scroll_into_view_if_needed()
    expect(figure.locator("button, input").first).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    return figure


def settle_and_check(session, figure, doing):
    """Wait for the figure's answer, then assert it drew and said nothing non-finite and no error."""
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    assert figure.evaluate(NON_FINITE_DRAWING) == [], doing
    assert figure.get_by_role("alert").count() == 0, f"{doing}: {figure.get_by_role('alert').all_text_contents()}"
    assert figure.locator(".figure__picture svg").count() >= 1, f"{doing}: nothing drawn"
    assert session.errors == [], doing


def press_key(figure, label, key):
    slider = figure.get_by_label(label, exact=True)
    slider.focus()
    slider.press(key)
    return slider


def test_line_fit_at_the_largest_and_smallest_learning_rate_for_many_steps(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "line_fit")
    slider = press_key(figure, "Learning rate", "End")
    expect(slider).to_have_value(slider.get_attribute("max"))
    figure.get_by_role("button", name="Reset").press("Enter")
    settle_and_check(session, figure, "largest learning rate, reset")
    for press in range(4):  # 400 steps: far past the overflow
        figure.get_by_role("button", name="Run 100 steps").press("Enter")
        settle_and_check(session, figure, f"largest learning rate, {100 * (press + 1)} steps")
    expect(figure.locator(".figure__messages")).to_contain_text("Diverged")
    slider = press_key(figure, "Learning rate", "Home")
    expect(slider).to_have_value(slider.get_attribute("min"))
    figure.get_by_role("button", name="Reset").press("Enter")
    for press in range(3):
        figure.get_by_role("button", name="Run 100 steps").press("Enter")
        settle_and_check(session, figure, f"smallest learning rate, {100 * (press + 1)} steps")
    expect(figure.locator(".figure__messages")).not_to_contain_text("Diverged")


def test_secant_tangent_with_tiny_and_huge_h_at_both_ends_of_x(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "secant_tangent")
    for h_key in ("Home", "End"):
        press_key(figure, "Small change h", h_key)
        settle_and_check(session, figure, f"h at {h_key}")
        for x_key in ("Home", "End"):
            slider = press_key(figure, "Position x", x_key)
            settle_and_check(session, figure, f"h at {h_key}, x at {x_key}")
            expect(slider).to_have_value(slider.get_attribute("min" if x_key == "Home" else "max"))


def test_loss_experiment_with_w_at_both_ends_for_both_losses(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "loss_experiment")
    for loss in ("Squared error", "Absolute error"):
        figure.get_by_label(loss, exact=True).check()
        settle_and_check(session, figure, loss)
        for key in ("Home", "End"):
            press_key(figure, "Weight w", key)
            settle_and_check(session, figure, f"{loss}, w at {key}")
            for step in range(3):
                figure.get_by_role("button", name="Take one step").press("Enter")
                settle_and_check(session, figure, f"{loss}, from w at {key}, step {step + 1}")


def test_mystery_curve_at_both_ends_of_its_slider(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "mystery_curve")
    figure.get_by_role("button", name="Reveal full curve").press("Enter")
    settle_and_check(session, figure, "full curve")
    for key in ("Home", "End"):
        slider = press_key(figure, "Known evaluation point x", key)
        settle_and_check(session, figure, f"x at {key}")
        expect(slider).to_have_value(slider.get_attribute("min" if key == "Home" else "max"))


def test_loss_landscape_at_every_end_of_its_sliders(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "loss_landscape")
    for rate_key in ("End", "Home"):
        press_key(figure, "Learning rate", rate_key)
        for w_key, b_key in (("Home", "Home"), ("End", "End"), ("Home", "End")):
            press_key(figure, "Start w", w_key)
            press_key(figure, "Start b", b_key)
            settle_and_check(session, figure, f"learning rate {rate_key}, start {w_key}/{b_key}")
            for press in range(2):
                figure.get_by_role("button", name="Run 100 steps").press("Enter")
                settle_and_check(session, figure, f"learning rate {rate_key}, start {w_key}/{b_key}, run {press + 1}")
    press_key(figure, "Learning rate", "End")
    for press in range(4):
        figure.get_by_role("button", name="Run 100 steps").press("Enter")
    settle_and_check(session, figure, "largest learning rate, 400 steps more")
    expect(figure.locator(".figure__messages")).to_contain_text("Diverged")


def test_xor_surface_at_the_ends_of_seed_and_hidden_neurons(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "xor_surface")
    for seed_key in ("Home", "End"):
        press_key(figure, "Seed", seed_key)
        for hidden_key in ("Home", "End"):
            press_key(figure, "Hidden neurons", hidden_key)
            settle_and_check(session, figure, f"seed {seed_key}, hidden {hidden_key}")
            for press in range(3):
                figure.get_by_role("button", name="Train 100 steps").press("Enter")
                settle_and_check(session, figure, f"seed {seed_key}, hidden {hidden_key}, {100 * (press + 1)} steps")


def test_xor_gradients_trained_long(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "xor_gradients")
    for press in range(12):  # the loss falls to about 1e-30; the bars shrink towards zero
        figure.get_by_role("button", name="Train 100 steps").press("Enter")
    settle_and_check(session, figure, "1,200 steps")


def test_gradient_cost_at_both_ends_of_its_slider(session, site_url, built_site):
    figure = shown_figure(session, site_url, built_site, "gradient_cost")
    for key in ("End", "Home", "End"):
        slider = press_key(figure, "Parameters", key)
        settle_and_check(session, figure, f"parameters at {key}")
        expect(slider).to_have_value(slider.get_attribute("max" if key == "End" else "min"))
