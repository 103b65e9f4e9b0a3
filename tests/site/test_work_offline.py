"""test_work_offline.py: handing in work offline, what a first visit downloads, the lesson with JavaScript off.

What it is: Chromium tests of what the teachers' page promises (docs/teachers.md, "Devices, bandwidth
and browsers" and "Handing in work"):
  - after one visit that ran Python, offline, "Your work" downloads the work and loads a file back,
    and the class overview reads work files, with no request leaving 127.0.0.1;
  - a first visit that runs a block fetches every file of Python and the engine (the page's
    [[megabytes python]]), and with the offline copy the device ends up with every file of the copy
    ([[megabytes offline]]);
  - with JavaScript off, a chapter reads in full (prose, formulas, code, the lesson's output) and its
    figures say they need JavaScript; "Your work" says so too.
What it is not: the pages' behaviour online (test_work.py, test_class_overview.py) or the offline copy
itself (test_hosting.py, test_offline_status.py).
"""
import json
import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from helpers import block, open_lesson, run_block
from site_scripts.hooks import offline, teachers_page
from test_hosting import wait_offline_copy
from test_work import choose_work_file, download_work, open_your_work, work_group
from sample_work_files import generated_work, lesson_map


@pytest.fixture
def context_options():
    return {"service_workers": "allow"}


def site_path(url, site_url):
    """The site-relative file a request of the site fetched ("" for the home page, index.html added to folders)."""
    path = urlparse(url).path[len(urlparse(site_url).path):]
    return f"{path}index.html" if path == "" or path.endswith("/") else path


def test_your_work_and_the_class_overview_work_offline(page, site_url, built_site, tmp_path, outside_requests, page_errors):
    open_lesson(page, site_url, "derivatives/")
    assert run_block(block(page, 1)) != ""
    wait_offline_copy(page)
    page.context.set_offline(True)

    open_your_work(page, site_url)
    _, work = download_work(page, "Offline Olga")
    assert work["learner"] == "Offline Olga" and work["pages"]["derivatives/"]["runs"] >= 1
    file = tmp_path / "olga.json"
    file.write_text(json.dumps(work), encoding="utf-8")
    choose_work_file(page, file)
    work_group(page).get_by_role("button", name="Replace my work").click()
    expect(work_group(page).get_by_role("status").filter(has_text="Loaded")).to_be_visible()

    page.goto(site_url + "class-overview/")
    field = page.get_by_label("Students' work files")
    expect(field).to_be_enabled()
    lesson = lesson_map(built_site)
    other = tmp_path / "kim.json"
    other.write_text(json.dumps(generated_work(lesson, "Kim", seed=4)), encoding="utf-8")
    field.set_input_files([str(file), str(other)])
    rows = page.get_by_role("table").locator("tbody tr th")
    expect(rows).to_have_text(["Kim", "Offline Olga"])
    assert page.evaluate("navigator.onLine") is False
    assert outside_requests == [] and page_errors == []


def test_a_first_visit_fetches_what_the_teachers_page_counts(page, site_url, built_site, requests_made):
    files = offline.precache_list(built_site)
    python = {path for path in files if path.startswith(teachers_page.PYTHON_FILES)}
    open_lesson(page, site_url, "derivatives/")
    assert run_block(block(page, 1)) != ""
    fetched = {site_path(url, site_url) for url in requests_made if url.startswith(site_url)}
    assert python <= fetched, f"not fetched on the first run: {sorted(python - fetched)}"

    wait_offline_copy(page)
    fetched = {site_path(url, site_url) for url in requests_made if url.startswith(site_url)}
    assert set(files) <= fetched, f"not in the device's copy: {sorted(set(files) - fetched)[:5]}"
    teachers = (built_site / "teachers" / "index.html").read_text(encoding="utf-8")
    assert f"{teachers_page.megabytes(built_site, 'offline')} MB in all" in teachers


def test_with_javascript_off_a_chapter_reads_in_full(browser, site_url, built_site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site_url + "derivatives/")
    article = page.locator("article")
    expect(article.locator("h1")).to_have_text(re.compile("Derivatives, three ways"))
    assert article.locator(".katex").count() > 10, "the formulas are typeset in the page"
    first = page.locator("div.runnable").first
    expect(first.locator("pre")).to_have_text(re.compile(r"\S"))
    expect(first.get_by_role("group", name="Output of the lesson's code")).to_be_visible()
    assert page.get_by_role("button", name="Run", exact=True).count() == 0, "nothing runs"
    figure = page.locator(".figure").first
    expect(figure).to_contain_text("it needs JavaScript")
    expect(page.locator("header").get_by_role("link", name="Your work")).to_be_visible()

    page.goto(site_url + "your-work/")
    message = page.locator("article noscript p")  # Playwright's text search skips <noscript>: find it by tag
    expect(message).to_be_visible()
    expect(message).to_have_text("This page needs JavaScript: the lesson keeps your work with its scripts.")
    context.close()
