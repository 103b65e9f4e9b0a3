"""test_saved_edits.py: the reader's edits of runnable blocks survive reloads, in Chromium.

What it is: the browser's memory of edited blocks, checked on the built site served on 127.0.0.1:
an edit comes back after a reload (also after Python crashed), Reset brings back the lesson's code
and forgets the edit, a saved edit made for an older version of the lesson is shown with a notice
and the original to compare, "Clear my saved edits" asks first, says what it clears, offers "Download my
work" (asking for the name when none is typed, issue #38), clears only this page's edits unless the reader ticks
more, and Cancel keeps everything; a browser that refuses
storage (full, or turned off) still runs every block, and when two tabs edit the same block, each says
so before it overwrites the other's saved edit and the reader chooses which version stays; nearly full
storage never keeps a cut-off edit: select all, delete, then a paste too large to save keeps the edit
from before (issue #39).

What it is not: the running of blocks (test_blocks.py) or hostile code (test_robustness.py). The
changed-lesson case is simulated by writing a saved edit with another fingerprint of the original.
"""
import json

import pytest
from playwright.sync_api import expect

from helpers import (REFUSED_STORAGE, block, editor_text, open_lesson, open_editor, output_text, press, run_block,
                     set_code, wait_blocks_mounted)
from test_accessibility import serious_violations

SAVED_EDIT_PREFIX = "lesson-edit:"
STORAGE_FAILURES = {
    "full": "Storage.prototype.setItem = function () { throw new DOMException('full', 'QuotaExceededError'); };",
    "turned off": REFUSED_STORAGE,
}


STORED = "() => Object.fromEntries(Object.keys(localStorage).map(key => [key, localStorage.getItem(key)]))"


def clear_saved_edits(page, *options):
    """Press "Clear my saved edits", tick the options whose label contains each of `options`, press Clear;
    the status line, which then says what was cleared."""
    page.get_by_role("button", name="Clear my saved edits", exact=True).click()
    question = page.get_by_role("group", name="Clear your saved edits?")
    for option in options:
        question.get_by_role("checkbox", name=option).check()
    question.get_by_role("button", name="Clear", exact=True).click()
    expect(question).to_be_hidden()
    return page.locator(".runnable-edits__status")


def saved_keys(page):
    """The keys of the saved edits in this browser's localStorage."""
    return page.evaluate(f"() => Object.keys(localStorage).filter(key => key.startsWith({SAVED_EDIT_PREFIX!r}))")


def original_code(block_locator):
    """The lesson's own code of a block, as the built page carries it."""
    return block_locator.get_attribute("data-source")


def reload_lesson(page):
    page.reload()
    wait_blocks_mounted(page)


def saved_code(page, number):
    """The code of block `number`'s saved edit in this browser's localStorage, or None."""
    stored = page.evaluate(f"(number) => localStorage.getItem({SAVED_EDIT_PREFIX!r} + location.pathname + '#' + number)",
                           number)
    return None if stored is None else json.loads(stored)["code"]


def test_two_tabs_editing_one_block_say_so_before_either_overwrites_the_other(page, site_url, lesson_path,
                                                                            page_errors):
    open_lesson(page, site_url, lesson_path)
    other = page.context.new_page()
    other.on("pageerror", lambda error: page_errors.append(str(error)))
    open_lesson(other, site_url, lesson_path)
    here, there = block(page, 1), block(other, 1)
    open_editor(there)  # the reader works in both tabs
    first, second = "print('typed in the first tab')", "print('typed in the second tab')"

    set_code(here, first)
    assert saved_code(page, 1) == first
    notice = there.get_by_role("alert")  # the second tab heard of it (the storage event) and says so
    expect(notice).to_contain_text("was edited in another tab of this site")
    set_code(there, second)  # typing on in the second tab, on its out-of-date text
    # Read where the writing tab is: another tab's copy of localStorage catches up a moment later.
    assert saved_code(other, 1) == first, "the first tab's edit was overwritten without a word"
    notice.get_by_role("button", name="Show the other tab's version").click()
    expect(there.get_by_label("The other tab's version of this block")).to_have_text(first)

    notice.get_by_role("button", name="Keep this tab's version").click()
    expect(notice).to_be_hidden()
    assert saved_code(other, 1) == second
    told = here.get_by_role("alert")  # now the first tab is told, and takes the second tab's version
    expect(told).to_contain_text("was edited in another tab of this site")
    told.get_by_role("button", name="Use the other tab's version").click()
    expect(told).to_be_hidden()
    assert editor_text(here) == second and saved_code(page, 1) == second

    for tab in (page, other):
        reload_lesson(tab)
        assert editor_text(block(tab, 1)) == second
    assert page_errors == []


def test_an_edit_is_restored_after_a_reload(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    edited = "# my own version\nprint('mine')"
    set_code(block(page, 1), edited)

    reload_lesson(page)

    first = block(page, 1)
    assert editor_text(first) == edited
    open_editor(first)  # the editor mounts with the saved code, not the lesson's
    assert editor_text(first) == edited
    assert editor_text(block(page, 2)) == original_code(block(page, 2)), "only the edited block changes"
    assert len(saved_keys(page)) == 1
    assert page_errors == []


def test_an_edit_survives_a_python_crash_and_a_reload(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    crashing = "from tinygrad import Value\nchain = Value(0)\nfor _ in range(5000):\n    chain = chain + 1\ndel chain"
    set_code(first, crashing)
    assert "Python crashed" in run_block(first)

    reload_lesson(page)

    assert editor_text(block(page, 1)) == crashing
    assert page_errors == []


def test_reset_restores_the_original_and_forgets_the_edit(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    set_code(first, "print('to be reset')")
    assert saved_keys(page) != []

    press(first, "Reset")

    assert editor_text(first) == original_code(first)
    assert saved_keys(page) == []
    reload_lesson(page)
    assert editor_text(block(page, 1)) == original_code(block(page, 1))
    assert page_errors == []


def test_a_changed_lesson_is_announced_and_can_be_compared_or_reset(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    mine = "print('written for an older lesson')"
    key = page.evaluate(f"() => {SAVED_EDIT_PREFIX!r} + location.pathname + '#1'")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [key, json.dumps({"code": mine, "original": "not-this-lesson"})])

    reload_lesson(page)
    first = block(page, 1)
    notice = first.get_by_role("note")

    assert editor_text(first) == mine
    assert "changed since you edited it" in notice.text_content()
    original_view = first.get_by_label("The lesson's code for this block")
    assert not original_view.is_visible()
    notice.get_by_role("button", name="Show the original").click()
    assert original_view.is_visible() and original_view.text_content() == original_code(first)

    press(first, "Reset")
    assert editor_text(first) == original_code(first)
    assert first.get_by_role("note").count() == 0
    assert saved_keys(page) == []
    assert page_errors == []


def test_clear_my_saved_edits_forgets_every_edit_of_the_page(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "print('first edit')")
    set_code(second, "print('second edit')")
    assert len(saved_keys(page)) == 2

    expect(clear_saved_edits(page)).to_have_text("Cleared your edits of 2 blocks on this page.")

    assert saved_keys(page) == []
    assert editor_text(first) == original_code(first)
    assert editor_text(second) == original_code(second)
    reload_lesson(page)
    assert editor_text(block(page, 1)) == original_code(block(page, 1))
    assert page_errors == []


def test_clear_my_saved_edits_asks_first_and_leaves_other_pages_and_other_work(page, site_url, tmp_path, page_errors):
    """The review's "Clear my saved edits" erased every exercise's progress and every prediction of the site,
    with no question: now it says what it clears, Cancel keeps everything, and Clear takes only this page's edits."""
    open_lesson(page, site_url, "derivatives/")
    set_code(block(page, 1), "print('kept on another page')")
    page.evaluate("""() => {
      localStorage.setItem('lesson-exercise:/relu', JSON.stringify({attempted: true, solved: true}));
      localStorage.setItem('lesson-prediction:/paths-total', JSON.stringify({answer: '7', correct: true, revealed: false}));
    }""")
    open_lesson(page, site_url, "engine/")
    first = block(page, 1)
    set_code(first, "print('this page')")
    before = page.evaluate(STORED)

    page.get_by_role("button", name="Clear my saved edits", exact=True).click()
    question = page.get_by_role("group", name="Clear your saved edits?")
    expect(question).to_contain_text("This clears your edits of 1 block on this page: they show the lesson's code again. "
                                     "Your exercises' progress, your answers to the predictions and your edits on other "
                                     "pages stay, unless you tick them below.")
    other_pages = question.get_by_role("checkbox", name="Also clear your saved edits of 1 block on the other pages")
    expect(other_pages).not_to_be_checked()
    assert serious_violations(page) == []  # the page with its question shown
    # Unnamed, every learner's file came as backprop-work.json (issue #38): it asks for the name first.
    downloads = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    name_field = question.get_by_label("Your name (it names the file):")
    expect(name_field).to_have_value("")
    question.get_by_role("button", name="Download my work").click()
    expect(page.locator(".runnable-edits__status")).to_have_text(
        "Type your name first: it names the file, and your teacher's table shows it. Then press \"Download my work\" again.")
    expect(name_field).to_be_focused()
    name_field.fill("Noor")
    with page.expect_download() as download:
        question.get_by_role("button", name="Download my work").click()
    assert download.value.suggested_filename == "Noor-backprop-work.json" and downloads == ["Noor-backprop-work.json"]
    expect(page.locator(".runnable-edits__status")).to_have_text("Saved as Noor-backprop-work.json (in your downloads).")
    work = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert work["learner"] == "Noor"
    named = page.evaluate(STORED)
    assert {key: value for key, value in named.items() if before.get(key) != value} == {
        next(key for key in named if key.startswith("lesson-work:learner:")): "Noor"}, "only the name is kept, as on Your work"
    before = named
    assert work["edits"]["engine/#1"]["code"] == "print('this page')"
    assert work["edits"]["derivatives/#1"]["code"] == "print('kept on another page')"
    question.get_by_role("button", name="Cancel").click()
    expect(page.locator(".runnable-edits__status")).to_have_text("Nothing was cleared.")
    assert page.evaluate(STORED) == before and editor_text(first) == "print('this page')"

    expect(clear_saved_edits(page)).to_have_text("Cleared your edits of 1 block on this page.")
    after = page.evaluate(STORED)
    changed = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
    assert changed == {"lesson-edit:/engine/#1", "lesson-activity:/engine/"}, changed  # the edit, and when it changed
    assert "lesson-edit:/engine/#1" not in after and editor_text(first) == original_code(first)
    open_lesson(page, site_url, "derivatives/")
    assert editor_text(block(page, 1)) == "print('kept on another page')"
    page.get_by_role("button", name="Clear my saved edits", exact=True).click()  # the name typed is kept, as on "Your work"
    expect(page.get_by_role("group", name="Clear your saved edits?").get_by_label("Your name (it names the file):")).to_have_value("Noor")
    assert page_errors == []


# An init script: storage nearly full, refusing any item longer than 2,000 characters, as a quota would.
NEARLY_FULL = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (String(key).length + String(value).length > 2000) throw new DOMException('full', 'QuotaExceededError');
  return setItem.call(this, key, value);
};
"""


def test_nearly_full_storage_keeps_the_last_whole_edit_not_a_cut_off_one(page, site_url, lesson_path, page_errors):
    page.add_init_script(NEARLY_FULL)
    open_lesson(page, site_url, lesson_path)
    too_long = "# pasted, too long to save\n" + "x = 1\n" * 500
    first, second = block(page, 1), block(page, 2)
    kept = "# my own version\nprint('mine')"
    set_code(first, kept)
    set_code(first, too_long)  # select all, delete, paste
    assert "cannot be saved" in page.get_by_role("status").filter(has_text="saved").text_content()
    set_code(second, too_long)  # a block not edited before: the lesson's code, not an empty block

    reload_lesson(page)
    assert editor_text(block(page, 1)) == kept
    assert editor_text(block(page, 2)) == original_code(block(page, 2))
    assert page_errors == []


@pytest.mark.parametrize("failure", STORAGE_FAILURES, ids=lambda failure: failure.replace(" ", "-"))
def test_storage_that_fails_does_not_break_the_page(page, site_url, lesson_path, failure, page_errors):
    page.add_init_script(STORAGE_FAILURES[failure])
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    set_code(first, "print(sum(range(5)))")

    assert run_block(first) == f"{sum(range(5))}\n"
    assert "cannot be saved" in page.get_by_role("status").filter(has_text="saved").text_content()
    press(first, "Reset")
    assert editor_text(first) == original_code(first)
    set_code(first, "print('edited again')")
    expect(clear_saved_edits(page)).to_have_text("Cleared your edits of 1 block on this page.")
    assert editor_text(first) == original_code(first) and output_text(first) == ""
    assert page_errors == []  # Material's scripts too (theme/material-storage.js)
