"""test_predictions_in_browser.py: a reader answers the lesson's checked predictions in Chromium.

What it is: browser tests of site_scripts/browser/predictions/ on the built site served on 127.0.0.1, driven
by role and visible label: a right answer is confirmed and its reason shown; a wrong one gets the
feedback of the slip it matches (computed by the engine at build time, docs/predictions.yml); "Show
me" reveals the answer; answers come back after a reload and "Clear my saved edits" forgets this page's when the reader ticks it;
text, an empty field, 1e309 and a decimal comma get a plain message and change nothing saved; a
question is checked while Python cannot even start; the block a prediction is about confirms the
reader's answer once it has run; and with JavaScript off (on screen and in print) the question and
its answer are readable.
What it is not: a test of every prediction's numbers (tests/article/test_predictions.py computes all
of them with the engine and runs the judge on each).
"""
import html
import re

import markdown
import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, REPO, block_titled, open_lesson, run_block
from prediction_answers import answered
from test_saved_edits import clear_saved_edits

PREDICTIONS = answered(REPO / "docs")
FIRST_RUN = PREDICTIONS["first-run-y"]          # on the home page, before the block "Your first run"
PATHS = PREDICTIONS["paths-total"]              # q = a * a + a at a = 3, with three kinds of slip


def plain(text):
    """A predictions.yml text (Markdown) as the page shows it: its text, without the markup."""
    return html.unescape(re.sub(r"<[^>]+>", "", markdown.markdown(text)))


def number(value):
    return f"{value:g}"


def question_group(page, prediction):
    """The group named "Prediction: <question>"."""
    return page.get_by_role("group", name=f"Prediction: {plain(prediction['question'])}", exact=True)


def answer_with(group, text):
    """Type `text` into the group's field, press Check answer, return the feedback's text."""
    group.get_by_role("textbox", name="Your answer").fill(text)
    group.get_by_role("button", name="Check answer").click()
    feedback = group.get_by_role("status").first
    expect(feedback).not_to_be_empty()
    return feedback.text_content()


def slip_text(prediction, value):
    return next(plain(slip["says"]) for slip in prediction["slips"] if value in slip["values"])


def test_a_right_answer_is_confirmed_with_its_reason_and_comes_back_after_a_reload(page, site_url, page_errors):
    open_lesson(page, site_url)
    group = question_group(page, FIRST_RUN)
    reason = group.get_by_text(plain(FIRST_RUN["reason"]))
    expect(reason).to_be_hidden()
    assert answer_with(group, number(FIRST_RUN["answer"])) == "Right. "
    expect(reason).to_be_visible()
    page.reload()
    group = question_group(page, FIRST_RUN)
    expect(group.get_by_role("textbox", name="Your answer")).to_have_value(number(FIRST_RUN["answer"]))
    expect(group.get_by_role("status").first).to_have_text("Right. ")
    expect(group.get_by_text(plain(FIRST_RUN["reason"]))).to_be_visible()
    assert page_errors == []


def test_a_wrong_answer_names_the_slip_it_matches(page, site_url):
    open_lesson(page, site_url, "backpropagation/")
    group = question_group(page, PATHS)
    for slip in PATHS["slips"]:
        for value in slip["values"]:
            feedback = answer_with(group, number(value))
            assert feedback.startswith("Not quite: ") and plain(slip["says"]) in feedback, (value, feedback)
    one_more = PATHS["answer"] + 10
    assert not any(one_more in slip["values"] for slip in PATHS["slips"])
    assert answer_with(group, number(one_more)) == "Not quite. Try again, or press Show me."
    # The examples, made exact: 4 = 3 + 1 is two of the three paths (a * a counted once); 1 and 3 are one
    # path; 6 leaves out the + a path.
    assert "counted a * a once" in slip_text(PATHS, PATHS["answer"] - 3)
    assert "one path only" in slip_text(PATHS, PATHS["answer"] - 6).lower()
    assert "forgot the + a path" in slip_text(PATHS, PATHS["answer"] - 1)


def test_show_me_reveals_the_answer_and_is_remembered(page, site_url):
    open_lesson(page, site_url, "backpropagation/")
    group = question_group(page, PATHS)
    shown = f"{PATHS['shown']}. {plain(PATHS['reason'])}"
    answer = group.get_by_text(shown)
    expect(answer).to_be_hidden()
    group.get_by_role("button", name="Show me").click()
    expect(answer).to_be_visible()
    page.reload()
    expect(question_group(page, PATHS).get_by_text(shown)).to_be_visible()
    expect(question_group(page, PATHS).get_by_role("button", name="Show me")).to_be_disabled()


@pytest.mark.parametrize("typed, message", [
    ("", "Type a number for your answer first."),
    ("seven", "“seven” is not a number."),
    ("1e309", "“1e309” is infinite for a float"),
    ("2,5", "Write the decimal point as a point: 2.5 rather than 2,5."),
    ("3/4", "Type 3/4 as a decimal, 0.75."),
])
def test_input_that_is_not_a_number_gets_a_plain_message_and_loses_nothing(page, site_url, typed, message):
    open_lesson(page, site_url, "backpropagation/")
    group = question_group(page, PATHS)
    assert answer_with(group, "6").startswith("Not quite: ")
    feedback = answer_with(group, typed)
    assert feedback.startswith(message), feedback
    expect(group.get_by_role("textbox", name="Your answer")).to_have_value(typed)
    page.reload()  # the answer saved before is still the one saved
    expect(question_group(page, PATHS).get_by_role("textbox", name="Your answer")).to_have_value("6")


def test_a_prediction_is_checked_while_python_cannot_start(page, site_url):
    page.route(re.compile(r".*/assets/(vendor/pyodide|snapshot|wheels)/.*"), lambda route: route.abort())
    open_lesson(page, site_url)
    group = question_group(page, FIRST_RUN)
    assert answer_with(group, "10").startswith("Not quite: ")
    assert answer_with(group, number(FIRST_RUN["answer"])) == "Right. "
    assert page.evaluate("document.documentElement.dataset.pythonState") not in ("ready", "running")


def test_the_block_confirms_the_answer_after_it_ran(page, site_url):
    open_lesson(page, site_url)
    group = question_group(page, FIRST_RUN)
    answer_with(group, number(FIRST_RUN["answer"]))
    run_block(block_titled(page, "Your first run"))
    confirmation = group.get_by_role("status").nth(1)
    expect(confirmation).to_have_text(f"The block computed {FIRST_RUN['observe']} = {number(FIRST_RUN['answer'])}, "
                                      "as you predicted.", timeout=PYTHON_TIMEOUT_MS)
    answer_with(group, "10")
    run_block(block_titled(page, "Your first run"))
    expect(confirmation).to_have_text(f"The block computed {FIRST_RUN['observe']} = {number(FIRST_RUN['answer'])}; "
                                      "you predicted 10.", timeout=PYTHON_TIMEOUT_MS)


def test_a_list_the_block_computed_is_confirmed_as_its_length(page, site_url):
    """The review read "The block computed network.layers = 2": a list is counted, so it is named len(...)."""
    prediction = PREDICTIONS["zip-pairs"]
    assert prediction["observe"] == "network.layers"
    open_lesson(page, site_url, "complete-engine/")
    group = question_group(page, prediction)
    answer_with(group, number(prediction["answer"]))
    run_block(block_titled(page, "The network, layer by layer"))
    expect(group.get_by_role("status").nth(1)).to_have_text(
        f"The block computed len(network.layers) = {number(prediction['answer'])}, as you predicted.", timeout=PYTHON_TIMEOUT_MS)


def test_clear_my_saved_edits_forgets_the_answers_when_asked_to(page, site_url):
    open_lesson(page, site_url)
    group = question_group(page, FIRST_RUN)
    answer_with(group, number(FIRST_RUN["answer"]))
    expect(clear_saved_edits(page, "answers to 1 prediction on this page")).to_contain_text("answers to 1 prediction")
    expect(group.get_by_role("textbox", name="Your answer")).to_have_value("")
    page.reload()
    expect(question_group(page, FIRST_RUN).get_by_role("textbox", name="Your answer")).to_have_value("")


@pytest.mark.parametrize("media", ["screen", "print"])
def test_without_javascript_the_question_and_its_answer_are_readable(browser, site_url, media):
    context = browser.new_context(java_script_enabled=False, service_workers="block")
    try:
        page = context.new_page()
        page.emulate_media(media=media)
        page.goto(site_url + "backpropagation/")
        group = question_group(page, PATHS)
        expect(group).to_be_visible()
        answer = group.get_by_text(f"{PATHS['shown']}. {plain(PATHS['reason'])}")
        if media == "screen":
            expect(answer).to_be_hidden()
            group.get_by_text("Answer", exact=True).click()
        expect(answer).to_be_visible()
    finally:
        context.close()


def test_in_print_the_answer_replaces_the_form(page, site_url):
    open_lesson(page, site_url, "backpropagation/")
    group = question_group(page, PATHS)
    expect(group.get_by_role("button", name="Check answer")).to_be_visible()
    page.emulate_media(media="print")
    expect(group.get_by_role("button", name="Check answer")).to_be_hidden()
    expect(group.get_by_text(f"{PATHS['shown']}. {plain(PATHS['reason'])}")).to_be_visible()


def test_a_question_with_choices_explains_a_wrong_choice_and_keeps_the_right_one(page, site_url):
    prediction = PREDICTIONS["home-weight-direction"]
    labels = {choice["key"]: plain(choice["label"]) for choice in prediction["choices"]}
    wrong = next(choice for choice in prediction["choices"] if choice["key"] != prediction["answer"])
    open_lesson(page, site_url)
    group = question_group(page, prediction)
    feedback = group.get_by_role("status").first
    group.get_by_role("button", name="Check answer").click()
    expect(feedback).to_have_text("Choose one of the answers first.")
    group.get_by_role("radio", name=labels[wrong["key"]]).check()
    group.get_by_role("button", name="Check answer").click()
    expect(feedback).to_contain_text(plain(wrong["says"]))
    group.get_by_role("radio", name=labels[prediction["answer"]]).check()
    group.get_by_role("button", name="Check answer").click()
    expect(feedback).to_have_text("Right. ")
    page.reload()
    group = question_group(page, prediction)
    expect(group.get_by_role("radio", name=labels[prediction["answer"]])).to_be_checked()
    expect(group.get_by_role("status").first).to_have_text("Right. ")
