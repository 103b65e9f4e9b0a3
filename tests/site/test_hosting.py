"""test_hosting.py: the lesson hosted like a teacher hosts it: offline, isolated, under a sub-path, zipped.

What it is: Chromium tests of issue #6 against the built site served by site_scripts/server/serve.py with
service workers allowed: offline use after one visit, cross-origin isolation gained by the service
worker on a server that sends no isolation headers from the reader's next full page load (a first
visit is one document, never reloaded: issue #31), no reload where the host sends the headers, a
project sub-path, no request leaving the site's origin, the classroom zip started with its own
command, and a new build replacing the old cache.

What it is not: tests of blocks or figures themselves (test_blocks.py, test_figures.py); here they
only prove that the hosted site still runs Python.
"""
import contextlib
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
import zipfile
from urllib.parse import urlparse
from urllib.request import urlopen
from xml.etree import ElementTree

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from site_scripts.hooks import offline as OFFLINE_HOOK
from site_scripts.hooks.gzip_copies import write_gzip_copies

from helpers import (PYTHON_TIMEOUT_MS, UI_TIMEOUT_MS, block, blocks, free_port, open_lesson, output_text,
                     page_parts, press, run_block, run_then_stop, serve_site, set_code, wait_blocks_mounted)

ISOLATION_HEADERS = {"cross-origin-opener-policy": "same-origin",
                     "cross-origin-embedder-policy": "require-corp"}
# An engine computation whose answer the tests know: d(x*x + x)/dx at x = 3 is 2*3 + 1.
ENGINE_CHECK = "from tinygrad import Value\nx = Value(3.0)\ny = x * x + x\ny.backward()\nprint('slope', x.grad)\n"
ENGINE_CHECK_OUTPUT = "slope 7.0"




@pytest.fixture
def context_options():
    """Service workers allowed: they are what this module tests. A short window keeps the chapters'
    first block and figure out of the runtime's start-when-near margin at load, so Python starts only
    when a test runs it (a first visit must not reload the page even then)."""
    return {"service_workers": "allow", "viewport": {"width": 1280, "height": 400}}


# ---- The built site, read from disk ---------------------------------------------------------

def lesson_pages(site_dir):
    """Site-relative paths of every page in sitemap.xml ("" for the home page)."""
    tree = ElementTree.parse(site_dir / "sitemap.xml")
    locations = [element.text for element in tree.iter() if element.tag.endswith("loc")]
    base = urlparse(locations[0]).path  # the home page comes first
    return [urlparse(location).path[len(base):] for location in locations]


def chapters_with_blocks_and_figures(site_dir):
    parts = {path: page_parts(site_dir / path / "index.html") for path in lesson_pages(site_dir)}
    return [path for path, found in parts.items() if found.blocks and found.figures]


def worker_build(site_dir):
    """The build's version and {path: integrity} list, as the hook wrote them into the worker."""
    text = (site_dir / "service-worker.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"^const BUILD = (\{.*?^\});$", text, re.S | re.M).group(1))


# ---- Driving the page ------------------------------------------------------------------------

def record_document_loads(page):
    """Main-frame document requests of `page` (one per load or reload; instant navigation makes none)."""
    loads = []
    page.on("request", lambda request: request.is_navigation_request()
            and request.frame == page.main_frame and loads.append(request))
    return loads


def wait_isolated(page):
    page.wait_for_function("() => crossOriginIsolated && navigator.serviceWorker.controller !== null",
                           timeout=PYTHON_TIMEOUT_MS)


def open_isolated(page, site_url, path=""):
    """A first visit of `path`, left once the service worker controls it, then the reader's next full
    page load (a reload): the service worker answers that one with the isolation headers."""
    open_lesson(page, site_url, path)
    wait_controlled(page)
    page.reload()
    wait_isolated(page)
    wait_blocks_mounted(page)


def wait_offline_copy(page):
    """Wait until the service worker reports its copy of the whole lesson complete (it makes one once
    Python has run in the page)."""
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'", timeout=PYTHON_TIMEOUT_MS)


def wait_controlled(page):
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_TIMEOUT_MS)


# The page's service worker answers a "build" question in the order asked, and register.mjs's listener
# came before this one: once this answer is heard, the page has heard the answer to its own question too.
HEAR_THE_BUILD = """() => new Promise((resolve) => {
  navigator.serviceWorker.addEventListener("message", function heard({ data }) {
    if (data?.type !== "build") return;
    navigator.serviceWorker.removeEventListener("message", heard);
    resolve(data.version);
  });
  navigator.serviceWorker.controller.postMessage({ type: "build" });
})"""


def wait_past_any_reload_decision(page):
    """Wait (the page being controlled) until every moment has passed at which register.mjs reloads a page:
    the controller's change (synchronous with `controller` being set) and its worker's answer about the
    build it serves; then one more evaluation, so that a reload asked for there has reached Playwright."""
    wait_controlled(page)
    page.evaluate(HEAR_THE_BUILD)
    page.evaluate("() => document.readyState")


def check_figure_computes(page):
    """Operate the page's first figure (its first slider, else its first button) and return once
    Python's answer has changed what it shows. Figures draw their starting state without Python."""
    figure = page.locator("[data-widget]").first
    control = figure.locator("input[type=range]")
    if control.count() == 0:
        control = figure.locator("button:not([aria-disabled=true])")
    control = control.first
    control.scroll_into_view_if_needed()  # Python starts when a figure nears the view
    expect(control).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)  # enabled once Python is ready
    shown_before = figure.inner_html()
    if control.get_attribute("type") == "range":
        control.focus()
        page.keyboard.press("ArrowRight")
    else:
        control.click()
    page.wait_for_function("([element, before]) => element.getAttribute('aria-busy') === 'false'"
                           " && element.innerHTML !== before",
                           arg=[figure.element_handle(), shown_before], timeout=PYTHON_TIMEOUT_MS)
    assert figure.locator(".figure__error").count() == 0, figure.inner_text()


def check_engine_runs(page):
    """Type the engine check into the page's first block, run it and return its output. Reset then
    puts the lesson's code back, so no saved edit reopens the editor by itself on the next visit."""
    first = block(page, 1)
    set_code(first, ENGINE_CHECK)
    output = run_block(first)
    assert first.get_attribute("data-state") == "done", output
    press(first, "Reset")
    return output


def follow_link(page, url):
    """Click a visible link to `url` as a reader would (Material turns it into an instant navigation)."""
    link = page.evaluate_handle(
        "url => [...document.querySelectorAll('a[href]')].find(a => a.href === url && a.checkVisibility())", url)
    assert link.as_element(), f"no visible link to {url}"
    link.as_element().click()
    # The address changes before the content does: wait for the new page's canonical link.
    page.wait_for_function("url => document.querySelector('link[rel=canonical]')?.href === url", arg=url)


def cache_names(page):
    return page.evaluate("() => caches.keys()")


WORKER_STATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const state = (worker) => worker && worker.state;
  return {controller: state(navigator.serviceWorker.controller), installing: state(registration?.installing),
          waiting: state(registration?.waiting), active: state(registration?.active),
          sameAsActive: navigator.serviceWorker.controller === registration?.active,
          caches: await caches.keys(), offline: document.documentElement.dataset.offline ?? null};
}"""


def shows_revision(page):
    """True once the page shows the revised chapter of test_new_build_replaces_the_old_cache."""
    with contextlib.suppress(PlaywrightError):  # between documents while it reloads
        return page.locator("#revised").count() == 1
    return False


def worker_state(page):
    """What a failed update test needs to know: the registration's workers, the page's controller and caches."""
    try:
        return page.evaluate(WORKER_STATE)
    except PlaywrightError as error:
        return f"(not readable: {error})"


# ---- Isolation ---------------------------------------------------------------------------------

def test_service_worker_isolates_the_next_page_load_on_a_host_without_headers(page, site_url, built_site):
    chapter = chapters_with_blocks_and_figures(built_site)[0]
    with urlopen(site_url + chapter) as response:
        assert not any(response.headers.get(name) for name in ISOLATION_HEADERS), "the server must send none"
    loads = record_document_loads(page)

    open_lesson(page, site_url, chapter)
    wait_controlled(page)
    assert not page.evaluate("crossOriginIsolated"), "the first visit's document came without the headers"
    page.reload()  # the reader's next full page load
    wait_isolated(page)
    wait_blocks_mounted(page)

    assert len(loads) == 2, "the first visit's document and the reader's reload, nothing else"
    first, reload = (request.response() for request in loads)
    assert not first.from_service_worker and first.headers.get("cross-origin-embedder-policy") is None
    assert reload.from_service_worker
    assert {name: reload.headers.get(name) for name in ISOLATION_HEADERS} == ISOLATION_HEADERS
    assert page.evaluate("typeof SharedArrayBuffer") == "function"
    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)  # the Python worker starts under COEP


def test_a_revalidation_through_the_service_worker_gets_the_file_not_a_bare_304(page, site_url):
    """WebKit can send a page's request for the Python worker's script again as a revalidation (with
    If-None-Match); the server's 304 must not reach the page (a worker given a 304 fails to load).
    Here the page itself sends such a request, for a module the offline copy does not hold yet."""
    open_isolated(page, site_url, "")
    worker = site_url + "assets/lesson/browser/runtime/worker.mjs"
    with urlopen(worker) as response:
        tag, expected = response.headers["ETag"], response.read().decode()
    seen = page.evaluate("""async ([url, tag]) => {
        const answer = await fetch(url, { headers: { "If-None-Match": tag } });
        return { status: answer.status, text: await answer.text(), coep: answer.headers.get("cross-origin-embedder-policy") };
    }""", [worker, tag])
    assert seen["status"] == 200 and seen["text"] == expected
    assert seen["coep"] == ISOLATION_HEADERS["cross-origin-embedder-policy"]  # answered by the service worker


def document_build(page):
    """The builds the page's document names in its Server-Timing header (service-worker.js writes one),
    or None while the page is between documents."""
    with contextlib.suppress(PlaywrightError):
        return page.evaluate("""() => performance.getEntriesByType("navigation")[0].serverTiming
            .filter((entry) => entry.name === "lesson-build").map((entry) => entry.description)""")
    return None


def test_each_page_the_service_worker_answers_names_its_build(page, site_url, built_site):
    """register.mjs compares this with the build of the worker in control: a page that an older build
    answered, and whose worker changed before its scripts ran, reloads itself into the new one."""
    open_isolated(page, site_url, chapters_with_blocks_and_figures(built_site)[0])
    assert document_build(page) == [worker_build(built_site)["version"]]


def test_a_page_that_an_older_build_answered_reloads_into_the_current_one(page, built_site, tmp_path):
    """A new build's worker can take over before the page's scripts run, so that no controllerchange is
    left to hear. The page then compares the build named in its document's Server-Timing header with
    the build of the worker in control. Here the worker names an older build in the first page it
    answers (the reader's reload after the first visit), as the old worker would have, and in no page
    after that."""
    site = shutil.copytree(built_site, tmp_path / "site")
    worker_file = site / "service-worker.js"
    text = worker_file.read_text(encoding="utf-8")
    named = '`${BUILD_TIMING};desc="${BUILD.version}"`'
    assert text.count(named) == 1 and text.count("const BUILD_TIMING") == 1
    worker_file.write_text(text.replace(named, f'(pagesAnswered++ ? {named} : `${{BUILD_TIMING}};desc="an older build"`)')
                           .replace("const BUILD_TIMING", "let pagesAnswered = 0;\nconst BUILD_TIMING"), encoding="utf-8")
    chapter = chapters_with_blocks_and_figures(site)[0]
    port = free_port()
    with serve_site(site, port) as url:
        loads = record_document_loads(page)
        open_isolated(page, url, chapter)
        current = [worker_build(site)["version"]]
        loaded = []  # loads Playwright delivered meanwhile (it delivers events during its calls, such as the check)
        def count_load(_):
            loaded.append(True)
        page.on("load", count_load)
        while (named := document_build(page)) != current:
            if not loaded:
                page.wait_for_event("load", timeout=UI_TIMEOUT_MS)  # the next document: the page's own reload
            loaded.clear()
        page.remove_listener("load", count_load)
        wait_blocks_mounted(page)
        wait_past_any_reload_decision(page)  # and no reload after that one
    # The first visit, the reader's reload (answered as if by an older build), and the page's own
    # reload that brings the current build.
    assert named == current
    assert len(loads) == 3, [request.url for request in loads]


def test_host_that_sends_isolation_headers_gets_no_reload(page, built_site):
    port = free_port()
    with serve_site(built_site, port, isolation_headers=True) as url:
        loads = record_document_loads(page)
        open_lesson(page, url, chapters_with_blocks_and_figures(built_site)[0])
        assert page.evaluate("crossOriginIsolated")
        wait_controlled(page)
        assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)
        assert len(loads) == 1


# The first block or figure of BELOW_THE_FOLD is more than start-early.js's margin below a 1280 x 720
# window, so no Python starts at load; NEAR_THE_VIEW's is near it, so Python starts at once. The test
# checks both premises.
FIRST_VISIT_WINDOW = {"width": 1280, "height": 720}
BELOW_THE_FOLD, NEAR_THE_VIEW = "loss-and-gradient/", "checking/"
WORKER_CREATED_AT_LOAD = "() => performance.getEntriesByName('lesson-python-worker').length > 0"  # start-early.js's mark


@pytest.mark.parametrize("chapter, python_at_load", [(BELOW_THE_FOLD, False), (NEAR_THE_VIEW, True)])
def test_a_first_visit_on_a_host_without_headers_is_one_document(browser, site_url, chapter, python_at_load):
    """Issue #31: the service worker installs and takes control of the open page, which it never
    reloads: not one the reader only reads (below the fold), not one whose Python started at load."""
    context = browser.new_context(service_workers="allow", viewport=FIRST_VISIT_WINDOW)
    context.set_default_timeout(UI_TIMEOUT_MS)
    try:
        page = context.new_page()
        loads = record_document_loads(page)
        open_lesson(page, site_url, chapter)
        assert page.evaluate(WORKER_CREATED_AT_LOAD) is python_at_load, "the chapter no longer tests its case"
        wait_past_any_reload_decision(page)  # a reload would be asked for as the worker takes control
        assert len(loads) == 1, [request.url for request in loads]
        assert not page.evaluate("crossOriginIsolated")
        assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)  # the reader scrolls to the block and runs it
        wait_past_any_reload_decision(page)
        assert len(loads) == 1, [request.url for request in loads]
    finally:
        context.close()


def test_a_first_visit_keeps_its_document_and_python_across_chapters_until_a_full_load(
        page, site_url, built_site):
    """First visit: the service worker takes control of the untouched page, whose Python has not
    started yet. The page stays (no reload); Python runs there. Moving on to the next chapter keeps the
    same document and interpreter (no reload, no second boot); Stop still works there by restarting
    and replaying; isolation comes with the reader's next full page load."""
    first_chapter, second_chapter = chapters_with_blocks_and_figures(built_site)[:2]
    loads = record_document_loads(page)
    open_lesson(page, site_url, first_chapter)
    wait_past_any_reload_decision(page)  # a reload would be asked for as the worker takes control
    assert page.evaluate("document.documentElement.dataset.pythonInterpreter") is None, "Python started at load"

    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)  # Python works before isolation
    assert len(loads) == 1 and not page.evaluate("crossOriginIsolated")
    interpreter = page.evaluate("document.documentElement.dataset.pythonInterpreter")

    follow_link(page, site_url + second_chapter)
    wait_blocks_mounted(page)
    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)
    assert len(loads) == 1, "moving to the next chapter reloaded the page"
    assert page.evaluate("document.documentElement.dataset.pythonInterpreter") == interpreter, "Python was started again"
    assert not page.evaluate("crossOriginIsolated")
    last = block(page, blocks(page).count())
    run_then_stop(last)
    assert "Python had to be restarted to stop this code" in output_text(last)

    page.reload()  # the reader's next full page load comes from the service worker, isolated
    wait_isolated(page)
    assert len(loads) == 2


# ---- Offline, sub-path, origin -------------------------------------------------------------------

def test_lesson_works_offline_after_one_visit(page, site_url, built_site, outside_requests):
    first_chapter, second_chapter = chapters_with_blocks_and_figures(built_site)[:2]
    open_lesson(page, site_url, first_chapter)
    wait_controlled(page)
    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)  # a visit that ran Python...
    wait_offline_copy(page)  # ...leaves a copy of the whole lesson

    page.context.set_offline(True)
    page.reload()
    wait_blocks_mounted(page)
    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)
    check_figure_computes(page)

    open_lesson(page, site_url, second_chapter)
    assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)
    check_figure_computes(page)
    assert page.evaluate("navigator.onLine") is False
    assert outside_requests == []


def test_project_sub_path_runs_blocks_and_figures(page, subpath_site_url, built_site):
    open_isolated(page, subpath_site_url, chapters_with_blocks_and_figures(built_site)[0])
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == subpath_site_url
    assert [urlparse(subpath_site_url).path in name for name in cache_names(page)] == [True]
    for number in range(1, blocks(page).count() + 1):
        output = run_block(block(page, number))
        assert block(page, number).get_attribute("data-state") == "done", output
    check_figure_computes(page)


def test_every_page_stays_on_the_sites_origin(page, site_url, built_site, outside_requests):
    origin = "{0.scheme}://{0.netloc}".format(urlparse(site_url))
    requests = []
    page.context.on("request", lambda request: requests.append(request))
    loads = record_document_loads(page)
    open_lesson(page, site_url)
    wait_controlled(page)
    # The class overview is linked from the teachers' page only, and hides the navigation: visit the two last.
    paths = [path for path in lesson_pages(built_site) if path not in ("teachers/", "class-overview/")]
    paths += ["teachers/", "class-overview/"]
    for path in paths:
        follow_link(page, site_url + path)  # instant navigation: one Python for the whole visit
        wait_blocks_mounted(page)
        if blocks(page).count():
            run_block(block(page, 1))
        if page.locator("[data-widget]").count():
            check_figure_computes(page)

    assert len(loads) == 1, "one document, then instant navigation only"
    assert requests, "the recorder saw the requests"
    assert any(request.service_worker for request in requests), "and those of the service worker"
    assert any(request.url.endswith(".wasm") for request in requests), "and those of Python's worker"
    assert [request.url for request in requests if not request.url.startswith(origin)] == []
    assert outside_requests == []


# ---- Classroom zip -----------------------------------------------------------------------------------

def test_classroom_zip_starts_with_its_own_command(browser, built_site, tmp_path):
    archive = built_site / OFFLINE_HOOK.DOWNLOADS / OFFLINE_HOOK.CLASSROOM_ZIP
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert f'href="{OFFLINE_HOOK.DOWNLOADS}/{OFFLINE_HOOK.CLASSROOM_ZIP}"' in home, "teachers find the zip on the home page"
    with zipfile.ZipFile(archive) as bundle:
        names = bundle.namelist()
        assert not [name for name in names if "/downloads/" in name], "the zip holds no copy of itself"
        bundle.extractall(tmp_path)
    folder = tmp_path / OFFLINE_HOOK.ZIP_FOLDER
    assert (folder / "serve.py").is_file() and (folder / "index.html").is_file()

    errors = tmp_path / "serve-errors.txt"  # serve.py logs every request: a pipe nobody reads would fill up
    with errors.open("w") as error_file:
        server = subprocess.Popen([sys.executable, "serve.py", "--port", str(free_port())], cwd=folder,
                                  stdout=subprocess.PIPE, stderr=error_file, text=True)
    try:
        announced = server.stdout.readline()
        address = re.search(r"open (http://\S+) on this machine", announced)
        assert address, f"serve.py said {announced!r} {errors.read_text() if server.poll() else ''}"
        context = browser.new_context(service_workers="block")
        context.set_default_timeout(UI_TIMEOUT_MS)
        try:
            classroom = context.new_page()
            path = chapters_with_blocks_and_figures(folder)[0]
            open_lesson(classroom, address.group(1), path)
            assert ENGINE_CHECK_OUTPUT in check_engine_runs(classroom)
            # The site was built for another address; serve.py's sitemap still lets the theme switch
            # chapters without reloading the page (and so without restarting Python).
            classroom.evaluate("window.sameDocument = true")
            first_title = classroom.title()
            classroom.get_by_role("link", name=re.compile(r"^Next")).click()
            classroom.wait_for_function("title => document.title !== title", arg=first_title)
            assert classroom.evaluate("window.sameDocument === true"), "changing chapter reloaded the page"
        finally:
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_classroom_server_says_nothing_when_a_browser_drops_a_download(built_site, tmp_path):
    """Readers reload and move on while files download: serve.py must not print a traceback for that."""
    errors = tmp_path / "serve-errors.txt"
    port = free_port()
    with errors.open("w") as error_file:
        server = subprocess.Popen([sys.executable, str(built_site / "serve.py"), str(built_site), "--host", "127.0.0.1",
                                   "--port", str(port), "--quiet"], stdout=subprocess.PIPE, stderr=error_file, text=True)
    try:
        assert "open http://127.0.0.1" in server.stdout.readline()
        largest = max(OFFLINE_HOOK.precache_list(built_site), key=lambda path: (built_site / path).stat().st_size)
        for _ in range(3):  # ask for the largest file, read a little, and hang up as a reloading browser does
            with socket.create_connection(("127.0.0.1", port)) as connection:
                connection.sendall(f"GET /{largest} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                assert connection.recv(64).startswith(b"HTTP/1.1 200")
                connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # reset, not close
        with urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200, "still serving"
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert errors.read_text() == ""


# ---- A new build -----------------------------------------------------------------------------------

def test_new_build_replaces_the_old_cache(page, built_site, tmp_path):
    site = shutil.copytree(built_site, tmp_path / "site")
    chapter = chapters_with_blocks_and_figures(site)[0]
    old_version = worker_build(site)["version"]
    port = free_port()
    with serve_site(site, port) as url:
        open_lesson(page, url, chapter)
        wait_controlled(page)
        assert [name.endswith(old_version) for name in cache_names(page)] == [True]
        assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)
        wait_offline_copy(page)

        # A new build: the chapter's text changes, the hook rewrites the worker's list and version.
        page_file = site / chapter / "index.html"
        page_file.write_text(page_file.read_text(encoding="utf-8").replace(
            "</h1>", "</h1><p id='revised'>This lesson was revised.</p>", 1), encoding="utf-8")
        OFFLINE_HOOK.on_post_build(config={"site_dir": str(site)})
        new_version = worker_build(site)["version"]
        assert new_version != old_version
        downloads = []
        page.context.on("request", lambda request: request.service_worker and downloads.append(request.url))
        console = []
        page.on("console", lambda message: console.append(message.text))

        page.reload()  # the browser finds the new worker; it copies the old cache, downloads the change, takes over
        # Ask for the update check too (the page's own runs every 10 minutes and when it is shown again),
        # until the untouched page has reloaded itself into the new build. The takeover can come before
        # the page's scripts run (then no controllerchange is left to hear): the page then learns it from
        # the build named in its document's Server-Timing header.
        deadline = time.monotonic() + PYTHON_TIMEOUT_MS / 1000
        while not shows_revision(page):
            if time.monotonic() > deadline:
                pytest.fail(f"the page did not show the new build: {worker_state(page)}; requests by the worker: "
                            f"{downloads}; console: {console}")
            # then wait for the page's next document (its own reload into the new build), or ask again
            with contextlib.suppress(PlaywrightTimeoutError), page.expect_event("load", timeout=UI_TIMEOUT_MS):
                with contextlib.suppress(PlaywrightError):  # the page may be reloading itself for the new build
                    page.evaluate("() => navigator.serviceWorker.getRegistration().then((registration) => registration?.update())")
        names = cache_names(page)
        assert len(names) == 1 and names[0].endswith(new_version), names
        assert url + chapter + "index.html" in downloads, "the changed page was downloaded"
        assert not [address for address in downloads if address.endswith(".wasm")], \
            "unchanged files are copied from the old cache, not downloaded again"

        # The reader's offline copy became the new build, complete, before it took over: no Python
        # has run on the new build yet, and still everything works offline.
        page.context.set_offline(True)
        page.reload()
        assert page.locator("#revised").inner_text() == "This lesson was revised."
        wait_blocks_mounted(page)
        assert ENGINE_CHECK_OUTPUT in check_engine_runs(page)


def test_a_returning_reader_without_the_offline_copy_gets_the_update_and_revalidates_the_rest(browser, built_site, tmp_path):
    """Issue #39: the classroom zip dates every file 1980-01-01, so an update unzipped over the lesson keeps
    the old dates. A reader whose browser keeps its own copies (no service worker) comes back after the
    update: the changed chapter comes new, and an unchanged script costs only the server's 304 (a few
    hundred bytes of headers), not a second download."""
    site = shutil.copytree(built_site, tmp_path / "site")
    chapter = chapters_with_blocks_and_figures(site)[0]
    page_file = site / chapter / "index.html"
    zip_date = time.mktime((1980, 1, 1, 0, 0, 0, 0, 0, -1))
    for path in (page_file, page_file.with_name("index.html.gz")):
        os.utime(path, (zip_date, zip_date))
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    try:
        with serve_site(site, free_port()) as url:
            page = context.new_page()
            open_lesson(page, url, chapter)
            page_file.write_text(page_file.read_text(encoding="utf-8").replace(
                "</h1>", "</h1><p id='revised'>This lesson was revised.</p>", 1), encoding="utf-8")
            write_gzip_copies(site, [f"{chapter}index.html"])
            for path in (page_file, page_file.with_name("index.html.gz")):
                os.utime(path, (zip_date, zip_date))
            page.goto("about:blank")
            open_lesson(page, url, chapter)
            assert page.locator("#revised").inner_text() == "This lesson was revised."
            bundle = page.evaluate("""() => performance.getEntriesByType("resource")
                .filter((entry) => /bundle\\.[0-9a-f]+\\.min\\.js$/.test(entry.name))
                .map((entry) => ({ transfer: entry.transferSize, body: entry.encodedBodySize }))""")
            script = next(site.glob("assets/javascripts/bundle.*.min.js.gz"))  # what a second download would cost
            assert len(bundle) == 1 and 0 < bundle[0]["transfer"] < 1000 < script.stat().st_size, bundle  # a 304's headers
    finally:
        context.close()
