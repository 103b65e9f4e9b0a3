"""other_browsers.py: what the Firefox and WebKit tests do and expect, in one place for both engines.

What it is: the scenario settings both engines' drivers use (pages, the code a reader types, the
figure control and readout) and the checks of what a driver saw, so test_firefox.py (puppeteer-core,
a Node script) and test_webkit.py (Selenium) hold the same expectations as the Chromium tests:
  - a block runs from the snapshot and from the plain start (the server then hides the snapshot),
    with the output CPython gives for the same code;
  - a figure's control answers with Python's number;
  - Stop ends an endless loop: on an isolated page that can interrupt it keeps the interpreter,
    elsewhere a fresh Python replays the earlier blocks; either way the definitions are back;
  - a saved edit survives a reload; an edited engine applies and restores;
  - the service worker takes control, the page becomes cross-origin isolated after a reload, the
    footer says the copy is saved, and a reload without network runs Python;
  - no page logs a console error, an uncaught error or a Content-Security-Policy violation.
Codes are one line each (or lines without indentation): a driver types them key by key into
CodeMirror, which indents after a colon.

What it is not: a driver. Nothing here opens a browser.
"""
import pytest

from helpers import cpython_outputs, pages_with_blocks, runnable_sources
from test_figures import figure_page

BLOCK_PAGE_MINIMUM_BLOCKS = 3
FIGURE = {"name": "x_times_x", "button": "Evaluate x × x", "readout": "q = x × x", "shows": "25"}
STOP = {
    "codes": ["from tinygrad import Value; kept = 'restored'", "count = Value(2.0) * 3", "while True: pass"],
    "check": "print(kept, count.data == 2.0 * 3)",
    "endings": ["KeyboardInterrupt", "your definitions are back"],
}
SAVED_EDIT = "print('my own version')"
ENGINE = {
    "page": "edit-engine/",
    "editor": "Engine editor: tinygrad.py, the engine",
    "firstLine": "EDITED_MARK = 42",
    "check": "import tinygrad; print(getattr(tinygrad, 'EDITED_MARK', 'original'))",
}
SAVED_STATUS = "Saved for offline use"
SAVING_STATUS = "Saving the lesson for offline use…"
# Requests the plain site answers 404 on purpose; an engine's note about them is not a page's error.
HIDDEN_ON_PURPOSE = ("python-snapshot.bin", "service-worker.js", "ServiceWorker")
# Firefox reports this over WebDriver BiDi when Stop terminates a worker busy in Python's WebAssembly; the
# page itself sees no error (its error and unhandledrejection listeners record nothing).
WORKER_TERMINATED = "page error: uncaught exception: undefined"
# A function body for the page: Python never started there, or its worker is up (runtime.mjs sets
# data-python-interpreter when a worker starts, data-python-boot once it is up). Both drivers wait for it
# before leaving a page: one left while its worker loads cancels loads its service worker answers, and
# Firefox reports each as a page error ("Failed to load ''. A ServiceWorker intercepted the request and
# encountered an unexpected error."), seen when a scenario went on within ~150 ms of a reload.
PYTHON_SETTLED = ("const data = document.documentElement.dataset; return !(Number(data.pythonInterpreter) > 0)"
                  " || data.pythonBoot !== undefined || data.pythonState === 'error'")


def settings(built_site):
    """The pages and texts both drivers use, as one dict (the Firefox script receives it as JSON)."""
    return {
        "blockPage": pages_with_blocks(built_site, minimum=BLOCK_PAGE_MINIMUM_BLOCKS)[0],
        "figure": {**FIGURE, "page": figure_page(built_site, FIGURE["name"])},
        "stop": STOP,
        "savedEdit": SAVED_EDIT,
        "engine": ENGINE,
        "pythonSettled": PYTHON_SETTLED,
    }


def first_block_output(built_site, block_page):
    """What the block page's first block prints in CPython, run the way the page runs it."""
    (ok, output), = cpython_outputs(runnable_sources(built_site / block_page / "index.html")[:1])
    assert ok, output
    return output


def scenario(results, name, only_variable):
    """What the browser saw in scenario `name`; a skip when the run left it out (`only_variable` set)."""
    if name not in results["scenarios"]:
        pytest.skip(f"scenario {name} was not run ({only_variable})")
    return results["scenarios"][name]


def check_block_run(seen, expected_output, boot):
    assert "error" not in seen, seen.get("error")
    assert seen["boot"] == boot, seen
    assert seen["output"] == expected_output, seen


def check_figure(seen):
    assert "error" not in seen, seen.get("error")
    assert seen["readout"] == FIGURE["shows"], seen


def check_stop(seen, can_interrupt):
    """After Stop: interrupted (same interpreter) where the page can interrupt, else replaced and replayed."""
    assert "error" not in seen, seen.get("error")
    if can_interrupt:
        assert "KeyboardInterrupt" in seen["stopped"], seen["stopped"]
        assert seen["after"]["interpreter"] == seen["before"]["interpreter"], "an interrupt must keep the interpreter"
    else:
        assert "Re-ran blocks 1 and 2" in seen["stopped"], seen["stopped"]
        assert seen["after"]["interpreter"] > seen["before"]["interpreter"], "Stop must replace the interpreter"
        assert seen["earlierRuns"] == ["1", "1"], "a re-run must be silent"
    assert seen["check"] == "restored True\n", seen


def check_saved_edit(seen):
    assert "error" not in seen, seen.get("error")
    assert seen["afterReload"] == SAVED_EDIT, seen


def check_engine(seen):
    assert "error" not in seen, seen.get("error")
    assert seen["applied"].startswith("Applied"), seen["applied"]
    assert (seen["withEdit"], seen["restored"]) == ("42\n", "original\n"), seen


def check_control(seen):
    assert "error" not in seen, seen.get("error")
    assert seen["first"]["controlled"] is True, seen
    assert seen["afterReload"]["controlled"] is True and seen["afterReload"]["isolated"] is True, seen


def check_offline(seen, expected_output, status_texts, browser_offline=True):
    """The footer counted the copy up ("Saving… N%") and said it was saved; then, with no network (the
    browser offline, or the server stopped), a reload ran Python from the offline copy."""
    assert "error" not in seen, seen.get("error")
    assert seen["online"]["status"] == SAVED_STATUS
    progress = [text for text in status_texts if text.startswith(SAVING_STATUS) and text.endswith("%")]
    assert progress and SAVED_STATUS in status_texts[status_texts.index(progress[0]):], status_texts
    assert seen["output"] == expected_output, seen
    assert seen["boot"] == "snapshot" and seen["controlled"] is True, seen
    if browser_offline:
        assert seen["onLine"] is False, seen


def real_problems(problems, plain=False, stopped_a_worker=False):
    """The console errors, uncaught errors and CSP violations seen, less the plain site's deliberate 404s
    and, where Stop replaced Python, the engine's note that it terminated the busy worker."""
    return [problem for problem in problems
            if not (plain and any(hidden in problem for hidden in HIDDEN_ON_PURPOSE))
            and not (stopped_a_worker and problem.startswith(WORKER_TERMINATED))]
