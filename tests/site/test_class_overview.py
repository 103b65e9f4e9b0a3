"""test_class_overview.py: the teacher's "Class overview" reads a class's work files, in Chromium.

What it is: 30 generated work files (tests/site/sample_work_files.py: learners with names such as "=cmd()"
and "Émile") and one bad file chosen at once in the field "Students' work files", reached from the
teachers' page: one row per learner whose every number matches what the files hold (counted again
here, independently of the page), the bad file listed with its reason, sorting by a column, a
learner's code for an exercise shown as text, and "Download as CSV" whose rows hold the same numbers
with formula-looking names defused. Files dropped onto the field are read too. From the moment the
page is ready, nothing is requested at all: the files never leave the browser.
What it is not: "Your work" (test_work.py) or the format (tests/article/test_work_files.py).
"""
import csv
import io
import json

import pytest
from playwright.sync_api import expect

from helpers import wait_for_address
from test_accessibility import serious_violations
from sample_work_files import DROP_FILES, bad_work_files, expected_counts, generated_work, lesson_map, row_text

NAMES = ["=cmd()", "+Zoe", "-1 Sam", "@Lee", "Émile", 'Ada "the first"'] + [f"Learner {n:02d}" for n in range(6, 30)]
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
    headings = table.locator("thead th").all_inner_texts()
    assert headings == ["Learner", "Chapters with something run", "Exercises passed", "Predictions right",
                        "Build-your-own steps passed", "Solutions shown", "Last change",
                        *[chapter["title"] for chapter in lesson["chapters"]]]
    rows = table.evaluate(READ_ROWS)
    works = {work["learner"]: work for _, work in class_files if work}
    assert sorted(row[0] for row in rows) == sorted(NAMES)
    assert [row[0] for row in rows] == sorted(NAMES, key=str.lower), "sorted by name at first"
    for row in rows:
        assert row[1:] == row_text(expected_counts(works[row[0]], lesson), lesson), row[0]
    assert any(row[2] != "0 of 14" for row in rows) and any("turned off" in row[5] for row in rows)

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
    assert header[:13] == ["Learner", "File", "Chapters with something run", "Chapters", "Exercises passed", "Exercises",
                           "Predictions right", "Predictions answered", "Build-your-own steps passed",
                           "Build-your-own steps", "Solutions shown", "Solutions turned off", "Last change"]
    assert header[13:] == [chapter["title"] for chapter in lesson["chapters"]] and len(lines) == 30
    shown = {"'=cmd()": "=cmd()", "'+Zoe": "+Zoe", "'-1 Sam": "-1 Sam", "'@Lee": "@Lee"}
    by_name = {shown.get(line[0], line[0]): line for line in lines}
    assert set(by_name) == set(NAMES), "every formula-looking name starts with an apostrophe, the others are as typed"
    assert not [line[0] for line in lines if line[0][:1] in "=+-@"], "no cell can start a formula"
    for name, line in by_name.items():
        counts = expected_counts(works[name], lesson)
        assert [int(cell) for cell in line[2:11]] == [
            counts["chapters_run"], counts["chapters"], counts["exercises_passed"], counts["exercises"],
            counts["predictions_right"], counts["predictions_answered"], counts["steps_passed"], counts["steps"],
            counts["solutions_shown"]], name
        assert line[11] == ("yes" if counts["solutions_off"] else "no")
        assert line[12:] == row_text(counts, lesson)[5:], name
    assert b'"Ada ""the first"""' in raw

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
