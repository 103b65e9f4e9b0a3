"""test_class_overview.py: the teacher's "Class overview" reads a class's work files, in Chromium.

What it is: 30 generated work files (tests/site/sample_work_files.py: learners with names such as "=cmd()"
and "Émile") and one bad file chosen at once in the field "Students' work files", reached from the
teachers' page: one row per learner whose every number matches what the files hold (counted again
here, independently of the page), the bad file listed with its reason, sorting by a column, a
learner's code for an exercise shown as text, and "Download as CSV" whose rows hold the same numbers
with formula-looking names defused. Files dropped onto the field are read too. From the moment the
page is ready, nothing is requested at all: the files never leave the browser. Crafted files (issue #34):
names with a zero-width space, a Cyrillic А or a right-to-left override read differently, are listed
as look-alikes and cannot turn the detail's heading around; solved flags with no code, 900 prediction
ids the lesson does not have and a file's own exercise titles are not counted or shown; a month 13 is
refused; a file carrying an edited engine is marked.
What it is not: "Your work" (test_work.py) or the format (tests/article/test_work_files.py).
"""
import csv
import importlib
import io
import json
import re

import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, wait_for_address
from test_accessibility import serious_violations
from sample_work_files import DROP_FILES, bad_work_files, expected_counts, generated_work, lesson_map, row_text

NAMES = ["=cmd()", "+Zoe", "-1 Sam", "@Lee", "Émile", 'Ada "the first"'] + [f"Learner {n:02d}" for n in range(6, 30)]
FITS = """() => {
  const box = document.querySelector(".class-overview__table"), table = box.querySelector("table");
  return { page: document.documentElement.scrollWidth, box: [box.scrollWidth, box.clientWidth],
           table: [table.scrollWidth, table.clientWidth] };
}"""
READ_ROWS = """table => [...table.querySelectorAll('tbody tr')].map(row => [...row.cells].map(cell => cell.textContent))"""


@pytest.fixture
def context_options():
    return {"service_workers": "block", "timezone_id": "UTC"}  # the overview shows times in the teacher's zone


@pytest.fixture(scope="module")
def lesson(built_site):
    return lesson_map(built_site)


@pytest.fixture
def class_files(lesson, tmp_path):
    """30 learners' files and one bad one: [(path, work or None)]."""
    files = []
    for seed, name in enumerate(NAMES):
        work = generated_work(lesson, name, seed=seed)
        path = tmp_path / f"learner-{seed:02d}-backprop-work.json"
        path.write_text(json.dumps(work), encoding="utf-8")
        files.append((path, work))
    bad_name, data, _ = bad_work_files(lesson)[4]  # cut off part way
    (tmp_path / bad_name).write_bytes(data)
    files.insert(13, (tmp_path / bad_name, None))
    return files


def open_overview(page, site_url):
    """From the teachers' page, follow its link to the overview; wait until it can read files."""
    page.goto(site_url + "teachers/")
    page.get_by_role("link", name="Class overview", exact=True).click()
    wait_for_address(page, site_url + "class-overview/")
    field = page.get_by_label("Students' work files")
    expect(field).to_be_enabled()
    return field


def test_thirty_files_and_a_bad_one_make_the_class_table_and_its_csv(page, site_url, lesson, class_files,
                                                                   requests_made, outside_requests, page_errors):
    field = open_overview(page, site_url)
    requests_before = len(requests_made)
    field.set_input_files([str(path) for path, _ in class_files])

    status = page.locator(".class-overview > [role=status]")
    expect(status).to_have_text("Added 30 learners: 30 in the table. 1 file could not be read (listed below).")
    problems = page.get_by_role("list", name="Files that could not be read")
    expect(problems).to_have_text("cut-backprop-work.json: The file ends too early: it was cut off while it was saved "
                                  "or copied. Download the work again in the browser that holds it.")
    table = page.get_by_role("table")
    # At first the table fits a 1280-wide projector: one column per chapter (issue #38); the rest on demand.
    expect(table.locator("thead th")).to_have_text(["Learner", *[chapter["title"] for chapter in lesson["chapters"]]])
    widths = page.evaluate(FITS)
    assert widths["page"] <= 1280 and widths["box"][0] <= widths["box"][1] and widths["table"][0] <= widths["table"][1], widths
    assert any(", " in cell and "solved" in cell for row in table.evaluate(READ_ROWS) for cell in row[1:])
    every_column = page.get_by_role("button", name="Show every column")
    every_column.click()
    expect(every_column).to_have_attribute("aria-pressed", "true")
    headings = table.locator("thead th").all_inner_texts()
    assert headings == ["Learner", "Chapters with something run", "Exercises passed (says the file)", "Predictions right first time",
                        "Build-your-own steps passed", "Figures done by hand", "Solutions shown", "Last change",
                        "Edited engine", "Not counted", "Exercises passed (checked)", *[chapter["title"] for chapter in lesson["chapters"]]]
    rows = table.evaluate(READ_ROWS)
    works = {work["learner"]: work for _, work in class_files if work}
    assert sorted(row[0] for row in rows) == sorted(NAMES)
    assert [row[0] for row in rows] == sorted(NAMES, key=str.lower), "sorted by name at first"
    for row in rows:
        assert row[1:] == row_text(expected_counts(works[row[0]], lesson), lesson), row[0]
    assert any(row[2] != "0 of 14" for row in rows) and any("turned off" in row[6] for row in rows)
    assert any("(switched back on 2026-" in row[6] for row in rows), "a file whose solutions were turned off and on again"
    # first tries: some wrong first and right later, some shown, some from files that could not record them
    assert any("not recorded" in row[3] for row in rows) and any("shown the answer" in row[3] for row in rows)
    assert any("1 prediction this lesson does not have" == row[9] for row in rows), "an older lesson's prediction is not counted"
    chapter_cells = [cell for row in rows for cell in row[11:]]
    assert any("right first time" in cell for cell in chapter_cells) and any("by hand" in cell for cell in chapter_cells)

    exercises_heading = table.locator("thead th").nth(2)
    exercises_heading.get_by_role("button").click()
    expect(exercises_heading).to_have_attribute("aria-sort", "ascending")
    passed = [int(row[2].split()[0]) for row in table.evaluate(READ_ROWS)]
    assert passed == sorted(passed)
    exercises_heading.get_by_role("button").click()
    expect(exercises_heading).to_have_attribute("aria-sort", "descending")
    assert [int(row[2].split()[0]) for row in table.evaluate(READ_ROWS)] == sorted(passed, reverse=True)

    learner = next(work for work in works.values() if work["learner"] == "=cmd()")
    tried = next(name for name, result in learner["exercises"].items() if result["code"])
    table.get_by_role("button", name="=cmd()", exact=True).click()
    detail = page.get_by_role("region", name="Work of =cmd()")
    expect(detail.get_by_role("heading")).to_have_text("=cmd(): exercises and code")
    title = learner["exercises"][tried]["title"]
    detail.locator("summary", has_text=title).click()
    code = detail.get_by_label(f"=cmd()'s code for {title}")
    assert code.evaluate("element => element.textContent") == learner["exercises"][tried]["code"]
    untried = next(result["title"] for result in learner["exercises"].values() if not result["attempted"])
    expect(detail.locator("summary", has_text=untried)).to_contain_text("not tried")
    assert serious_violations(page) == []  # the table, the unread file and the learner's work included

    with page.expect_download() as download:
        page.get_by_role("button", name="Download as CSV").click()
    assert download.value.suggested_filename.startswith("class-overview-") and download.value.suggested_filename.endswith(".csv")
    raw = open(download.value.path(), "rb").read()
    assert raw.startswith("\ufeff".encode()) and b"\r\n" in raw
    table_rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    header, lines = table_rows[0], table_rows[1:]
    assert header[:21] == ["Learner", "File", "Chapters with something run", "Chapters", "Exercises passed (says the file)", "Exercises",
                           "Predictions right first time", "Predictions answered", "Predictions whose answer was shown",
                           "Predictions whose first try was not recorded", "Predictions", "Build-your-own steps passed",
                           "Build-your-own steps", "Figures done by hand", "Figures by hand", "Solutions shown",
                           "Solutions", "Last change", "Edited engine", "Not counted",
                           "Exercises passed (checked)"]
    assert header[21:] == [chapter["title"] for chapter in lesson["chapters"]] and len(lines) == 30
    shown = {"'=cmd()": "=cmd()", "'+Zoe": "+Zoe", "'-1 Sam": "-1 Sam", "'@Lee": "@Lee"}
    by_name = {shown.get(line[0], line[0]): line for line in lines}
    assert set(by_name) == set(NAMES), "every formula-looking name starts with an apostrophe, the others are as typed"
    assert not [line[0] for line in lines if line[0][:1] in "=+-@"], "no cell can start a formula"
    for name, line in by_name.items():
        counts = expected_counts(works[name], lesson)
        assert [int(cell) for cell in line[2:16]] == [
            counts["chapters_run"], counts["chapters"], counts["exercises_passed"], counts["exercises"],
            counts["predictions_right_first"], counts["predictions_answered"], counts["predictions_shown"],
            counts["predictions_unknown"], counts["predictions"], counts["steps_passed"], counts["steps"],
            counts["figures_done"], counts["figures"], counts["solutions_shown"]], name
        assert line[16] == ("off" if counts["solutions_off"] else
                            f"switched back on {counts['solutions_back_on'].replace('T', ' ')[:16]}" if counts["solutions_back_on"] else "on")
        expected = row_text(counts, lesson)
        assert line[17:20] + line[21:] == expected[6:9] + expected[10:], name
        assert line[20] == "", "not checked yet"
    assert b'"Ada ""the first"""' in raw

    # A spreadsheet set to a European language splits lines at ";" (issue #38): the same gradebook, offered so.
    page.get_by_label("CSV separator").select_option(";")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as CSV").click()
    semicolons = open(download.value.path(), "rb").read().decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(semicolons, newline=""), delimiter=";")) == table_rows
    assert semicolons.splitlines()[0].count(";") == len(header) - 1

    assert requests_made[requests_before:] == [], "the overview requested something while it read the files"
    assert outside_requests == [] and page_errors == []


def test_files_dropped_on_the_field_are_read(page, site_url, lesson, requests_made, page_errors):
    open_overview(page, site_url)
    requests_before = len(requests_made)
    files = [[f"{name}.json", json.dumps(generated_work(lesson, name, seed=seed))] for seed, name in enumerate(["Kim", "Lou"])]
    files.append(["notes.json", "not a work file"])
    page.evaluate(f"function () {{ {DROP_FILES} }}", files)
    expect(page.locator(".class-overview > [role=status]")).to_have_text(
        "Added 2 learners: 2 in the table. 1 file could not be read (listed below).")
    assert [row[0] for row in page.get_by_role("table").evaluate(READ_ROWS)] == ["Kim", "Lou"]
    expect(page.get_by_role("list", name="Files that could not be read")).to_contain_text("notes.json: This is not a work "
                                                                                         "file: its text is not JSON.")
    assert requests_made[requests_before:] == [] and page_errors == []


# Crafted files (issue #34): what a file says is shown as what it is, and only what the lesson has is counted.
LOOK_ALIKES = {"Ada Lovelace": "Ada Lovelace looks like another name",
               "Ada\u200b Lovelace": "Ada[U+200B] Lovelace looks like another name, with a hidden character U+200B",
               "\u0410da Lovelace": "\u0410da Lovelace looks like another name, with Cyrillic \u0410 (U+0410)",
               "Ada \u202eLovelace": "Ada [U+202E]Lovelace looks like another name, with a hidden character U+202E",
               "Grace Hopper": "Grace Hopper"}
HIDDEN = "[\u200b-\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]"
# The left edges of the first letters of "exercises" in `heading`, as they are drawn.
LETTER_EDGES = """heading => {
  const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.indexOf("exercises");
    if (at < 0) continue;
    const range = document.createRange();
    return [0, 1, 2, 3].map((k) => { range.setStart(node, at + k); range.setEnd(node, at + k + 1); return range.getBoundingClientRect().left; });
  }
}"""


def write_files(tmp_path, works):
    """[(file name, work)] written into tmp_path: their paths."""
    paths = []
    for name, work in works:
        paths.append(tmp_path / name)
        paths[-1].write_text(json.dumps(work), encoding="utf-8")
    return [str(path) for path in paths]


def test_names_that_look_alike_are_told_apart_and_cannot_turn_the_page_around(page, site_url, lesson, tmp_path, page_errors):
    field = open_overview(page, site_url)
    works = [(f"learner-{seed}.json", generated_work(lesson, name, seed=seed)) for seed, name in enumerate(LOOK_ALIKES)]
    field.set_input_files(write_files(tmp_path, works))
    expect(page.locator(".class-overview > [role=status]")).to_have_text(
        "Added 5 learners: 5 in the table. Some names look alike (listed below).")
    table = page.get_by_role("table")
    shown = [row[0] for row in table.evaluate(READ_ROWS)]
    assert sorted(shown) == sorted(LOOK_ALIKES.values()), "each look-alike reads differently, with what sets it apart"
    assert not [name for name in shown if re.search(HIDDEN, name)], "no hidden or bidi control character is on the page"
    alike = page.get_by_role("list", name="Names that look alike")
    expect(alike.get_by_role("listitem")).to_have_count(1)
    expect(alike).to_contain_text("4 rows have names that look alike; check whose work each file is: ")
    for file in ("learner-0.json", "learner-1.json", "learner-2.json (Cyrillic \u0410 (U+0410))", "learner-3.json"):
        expect(alike).to_contain_text(file)
    expect(alike).not_to_contain_text("Grace")

    table.get_by_role("button", name="Ada [U+202E]Lovelace", exact=True).click()
    heading = page.get_by_role("region", name="Work of Ada [U+202E]Lovelace").get_by_role("heading")
    expect(heading).to_have_text("Ada [U+202E]Lovelace: exercises and code")
    edges = heading.evaluate(LETTER_EDGES)
    assert edges == sorted(edges), f"the words after the name are drawn left to right: {edges}"
    assert serious_violations(page) == []  # the list of look-alikes and the marks in the rows included

    with page.expect_download() as download:
        page.get_by_role("button", name="Download as CSV").click()
    names = [line[0] for line in csv.reader(io.StringIO(open(download.value.path(), encoding="utf-8-sig").read()))][1:]
    assert sorted(names) == sorted(["Ada Lovelace", "Ada[U+200B] Lovelace", "\u0410da Lovelace", "Ada [U+202E]Lovelace",
                                    "Grace Hopper"]), "the gradebook writes the hidden characters out too"
    assert page_errors == []


def test_only_what_the_lesson_has_is_counted_under_its_own_titles(page, site_url, lesson, tmp_path, page_errors):
    field = open_overview(page, site_url)
    claims = generated_work(lesson, "Claims Everything", seed=1)  # 14 of 14 solved, with no code at all
    claims["edits"] = {}
    for exercise in lesson["exercises"]:
        claims["exercises"][exercise["name"]] = {"chapter": "", "title": f"<b>The file's title</b> {exercise['name']}",
                                                 "attempted": True, "solved": True, "solutionShown": False, "code": None}
    claims["exercises"]["made_up_exercise"] = dict(claims["exercises"][lesson["exercises"][0]["name"]], code="answer = 1")
    claims["figures"] = {lesson["figures"][0]["name"]: {"right": 1000, "total": 5}, "made_up_figure": {"right": 3, "total": 3}}
    real = lesson["predictions"][0]
    claims["predictions"] = {f"made-up-{n}": {"answer": "1", "correct": True, "revealed": False, "first": "1", "firstRight": True}
                             for n in range(900)}
    claims["predictions"][real["id"]] = {"answer": "2", "correct": True, "revealed": False, "first": "2", "firstRight": True}
    month_13 = dict(generated_work(lesson, "Thirteen", seed=2), saved="2026-13-02T08:00:00.000Z")
    field.set_input_files(write_files(tmp_path, [("claims.json", claims), ("month-13.json", month_13)]))

    expect(page.locator(".class-overview > [role=status]")).to_have_text(
        "Added 1 learner: 1 in the table. 1 file could not be read (listed below).")
    expect(page.get_by_role("list", name="Files that could not be read")).to_have_text(
        "month-13.json: This work file is damaged or was changed by hand: it has the date 2026-13-02 08:00:00, "
        "which does not exist.")
    table = page.get_by_role("table")
    page.get_by_role("button", name="Show every column").click()
    cells = dict(zip(table.locator("thead th").all_inner_texts(), table.locator("tbody tr").first.locator("th, td").all_inner_texts()))
    assert cells["Exercises passed (says the file)"] == f"0 of {len(lesson['exercises'])}"
    assert cells["Build-your-own steps passed"].startswith("0 of ")
    assert cells["Predictions right first time"] == "1 of 1 answered right first time"
    assert cells["Figures done by hand"] == f"0 of {len(lesson['figures'])}", "more boxes right than the figure has is no progress"
    assert cells["Not counted"] == (f"{len(lesson['exercises'])} marked solved with no code; "
                                    "900 predictions, 1 exercise, 1 figure this lesson does not have")
    chapter = next(chapter["title"] for chapter in lesson["chapters"] if chapter["path"] == real["chapter"])
    assert cells[chapter].startswith("1 of ") and "predictions answered, 1 right first time" in cells[chapter]
    figure = lesson["figures"][0]
    assert figure["title"] not in cells[next(c["title"] for c in lesson["chapters"] if c["path"] == figure["chapter"])]

    table.get_by_role("button", name="Claims Everything", exact=True).click()
    detail = page.get_by_role("region", name="Work of Claims Everything")
    titles = {chapter["path"]: chapter["title"] for chapter in lesson["chapters"]}
    expect(detail.locator("summary")).to_have_text(
        [f"{exercise['title']} ({titles[exercise['chapter']]}): marked solved with no code, not counted (says the file)"
         for exercise in lesson["exercises"]])
    expect(detail).not_to_contain_text("The file's title")
    assert page_errors == []


def test_a_file_that_carries_an_edited_engine_is_marked(page, site_url, lesson, built_site, tmp_path, page_errors):
    field = open_overview(page, site_url)
    engine = (built_site / "tinygrad.py").read_text(encoding="utf-8")
    works = {"Edited": engine + "\nimport os  # a line of someone else's\n", "Same": engine, "None": None}
    files = []
    for seed, (name, active) in enumerate(works.items()):
        work = generated_work(lesson, name, seed=seed)
        work["engine"]["active"] = active
        files.append((f"{name}.json", work))
    field.set_input_files(write_files(tmp_path, files))
    table = page.get_by_role("table")
    expect(table.locator("tbody tr")).to_have_count(3)
    page.get_by_role("button", name="Show every column").click()
    headings = table.locator("thead th").all_inner_texts()
    marks = {row[0]: row[headings.index("Edited engine")] for row in table.evaluate(READ_ROWS)}
    assert marks == {"Edited": "yes", "Same": "no", "None": "no"}
    table.get_by_role("button", name="Edited", exact=True).click()
    expect(page.get_by_role("region", name="Work of Edited")).to_contain_text("The file carries an edited engine.")
    assert page_errors == []


def only_cube(work, lesson, code):
    """`work` with one exercise tried, x · x · x by hand, with `code`, and said to be solved."""
    work["edits"] = {}
    for exercise in lesson["exercises"]:
        work["exercises"][exercise["name"]] = {"chapter": exercise["chapter"], "title": exercise["title"], "attempted": False,
                                               "solved": False, "solutionShown": False, "code": None}
    work["exercises"]["cube_by_hand"].update(attempted=True, solved=True, code=code)
    return work


def test_the_exercises_are_checked_again_in_python_each_learner_in_a_fresh_one_and_stop_ends_it(page, site_url, lesson,
                                                                                                 tmp_path, page_errors):
    field = open_overview(page, site_url)
    forged = ("import contextlib\n"  # every check of this Python then passes: its failures are swallowed
              "class Swallow:\n"
              "    def __init__(self, *args): pass\n"
              "    def __enter__(self): return self\n"
              "    def __exit__(self, *args): return True\n"
              "contextlib.redirect_stdout = Swallow\n")
    codes = {"Claims": forged, "Dan": "x = 1\n", "Right": importlib.import_module("tutor.exercises.cube_by_hand").SOLUTION,
             "Ann": "while True:\n    pass\n"}
    field.set_input_files(write_files(tmp_path, [(f"{name}.json", only_cube(generated_work(lesson, name, seed=seed), lesson, code))
                                                 for seed, (name, code) in enumerate(codes.items())]))
    table = page.get_by_role("table")
    expect(table.locator("tbody tr")).to_have_count(4)
    page.get_by_role("button", name="Check the exercises in Python").click()
    status = page.locator(".class-overview > [role=status]")
    cube = next(exercise["title"] for exercise in lesson["exercises"] if exercise["name"] == "cube_by_hand")
    progress = page.get_by_role("progressbar", name="Exercises checked")
    expect(progress).to_have_attribute("value", "3", timeout=PYTHON_TIMEOUT_MS)  # the others, side by side, finish
    # Ann's endless check (first in the table, so among the first two to start) is the one still running: the
    # status names it, not the check that started last and has ended.
    expect(status).to_have_text(re.compile(f"Checking [12] of 4: Ann's code for \u201c{re.escape(cube)}\u201d\u2026"))
    page.get_by_role("button", name="Stop the checks").click()
    expect(status).to_have_text("Stopped after 4 exercises; the others say \u201cnot checked\u201d.", timeout=PYTHON_TIMEOUT_MS)
    expect(progress).to_be_hidden()

    page.get_by_role("button", name="Show every column").click()
    headings = table.locator("thead th").all_inner_texts()
    checked = {row[0]: row[headings.index("Exercises passed (checked)")] for row in table.evaluate(READ_ROWS)}
    total = len(lesson["exercises"])
    assert {name: checked[name] for name in ("Ann", "Dan", "Right")} == {
        "Ann": f"0 of {total}", "Dan": f"0 of {total}", "Right": f"1 of {total}"}, "Claims's forged check stayed in its own Python"
    verdicts = {"Dan": "solved (says the file); not solved: 0 of ", "Right": "solved (says the file); solved (checked)",
                "Ann": "solved (says the file); stopped before its checks ran (checked)"}
    for name, verdict in verdicts.items():
        table.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("region", name=f"Work of {name}").locator("summary", has_text=cube)).to_contain_text(verdict)
    assert serious_violations(page) == []
    assert page_errors == []
