"""test_damaged_downloads.py: a damaged download never sticks, and a page runs only its own build (issue #39).

What it is: Chromium tests against a host (serve.py's handler, in this process) that serves one of Python's
files damaged first (and a 304 to whoever asks about that copy), then the good one: Python still starts,
or says what to do; a damaged snapshot costs one plain start (both also damaged in the form the classroom
server sends a browser that accepts br). And a redeploy under an open page (with or without the service
worker): the page never runs the new build's Python, it offers "Reload", edits kept.
What it is not: the offline copy's checks (test_hosting.py) or the snapshot's own fallbacks (test_snapshot.py).
"""
import contextlib
import shutil

import brotli
import pytest
from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, FaultyHost, block, cut_short, deploy_another_build, editor_text, open_lesson,
                     run_block, set_code)

CHAPTER = "checking/"
BELOW_THE_FOLD = "loss-and-gradient/"  # in a 1280 x 720 window, Python starts only when its first block is used
WASM = "assets/vendor/pyodide/pyodide.asm.wasm"
STDLIB = "assets/vendor/pyodide/python_stdlib.zip"
SNAPSHOT = "assets/snapshot/python-snapshot.bin"
def corrupted(data):
    changed = bytearray(data)
    changed[8:16] = b"\xff" * 8  # the first section's header
    return bytes(changed)


def boot_path(page):
    return page.evaluate("document.documentElement.dataset.pythonBoot")


@contextlib.contextmanager
def page_of_build_a(browser, built_site, tmp_path, service_workers):
    """A copy of the built site (build A) served by a FaultyHost, and a 1280 x 720 page of it opened on
    BELOW_THE_FOLD in a context of its own: (site folder, page)."""
    site = shutil.copytree(built_site, tmp_path / "site")
    context = browser.new_context(service_workers=service_workers, viewport={"width": 1280, "height": 720})
    context.set_default_timeout(30_000)
    try:
        with FaultyHost(site) as host:
            page = context.new_page()
            open_lesson(page, host.url, BELOW_THE_FOLD)
            yield site, page
    finally:
        context.close()


def reload_keeps_the_edit(page, notice):
    """The reader presses the notice's Reload: the page reloads, with block 1's edit kept and runnable."""
    with page.expect_navigation():
        notice.get_by_role("button", name="Reload").click()
    first = block(page, 1)
    assert editor_text(first) == "print('edited by the reader')"
    assert run_block(first) == "edited by the reader\n"


@pytest.mark.parametrize("damage", [cut_short, corrupted])
def test_a_damaged_wasm_is_fetched_again_and_python_starts(page, built_site, damage):
    with FaultyHost(built_site, WASM, damage((built_site / WASM).read_bytes())) as host:
        open_lesson(page, host.url, CHAPTER)
        first = block(page, 1)
        set_code(first, "print(6 * 7)")
        assert run_block(first) == "42\n"
        assert host.good_served == [WASM]  # asked for again, whole
        page.reload()  # the next visit does not find the damaged copy either
        set_code(block(page, 1), "print(6 * 7)")
        assert run_block(block(page, 1)) == "42\n"


def test_a_wasm_damaged_every_time_says_what_to_do_and_a_reload_works_once_the_host_is_fixed(page, built_site):
    with FaultyHost(built_site, WASM, cut_short((built_site / WASM).read_bytes()), times=2) as host:
        open_lesson(page, host.url, CHAPTER)
        first = block(page, 1)
        set_code(first, "print(6 * 7)")
        output = run_block(first)
        assert "pyodide.asm.wasm could not be downloaded intact" in output, output
        assert "reload the page" in output and "tell whoever hosts the lesson" in output, output
        page.reload()  # the host serves the good file from now on
        set_code(block(page, 1), "print(6 * 7)")
        assert run_block(block(page, 1)) == "42\n"


def served_form(built_site, path, form):
    """The bytes a browser gets for `path`: the file, or the variant its Brotli copy holds (the classroom
    server's, to a browser that accepts br: its entries or pages stored; both are the build's, issue #38)."""
    return brotli.decompress((built_site / (path + ".br")).read_bytes()) if form == "variant" else (built_site / path).read_bytes()


@pytest.mark.parametrize("form", ["file", "variant"])
def test_a_standard_library_cut_half_way_is_fetched_again(page, built_site, form):
    with FaultyHost(built_site, STDLIB, cut_short(served_form(built_site, STDLIB, form))) as host:
        open_lesson(page, host.url, CHAPTER)
        first = block(page, 1)
        set_code(first, "import fractions, statistics\nprint(fractions.Fraction(2, 6), statistics.mean([1, 2, 3]))")
        assert run_block(first) == "1/3 2\n"
        assert host.good_served == [STDLIB]


@pytest.mark.parametrize("form", ["file", "variant"])
def test_a_damaged_snapshot_starts_python_plainly_once_and_the_next_visit_from_the_snapshot(page, built_site, form):
    with FaultyHost(built_site, SNAPSHOT, cut_short(served_form(built_site, SNAPSHOT, form))) as host:
        open_lesson(page, host.url, CHAPTER)
        first = block(page, 1)
        set_code(first, "print(6 * 7)")
        assert run_block(first) == "42\n"
        assert boot_path(page) == "plain"
        assert host.good_served == [SNAPSHOT], "the good snapshot was fetched again while Python started plainly"
        page.reload()
        set_code(block(page, 1), "print(6 * 7)")
        assert run_block(block(page, 1)) == "42\n"
        assert boot_path(page) == "snapshot"


def test_a_page_never_runs_a_newer_builds_python_and_offers_a_reload_that_keeps_the_edit(browser, built_site, tmp_path):
    """A redeploy while a page of build A is open, before its Python starts (below the fold): Run must not
    start build B's worker, wheels and engine under page A. The page says a new version is available and
    reloads only when the reader presses Reload; the reader's edit is still there."""
    with page_of_build_a(browser, built_site, tmp_path, service_workers="block") as (site, page):
        assert page.evaluate("document.documentElement.dataset.pythonInterpreter") is None, "Python started at load"
        deploy_another_build(site)

        first = block(page, 1)
        set_code(first, "print('edited by the reader')")
        output = run_block(first)
        assert "A new version of the lesson is available" in output, output
        assert "edited by the reader" not in output
        notice = page.get_by_role("alert").filter(has_text="A new version of the lesson is available")
        expect(notice).to_be_visible()
        reload_keeps_the_edit(page, notice)


def test_a_new_service_worker_taking_over_a_touched_page_never_runs_its_python_there(browser, built_site, tmp_path):
    """The same redeploy with the offline service worker: build B's worker takes over page A, which the
    reader touched (a key press), so it is not reloaded. It offers "Reload"; Run does not start B's
    Python under page A; the reader's Reload brings B, with the edit kept."""
    with page_of_build_a(browser, built_site, tmp_path, service_workers="allow") as (site, page):
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_TIMEOUT_MS)
        page.keyboard.press("Shift")  # the reader touched the page
        deploy_another_build(site)
        page.evaluate("() => navigator.serviceWorker.getRegistration().then((registration) => registration.update())")
        notice = page.get_by_role("alert").filter(has_text="A new version of the lesson is available")
        expect(notice).to_be_visible(timeout=PYTHON_TIMEOUT_MS)

        first = block(page, 1)
        set_code(first, "print('edited by the reader')")
        output = run_block(first)
        assert "A new version of the lesson is available" in output, output
        reload_keeps_the_edit(page, notice)
