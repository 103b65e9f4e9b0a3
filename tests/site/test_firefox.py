"""test_firefox.py: the lesson in Firefox ESR, driven over WebDriver BiDi by puppeteer-core (issue #19).

What it is: one run of tests/site/firefox/scenarios.mjs per module (one Firefox, launched from
/usr/bin/firefox-esr with no geckodriver and no browser download) goes through the scenarios of
other_browsers.py on the served site (service workers allowed) and on the same site served without
its snapshot and service worker (plain start, not isolated); each test below checks one scenario's
observations. Without Firefox or puppeteer-core the tests skip (fail under CI=true).

What it is not: the whole suite again in Firefox (that would triple its time), nor a driver: the
Node script drives, these tests judge.
"""
import json
import os
import subprocess

import pytest

import other_browsers as expect
from helpers import FIREFOX, REPO, SERVICE_WORKER_PATH, SNAPSHOT_PATH, require_browser, serve_hiding
from test_hosting import lesson_pages

SCRIPT = REPO / "tests" / "site" / "firefox" / "scenarios.mjs"
RUN_TIMEOUT_S = 900


@pytest.fixture(scope="module")
def firefox(built_site, site_url):
    """What Firefox saw in every scenario: {"scenarios": {name: observations}, "problems": {name: [...]}}."""
    require_browser("firefox")
    with serve_hiding(built_site, {SNAPSHOT_PATH, SERVICE_WORKER_PATH}) as plain_url:
        config = {**expect.settings(built_site), "firefox": FIREFOX, "site": site_url, "plain": plain_url,
                  "pages": lesson_pages(built_site)}
        if os.environ.get("FIREFOX_ONLY"):  # e.g. FIREFOX_ONLY=figure,engine while working on one scenario
            config["only"] = os.environ["FIREFOX_ONLY"].split(",")
        finished = subprocess.run(["node", str(SCRIPT), json.dumps(config)], cwd=REPO, capture_output=True,
                                  text=True, timeout=RUN_TIMEOUT_S)
    if finished.returncode != 0:
        pytest.fail(f"scenarios.mjs failed ({finished.returncode}):\n{finished.stderr[-4000:]}")
    print(finished.stderr)  # how long each scenario took; shown with -s, or when a test fails
    seen = json.loads(finished.stdout.strip().splitlines()[-1])
    seen["expected output"] = expect.first_block_output(built_site, config["blockPage"])
    return seen


def scenario(firefox, name):
    return expect.scenario(firefox, name, "FIREFOX_ONLY")


def test_firefox_the_service_worker_takes_control_and_isolates_the_page(firefox):
    expect.check_control(scenario(firefox, "serviceWorkerTakesControl"))


def test_firefox_a_block_runs_from_the_snapshot(firefox):
    expect.check_block_run(scenario(firefox, "snapshotBoot"), firefox["expected output"], "snapshot")


def test_firefox_a_block_runs_from_the_plain_start(firefox):
    expect.check_block_run(scenario(firefox, "plainBoot"), firefox["expected output"], "plain")


def test_firefox_a_figure_answers(firefox):
    expect.check_figure(scenario(firefox, "figure"))


def test_firefox_stop_interrupts_on_an_isolated_page(firefox):
    expect.check_stop(scenario(firefox, "stopIsolated"), can_interrupt=True)


def test_firefox_stop_restarts_and_replays_where_the_page_is_not_isolated(firefox):
    expect.check_stop(scenario(firefox, "stopNotIsolated"), can_interrupt=False)


def test_firefox_a_saved_edit_survives_a_reload(firefox):
    expect.check_saved_edit(scenario(firefox, "savedEdit"))


def test_firefox_an_edited_engine_applies_and_restores(firefox):
    expect.check_engine(scenario(firefox, "engine"))


def test_firefox_python_runs_offline_after_the_footer_says_the_copy_is_saved(firefox):
    expect.check_offline(scenario(firefox, "offline"), firefox["expected output"], firefox["statusTexts"])


def test_firefox_no_page_logs_an_error(firefox, built_site):
    every_page = scenario(firefox, "everyPage")
    assert "error" not in every_page, every_page.get("error")
    assert every_page["pages"] == len(lesson_pages(built_site))
    problems = {name: expect.real_problems(found, plain=name in ("plainBoot", "stopNotIsolated"),
                                           stopped_a_worker=name == "stopNotIsolated")
                for name, found in firefox["problems"].items()}
    assert {name: found for name, found in problems.items() if found} == {}
