"""test_work.py: a learner's work leaves one browser as a file and comes back in another, in Chromium.

What it is: the page "Your work" on the built site served by the classroom server (serve.py): the
learner edits a block, solves an exercise (and opens its solution), answers a prediction (its saved
record written directly here; a prediction answered in the page's own field makes the round trip
download, cleared storage, load and comes back in the chapter in a test of its own), passes a build-your-own step
and applies an edited engine; "Download my work" saves <name>-backprop-work.json, which obeys the JSON
Schema under CPython's jsonschema; a fresh browser context (empty storage) loads it after saying what it
holds (its engine too, ticked: test_work_engine.py asks that apart), and every piece is back where the learner
left it (the block, the exercise's state, the step, the
banner of the edited engine, the answer), and a second download holds the same work. Loading over
existing work says what it replaces first, and Cancel changes nothing. Each kind of bad file (not JSON,
another shape, a newer version, another site's file, cut short, damaged, 50 MB) is refused with its
reason and changes nothing saved, and a load that the browser's storage refuses half way (the file's
edited engine, after its other items were written) says so and puts back everything as it was. The header's link
reaches "Your work" from every kind of page, also
after instant navigation. Solutions turned off with ?solutions=off stay locked after a Check, the work
file records it, and ?solutions=on unlocks them. With no name typed, "Download my work" asks for one
instead of saving one more file named only by the lesson (issue #38).
What it is not: the class overview (test_class_overview.py) or the format's schema (tests/article/test_work_files.py).
"""
import importlib
import json

import jsonschema
from playwright.sync_api import expect

from helpers import REPO, block, editor_text, open_lesson, run_block, set_code, wait_for_address
from test_edit_engine import apply_engine, open_engine_editor, type_engine
from test_accessibility import serious_violations
from test_exercises import check, panel_of
from test_predictions_in_browser import PATHS, PREDICTIONS, answer_with, number, question_group
from test_by_hand import enter
from test_figures import TITLES, cpython_model
from sample_work_files import bad_work_files, generated_work, lesson_map

SCHEMA = json.loads((REPO / "site_scripts" / "browser" / "work" / "work-file.schema.json").read_text(encoding="utf-8"))
ENGINE = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
EDITED_ENGINE = ENGINE + "\n# my own note at the end of the engine\n"
CUBE = "Exercise: x · x · x by hand"
STEP_1 = "Exercise: step 1, Value with + and *"
CUBE_SOLUTION = importlib.import_module("tutor.exercises.cube_by_hand").SOLUTION
STEP_1_SOLUTION = importlib.import_module("tutor.exercises.own_value").SOLUTION
MY_BLOCK = "print('my own first block')"
PREDICTION = ("backpropagation-a-grad", {"answer": "7", "correct": True, "revealed": False})
# Everything this site keeps in localStorage: the work a bad file must leave alone.
STORED = "() => Object.fromEntries(Object.keys(localStorage).filter(key => key.startsWith('lesson-'))" \
         ".sort().map(key => [key, localStorage.getItem(key)]))"
# From now on the page's storage refuses any item longer than 5,000 characters (as a full storage does
# for a large one) and counts the writes it took before the first refusal, and the refusals.
REFUSES_LARGE_ITEMS = """() => {
  window.writesBeforeRefusal = 0;
  window.refusals = 0;
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (String(value).length > 5000) {
      window.refusals += 1;
      throw new DOMException("full", "QuotaExceededError");
    }
    if (!window.refusals) window.writesBeforeRefusal += 1;
    return setItem.call(this, key, value);
  };
}"""


def work_group(page):
    return page.get_by_role("group", name="Your work", exact=True)


def open_your_work(page, site_url):
    page.goto(site_url + "your-work/")
    expect(work_group(page).get_by_role("button", name="Download my work", exact=True)).to_be_enabled()
    return work_group(page)


def download_work(page, name=None):
    """Type `name` (if given), press "Download my work"; return (file name, the file's JSON)."""
    group = work_group(page)
    if name is not None:
        group.get_by_label("Your name (it names the file):").fill(name)
    with page.expect_download() as download:
        group.get_by_role("button", name="Download my work", exact=True).click()
    return download.value.suggested_filename, json.loads(open(download.value.path(), encoding="utf-8").read())


def choose_work_file(page, path):
    """Press "Load my work" and choose the file at `path` in the file chooser it opens."""
    with page.expect_file_chooser() as chooser:
        work_group(page).get_by_role("button", name="Load my work", exact=True).click()
    chooser.value.set_files(str(path))


def store_prediction(page):
    page.evaluate("([id, record]) => localStorage.setItem('lesson-prediction:/' + id, JSON.stringify(record))",
                  list(PREDICTION))


def work_saved_already(page, site_url):
    """An edit of a block and an answer saved in this browser; open "Your work": (its group, what localStorage holds)."""
    open_lesson(page, site_url, "derivatives/")
    set_code(block(page, 1), MY_BLOCK)
    store_prediction(page)
    group = open_your_work(page, site_url)
    before = page.evaluate(STORED)
    assert len(before) >= 3
    return group, before


def do_some_work(page, site_url):
    """Edit and run a block, solve an exercise and open its solution, answer a prediction, pass build-your-own's
    step 1 and apply an edited engine, as a learner does."""
    open_lesson(page, site_url, "derivatives/")
    set_code(block(page, 1), MY_BLOCK)
    assert run_block(block(page, 1)) == "my own first block\n"
    cube = page.locator('div.runnable[data-exercise="cube_by_hand"]')
    set_code(cube, CUBE_SOLUTION)
    assert "solved!" in check(panel_of(page, CUBE))
    panel_of(page, CUBE).get_by_role("button", name="Show the solution").click()
    store_prediction(page)

    open_lesson(page, site_url, "build-your-own/")
    set_code(page.locator('div.runnable[data-exercise="own_value"]'), STEP_1_SOLUTION)
    assert "solved!" in check(panel_of(page, STEP_1))

    editor = open_engine_editor(page, site_url)
    type_engine(page, editor, EDITED_ENGINE)
    assert apply_engine(editor).startswith("Applied")


def test_work_goes_to_a_file_and_comes_back_in_another_browser(page, browser, site_url, built_site, tmp_path,
                                                              outside_requests, page_errors):
    do_some_work(page, site_url)
    open_your_work(page, site_url)
    saved = work_group(page).locator(".your-work__saved")
    expect(saved).to_contain_text("edits of 3 blocks")  # block 1, the exercise, step 1
    name, work = download_work(page, "Ada Lovelace")

    assert name == "Ada-Lovelace-backprop-work.json"
    jsonschema.Draft202012Validator(SCHEMA).validate(work)
    assert work["learner"] == "Ada Lovelace" and work["site"] == lesson_map(built_site)["site"]
    assert work["edits"]["derivatives/#1"]["code"] == MY_BLOCK
    assert work["exercises"]["cube_by_hand"] == {"chapter": "derivatives/", "title": CUBE, "attempted": True, "solved": True,
                                                 "solutionShown": True, "code": CUBE_SOLUTION}
    assert work["exercises"]["own_value"]["solved"] and work["exercises"]["own_value"]["code"] == STEP_1_SOLUTION
    assert not work["exercises"]["relu"]["attempted"] and work["exercises"]["relu"]["code"] is None
    assert work["predictions"] == dict([PREDICTION])
    assert work["engine"]["active"] == EDITED_ENGINE and work["engine"]["draft"]["code"] == EDITED_ENGINE
    assert work["pages"]["derivatives/"]["runs"] >= 2 and work["pages"]["build-your-own/"]["runs"] >= 1
    assert "" not in work["pages"] and work["settings"] == {"solutions": "on", "solutionsChanged": None}
    file = tmp_path / name
    file.write_text(json.dumps(work), encoding="utf-8")

    # Another browser: nothing saved there yet.
    other = browser.new_context(service_workers="block")
    other.on("request", lambda request: outside_requests.append(request.url) if "127.0.0.1" not in request.url else None)
    fresh = other.new_page()
    fresh.on("pageerror", lambda error: page_errors.append(str(error)))
    group = open_your_work(fresh, site_url)
    expect(group.locator(".your-work__saved")).to_have_text("Nothing is saved in this browser yet.")
    choose_work_file(fresh, file)
    question = group.get_by_role("group", name="Load this work file?")
    expect(question).to_contain_text("Ada-Lovelace-backprop-work.json holds Ada Lovelace's work: the file's edits of 3 blocks, "
                                     "the file's progress in 2 exercises (2 solved), the file's answers to 1 prediction "
                                     "and the file's edited engine.")
    expect(question).to_contain_text("Nothing saved in this browser is replaced.")
    assert serious_violations(fresh) == []  # the page with its question shown
    assert fresh.evaluate(STORED) == {}, "nothing is kept before the confirm"
    question.get_by_role("checkbox", name="Run the file's engine too").check()  # test_work_engine.py: unticked
    question.get_by_role("button", name="Replace my work").click()
    expect(group.get_by_role("status").filter(has_text="Loaded")).to_be_visible()
    expect(group.get_by_label("Your name (it names the file):")).to_have_value("Ada Lovelace")

    open_lesson(fresh, site_url, "derivatives/")
    assert editor_text(block(fresh, 1)) == MY_BLOCK
    expect(panel_of(fresh, CUBE).locator(".exercise__state")).to_have_text("Solved")
    expect(fresh.get_by_role("region", name="Edited engine")).to_be_visible()
    open_lesson(fresh, site_url, "build-your-own/")
    items = fresh.get_by_role("list", name="Your progress, saved in this browser:").get_by_role("listitem")
    expect(items.first).to_have_text("Step 1, Value with + and *: done")
    assert editor_text(fresh.locator('div.runnable[data-exercise="own_value"]')) == STEP_1_SOLUTION

    open_your_work(fresh, site_url)
    _, again = download_work(fresh)
    assert {**again, "saved": None} == {**work, "saved": None}
    other.close()
    assert outside_requests == [] and page_errors == []


def test_loading_over_work_says_what_it_replaces_and_cancel_keeps_it(page, site_url, tmp_path, clean_run):
    open_your_work(page, site_url)
    _, empty = download_work(page, "Empty")
    file = tmp_path / "empty.json"
    file.write_text(json.dumps(empty), encoding="utf-8")
    page.evaluate("() => { localStorage.setItem('lesson-edit:/engine/#2', JSON.stringify({code: 'x = 1', original: '0000abcd'}));"
                  " localStorage.setItem('lesson-exercise:/relu', JSON.stringify({attempted: true, solved: false})); }")
    store_prediction(page)
    group = open_your_work(page, site_url)
    before = page.evaluate(STORED)

    choose_work_file(page, file)
    question = group.get_by_role("group", name="Load this work file?")
    expect(question).to_contain_text("empty.json holds Empty's work: no work at all. Loading it replaces your edits of "
                                     "1 block, your progress in 1 exercise (0 solved) and your answers to 1 prediction "
                                     "in this browser.")
    question.get_by_role("button", name="Cancel").click()
    expect(question).to_be_hidden()
    assert page.evaluate(STORED) == before

    choose_work_file(page, file)
    question.get_by_role("button", name="Replace my work").click()
    expect(group.locator(".your-work__saved")).to_have_text("Nothing is saved in this browser yet.")
    assert not [key for key in page.evaluate(STORED) if not key.startswith(("lesson-work:learner", "lesson-work:loaded-from"))]


def test_a_load_that_storage_refuses_half_way_puts_everything_back(page, site_url, built_site, tmp_path, clean_run):
    group, before = work_saved_already(page, site_url)
    # A file whose edits, progress, answers and pages are written before its edited engine, the one
    # item the storage refuses (restoreWork writes the engine after all of them).
    work = {**generated_work(lesson_map(built_site), "Grace", seed=3), "engine": {"active": EDITED_ENGINE, "draft": None}}
    assert work["edits"] and work["predictions"] and len(EDITED_ENGINE) > 5000
    file = tmp_path / "grace.json"
    file.write_text(json.dumps(work), encoding="utf-8")
    choose_work_file(page, file)
    question = group.get_by_role("group", name="Load this work file?")
    expect(question).to_contain_text("grace.json holds Grace's work")
    page.evaluate(REFUSES_LARGE_ITEMS)
    question.get_by_role("button", name="Replace my work").click()
    expect(group.get_by_role("alert")).to_have_text("This browser refused to keep the work (its storage is full or "
                                                    "turned off): nothing here changed.")
    assert page.evaluate("() => [window.writesBeforeRefusal >= 3, window.refusals]") == [True, 1]  # half way
    assert page.evaluate(STORED) == before
    expect(page.get_by_role("region", name="Edited engine")).to_be_hidden()
    open_lesson(page, site_url, "derivatives/")  # a fresh page, storage as the browser keeps it
    assert editor_text(block(page, 1)) == MY_BLOCK


def test_a_prediction_answered_in_the_page_comes_back_after_download_clear_and_load(page, site_url, tmp_path,
                                                                                   clean_run):
    open_lesson(page, site_url, "backpropagation/")
    slip = PATHS["answer"] - 3  # one path counted: a wrong answer, with its feedback
    feedback = answer_with(question_group(page, PATHS), number(slip))
    assert feedback.startswith("Not quite: ")
    open_your_work(page, site_url)
    name, work = download_work(page, "Round Trip")
    assert work["predictions"] == {"paths-total": {"answer": number(slip), "correct": False, "revealed": False,
                                                   "first": number(slip), "firstRight": False}}
    file = tmp_path / name
    file.write_text(json.dumps(work), encoding="utf-8")

    page.evaluate("() => localStorage.clear()")
    group = open_your_work(page, site_url)
    expect(group.locator(".your-work__saved")).to_have_text("Nothing is saved in this browser yet.")
    choose_work_file(page, file)
    expect(group.get_by_role("group", name="Load this work file?")).to_contain_text("the file's answers to 1 prediction")
    group.get_by_role("button", name="Replace my work").click()
    expect(group.get_by_role("status").filter(has_text="Loaded")).to_be_visible()

    open_lesson(page, site_url, "backpropagation/")
    group = question_group(page, PATHS)
    expect(group.get_by_role("textbox", name="Your answer")).to_have_value(number(slip))
    expect(group.get_by_role("status").first).to_have_text(feedback)


def test_every_bad_file_is_refused_with_its_reason_and_changes_nothing(page, site_url, built_site, tmp_path, clean_run):
    group, before = work_saved_already(page, site_url)
    problem = group.get_by_role("alert")
    for name, data, reason in bad_work_files(lesson_map(built_site)):
        path = tmp_path / name
        path.write_bytes(data)
        choose_work_file(page, path)
        expect(problem).to_contain_text(f"{name} was not loaded, and nothing here changed.")
        expect(problem).to_contain_text(reason)
        expect(group.get_by_role("group", name="Load this work file?")).to_be_hidden()
        assert page.evaluate(STORED) == before, name


def test_the_header_links_to_your_work_from_every_page_also_after_instant_navigation(page, site_url, clean_run):
    page.goto(site_url)
    page.get_by_role("link", name="Derivatives, three ways").first.click()  # instant navigation: the header stays
    wait_for_address(page, site_url + "derivatives/")
    link = page.locator("header").get_by_role("link", name="Your work")
    expect(link).to_be_visible()
    link.click()
    wait_for_address(page, site_url + "your-work/")
    expect(work_group(page)).to_be_visible()
    page.goto(site_url + "no-such-page/")  # the 404 page has it too
    expect(page.locator("header").get_by_role("link", name="Your work")).to_have_attribute("href", site_url + "your-work/")


def test_solutions_turned_off_stay_locked_and_the_work_file_says_so(page, site_url, clean_run):
    open_lesson(page, site_url, "derivatives/?solutions=off")
    panel = panel_of(page, CUBE)
    show = panel.get_by_role("button", name="Show the solution")
    assert "Not solved yet" in check(panel)  # the starter code: tried, not solved
    expect(show).to_be_disabled()
    expect(panel.locator(".exercise__lock-note")).to_have_text("The solutions are turned off in this browser for now.")

    open_lesson(page, site_url, "engine/")  # another page, without the parameter: still off
    expect(panel_of(page, "Exercise: relu for the engine").locator(".exercise__lock-note")
           ).to_have_text("The solutions are turned off in this browser for now.")
    group = open_your_work(page, site_url)
    expect(group.get_by_role("checkbox", name="Turn the exercises' solutions off in this browser")).to_be_checked()
    _, work = download_work(page, "Sol")
    assert work["settings"]["solutions"] == "off" and work["settings"]["solutionsChanged"]
    assert work["exercises"]["cube_by_hand"]["attempted"] and not work["exercises"]["cube_by_hand"]["solutionShown"]

    open_lesson(page, site_url, "derivatives/?solutions=on")
    expect(panel_of(page, CUBE).get_by_role("button", name="Show the solution")).to_be_enabled()


def test_first_tries_and_figures_filled_by_hand_are_kept_and_the_class_overview_counts_them(page, site_url, built_site,
                                                                                          tmp_path, clean_run):
    """A prediction right only at the second try, or after "Show me", is not right first time; how far the reader
    got in "Backpropagate by hand" survives a reload, goes into the work file and shows in the overview's
    chapter column (the review found "27 of 27" for a learner who missed many, and by-hand work lost)."""
    open_lesson(page, site_url, "backpropagation/")
    paths = question_group(page, PATHS)
    assert answer_with(paths, number(PATHS["answer"] - 3)).startswith("Not quite: ")
    assert answer_with(paths, number(PATHS["answer"])).startswith("Right")
    shown = PREDICTIONS["shown-a-grad"]
    question_group(page, shown).get_by_role("button", name="Show me").click()
    assert answer_with(question_group(page, shown), number(shown["answer"])).startswith("Right")

    figure = page.get_by_role("group", name=TITLES["backprop_by_hand"], exact=True)
    figure.scroll_into_view_if_needed()
    expect(figure.get_by_role("textbox", name="Gradient of L", exact=True)).to_be_enabled(timeout=120_000)
    gradients = {box["key"]: box["expected"] for box in cpython_model("backprop_by_hand").Graph("loss").boxes}
    for key in ("L", "e"):
        assert "Right" in enter(figure, f"Gradient of {key}", number(gradients[key]))
    page.reload()  # the entries go; how far the reader got stays
    page.get_by_role("button", name="Start again").wait_for()

    open_your_work(page, site_url)
    name, work = download_work(page, "Grace")
    assert work["predictions"]["paths-total"] == {"answer": number(PATHS["answer"]), "correct": True, "revealed": False,
                                                  "first": number(PATHS["answer"] - 3), "firstRight": False}
    assert work["predictions"]["shown-a-grad"] == {"answer": number(shown["answer"]), "correct": True, "revealed": True,
                                                   "first": number(shown["answer"]), "firstRight": False}
    total = sum(len(cpython_model("backprop_by_hand").Graph(choice).boxes) for choice in ("loss", "paths"))
    assert work["figures"] == {"backprop_by_hand": {"right": 2, "total": total}}
    jsonschema.validate(work, json.loads((REPO / "site_scripts" / "browser" / "work" / "work-file.schema.json").read_text()))
    file = tmp_path / name
    file.write_text(json.dumps(work), encoding="utf-8")

    page.goto(site_url + "class-overview/")
    field = page.get_by_label("Students' work files")
    expect(field).to_be_enabled()
    field.set_input_files(str(file))
    table = page.get_by_role("table")
    expect(table.locator("tbody tr")).to_have_count(1)
    page.get_by_role("button", name="Show every column").click()
    cells = dict(zip(table.locator("thead th").all_inner_texts(), table.locator("tbody tr").first.locator("th, td").all_inner_texts()))
    assert cells["Predictions right first time"] == "0 of 2 answered right first time; 1 shown the answer"
    assert cells["Figures done by hand"] == "0 of 2"
    lesson = lesson_map(built_site)
    asked = sum(prediction["chapter"] == "backpropagation/" for prediction in lesson["predictions"])
    title = next(chapter["title"] for chapter in lesson["chapters"] if chapter["path"] == "backpropagation/")
    assert cells[title] == f"2 of {asked} predictions answered, 0 right first time; Backpropagate by hand 2 of {total} boxes"


def test_the_name_typed_on_your_work_is_remembered_without_leaving_the_field(page, site_url, clean_run):
    """The review typed a name and reloaded: it was gone (saved only when the field lost the focus)."""
    group = open_your_work(page, site_url)
    group.get_by_label("Your name (it names the file):").fill("Ada <b>L</b>")
    page.reload()
    group = open_your_work(page, site_url)
    expect(group.get_by_label("Your name (it names the file):")).to_have_value("Ada <b>L</b>")  # as text, not markup
    expect(group.locator("b")).to_have_count(0)


def test_an_unnamed_download_asks_for_the_name_first(page, site_url, clean_run, page_errors):
    """Unnamed files all came as backprop-work.json, which a teacher cannot tell apart (issue #38)."""
    group = open_your_work(page, site_url)
    downloads = []
    page.on("download", lambda download: downloads.append(download.suggested_filename))
    group.get_by_role("button", name="Download my work", exact=True).click()
    expect(group.get_by_role("alert")).to_have_text("Type your name first: it names the file, and your teacher's table "
                                                    "shows it. Then press \"Download my work\" again.")
    name_field = group.get_by_label("Your name (it names the file):")
    expect(name_field).to_be_focused()
    name, _ = download_work(page, "Noor")
    assert name == "Noor-backprop-work.json" and downloads == ["Noor-backprop-work.json"], "nothing was saved unnamed"
    expect(group.get_by_role("alert")).to_have_count(0)  # the problem is gone
    assert page_errors == []
