"""test_two_copies.py: two copies of the lesson on one origin keep their learners' work apart (issue #34).

What it is: the built site served at `/` and the sub-path build at `/some-repo/` by one server (one origin, one
localStorage, as two GitHub Pages project sites of one account, or a teacher's two classes). In Chromium,
each copy gets work of its own; then "Load my work", "Clear my saved edits" (with the other pages' edits
ticked) and "I am a new learner on this computer" in one copy leave every item of the other byte for byte
as it was, both ways round. Before, a key prefix built from `/` matched every item of a copy below it.
What it is not: the work file itself (test_work.py) or one copy under a sub-path alone (test_hosting.py).
"""
import json
import shutil
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from helpers import SUB_PATH, block, free_port, open_lesson, serve_site, set_code
from sample_work_files import generated_work, lesson_map
from test_saved_edits import clear_saved_edits
from test_work import choose_work_file, open_your_work

COURSE = SUB_PATH.strip("/") + "/"  # the sub-path build's path (tests/site/conftest.py)
ALL_ITEMS = "() => Object.fromEntries(Object.keys(localStorage).map(key => [key, localStorage.getItem(key)]))"


@pytest.fixture(scope="module")
def root_url(built_site, subpath_build, tmp_path_factory):
    """One origin serving the session's two builds, the root's at / and the sub-path's at /COURSE/, on a port
    of its own (neither was built for it: every page here is opened by its address); the root's URL."""
    folder = tmp_path_factory.mktemp("two-copies")
    shutil.copytree(built_site, folder, dirs_exist_ok=True)
    shutil.copytree(subpath_build[0], folder / COURSE)
    with serve_site(folder, free_port()) as url:
        yield url


def items_of(page, url):
    """localStorage's items of the copy at `url` (those of the sub-path copy name its path; the root's do not)."""
    in_course = urlparse(url).path == f"/{COURSE}"
    return {key: value for key, value in page.evaluate(ALL_ITEMS).items()
            if key != "sites-of-the-lesson" and (f"/{COURSE}" in key) == in_course}


def some_work(page, url, learner):
    """An edit, an exercise's progress, an answer and a name kept by the copy at `url`."""
    open_lesson(page, url, "derivatives/")
    set_code(block(page, 1), f"print('{learner} was here')")
    page.evaluate("""(path) => {
      localStorage.setItem(`lesson-exercise:${path}relu`, JSON.stringify({attempted: true, solved: true}));
      localStorage.setItem(`lesson-prediction:${path}paths-total`, JSON.stringify({answer: '7', correct: true, revealed: false}));
    }""", urlparse(url).path)
    open_your_work(page, url).get_by_label("Your name (it names the file):").fill(learner)


def load_clear_and_reset(page, url, file, other_url):
    """Load a work file, clear saved edits on every page and start as a new learner in the copy at `url`;
    after each, the copy at `other_url` holds exactly what it held before."""
    before = items_of(page, other_url)
    assert len(before) >= 5
    group = open_your_work(page, url)
    choose_work_file(page, file)
    group.get_by_role("group", name="Load this work file?").get_by_role("button", name="Replace my work").click()
    expect(group.get_by_role("status").filter(has_text="Loaded")).to_be_visible()
    assert items_of(page, other_url) == before, "load"

    open_lesson(page, url, "engine/")
    set_code(block(page, 1), "print('another page')")
    open_lesson(page, url, "derivatives/")
    set_code(block(page, 1), "print('this page')")
    expect(clear_saved_edits(page, "on the other pages")).to_contain_text("on the other pages")
    assert not [key for key in items_of(page, url) if key.startswith("lesson-edit:")]
    assert items_of(page, other_url) == before, "clear"

    group = open_your_work(page, url)
    group.get_by_role("button", name="I am a new learner on this computer").click()
    group.get_by_role("button", name="Start empty").click()
    expect(group.locator(".your-work__saved")).to_have_text("Nothing is saved in this browser yet.")
    assert items_of(page, other_url) == before, "reset"


def test_load_clear_and_reset_in_one_copy_leave_the_other_unchanged(page, root_url, built_site, tmp_path):
    course_url = root_url + COURSE
    file = tmp_path / "ada-backprop-work.json"
    file.write_text(json.dumps(generated_work(lesson_map(built_site), "Ada", seed=2)), encoding="utf-8")
    some_work(page, root_url, "Rita")
    some_work(page, course_url, "Cora")
    load_clear_and_reset(page, root_url, file, course_url)  # the root's prefixes match the sub-path copy's keys

    some_work(page, root_url, "Rita")
    load_clear_and_reset(page, course_url, file, root_url)
