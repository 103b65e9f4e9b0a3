"""test_work_engine.py: a work file's engine is code from someone else, run only when the learner ticks it (issue #34).

What it is: Chromium tests of "Load my work" with a file whose engine differs from the lesson's: the question
asks apart, with "Run the file's engine too" unticked, shows the file's first changed lines and how many
lines differ; left unticked the lesson's engine runs (the file's is only the editor's draft), ticked the
file's runs; and the exploit of issue #34 carried by such a file (the lesson's engine plus the lines that
rewrite the offline copy, test_untrusted_storage.py's EXPLOIT), run by a learner who ticks it, changes
nothing the site serves.
What it is not: loading and downloading work in general (test_work.py) or the storage layers on their own
(test_untrusted_storage.py).
"""
import json
import textwrap

from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, UI_TIMEOUT_MS, block, open_lesson, run_block, set_code
from test_accessibility import serious_violations
from sample_work_files import generated_work, lesson_map
from test_untrusted_storage import EXPLOIT, MARKER, REFUSAL, TARGET, controlled, heading_of, served_target
from test_work import ENGINE, choose_work_file, open_your_work

MARK = "FILE_ENGINE_MARK = 'from the file'"
FILE_ENGINE = ENGINE + "\n" + MARK + "\n"
WHICH_ENGINE = "import tinygrad; print(getattr(tinygrad, 'FILE_ENGINE_MARK', 'the lesson'))"
# The lesson's engine with the exploit at its end: importing tinygrad starts the attack (a module cannot
# await at its top level, so it runs as a task that a block can await).
POISONED_ENGINE = (ENGINE + "\n\nasync def _poison():\n" + textwrap.indent(EXPLOIT, "    ")
                   + "\nimport asyncio\nPOISONING = asyncio.ensure_future(_poison())\n")


def work_file(built_site, tmp_path, engine, name="ada-backprop-work.json"):
    work = {**generated_work(lesson_map(built_site), "Ada", seed=5), "engine": {"active": engine, "draft": None}}
    path = tmp_path / name
    path.write_text(json.dumps(work), encoding="utf-8")
    return path


def ask_to_load(page, site_url, path):
    """Open "Your work", choose the file at `path`; the question "Load this work file?"."""
    group = open_your_work(page, site_url)
    choose_work_file(page, path)
    question = group.get_by_role("group", name="Load this work file?")
    expect(question).to_be_visible()
    return question


def engine_run(page, site_url):
    """What a block of a chapter finds in the engine Python runs now."""
    open_lesson(page, site_url)
    first = block(page, 1)
    set_code(first, WHICH_ENGINE)
    return run_block(first).strip()


def test_a_files_engine_runs_only_when_the_learner_ticks_it(page, site_url, built_site, tmp_path, clean_run):
    path = work_file(built_site, tmp_path, FILE_ENGINE)
    question = ask_to_load(page, site_url, path)
    run_too = question.get_by_role("checkbox", name="Run the file's engine too")
    expect(run_too).not_to_be_checked()
    expect(question).to_contain_text("This file also carries its own engine (tinygrad.py), which is not the lesson's.")
    expect(question).to_contain_text("Compared with the lesson's engine, 2 lines were added and 0 lines removed")
    expect(question.get_by_label("The file's engine, from its first change")).to_have_text(MARK + "\n")
    assert serious_violations(page) == []  # the page with the engine's question shown
    question.get_by_role("button", name="Replace my work").click()
    expect(page.get_by_role("status").filter(has_text="The file's engine was not run")).to_be_visible()
    assert engine_run(page, site_url) == "the lesson"
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('lesson-engine:draft:/')).code") == FILE_ENGINE

    question = ask_to_load(page, site_url, path)
    expect(run_too).not_to_be_checked()  # every file is asked about again
    run_too.check()
    question.get_by_role("button", name="Replace my work").click()
    expect(page.get_by_role("status").filter(has_text="engine are back")).to_be_visible()
    assert engine_run(page, site_url) == "from the file"


def test_a_file_with_the_lessons_own_engine_asks_nothing_more(page, site_url, built_site, tmp_path, clean_run):
    question = ask_to_load(page, site_url, work_file(built_site, tmp_path, ENGINE))
    expect(question.get_by_role("checkbox", name="Run the file's engine too")).to_be_hidden()


def test_the_exploit_in_a_files_engine_changes_nothing_served_even_when_run(browser, site_url, built_site, tmp_path):
    context = browser.new_context(service_workers="allow")
    context.set_default_timeout(UI_TIMEOUT_MS)
    try:
        page = context.new_page()
        open_lesson(page, site_url)
        controlled(page)  # the offline copy is there to poison
        question = ask_to_load(page, site_url, work_file(built_site, tmp_path, POISONED_ENGINE))
        expect(question.get_by_label("The file's engine, from its first change")).to_contain_text("async def _poison():")
        question.get_by_role("checkbox", name="Run the file's engine too").check()
        question.get_by_role("button", name="Replace my work").click()
        expect(page.get_by_role("status").filter(has_text="engine are back")).to_be_visible()

        open_lesson(page, site_url)
        first = block(page, 1)
        set_code(first, "import tinygrad\nawait tinygrad.POISONING")
        shown = run_block(first, timeout=PYTHON_TIMEOUT_MS)
        assert f"refused: Error: {REFUSAL}" in shown, shown  # the file's engine ran, and its attack was refused
        assert MARKER not in served_target(page, site_url)
        assert page.get_by_role("heading", level=1).first.inner_text() == heading_of(built_site, TARGET)
    finally:
        context.close()


def test_a_files_engine_is_asked_about_even_when_the_lessons_cannot_be_read(page, site_url, built_site, tmp_path,
                                                                           clean_run):
    page.route("**/tinygrad.py", lambda route: route.fulfill(status=404))
    question = ask_to_load(page, site_url, work_file(built_site, tmp_path, FILE_ENGINE))
    expect(question).to_contain_text("The lesson's engine could not be read here to compare them; the file's engine begins:")
    expect(question.get_by_role("checkbox", name="Run the file's engine too")).not_to_be_checked()
    expect(question.get_by_label("The file's engine, from its first change")).to_have_text(
        "\n".join(FILE_ENGINE.split("\n")[:8]))
