"""test_exercises.py: a reader works through exercises in Chromium: Check, hints, solution, saved result.

What it is: browser tests of site_scripts/browser/exercises/exercises.mjs on the built site served on
127.0.0.1, driven by role and visible label. Check on the starter code shows the failing checks with
their messages; the hints come one at a time; the solution stays locked until the first Check,
then shows and goes into the editor; Check then reports the exercise solved, and after a reload it
is still shown as solved (and the solution is still in the block, as a saved edit); axe finds no
serious problem in the panel with everything shown. The right number typed in instead of computed
does not pass (the checks run the block again at another x). A typed solution passes too, code that raises
is explained instead of checked, checks that never end can be stopped, code that never ends is said
to have been stopped (not to have failed), Reset clears the results of the code it replaced and closes
the solution, a browser that refuses storage still checks, and the site's search does not give the
hints or solutions away.
What it is not: a test of the checks' verdicts for every exercise (tests/tutor/exercises/ runs them in
CPython on every starter and solution).
"""
import html
import importlib
import json
import re

from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REFUSED_STORAGE, REPO, block_titled, editor_text, open_lesson, set_code,
                     wait_blocks_mounted)
from helpers import press_check as check  # Check under an exercise, and its results
from tutor.exercises import cube_by_hand, relu
from test_accessibility import AXE_SOURCE

EXERCISES = [importlib.import_module(f"tutor.exercises.{path.stem}")
             for path in sorted((REPO / "site_scripts" / "tutor" / "exercises").glob("[!_]*.py"))]


# axe-core on the exercise panels only: the whole page is test_accessibility.py's job.
RUN_AXE_ON_PANELS = """async () => {
  const result = await axe.run({ include: [[".exercise"]] }, { resultTypes: ["violations"] });
  return result.violations.filter((violation) => ["serious", "critical"].includes(violation.impact))
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.failureSummary).join(" | ")}`);
}"""


def panel_violations(page):
    page.evaluate(AXE_SOURCE)
    return page.evaluate(RUN_AXE_ON_PANELS)


def panel_of(page, title):
    """The exercise panel under the block titled `title` (a group named "Checks of <title>")."""
    return page.get_by_role("group", name=f"Checks of {title}", exact=True)


RELU = "Exercise: relu for the engine"


def open_relu(page, site_url):
    """Open the chapter with the exercise "relu for the engine"; return its block and its panel."""
    open_lesson(page, site_url, "engine/")
    return block_titled(page, RELU), panel_of(page, RELU)


def test_check_hints_solution_and_a_solved_state_that_survives_a_reload(page, site_url, page_errors):
    title = "Exercise: x · x · x by hand"
    open_lesson(page, site_url, "derivatives/")
    panel = panel_of(page, title)
    show_solution = panel.get_by_role("button", name="Show the solution")
    expect(show_solution).to_be_disabled()
    expect(panel).to_contain_text("The solution unlocks after your first Check.")

    shown = check(panel)
    assert "0 of 2 checks pass. Not solved yet." in shown
    failures = panel.get_by_role("status").get_by_role("listitem")
    expect(failures).to_have_count(2)
    expect(failures.nth(0)).to_contain_text("`square_grad` is 0.0, expected 2.0.")
    expect(failures.nth(1)).to_contain_text("Not yet: x_grad is dq/dx = 3·x². Not checked yet: it waits for "
                                            "“square_grad is dq/d(square)” to pass first.")
    expect(panel).to_contain_text("Not solved yet")

    # The right number typed in: the checks run the block again at another x, so it does not pass.
    typed_in = cube_by_hand.SOLUTION.replace("print(", "x_grad = 12.0\nprint(")
    set_code(block_titled(page, title), typed_in)
    assert "1 of 2 checks pass. Not solved yet." in check(panel)
    expect(failures.nth(1)).to_contain_text("`x_grad` stays 12.0 when the checks run your block again with x = 3.0")

    hints = panel.get_by_role("list", name="Hints").get_by_role("listitem")
    expect(hints).to_have_count(0)
    panel.get_by_role("button", name="Show a hint").click()
    expect(hints).to_have_count(1)
    expect(hints.first).to_contain_text("square_grad += q_grad * x")
    for shown_hints in range(2, len(cube_by_hand.HINTS) + 1):
        panel.get_by_role("button", name="Show another hint").click()
        expect(hints).to_have_count(shown_hints)
    expect(panel.get_by_role("button", name="No more hints")).to_be_disabled()

    expect(show_solution).to_be_enabled()
    show_solution.click()
    expect(panel.get_by_role("button", name="Hide the solution")).to_have_attribute("aria-expanded", "true")
    expect(panel.locator(".exercise__solution")).to_contain_text("x_grad += square_grad * x")
    assert panel_violations(page) == []  # with results, hints and the solution showing, the button focused
    panel.get_by_role("button", name="Put the solution in the editor").click()
    exercise_block = block_titled(page, title)
    page.wait_for_function("([element, code]) => element.runnableCode() === code",
                           arg=[exercise_block.element_handle(), cube_by_hand.SOLUTION])

    assert "All 2 checks pass: solved!" in check(panel)
    expect(panel.get_by_role("status").get_by_role("listitem").first).to_contain_text("Passed: ")
    expect(panel.locator(".exercise__state")).to_have_text("Solved")
    assert "dq/dx = 12.0" in exercise_block.get_by_role("log").text_content()

    page.reload()
    wait_blocks_mounted(page)
    panel = panel_of(page, title)
    expect(panel.locator(".exercise__state")).to_have_text("Solved")
    expect(panel.get_by_role("button", name="Show the solution")).to_be_enabled()
    assert editor_text(block_titled(page, title)) == cube_by_hand.SOLUTION
    assert page_errors == []


def test_code_that_raises_is_explained_and_a_typed_solution_passes(page, site_url, page_errors):
    exercise_block, panel = open_relu(page, site_url)

    set_code(exercise_block, "from tinygrad import Value\n\nrelu = undefined_name\n")
    assert "Your code did not finish cleanly (see its output above)." in check(panel)
    assert "NameError" in exercise_block.get_by_role("log").text_content()
    expect(panel.get_by_role("button", name="Show the solution")).to_be_enabled()  # that was an attempt

    set_code(exercise_block, relu.SOLUTION)
    assert "All 3 checks pass: solved!" in check(panel)
    assert page_errors == []


def test_checks_that_never_end_can_be_stopped_and_checking_goes_on(page, site_url, page_errors):
    exercise_block, panel = open_relu(page, site_url)
    stop = panel.get_by_role("button", name="Stop the checks")
    expect(stop).to_be_disabled()

    # The block itself runs (it only defines relu); the checks then call relu, which never returns.
    set_code(exercise_block, "from tinygrad import Value\n\ndef relu(self):\n    while True:\n        pass\n\n"
                             "Value.relu = relu\n")
    panel.get_by_role("button", name="Check", exact=True).click()
    expect(stop).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expect(panel.get_by_role("status")).to_contain_text("Running your code, then the checks")
    # The block (and the page's earlier blocks) ran cleanly: the checks are what runs now, inside relu.
    expect(exercise_block).to_have_attribute("data-state", "done", timeout=PYTHON_TIMEOUT_MS)
    stop.click()  # whether the checks are inside relu yet or about to be: Stop ends them either way
    expect(panel.get_by_role("status")).to_contain_text("The checks were stopped before they finished",
                                                        timeout=PYTHON_TIMEOUT_MS)
    expect(stop).to_be_disabled()

    set_code(exercise_block, relu.SOLUTION)
    assert "All 3 checks pass: solved!" in check(panel)
    assert page_errors == []


def test_code_that_never_ends_is_stopped_not_failed_and_reset_clears_the_old_results(page, site_url, page_errors):
    exercise_block, panel = open_relu(page, site_url)
    stop = panel.get_by_role("button", name="Stop the checks")

    set_code(exercise_block, "while True:  # the block itself never ends\n    pass\n")
    panel.get_by_role("button", name="Check", exact=True).click()
    expect(exercise_block).to_have_attribute("data-state", "running", timeout=PYTHON_TIMEOUT_MS)
    stop.click()
    results = panel.get_by_role("status")
    expect(results).to_contain_text("Your code was stopped before it finished", timeout=PYTHON_TIMEOUT_MS)
    assert "did not finish cleanly" not in results.text_content()
    assert "without an error" not in results.text_content()

    set_code(exercise_block, relu.SOLUTION)
    assert "All 3 checks pass: solved!" in check(panel)
    panel.get_by_role("button", name="Show the solution").click()
    solution = panel.locator(".exercise__solution")
    expect(solution).to_be_visible()

    exercise_block.get_by_role("button", name="Reset", exact=True).click()
    expect(results).not_to_contain_text("All 3 checks pass")  # they were about the code Reset replaced
    expect(solution).to_be_hidden()
    expect(panel.locator(".exercise__state")).to_have_text("Solved")  # the saved progress stays, as after a reload
    assert page_errors == []


def test_a_browser_that_refuses_storage_still_checks(page, site_url, page_errors):
    page.add_init_script(REFUSED_STORAGE)
    title = "Exercise: a faster fit"
    open_lesson(page, site_url, "training/")
    panel = panel_of(page, title)
    shown = check(panel)
    assert "1 of 2 checks pass. Not solved yet." in shown
    assert "With fast_rate = 0.05 the loss after 50 steps is 1.95e-03" in shown
    expect(panel.locator(".exercise__state")).to_have_text(
        "Not solved yet (this browser cannot save your progress)")
    assert page_errors == []



def test_hints_and_solutions_stay_out_of_the_search_index(built_site):
    """The site's search must not show an exercise's hints or solution before the reader asks."""
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    searchable = html.unescape(re.sub(r"<[^>]+>", "", " ".join(entry["text"] for entry in index["docs"])))
    assert "x · x · x" in searchable  # the exercises' prose is searchable
    for exercise in EXERCISES:
        for hint in exercise.HINTS:
            assert hint.replace("`", "")[:40] not in searchable, f"{exercise.__name__}: a hint is searchable"
    assert "x_grad += square_grad * x" not in searchable  # a line only cube_by_hand's solution has
