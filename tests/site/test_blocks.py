"""test_blocks.py: runnable blocks in Chromium: run, edit, reset, predecessors, errors, stop, locality.

What it is: the reader's view of a runnable block, checked against the built site served on
127.0.0.1; a page's whole run and Stop also under a sub-path (/some-repo/), like a GitHub Pages project site
(what is fetched, and fetched again for a new Python, depends on where the site is).
Expected outputs are not written down here: a real block must print what the same runner (tutor.runtime)
prints in CPython for the same code, and edited blocks compute values the test derives itself.

What it is not: a check of the article's prose or numbers (tests/article) nor of speed.
"""
import re
import time

import pytest

from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, block, blocks, cpython_outputs, editor_text, free_port, open_editor, open_lesson,
                     output_text, pages_with_blocks, press, python_interpreter, run_block, run_then_stop,
                     runnable_sources, serve_site, set_code, wait_for_address, wait_run_finished, wait_running)

LOCATIONS = ["site_url", "subpath_site_url"]
RUNTIME_FILES = ("runner.py", "_pyodide", "pyodide.asm", "tutor/")
OPENS_ON_A_BLOCK = "checking/"    # its first block is in view on arrival
FAR_FROM_PYTHON = "derivatives/"  # its first block or figure is over 1,000 px down


@pytest.fixture(params=LOCATIONS, ids=["root", "sub-path"])
def base_url(request):
    """The served site's base URL, at the root and under a sub-path."""
    return request.getfixturevalue(request.param)


def assert_local_and_quiet(requests_made, outside_requests, page_errors):
    """Python booted from this site (the worker's requests were seen), nothing left 127.0.0.1,
    and the page raised no uncaught error."""
    assert any(url.endswith("pyodide.asm.wasm") for url in requests_made), \
        "the worker's requests were not recorded, so locality would be checked on nothing"
    assert outside_requests == []
    assert page_errors == []


def test_clicking_the_last_block_runs_the_page_as_cpython_does(
        page, base_url, built_site, lesson_path, requests_made, outside_requests, page_errors):
    sources = runnable_sources(built_site / lesson_path / "index.html")
    expected = cpython_outputs(sources)
    open_lesson(page, base_url, lesson_path)
    assert blocks(page).count() == len(sources)

    run_block(block(page, len(sources)))

    for number, (ok, text) in enumerate(expected, start=1):
        shown = output_text(block(page, number))
        if ok:
            assert shown == text, f"block {number}"
        else:  # tracebacks differ in paths and carets between CPython versions; the error must not
            assert shown.splitlines()[-1] == text.splitlines()[-1], f"block {number}"
        assert block(page, number).get_attribute("data-runs") == "1", f"block {number} ran once"
    assert_local_and_quiet(requests_made, outside_requests, page_errors)


def test_edited_code_runs_and_reset_restores_the_original(
        page, site_url, lesson_path, requests_made, outside_requests, page_errors):
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    original = editor_text(first)
    edited = "total = sum(range(1, 10))\nprint('edited', total)"
    set_code(first, edited)
    assert editor_text(first) == edited

    assert run_block(first) == f"edited {sum(range(1, 10))}\n"

    press(first, "Reset")
    assert editor_text(first) == original
    assert output_text(first) == ""
    assert_local_and_quiet(requests_made, outside_requests, page_errors)


@pytest.mark.parametrize("keys", ["Control+Enter", "Shift+Enter"])
def test_keyboard_shortcut_runs_the_block(page, site_url, lesson_path, keys, page_errors):
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    set_code(first, "print(2 ** 10)")
    runs_before = int(first.get_attribute("data-runs"))

    page.keyboard.press(keys)
    wait_run_finished(first, runs_before)

    assert output_text(first) == "1024\n"
    assert editor_text(first) == "print(2 ** 10)", "the shortcut must not insert a line break"
    assert page_errors == []


def test_a_keyboard_reader_who_tabs_past_the_code_keeps_focus_while_the_editor_loads(
        page, site_url, lesson_path, page_errors):
    held = []  # the editor bundle arrives only after the reader has tabbed on
    page.route("**/assets/vendor/codemirror/editor.mjs", lambda route: held.append(route))
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    with page.expect_request("**/assets/vendor/codemirror/editor.mjs"):
        first.locator("pre").first.focus()      # Tab reaches the code: the editor starts loading
    run = first.get_by_role("button", name="Run")
    for _ in range(4):                           # ... and the reader tabs on to the Run button
        page.keyboard.press("Tab")
        if run.evaluate("button => button === document.activeElement"):
            break
    expect(run).to_be_focused()
    expect(first.locator(".cm-content")).to_have_count(0)  # still the code view: the editor is on its way
    assert held, "focusing the code did not load the editor"
    held[0].continue_()
    expect(first.locator(".cm-content")).to_be_visible()   # the editor has replaced the code view
    expect(run).to_be_focused()
    assert page_errors == []


def test_a_runs_result_is_painted_before_the_block_becomes_an_editor(page, site_url, lesson_path, page_errors):
    """A block that has run turns into an editor, whose start parses the code: only after the frame that shows
    the result (the first result after a chapter switch would otherwise wait for it)."""
    open_lesson(page, site_url, lesson_path)
    open_editor(block(page, 2))  # the editor's code is loaded, as on any page after the reader's first run
    first = block(page, 1)
    first.evaluate("""(block) => {
      window.seenOrder = [];
      new MutationObserver(() => {
        if (!seenOrder.includes("result") && block.dataset.runs === "1") {
          seenOrder.push("result");
          requestAnimationFrame(() => seenOrder.push("frame"));
        }
        if (!seenOrder.includes("editor") && block.querySelector(".cm-content")) seenOrder.push("editor");
      }).observe(block, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-runs"] });
    }""")
    run_block(first)
    page.wait_for_function("() => window.seenOrder.includes('editor')")  # a function: the page's CSP forbids eval
    assert page.evaluate("window.seenOrder") == ["result", "frame", "editor"]
    assert page_errors == []


def test_a_later_block_first_runs_earlier_ones_once(
        page, site_url, lesson_path, requests_made, outside_requests, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "shared = [20]\nprint('first block ran')")
    set_code(second, "shared.append(22)\nprint(sum(shared))")

    assert run_block(second) == "42\n"
    assert output_text(first) == "first block ran\n"

    assert run_block(second) == "64\n", "the second run reuses the namespace without rerunning block 1"
    assert first.get_attribute("data-runs") == "1"
    assert_local_and_quiet(requests_made, outside_requests, page_errors)


def test_an_exception_shows_a_traceback_of_the_readers_code_and_the_next_run_works(
        page, site_url, lesson_path, requests_made, outside_requests, page_errors):
    open_lesson(page, site_url, lesson_path)
    first = block(page, 1)
    set_code(first, "def ratio(a, b):\n    return a / b\n\nratio(1, 0)")

    shown = run_block(first)

    assert shown.startswith("Traceback (most recent call last):")
    assert "in ratio" in shown and shown.rstrip().endswith("ZeroDivisionError: division by zero")
    assert not [name for name in RUNTIME_FILES if name in shown], shown
    assert first.get_attribute("data-state") == "error"

    set_code(first, "print(ratio(6, 3))")
    assert run_block(first) == "2.0\n"
    assert_local_and_quiet(requests_made, outside_requests, page_errors)


def test_stop_ends_an_endless_loop_and_the_block_runs_again(
        page, base_url, lesson_path, requests_made, outside_requests, page_errors):
    open_lesson(page, base_url, lesson_path)
    first = block(page, 1)
    run_then_stop(first)

    assert first.get_attribute("data-state") == "stopped"
    assert "Stopped" in output_text(first)
    set_code(first, "print('running again')")
    assert run_block(first) == "running again\n"
    assert_local_and_quiet(requests_made, outside_requests, page_errors)


def test_stop_also_cancels_a_run_waiting_behind_the_stopped_one(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "while True:\n    pass")
    set_code(second, "print('second block ran')")
    first_runs, second_runs = int(first.get_attribute("data-runs")), int(second.get_attribute("data-runs"))
    press(first, "Run")
    wait_running(first)
    press(second, "Run")
    assert second.get_attribute("data-state") == "queued"

    press(first, "Stop")
    wait_run_finished(first, first_runs)
    wait_run_finished(second, second_runs)

    assert second.get_attribute("data-state") == "stopped"
    assert "second block ran" not in output_text(second)
    set_code(first, "print('first block ran')")
    assert run_block(second) == "second block ran\n"
    assert output_text(first) == "first block ran\n"
    assert page_errors == []


def test_stop_interrupts_and_keeps_definitions_on_an_isolated_page(page, built_site, lesson_path, page_errors):
    with serve_site(built_site, free_port(), isolation_headers=True) as isolated_url:
        open_lesson(page, isolated_url, lesson_path)
        assert page.evaluate("() => crossOriginIsolated")
        first = block(page, 1)
        run_then_stop(first, "kept = 'still here'\nwhile True:\n    pass")

        assert "KeyboardInterrupt" in output_text(first)
        set_code(first, "print(kept)")
        assert run_block(first) == "still here\n"
        assert page_errors == []


def test_blocks_survive_instant_navigation_without_a_new_page_load(page, site_url, built_site):
    paths = pages_with_blocks(built_site)
    assert len(paths) >= 2, "needs two pages with runnable blocks"
    open_lesson(page, site_url, paths[0])
    set_code(block(page, 1), "print('first page')")
    assert run_block(block(page, 1)) == "first page\n"
    page.evaluate("() => { window.loadedOnce = true; document.querySelectorAll('div.runnable').forEach((b) => { b.dataset.left = ''; }); }")

    page.locator(f'a[href$="{paths[1]}"]').first.click()
    wait_for_address(page, site_url + paths[1])
    # The address may change before the content does: wait for the new page's blocks, not the old ones'.
    page.wait_for_function("() => !document.querySelector('div.runnable[data-left]')"
                           " && document.querySelectorAll('div.runnable[data-mounted]').length > 0")

    assert page.evaluate("() => window.loadedOnce === true"), "the click reloaded the page"
    set_code(block(page, 1), "print('second page')")
    assert run_block(block(page, 1)) == "second page\n"
    for number in range(1, blocks(page).count() + 1):
        assert block(page, number).get_by_role("button", name="Run", exact=True).count() == 1


WORKERS_CREATED = "() => performance.getEntriesByName('lesson-python-worker').length"  # start-early.js's mark


def wait_for_wasm_request(page, requests_made):
    """Wait (serving the page's routes meanwhile) until Pyodide's wasm has been asked for."""
    deadline = time.monotonic() + PYTHON_TIMEOUT_MS / 1000
    while not any(url.endswith("/pyodide.asm.wasm") for url in requests_made):
        assert time.monotonic() < deadline, "Pyodide's wasm was never asked for"
        page.wait_for_timeout(50)


def test_start_early_creates_the_worker_before_the_lessons_modules_arrive(page, site_url, requests_made):
    """On a full load of a page that opens on a block, start-early.js creates Python's worker itself: Python's
    download begins even while runtime.mjs, which every module of the lesson imports, has not arrived."""
    held = []
    page.route("**/assets/lesson/browser/runtime/runtime.mjs", lambda route: held.append(route))  # answered at the end
    page.goto(site_url + OPENS_ON_A_BLOCK, wait_until="commit")
    wait_for_wasm_request(page, requests_made)
    assert held, "runtime.mjs was never asked for"
    assert python_interpreter(page) == 0  # no runtime on the page yet
    assert page.evaluate(WORKERS_CREATED) == 1
    for route in held:
        route.continue_()
    assert run_block(block(page, 1)).startswith("loss  =")  # the runtime adopted that worker
    assert python_interpreter(page) == 1 and page.evaluate(WORKERS_CREATED) == 1


def test_a_start_that_fails_before_the_runtime_arrives_is_reported(page, site_url):
    """The worker start-early.js created keeps what it says until runtime.mjs adopts it: when Python's
    download fails while the lesson's modules are still on their way, the block says why once they
    arrive (and the start fails at once rather than waiting forever inside Pyodide)."""
    held, console = [], []
    page.on("console", lambda message: console.append(message.text))  # the worker's console too
    page.route("**/assets/lesson/browser/runtime/runtime.mjs", lambda route: held.append(route))
    page.context.route("**/pyodide.asm.wasm", lambda route: route.fulfill(status=404, body="Not found"))
    page.goto(site_url + OPENS_ON_A_BLOCK, wait_until="commit")
    deadline = time.monotonic() + PYTHON_TIMEOUT_MS / 1000
    while not any(text.startswith("Python could not start") for text in console):  # said to nobody yet
        assert time.monotonic() < deadline, f"the worker never gave up: {console}"
        page.wait_for_timeout(50)
    assert held and python_interpreter(page) == 0
    for route in held:
        route.continue_()
    status = block(page, 1).locator(".runnable__status")
    expect(status).to_contain_text(re.compile(r"Python could not start: \S+/pyodide\.asm\.wasm answered 404"),
                                   timeout=PYTHON_TIMEOUT_MS)


def test_python_starts_with_the_page_when_it_opens_on_a_block(page, site_url):
    """start-early.js, placed after the content, starts Python on a full load of a page whose first
    block is near the view, even if main.mjs (which mounts the blocks) never arrives; on a page whose
    blocks and figures are all far below a short window, it leaves Python unstarted."""
    page.route("**/assets/lesson/browser/main.mjs", lambda route: route.abort())
    page.set_viewport_size({"width": 1280, "height": 400})
    page.goto(site_url + FAR_FROM_PYTHON, wait_until="load")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    first_python_element = page.evaluate(
        "() => document.querySelector('div.runnable, [data-widget]').getBoundingClientRect().top")
    assert first_python_element > 400 * (1 + 0.75) + 200, "the page no longer opens far from Python"
    assert python_interpreter(page) == 0  # runtime.start() was never called
    assert page.evaluate(WORKERS_CREATED) == 0  # nor did start-early.js create a worker itself
    assert page.locator("div.runnable[data-mounted]").count() == 0  # main.mjs really did not run

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site_url + OPENS_ON_A_BLOCK, wait_until="commit")
    page.wait_for_function("() => document.documentElement?.dataset.pythonState === 'ready'", timeout=PYTHON_TIMEOUT_MS)
