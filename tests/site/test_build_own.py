"""test_build_own.py: the chapter "Build your own engine" in Chromium, worked through the way a reader does.

What it is: the reader types their steps into the chapter's blocks and presses Check; the progress
list says which steps are done, tried or not started, also after a reload, and "Clear my saved
edits" forgets it with the edits when the reader ticks it. With every step solved, "Use my engine" makes the reader's file
the site's engine: the banner appears, the page "Edit the engine" shows that file as the engine in
use, and a block and a figure of other chapters run on it; "Download my engine" saves the very same
file, which runs with plain `python3` and prints the lesson's XOR predictions. An unsolved step is
refused with the checks' own words, and counts as no attempt of the last step (whose solution stays locked).
What it is not: a test of every check's verdict (tests/tutor/exercises/test_own_engine_checks.py does that in
CPython).
"""
import importlib
import subprocess
import sys

from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, block_titled, editor_text, open_lesson, press_check, set_code, wait_for_address,
                     wait_python_ready)
from test_accessibility import serious_violations
from test_saved_edits import clear_saved_edits

CHAPTER = "build-your-own/"
STEPS = ["own_value", "own_operators", "own_power_tanh", "own_order", "own_backward", "own_divide_exp",
         "own_network"]
SOLUTIONS = [importlib.import_module(f"tutor.exercises.{name}").SOLUTION for name in STEPS]
TANGENT = "Tangent slope 2x"


def step_block(page, number):
    return page.locator(f'div.runnable[data-exercise="{STEPS[number - 1]}"]')


def panel_of_step(page, number):
    title = step_block(page, number).get_attribute("data-title")
    return page.get_by_role("group", name=f"Checks of {title}", exact=True)


def check_step(page, number):
    """Press Check under step `number`; return the results' text once they are shown."""
    return press_check(panel_of_step(page, number))


def progress(page):
    """The chapter's progress list, one "Step N, ...: state" line per step."""
    items = page.get_by_role("list", name="Your progress, saved in this browser:").get_by_role("listitem")
    expect(items).to_have_count(len(STEPS))
    return [item.split(": ")[-1] for item in items.all_inner_texts()]


def engine_group(page):
    return page.get_by_role("group", name="Your engine", exact=True)


def test_progress_is_shown_saved_over_a_reload_and_cleared_with_the_edits(page, site_url, page_errors):
    open_lesson(page, site_url, CHAPTER)
    assert progress(page) == ["not started"] * 7

    set_code(step_block(page, 1), SOLUTIONS[0])
    assert "All 6 checks pass: solved!" in check_step(page, 1)
    shown = check_step(page, 2)  # the starter of step 2, on the reader's step 1
    assert "step 1 (Value, + and *) passes too" in shown and "Not solved yet" in shown
    assert "-a at a = 3 gives a.grad = 0.0, expected -1.0" in shown
    assert progress(page) == ["done", "tried, not solved yet"] + ["not started"] * 5
    assert serious_violations(page) == []  # the progress list and the results included

    page.reload()
    open_lesson(page, site_url, CHAPTER)
    assert progress(page) == ["done", "tried, not solved yet"] + ["not started"] * 5
    assert editor_text(step_block(page, 1)) == SOLUTIONS[0]

    # A later step runs on the reader's earlier one: break step 1 and step 2's check says so.
    set_code(step_block(page, 1), SOLUTIONS[0].replace("(self, 1.0), (other, 1.0)", "(self, 1.0),"))
    set_code(step_block(page, 2), SOLUTIONS[1])
    shown = check_step(page, 2)
    assert "This step builds on step 1, which should pass first: a + b has 1 edge, expected 2" in shown

    expect(clear_saved_edits(page, "progress in 2 exercises")).to_contain_text("this page's progress in 2 exercises")
    assert progress(page) == ["not started"] * 7
    page.reload()
    open_lesson(page, site_url, CHAPTER)
    assert progress(page) == ["not started"] * 7
    assert page_errors == []


def test_an_unsolved_engine_is_refused_with_the_checks_words(page, site_url, page_errors):
    open_lesson(page, site_url, CHAPTER)
    group = engine_group(page)
    group.get_by_role("button", name="Use my engine").click()
    expect(group.get_by_role("status")).to_contain_text("Not applied", timeout=PYTHON_TIMEOUT_MS)
    expect(group.get_by_role("alert")).to_contain_text("step 1 (Value, + and *) passes too")
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    assert progress(page)[-1] == "not started"  # pressing Use my engine is no attempt at step 7 ...
    expect(panel_of_step(page, 7).get_by_role("button", name="Show the solution")).to_be_disabled()  # ... nor unlocks it
    assert serious_violations(page) == []  # the refusal included
    assert page_errors == []


def test_the_readers_engine_powers_the_site_and_downloads_as_a_file_that_runs(page, site_url, page_errors,
                                                                              tmp_path):
    open_lesson(page, site_url, CHAPTER)
    for number, solution in enumerate(SOLUTIONS, start=1):
        set_code(step_block(page, number), solution)
    group = engine_group(page)

    with page.expect_download() as download_info:
        group.get_by_role("button", name="Download my engine").click()
    downloaded = tmp_path / "tinygrad.py"
    download_info.value.save_as(downloaded)
    joined = downloaded.read_text(encoding="utf-8")
    assert joined.startswith('"""tinygrad.py: my own engine')
    ran = subprocess.run([sys.executable, "tinygrad.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "xor predictions: [-1.0, 1.0, 1.0, -1.0]" in ran.stdout

    group.get_by_role("button", name="Use my engine").click()
    expect(group.get_by_role("status")).to_contain_text("Applied: every code block", timeout=PYTHON_TIMEOUT_MS)
    banner = page.get_by_role("region", name="Edited engine")
    expect(banner).to_be_visible()
    assert progress(page)[-1] == "done"

    # The page "Edit the engine" shows the engine in use: the reader's file, byte for byte.
    page.goto(site_url + "edit-engine/")
    editor = page.get_by_role("group", name="Engine editor: tinygrad.py, the engine", exact=True)
    editor.locator(".cm-content").wait_for()
    assert editor.evaluate("element => element.engineEditor.editor.getCode()") == joined
    expect(editor).to_contain_text("The site runs your edited engine now")

    # A block and a figure of other chapters, on the reader's engine.
    open_lesson(page, site_url, "checking/")
    hand = block_titled(page, "The engine against the hand calculation")
    hand.get_by_role("button", name="Run", exact=True).click()
    expect(hand.get_by_role("log")).to_contain_text("d(a*a + a)/da at a = 3: 7.0", timeout=PYTHON_TIMEOUT_MS)
    page.get_by_role("navigation").get_by_role("link", name="Derivatives, three ways").first.click()
    wait_for_address(page, site_url + "derivatives/")
    wait_python_ready(page)
    figure = page.get_by_role("group", name="Secant and tangent", exact=True)
    figure.scroll_into_view_if_needed()
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    position = figure.get_by_role("slider", name="Position x")
    expect(position).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)  # the build-time picture waits for Python
    position.fill("-3")  # the reader's backward() computes the new slope
    expect(figure.locator(f'[data-readout="{TANGENT}"]')).to_have_text("−6", timeout=PYTHON_TIMEOUT_MS)
    expect(banner).to_be_visible()

    banner.get_by_role("button", name="Restore the original engine").click()
    expect(banner).to_contain_text("original engine is back")
    assert page_errors == []
