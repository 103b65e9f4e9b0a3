"""test_firefox.py: the lesson in Firefox ESR, driven over WebDriver BiDi by puppeteer-core (issue #19).

What it is: one Firefox per module (/usr/bin/firefox-esr, no geckodriver, no browser download; a
FirefoxReader of readers.py) goes through the scenarios of scenarios.py, one test per scenario, on the
served site (service workers allowed; the browser itself goes offline for the offline scenario) and on the
same site served without its snapshot and service worker (plain start, not isolated). Without Firefox or
puppeteer-core the tests skip (fail under CI=true). `-k figure` runs one scenario (and those it needs).
In Chromium and without a browser, tests of the readers' filters of what Firefox reports mid-parse and on leaving a page.

What it is not: the whole suite again in Firefox (that would triple its time), nor the scenarios or their
expectations (scenarios.py holds them for every browser).
"""
import pytest

import scenarios
from helpers import SERVICE_WORKER_PATH, SNAPSHOT_PATH, damaged_host, redeploying_host, require_browser, serve_hiding
from readers import TAKE_RECORDED, Reader, firefox_reader


@pytest.fixture(scope="module")
def firefox(built_site, site_url):
    """The scenarios' run in one Firefox: the site as served to every test, and the site without its snapshot."""
    require_browser("firefox")
    with (serve_hiding(built_site, {SNAPSHOT_PATH, SERVICE_WORKER_PATH}) as plain_url, damaged_host(built_site) as damaged,
          redeploying_host(built_site, False) as redeploy, redeploying_host(built_site, True) as redeploy_sw,
          firefox_reader() as reader):
        urls = {"site": site_url, "plain": plain_url, "damaged": damaged.url,
                "redeploy": redeploy, "redeployServiceWorker": redeploy_sw}
        yield scenarios.ScenarioRun(reader, urls, built_site)


@pytest.mark.parametrize("name", scenarios.names_for("firefox"))
def test_firefox(firefox, name):
    firefox.judge(name)


def test_a_mathml_children_count_counts_only_while_the_finished_page_still_has_it(page):
    """Firefox's mid-parse report on an element whose children had not all arrived is dropped once the page has
    them all; a report on an element the finished page still miscounts is kept (readers.Reader.still_true)."""
    class PageReader(Reader):
        def evaluate(self, body, *args):
            return page.evaluate(f"(args) => (function () {{ {body} }}).apply(null, args)", list(args))

    page.set_content("<math><mfrac><mn>1</mn><mn>2</mn></mfrac><msub><mi>x</mi></msub></math>")
    reported = [f"page error: Invalid markup: Incorrect number of children for <{name}/> tag." for name in ("mfrac", "msub")]
    assert PageReader().still_true(reported + ["console error: other"]) == reported[1:] + ["console error: other"]


def test_a_load_cancelled_while_the_page_changes_is_not_a_problem_but_at_any_other_time_is():
    """A cancelled load Firefox reports while the reader goes to another page is dropped; the same report while
    the page stays, and any other report while it changes, are kept (readers.Reader.loaded)."""
    cancelled = "page error: Failed to load \u2018\u2019. A ServiceWorker intercepted the request and encountered an unexpected error."

    class ScriptedReader(Reader):  # no browser: each logged() call returns the next list of reports
        def __init__(self, reports):
            super().__init__()
            self.reports = reports

        def goto(self, url):
            pass

        def evaluate(self, body, *args):
            return [[], []] if body == TAKE_RECORDED else True

        def logged(self):
            return self.reports.pop(0)

    reader = ScriptedReader([["console: before"], [cancelled, "console: while changing"], [cancelled]])
    reader.open("next page")  # leaving takes the first reports; the new page, once loaded, the second
    reader.collect()
    assert reader.problems[reader.scenario] == ["console: before", "console: while changing", cancelled]
