"""test_edit_engine.py: the page "Edit the engine" in Chromium, used the way a reader uses it.

What it is: the reader edits tinygrad.py in the page's editor, presses "Use this engine", and then
finds the edited engine's numbers in a code block's output and in a figure's readout on other
chapters (after a reload and after an instant navigation), with the banner in view; one click on
"Restore the original engine" brings the lesson's numbers back. An engine with a syntax error is
refused with Python's message, the site keeps its engine and the draft survives a reload. A second
tab of the same browser follows an engine applied or restored in the first: its Python, if it runs,
restarts with that engine; if Python never started there, only its banner and editor change.
Engines other than edits of the lesson's (tests/tutor/other_engines.py): a reader's engine in another
style is accepted, and then the figures "x × x, traced", "Backpropagation on the graph" and
"Paths add up" step to their gradients and show() draws a graph; micrograd as a reader makes it fit
gets a field for every box of its own graph in "Backpropagate by hand"; an engine with wrong tanh gradients
is applied, and the figure whose own gradients differ (the mystery curve) says so with every state, the others
not; a micrograd-style engine (no
`edges`) is refused with a message naming what the site reads and it lacks, and the lesson's engine
with a recursive topological order is refused naming the figure that cannot start, the function that
calls itself and the explicit stack to use instead.
A check that takes long says every second how long it has taken and when it stops.
An edited engine whose backward() never returns for one input leaves no figure silent: the figure
says Python has not answered, with Stop and "Restore the original engine", and a block waiting behind
it says what it waits for; an engine that prints in Value.__init__ makes the figure say how many
lines it printed and show the first, while the browser's console stays quiet.
What it is not: a test of the check's rules (tests/tutor/test_engine_edit.py covers them in CPython).
"""
import re

from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REPO, block, block_titled, open_lesson, press, python_interpreter, python_state,
                     run_block, set_code, wait_for_address, wait_output_contains, wait_python_ready, wait_running)
from test_accessibility import serious_violations
from test_figures import box_gradient, button, messages, open_figure, readout, settled
from tests.tutor.other_engines import MICROGRAD_ROUNDS, MICROGRAD_STYLE, MUTATED, READERS_ENGINE

ORIGINAL = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
FULL_STORAGE = "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };"
ACCUMULATING = "parent.grad += node.grad * derivative"
FORGETFUL_BACKWARD = ORIGINAL.replace(ACCUMULATING, "parent.grad = node.grad * derivative")
EDITOR = "Engine editor: tinygrad.py, the engine"
HAND_CALCULATION = "The engine against the hand calculation"
PATHS_LINE = "d(a*a + a)/da at a = 3:"
TANGENT = "Tangent slope 2x"
EXPERIMENT = "a·a + a with the engine in use"
SHORT_WINDOW = {"width": 1280, "height": 400}  # the editor page's blocks stay far from view: Python does not start
BACKWARD = "    def backward(self):\n"
# backward() never returns for the secant figure's x = 4.5 (x · x = 20.25), a value the engine check never tries
ENDLESS_AT_FOUR_AND_A_HALF = ORIGINAL.replace(BACKWARD, BACKWARD + "        while self.data == 20.25:\n            pass\n")
ENDLESS_BACKWARD = ORIGINAL.replace(BACKWARD, BACKWARD + "        while True:\n            pass\n")
VALUE_INIT = "    def __init__(self, data, edges=()):\n"
CHATTY = ORIGINAL.replace(VALUE_INIT, VALUE_INIT + "        print('made a Value holding', data)\n")


def open_engine_editor(page, site_url):
    """Open the page "Edit the engine" and wait until its editor holds a text; return the editor group."""
    page.goto(site_url + "edit-engine/")
    editor = page.get_by_role("group", name=EDITOR, exact=True)
    editor.locator(".cm-content").wait_for()
    return editor


def type_engine(page, editor, text):
    """Replace the whole engine in the editor by `text`, as a reader pasting it would."""
    editor.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(text)


def engine_in_editor(editor):
    """The editor's text, read from its state (CodeMirror draws only the lines in view)."""
    return editor.evaluate("element => element.engineEditor.editor.getCode()")


def apply_engine(editor):
    """Press "Use this engine" and wait until the check has answered; return the editor's message."""
    editor.get_by_role("button", name="Use this engine", exact=True).click()
    expect(editor).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    message = editor.get_by_role("status").filter(has_text=re.compile(r"^(Applied|Not applied)"))
    expect(message).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    return message.inner_text()


def apply_in_another_tab(page, site_url, page_errors, engine):
    """Open a second tab in the browser of `page` (the same localStorage; its uncaught errors count too)
    and apply `engine` on its page "Edit the engine"; return the tab and the editor's message."""
    tab = page.context.new_page()
    tab.on("pageerror", lambda error: page_errors.append(str(error)))
    editor = open_engine_editor(tab, site_url)
    type_engine(tab, editor, engine)
    return tab, apply_engine(editor)


def paths_line(page):
    """Run the checking chapter's first block; return its line with a's gradient in a·a + a."""
    output = run_block(block_titled(page, HAND_CALCULATION))
    return next(line for line in output.splitlines() if line.startswith(PATHS_LINE))


def tangent_slope(page, wanted):
    """The "Secant and tangent" figure's tangent readout, once it shows `wanted` (after Python is ready)."""
    figure = page.get_by_role("group", name="Secant and tangent", exact=True)
    figure.scroll_into_view_if_needed()
    shown = figure.locator(f'[data-readout="{TANGENT}"]')
    expect(shown).to_have_text(wanted, timeout=PYTHON_TIMEOUT_MS)
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    return shown.inner_text()


def test_an_edited_engine_runs_in_blocks_and_figures_on_every_page_until_restored(page, site_url, clean_run):
    editor = open_engine_editor(page, site_url)
    assert engine_in_editor(editor) == ORIGINAL
    banner = page.get_by_role("region", name="Edited engine")
    expect(banner).to_be_hidden()

    type_engine(page, editor, FORGETFUL_BACKWARD)
    assert apply_engine(editor).startswith("Applied")
    # Applied, as the experiment wants, but the reader is told that its gradients are not the derivatives.
    expect(editor.get_by_role("alert")).to_contain_text("Your engine's gradients differ from a numerical estimate: for f = ")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("runs your edited engine")

    # A new page load: the engine comes back from the browser's storage.
    page.goto(site_url + "checking/")
    expect(banner).to_be_visible()
    assert paths_line(page) == f"{PATHS_LINE} 3.0"  # only the last path's contribution survives
    assert serious_violations(page) == []  # the banner, its link and its button included

    # Instant navigation to another chapter: its figure recomputes its numbers with the edited engine.
    page.get_by_role("navigation").get_by_role("link", name="Derivatives, three ways").first.click()
    wait_for_address(page, site_url + "derivatives/")
    expect(banner).to_be_visible()
    wait_python_ready(page)
    assert tangent_slope(page, "5") == "5"  # x · x at the figure's x = 5 loses one of its two paths
    # Scrolled to just under the header, a control is the reader's to use: the banner stays at the top of the page.
    slider = page.get_by_role("group", name="Secant and tangent", exact=True).get_by_role("slider", name="Small change h")
    assert slider.evaluate("""(control) => {
      const header = document.querySelector(".md-header").getBoundingClientRect().bottom;
      window.scrollTo(0, window.scrollY + control.getBoundingClientRect().top - header - 4);
      const box = control.getBoundingClientRect();
      return control.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    }""")

    banner.get_by_role("button", name="Restore the original engine").click()
    expect(banner).to_contain_text("original engine is back")
    expect(banner.get_by_role("button", name="Restore the original engine")).to_be_hidden()
    assert tangent_slope(page, "10") == "10"

    page.goto(site_url + "checking/")
    expect(banner).to_be_hidden()
    assert paths_line(page) == f"{PATHS_LINE} 7.0"


def test_an_engine_with_a_syntax_error_is_refused_and_the_draft_is_kept(page, site_url, clean_run):
    broken = ORIGINAL.replace("def backward(self):", "def backward(self:")
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, broken)

    assert apply_engine(editor).startswith("Not applied")
    problem = editor.get_by_role("alert")
    expect(problem).to_contain_text("syntax error")
    expect(problem).to_contain_text("def backward(self:")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    assert engine_in_editor(editor) == broken
    assert serious_violations(page) == []  # the refusal included

    editor = open_engine_editor(page, site_url)  # a later visit finds the draft in the editor
    assert engine_in_editor(editor) == broken
    expect(editor).to_contain_text("The site runs the lesson's engine now.")
    editor.get_by_role("button", name="Reset", exact=True).click()
    assert engine_in_editor(editor) == ORIGINAL


def test_an_engine_that_never_finishes_importing_is_stopped_and_python_still_works(page, site_url, clean_run):
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, ORIGINAL + "\nwhile True:\n    pass\n")
    editor.get_by_role("button", name="Use this engine", exact=True).click()
    stop = editor.get_by_role("button", name="Stop the check", exact=True)
    expect(stop).to_be_visible()
    page.wait_for_function("() => document.documentElement.dataset.pythonState === 'running'",
                           timeout=PYTHON_TIMEOUT_MS)
    # While it runs, the check says how long it has taken and when it will stop (a slow check is not "forever").
    expect(editor.get_by_role("status").filter(has_text=re.compile(
        r"^Checking your engine in Python… [1-9]\d* s so far; the check stops after 45 s\.$"))).to_be_visible()
    stop.click()
    expect(editor).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    expect(editor.get_by_role("alert")).to_contain_text("The check was stopped before it finished")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    output = run_block(block_titled(page, EXPERIMENT))
    assert output.startswith("a.grad = 7.0")


def test_a_check_stopped_in_an_endless_backward_names_what_it_tried(page, isolated_url, clean_run):
    # On an isolated page the check's time limit interrupts Python, which says where it was stopped. The
    # page's clock (Playwright's, flowing as the real one) jumps over the 45 s limit once the check counts.
    page.clock.install()
    editor = open_engine_editor(page, isolated_url)
    type_engine(page, editor, ENDLESS_BACKWARD)
    editor.get_by_role("button", name="Use this engine", exact=True).click()
    expect(editor.get_by_role("status")).to_contain_text("s so far; the check stops after 45 s.",
                                                         timeout=PYTHON_TIMEOUT_MS)
    page.clock.fast_forward("00:46")
    expect(editor.get_by_role("alert")).to_contain_text(
        "The check was stopped while it tried Value(3, [(leaf, 1.5)]).backward() with your engine, after",
        timeout=PYTHON_TIMEOUT_MS)
    expect(editor.get_by_role("alert")).to_contain_text("a loop that never ends (at the top level, or in backward())")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    output = run_block(block_titled(page, EXPERIMENT))  # the same Python, interrupted, runs on
    assert output.startswith("a.grad = 7.0")


def test_without_storage_an_engine_is_applied_for_this_visit_only(page, site_url, clean_run):
    page.add_init_script(FULL_STORAGE)
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, FORGETFUL_BACKWARD)
    expect(editor.get_by_role("status")).to_contain_text("cannot be saved in this browser")
    message = apply_engine(editor)
    assert message.startswith("Applied for this visit only")
    output = run_block(block_titled(page, EXPERIMENT))
    assert output.startswith("a.grad = 3.0")
    page.reload()
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()


def test_a_tab_running_python_follows_an_engine_applied_and_restored_in_another_tab(page, site_url, page_errors,
                                                                                    clean_run):
    page.goto(site_url + "checking/")
    assert paths_line(page) == f"{PATHS_LINE} 7.0"
    banner = page.get_by_role("region", name="Edited engine")
    expect(banner).to_be_hidden()

    other, message = apply_in_another_tab(page, site_url, page_errors, FORGETFUL_BACKWARD)
    assert message.startswith("Applied")

    expect(banner).to_contain_text("runs your edited engine")
    hand_calculation = block_titled(page, HAND_CALCULATION)
    wait_output_contains(hand_calculation, "Python was restarted with the edited engine you applied in another tab.")
    assert paths_line(page) == f"{PATHS_LINE} 3.0"

    other.get_by_role("region", name="Edited engine").get_by_role("button", name="Restore the original engine").click()
    expect(banner).to_be_hidden()
    wait_output_contains(hand_calculation, "Python was restarted with the lesson's original engine, restored in "
                                           "another tab.")
    assert paths_line(page) == f"{PATHS_LINE} 7.0"


def test_a_tab_where_python_never_started_shows_the_banner_and_keeps_python_unstarted(page, site_url, page_errors,
                                                                                      clean_run):
    page.set_viewport_size(SHORT_WINDOW)
    editor_here = open_engine_editor(page, site_url)
    banner = page.get_by_role("region", name="Edited engine")
    expect(banner).to_be_hidden()

    _, message = apply_in_another_tab(page, site_url, page_errors, FORGETFUL_BACKWARD)
    assert message.startswith("Applied")

    expect(banner).to_contain_text("runs your edited engine")
    expect(editor_here).to_contain_text("The site runs your edited engine now")
    expect(editor_here).to_contain_text("Another tab applied an edited engine, not the text shown here")
    assert python_interpreter(page) == 0  # no interpreter was ever created in this tab
    assert python_state(page) == "idle"

    # Python starts only when the reader runs a block here, and then with the engine the other tab applied.
    output = run_block(block_titled(page, EXPERIMENT))
    assert output.startswith("a.grad = 3.0")


def step_to_the_end(figure, label="Backpropagate one operation", most=12):
    """Press the figure's step button until it is disabled; return how many presses it took."""
    presses = 0
    while button(settled(figure), label).get_attribute("aria-disabled") != "true":
        button(figure, label).click()
        presses += 1
        assert presses <= most, f"{label!r} still enabled after {most} presses"
    return presses


def test_a_readers_engine_runs_the_graph_figures_and_show(page, site_url, built_site, clean_run):
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, READERS_ENGINE)
    assert apply_engine(editor).startswith("Applied")

    figure = open_figure(page, site_url, built_site, "x_times_x")
    button(figure, "Evaluate x × x").click()
    button(settled(figure), "Seed output gradient").click()
    step_to_the_end(figure, "Follow next operand")
    assert readout(figure, "x.grad") == "10"

    figure = open_figure(page, site_url, built_site, "backprop_graph")
    expect(figure.locator("[data-node]")).to_have_count(10)  # this engine subtracts by adding y · (−1)
    button(figure, "Seed gradient").click()
    step_to_the_end(figure)
    assert {symbol: box_gradient(figure, symbol) for symbol in "wbxy"} == {"w": "−12", "b": "−6", "x": "−6", "y": "6"}

    figure = page.get_by_role("group", name="Paths add up", exact=True)  # on the same page
    figure.scroll_into_view_if_needed()
    button(settled(figure), "Seed gradient").click()
    step_to_the_end(figure)
    assert "1 + 3 + 3 = 7. The engine's backward() gives the same a.grad." in messages(figure)

    first = block(page, 1)
    set_code(first, "from tinygrad import Value\nw, x, b, y = Value(1), Value(2), Value(0), Value(5)\n"
                    "loss = (w * x + b - y) ** 2\nshow(loss)\n")
    assert "Graph of loss: 10 values, 9 edges" in run_block(first)
    drawn = first.get_by_role("group", name="Graph of loss", exact=True)
    expect(drawn.locator("[data-node]")).to_have_count(10)
    button(drawn, "Seed gradient").click()
    step_to_the_end(drawn)
    assert drawn.locator('[data-node="w"] [data-field="grad"]').text_content() == "grad −12"


def test_backpropagate_by_hand_offers_a_field_per_box_of_a_micrograd_engine_s_graph(page, site_url, built_site, clean_run):
    # micrograd subtracts by adding b · (−1): the graph has two boxes more than the page's starting state,
    # the lesson engine's, had fields for ("fields[row.key] is not a function" before the view followed them).
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, MICROGRAD_ROUNDS[-1])
    assert apply_engine(editor).startswith("Applied"), editor.inner_text()
    figure = open_figure(page, site_url, built_site, "backprop_by_hand")
    expect(figure.get_by_role("textbox")).to_have_count(10, timeout=PYTHON_TIMEOUT_MS)  # its start with this engine
    for label, typed, said in [("Gradient of L", "1", "Right: dL/dL = 1"), ("Gradient of e", "-6", "Right: the gradient of e"),
                               ("Gradient of ŷ", "-6", "Right: the gradient of ŷ"),
                               ("Gradient of #8", "-6", "Right: the gradient of #8")]:
        box = figure.get_by_role("textbox", name=label, exact=True)
        box.fill(typed)
        box.press("Enter")
        expect(figure.locator(".figure__messages")).to_contain_text(said)
    assert "not a function" not in messages(figure)
    assert readout(figure, "Boxes right") == "4 of 10"


def test_wrong_tanh_gradients_are_applied_with_a_note_on_the_figure_that_differs_and_none_on_the_others(
        page, site_url, built_site, clean_run):
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, ORIGINAL.replace("1.0 - result * result", "1.0 + result * result"))
    assert apply_engine(editor).startswith("Applied")
    curve = open_figure(page, site_url, built_site, "mystery_curve")
    note = curve.get_by_text("Your engine's gradients differ from a numerical estimate here: backward() gives a gradient of 15.2998")
    expect(note).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    assert readout(curve, "f'(x) from backward()") == "15.3"
    button(curve, "Reveal full curve").click()
    expect(button(curve, "Reveal full curve")).to_have_attribute("aria-disabled", "true", timeout=PYTHON_TIMEOUT_MS)
    expect(note).to_be_visible()  # every state of the figure carries it
    tangent = page.get_by_role("group", name="Secant and tangent", exact=True)  # no tanh there: its gradients agree
    tangent.scroll_into_view_if_needed()
    expect(tangent.locator("button, input").first).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(tangent).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)  # its state for this engine
    expect(tangent.get_by_text("differ from a numerical estimate")).to_have_count(0)


def test_a_micrograd_style_engine_is_refused_naming_what_it_lacks(page, site_url, clean_run):
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, MICROGRAD_STYLE)
    assert apply_engine(editor).startswith("Not applied")
    problem = editor.get_by_role("alert")
    expect(problem).to_contain_text("Your engine does not define Value.wrap, Value.edges, which the lesson's")
    expect(problem).to_contain_text("the pairs (parent, local derivative) v was computed from")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()


def test_an_engine_a_figure_cannot_start_with_is_refused_in_the_page_naming_the_figure(page, site_url, clean_run):
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, MUTATED["recursive topological order"])
    assert apply_engine(editor).startswith("Not applied")
    problem = editor.get_by_role("alert")
    expect(problem).to_contain_text('the figure "The cost of a gradient" cannot start with it')
    expect(problem).to_contain_text("`Value.topological_order` in your engine")
    expect(problem).to_contain_text("explicit stack")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()


def skip_to_slow(page, figure):
    """Once `figure` has asked Python (busy), move the page's clock (page.clock.install()) past the time a
    figure waits for an answer before it says what it waits for (SLOW_ANSWER_MS, 4 s), instead of waiting it out."""
    expect(figure).to_have_attribute("aria-busy", "true")
    page.clock.fast_forward("00:05")


def test_a_figure_waiting_on_an_endless_backward_says_so_and_offers_the_original_engine(page, site_url, clean_run):
    page.clock.install()  # flows as the real clock; jumps over the 4 s a figure waits before saying so (skip_to_slow)
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, ENDLESS_AT_FOUR_AND_A_HALF)
    assert apply_engine(editor).startswith("Applied")  # what the check tries never reaches x = 4.5

    open_lesson(page, site_url, "derivatives/")
    figure = page.get_by_role("group", name="Secant and tangent", exact=True)
    figure.scroll_into_view_if_needed()
    position = figure.get_by_role("slider", name="Position x")
    expect(position).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    position.fill("4.5")
    skip_to_slow(page, figure)
    waiting = figure.get_by_role("status").filter(has_text="has not answered yet")
    expect(waiting).to_contain_text("Python has been computing this figure for", timeout=PYTHON_TIMEOUT_MS)
    expect(waiting).to_contain_text("Your edited engine runs now")
    expect(waiting.get_by_role("button", name="Stop", exact=True)).to_be_visible()

    waiting_block = block_titled(page, "The function as a program")  # a block run now waits behind the figure
    press(waiting_block, "Run")
    expect(waiting_block.locator(".runnable__status")).to_contain_text(
        "Waiting for Python, which has been busy with the figure “Secant and tangent”", timeout=PYTHON_TIMEOUT_MS)

    waiting.get_by_role("button", name="Restore the original engine").click()
    expect(page.get_by_role("region", name="Edited engine")).to_contain_text("original engine is back")
    expect(waiting).to_be_hidden(timeout=PYTHON_TIMEOUT_MS)
    expect(position).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    position.fill("4.5")
    expect(figure.locator(f'[data-readout="{TANGENT}"]')).to_have_text("9", timeout=PYTHON_TIMEOUT_MS)
    run_block(waiting_block)
    assert waiting_block.get_attribute("data-state") == "done"


def test_a_figure_waiting_behind_a_long_block_offers_no_engine_to_restore(page, site_url, clean_run):
    page.clock.install()
    open_lesson(page, site_url, "derivatives/")
    figure = page.get_by_role("group", name="Secant and tangent", exact=True)
    figure.scroll_into_view_if_needed()
    position = figure.get_by_role("slider", name="Position x")
    expect(position).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    busy = block_titled(page, "The function as a program")
    set_code(busy, "while True:\n    pass")
    press(busy, "Run")
    wait_running(busy)
    position.fill("4.5")
    skip_to_slow(page, figure)

    waiting = figure.get_by_role("status").filter(has_text="for Python, which is busy with")
    expect(waiting).to_be_visible(timeout=PYTHON_TIMEOUT_MS)
    expect(waiting.get_by_role("button", name="Stop", exact=True)).to_be_visible()
    expect(waiting.get_by_role("button", name="Restore the original engine")).to_be_hidden()  # the lesson's engine runs
    waiting.get_by_role("button", name="Stop", exact=True).click()
    expect(waiting).to_be_hidden(timeout=PYTHON_TIMEOUT_MS)


def test_prints_in_the_readers_engine_are_said_in_the_figure_and_kept_from_the_console(page, site_url, clean_run):
    logged = []
    page.on("console", lambda message: logged.append(message.text))
    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, CHATTY)
    assert apply_engine(editor).startswith("Applied")

    open_lesson(page, site_url, "training/")
    figure = page.get_by_role("group", name="XOR decision surface", exact=True)
    figure.scroll_into_view_if_needed()
    train = figure.get_by_role("button", name="Train 100 steps", exact=True)
    expect(train).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    before = len(logged)
    train.click()  # the figure is busy from the click on
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)

    said = figure.locator(".figure__printed")
    expect(said).to_contain_text("While computing this figure, Python printed")
    lines = int(re.search(r"printed ([\d,]+) lines", said.inner_text()).group(1).replace(",", ""))
    assert lines > 1000, said.inner_text()  # a Value for every number of 100 training steps
    expect(said.locator("pre")).to_contain_text("made a Value holding")
    assert len(logged) - before < 10, logged[before:before + 10]  # the browser's console is not flooded


def test_two_tabs_editing_the_engine_say_so_before_either_overwrites_the_others_draft(page, site_url, page_errors):
    editor = open_engine_editor(page, site_url)
    other = page.context.new_page()
    other.on("pageerror", lambda error: page_errors.append(str(error)))
    there = open_engine_editor(other, site_url)
    first = ORIGINAL.replace(BACKWARD, BACKWARD + "        # typed in the first tab\n")
    second = ORIGINAL.replace(BACKWARD, BACKWARD + "        # typed in the second tab\n")

    type_engine(page, editor, first)
    assert stored_draft(page) == first
    notice = there.get_by_role("alert").filter(has_text="another tab")  # the second tab heard of it and says so
    expect(notice).to_contain_text("was edited in another tab of this site")
    type_engine(other, there, second)  # typing on in the second tab, on its out-of-date text
    # Read where the writing tab is: another tab's copy of localStorage catches up a moment later.
    assert stored_draft(other) == first, "the first tab's draft was overwritten without a word"
    notice.get_by_role("button", name="Show the other tab's version").click()
    expect(there.get_by_label("The other tab's version of the engine")).to_contain_text("# typed in the first tab")

    notice.get_by_role("button", name="Keep this tab's version").click()
    expect(notice).to_be_hidden()
    assert stored_draft(other) == second
    told = editor.get_by_role("alert").filter(has_text="another tab")  # now the first tab is told
    expect(told).to_contain_text("was edited in another tab of this site")
    told.get_by_role("button", name="Use the other tab's version").click()
    expect(told).to_be_hidden()
    assert engine_in_editor(editor) == second and stored_draft(page) == second

    there.get_by_role("button", name="Reset", exact=True).click()  # the second tab goes back to the lesson's engine
    expect(told).to_contain_text("went back to the lesson's engine in another tab")
    told.get_by_role("button", name="Use the other tab's version").click()
    assert engine_in_editor(editor) == ORIGINAL and stored_draft(page) is None
    for tab in (page, other):
        assert engine_in_editor(open_engine_editor(tab, site_url)) == ORIGINAL
    assert page_errors == []


def stored_draft(page):
    """The engine editor's draft as this browser's localStorage holds it, or None."""
    return page.evaluate("""() => {
        const key = Object.keys(localStorage).find((key) => key.startsWith("lesson-engine:draft:"));
        return key === undefined ? null : JSON.parse(localStorage.getItem(key)).code;
    }""")
