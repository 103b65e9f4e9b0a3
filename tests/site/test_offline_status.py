"""test_offline_status.py: the reader sees where the offline copy stands, and what it lacks (issue #19).

What it is: Chromium tests with service workers allowed:
  - before any Python ran, the footer says the lesson is not saved for offline use yet;
  - the copy waits while Python runs, and starts once Python has been left alone a moment;
  - once a block ran, it counts the copy up ("Saving the lesson for offline use… N%") and then says
    "Saved for offline use", and a later page load says so at once;
  - a copy that fails says so last: downloads still running never overwrite the failure (issue #39);
  - site data cleared while a page is open: once the reader opens the next chapter (instant navigation)
    or comes back to the tab, the footer no longer says "Saved for offline use" (issue #39);
  - offline, a show() graph whose module is not saved yet says so in plain words (no failed fetch);
  - the offline copy's list holds every ES module a page or show() may load (the lesson's browser
    scripts and every figure view, shown-graph.mjs included).

What it is not: the offline copy's own behaviour (cache-first, new builds, isolation: test_hosting.py).
"""
import json
import re

import pytest
from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REPO, block, open_lesson, output_text, run_block, set_code, wait_output_contains,
                     wait_run_finished)

NOT_SAVED = "Not saved for offline use yet"
SAVING = re.compile(r"^Saving the lesson for offline use… \d{1,3}%$")
SAVED = "Saved for offline use"
# Every text the status line shows, in order (kept across reloads in sessionStorage).
RECORD_STATUS = """
new MutationObserver(() => {
  const text = document.querySelector(".lesson-offline-status")?.textContent;
  const seen = JSON.parse(sessionStorage.getItem("status-seen") || "[]");
  if (text && seen.at(-1) !== text) sessionStorage.setItem("status-seen", JSON.stringify([...seen, text]));
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture
def context_options():
    return {"service_workers": "allow"}


def status_line(page):
    return page.locator("footer").get_by_role("status")


def statuses_seen(page):
    return page.evaluate("() => JSON.parse(sessionStorage.getItem('status-seen') || '[]')")


def test_the_footer_counts_the_offline_copy_up_and_says_when_it_is_saved(page, site_url, page_errors):
    page.add_init_script(RECORD_STATUS)
    open_lesson(page, site_url, "")  # the home page: no Python starts, so nothing is saved yet
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_TIMEOUT_MS)
    expect(status_line(page)).to_contain_text(NOT_SAVED)

    open_lesson(page, site_url, "checking/")
    first = block(page, 1)
    set_code(first, "print('hello')")

    assert run_block(first) == "hello\n"
    expect(status_line(page)).to_have_text(SAVED, timeout=PYTHON_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.dataset.offline") == "ready"
    seen = statuses_seen(page)
    counted = [text for text in seen if SAVING.match(text)]
    assert counted, seen
    percents = [int(text.rsplit(" ", 1)[1].rstrip("%")) for text in counted]
    assert percents == sorted(percents) and all(0 <= percent <= 100 for percent in percents), seen
    assert seen.index(SAVED) > seen.index(counted[-1])

    page.reload()  # a later visit: said at once, with no Python started
    expect(status_line(page)).to_have_text(SAVED)
    assert page_errors == []


def test_the_copy_waits_while_python_runs_and_starts_once_it_is_left_alone(page, site_url):
    """The copy competes with what the reader does next: it starts only once Python has been idle a moment."""
    page.add_init_script(RECORD_STATUS)
    held = []  # Python cannot be ready before Run is pressed, however slowly the code is typed
    page.context.route("**/pyodide.asm.wasm", lambda route: route.continue_() if held else held.append(route))
    with page.context.expect_event("request", lambda request: request.url.endswith("pyodide.asm.wasm"), timeout=PYTHON_TIMEOUT_MS):
        open_lesson(page, site_url, "checking/")
        first = block(page, 1)
        set_code(first, "import time\nfor second in range(2):\n    time.sleep(2)\nprint('slept')")
        first.get_by_role("button", name="Run", exact=True).click()
    held[0].continue_()
    wait_run_finished(first, 0)
    assert output_text(first) == "slept\n"  # Python ran for 4 s from its start (longer than the quiet moment)
    assert statuses_seen(page) == [f"{NOT_SAVED}: it is saved once a block or a figure has run."]
    assert run_block(first) == "slept\n"  # the same again right after: still no copy while Python is busy
    assert not [text for text in statuses_seen(page) if SAVING.match(text) or text == SAVED]
    expect(status_line(page)).to_have_text(SAVED, timeout=PYTHON_TIMEOUT_MS)  # then, left alone, it is saved


STOPPED = re.compile(r"^Saving for offline use stopped \(precaching \S*/pyodide\.mjs failed: ")  # the integrity check refuses it
IN_CACHE = """async (ending) => {
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) if (new URL(request.url).pathname.endsWith(ending)) return true;
  }
  return false;
}"""
ASK_WORKER = """() => new Promise((resolve) => {
  navigator.serviceWorker.addEventListener("message", ({ data }) => data?.type === "build" && resolve(), { once: true });
  navigator.serviceWorker.controller.postMessage({ type: "build" });
})"""


def test_a_copy_that_fails_is_the_last_word_in_the_footer(page, site_url):
    """One file fails while another is still downloading: when that one arrives, no percentage follows the failure."""
    held = []  # the teachers' page, among the copy's largest files but Pyodide's, is held; Pyodide's files come after
    page.context.route("**/teachers/index.html", lambda route: held.append(route))  # it, and the copy's pyodide.mjs fails
    asked = []  # the page's own start gets pyodide.mjs; the copy's request for it fails
    page.context.route("**/pyodide/pyodide.mjs", lambda route: route.continue_() if len(asked) < 2 else route.fulfill(status=500, body="x"))
    page.context.on("request", lambda request: request.url.endswith("/pyodide/pyodide.mjs") and asked.append(request))
    page.add_init_script(RECORD_STATUS)
    open_lesson(page, site_url, "checking/")
    first = block(page, 1)
    set_code(first, "print('hello')")
    with page.context.expect_event("request", lambda request: request.url.endswith("/pyodide/pyodide.mjs") and len(asked) == 2,
                                   timeout=PYTHON_TIMEOUT_MS):
        assert run_block(first) == "hello\n"
    held[0].continue_()
    page.wait_for_function(IN_CACHE, arg="teachers/index.html", timeout=PYTHON_TIMEOUT_MS)
    expect(status_line(page)).to_have_text(STOPPED, timeout=PYTHON_TIMEOUT_MS)
    page.evaluate(ASK_WORKER)  # the worker's messages come in order: everything it said before this is here
    seen = statuses_seen(page)
    assert STOPPED.match(seen[-1]), seen
    expect(status_line(page)).to_have_text(STOPPED)


# What clearing the site's data does to an open page: the offline copy's caches and the service worker go.
CLEAR_SITE_DATA = """async () => {
  for (const name of await caches.keys()) await caches.delete(name);
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
}"""


# How the reader comes back to the lesson after clearing its data elsewhere (the browser's settings).
COMING_BACK = {
    "next chapter": lambda page: page.locator("footer").get_by_role("link", name=re.compile(r"^Next")).click(),
    # Headless Chromium never hides a tab: the event the browser sends when the tab is shown again.
    "back to the tab": lambda page: page.evaluate("document.dispatchEvent(new Event('visibilitychange'))"),
}


@pytest.mark.parametrize("coming_back", COMING_BACK)
def test_site_data_cleared_while_a_page_is_open_is_not_called_saved(page, site_url, coming_back):
    open_lesson(page, site_url, "checking/")
    first = block(page, 1)
    set_code(first, "print('hello')")
    assert run_block(first) == "hello\n"
    expect(status_line(page)).to_have_text(SAVED, timeout=PYTHON_TIMEOUT_MS)

    page.evaluate(CLEAR_SITE_DATA)
    COMING_BACK[coming_back](page)
    expect(status_line(page)).to_contain_text(NOT_SAVED)


def test_offline_a_graph_module_not_saved_yet_gets_a_plain_message(page, site_url, page_errors):
    page.context.route("**/service-worker.js", lambda route: route.abort())  # no offline copy at all
    open_lesson(page, site_url, "checking/")
    first = block(page, 1)
    set_code(first, "from tinygrad import Value\nx = Value(2.0)\ny = x * x\nprint('built')")
    assert run_block(first) == "built\n"
    second = block(page, 2)
    set_code(second, "show(y)")

    page.context.set_offline(True)
    second.get_by_role("button", name="Run", exact=True).click()
    wait_output_contains(second, "Graph of")
    message = second.locator(".runnable__figures")
    expect(message).to_contain_text("is not saved for offline use yet", timeout=PYTHON_TIMEOUT_MS)
    assert "Failed to fetch" not in message.inner_text()
    assert page_errors == []


def test_the_offline_copy_lists_every_module_a_page_or_show_may_load(built_site):
    text = (built_site / "service-worker.js").read_text(encoding="utf-8")
    build = json.loads(re.search(r"^const BUILD = (\{.*?^\});$", text, re.S | re.M).group(1))
    bundled = {"editor/editor.mjs": "assets/vendor/codemirror/editor.mjs",  # bundled with CodeMirror
               "d3/contours.mjs": "assets/vendor/d3/contours.mjs",       # bundled with d3-contour
               "dagre/graph-layout.mjs": "assets/vendor/dagre/graph-layout.mjs"}  # bundled with dagre
    sources = [path.relative_to(REPO / "site_scripts" / "browser").as_posix()
               for path in (REPO / "site_scripts" / "browser").rglob("*.mjs")]
    modules = [bundled.get(source, f"assets/lesson/browser/{source}") for source in sources]
    modules += [f"assets/lesson/tutor/figures/{path.name}" for path in (REPO / "site_scripts" / "tutor" / "figures").glob("*.mjs")]
    assert "assets/lesson/browser/figures/shown-graph.mjs" in modules
    assert sorted(set(modules) - set(build["files"])) == []
    assert all(build["bytes"][path] == (built_site / path).stat().st_size for path in modules)
