"""test_unspoiled_predictions.py: a prediction's answer is not on the screen before the reader answers (issue #35).

What it is: Chromium tests, read as a reader reads. For every prediction of every page, the block it is
about (the next runnable block in its section) shows no number equal to the answer, and for a question
with choices no output at all, until the reader answers or presses "Show me"; then that block's
output is shown. A figure a prediction is about (the next one in its section) reads out no number
equal to a numeric answer. With JavaScript off, such an output sits behind "Show the lesson's
output".
What it is not: a test of the answers (tests/article/test_predictions.py) or of the lesson's output in
general (test_lesson_output.py).
"""
import math
import re

from playwright.sync_api import expect

from helpers import REPO, open_boxes_around, open_lesson, settled
from lesson_pages import LEARNER_PAGES
from prediction_answers import answered
from test_saved_edits import clear_saved_edits

PREDICTIONS = answered(REPO / "docs")
LABEL = "Output of the lesson's code"
FOLD = "Show the lesson's output"
NUMBER = re.compile(r"[-−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")

# For each prediction of the page, in page order: its id, and the index among the page's blocks (or figures) of
# the block (figure) it is about, the first one after it before the next heading, or -1 if it asks about none.
ABOUT = """(kind) => {
  const all = [...document.querySelectorAll(`article h1, article h2, article h3, article ${kind}, `
                                            + "article div.prediction[data-prediction]")];
  const things = all.filter((element) => element.matches(kind));
  return all.flatMap((element, index) => {
    if (!element.matches("div.prediction")) return [];
    const next = all.slice(index + 1).find((later) => !later.matches("div.prediction"));
    return [[element.dataset.prediction, next?.matches(kind) ? things.indexOf(next) : -1]];
  });
}"""
BLOCKS, FIGURES = "div.runnable", "[data-widget]"


def paths():
    return ["" if page.stem == "index" else f"{page.stem}/" for page in LEARNER_PAGES]


def shown_numbers(text):
    return [float(found.replace("−", "-")) for found in NUMBER.findall(text)]


def gives_away(prediction, text):
    """Whether `text`, as shown, gives the prediction's answer: for a number, a number equal to it; for a
    question with choices, any output at all (a choice's words cannot be matched in printed code)."""
    if prediction["kind"] != "number":
        return text.replace(FOLD, "").strip() != ""
    return any(math.isclose(number, prediction["answer"], rel_tol=1e-9, abs_tol=prediction["tolerance"])
               for number in shown_numbers(text))


def lesson_output(page, index):
    return page.locator("div.runnable").nth(index).get_by_role("group", name=LABEL, exact=True)


def test_no_block_or_figure_shows_a_predictions_answer_before_it_is_answered(page, site_url):
    """On one visit of each page: the blocks and figures predictions are about give nothing away; then each
    block's "Show me" brings its output."""
    checked, figures_checked = [], []
    for path in paths():
        open_lesson(page, site_url, path)
        about = [(identifier, index) for identifier, index in page.evaluate(ABOUT, BLOCKS) if index >= 0]
        for identifier, index in about:
            open_boxes_around(page.locator(f'div.prediction[data-prediction="{identifier}"]'))
            shown = lesson_output(page, index).inner_text()   # the text as rendered: not a closed <details>
            assert not gives_away(PREDICTIONS[identifier], shown), (path, identifier, shown)
            checked.append(identifier)
        for identifier, index in page.evaluate(ABOUT, FIGURES):
            if index < 0 or PREDICTIONS[identifier]["kind"] != "number":
                continue
            figure = page.locator(FIGURES).nth(index)
            open_boxes_around(figure)
            figure.scroll_into_view_if_needed()
            readouts = settled(figure).locator("[data-readout]").all_inner_texts()
            shown = " ".join(text for text in readouts if NUMBER.fullmatch(text.strip()))  # the numbers it reads out
            assert not gives_away(PREDICTIONS[identifier], shown), (path, identifier, shown)
            figures_checked.append(identifier)
        for identifier, index in about:                       # answered (here: shown), the output is there
            prediction = page.locator(f'div.prediction[data-prediction="{identifier}"]')
            open_boxes_around(prediction)                     # a "Go deeper" box holds some
            prediction.get_by_role("button", name="Show me").click()
        for identifier, index in about:
            group = lesson_output(page, index)
            expect(group.locator(".runnable__output")).to_be_visible()
    # the home page's first run, the engine's edges and the network's 17 parameters, at least
    assert {"first-run-y", "edge-count", "parameter-count", "hand-check-w-grad"} <= set(checked), checked
    assert {"secant-slope", "mystery-turns"} <= set(figures_checked), figures_checked


def test_an_answer_checked_unfolds_the_output_and_clearing_folds_it_again(page, site_url):
    prediction = PREDICTIONS["first-run-y"]
    open_lesson(page, site_url)
    output = page.get_by_role("group", name=LABEL, exact=True).locator(".runnable__output")
    expect(output).to_be_hidden()
    group = page.locator('div.prediction[data-prediction="first-run-y"]')
    group.get_by_role("textbox", name="Your answer").fill("10")                   # a wrong answer is an answer
    group.get_by_role("button", name="Check answer").click()
    expect(output).to_be_visible()
    assert f"{prediction['answer']:g}" in output.inner_text()
    page.reload()                                                                # answered on an earlier visit
    expect(page.get_by_role("group", name=LABEL, exact=True).locator(".runnable__output")).to_be_visible()
    clear_saved_edits(page, "your answers to 1 prediction")                     # the answers, ticked
    expect(page.get_by_role("group", name=LABEL, exact=True).locator(".runnable__output")).to_be_hidden()


def test_without_javascript_the_output_is_behind_show_the_lessons_output(browser, site_url):
    context = browser.new_context(java_script_enabled=False, service_workers="block")
    try:
        page = context.new_page()
        page.goto(site_url)
        group = page.get_by_role("group", name=LABEL, exact=True)
        expect(group.locator(".runnable__output")).to_be_hidden()
        assert not gives_away(PREDICTIONS["first-run-y"], group.inner_text())
        group.get_by_text(FOLD, exact=True).click()
        expect(group.locator(".runnable__output")).to_be_visible()
        assert f"{PREDICTIONS['first-run-y']['answer']:g}" in group.inner_text()
    finally:
        context.close()
