"""test_new_learner.py: a second learner on the same computer starts empty, and a file's owner is never mixed up (issue #34).

What it is: Chromium tests of "Your work": "I am a new learner on this computer" says what this browser
holds and whose it is, downloads it first on request, Cancel keeps everything, and "Start empty" forgets the
name, edits, progress, answers and edited engine (the solutions switch, the room's, stays); work loaded
from another learner's file is downloaded with a note that it came from that file.
What it is not: loading and downloading in general (test_work.py).
"""
import json

from playwright.sync_api import expect

from helpers import block, editor_text, open_lesson, set_code
from test_accessibility import serious_violations
from sample_work_files import generated_work, lesson_map
from test_work import STORED, choose_work_file, download_work, open_your_work, work_group

MY_BLOCK = "print('the first learner was here')"
SOLUTIONS_OFF = "lesson-work:solutions:/"


def test_a_new_learner_can_download_the_work_first_then_starts_empty(page, site_url, clean_run):
    open_lesson(page, site_url, "derivatives/?solutions=off")
    set_code(block(page, 1), MY_BLOCK)
    page.evaluate("""() => {
      localStorage.setItem('lesson-exercise:/relu', JSON.stringify({attempted: true, solved: false}));
      localStorage.setItem('lesson-prediction:/paths-total', JSON.stringify({answer: '7', correct: true, revealed: false}));
      localStorage.setItem('lesson-engine:active:/', '# an edited engine');
    }""")
    group = open_your_work(page, site_url)
    group.get_by_label("Your name (it names the file):").fill("Ada")
    before = page.evaluate(STORED)

    group.get_by_role("button", name="I am a new learner on this computer").click()
    question = group.get_by_role("group", name="Start as a new learner?")
    expect(question).to_contain_text("This browser holds Ada's work: the edits of 1 block, the progress in 1 exercise "
                                     "(0 solved), the answers to 1 prediction and the edited engine.")
    assert serious_violations(page) == []  # the page with its question shown
    with page.expect_download() as download:
        question.get_by_role("button", name="Download this work first").click()
    work = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert download.value.suggested_filename == "Ada-backprop-work.json"
    assert work["learner"] == "Ada" and work["edits"]["derivatives/#1"]["code"] == MY_BLOCK
    question.get_by_role("button", name="Cancel").click()
    expect(question).to_be_hidden()
    assert page.evaluate(STORED) == before

    group.get_by_role("button", name="I am a new learner on this computer").click()
    question.get_by_role("button", name="Start empty").click()
    expect(group.get_by_role("status")).to_have_text("This browser now starts empty, for a new learner. Type your name above.")
    expect(group.get_by_label("Your name (it names the file):")).to_have_value("")
    expect(group.locator(".your-work__saved")).to_have_text("Nothing is saved in this browser yet.")
    assert list(page.evaluate(STORED)) == [SOLUTIONS_OFF]  # the room's switch stays
    page.reload()
    expect(work_group(page).get_by_label("Your name (it names the file):")).to_have_value("")
    open_lesson(page, site_url, "derivatives/")
    assert editor_text(block(page, 1)) == block(page, 1).get_attribute("data-source")


def test_work_loaded_from_another_learners_file_says_so_when_downloaded(page, site_url, built_site, tmp_path, clean_run):
    file = tmp_path / "ada-backprop-work.json"
    file.write_text(json.dumps(generated_work(lesson_map(built_site), "Ada", seed=2)), encoding="utf-8")
    group = open_your_work(page, site_url)
    _, mine = download_work(page, "Bea")
    assert mine["learner"] == "Bea"
    expect(group.get_by_role("status")).not_to_contain_text("loaded from")

    choose_work_file(page, file)
    group.get_by_role("group", name="Load this work file?").get_by_role("button", name="Replace my work").click()
    expect(group.get_by_label("Your name (it names the file):")).to_have_value("Ada")
    _, loaded = download_work(page)
    assert loaded["learner"] == "Ada"  # the file names whose work it is
    expect(group.get_by_role("status")).to_contain_text("Note: the work here was loaded from Ada's work file "
                                                        "ada-backprop-work.json, so this file holds that work too")
    page.reload()  # remembered, not only in this page
    group = open_your_work(page, site_url)
    download_work(page, "Bea")
    expect(group.get_by_role("status")).to_contain_text("loaded from Ada's work file")

    group.get_by_role("button", name="I am a new learner on this computer").click()
    group.get_by_role("button", name="Start empty").click()
    download_work(page, "Bea")
    expect(group.get_by_role("status")).not_to_contain_text("loaded from")
