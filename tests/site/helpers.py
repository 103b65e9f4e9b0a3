"""helpers.py: building, serving and driving the lesson site in Chromium, for the browser tests.

What it is: plain functions shared by every test under tests/site (and the benchmark): build the site
into a folder, serve a folder with site_scripts/server/serve.py (SiteServer can stop and start again),
find Chromium, pick lesson pages, and drive runnable blocks, figures and exercise checks the way a
reader does (by role and visible label); and the one `clean_run` fixture. The other fixtures live in
conftest.py (tests/ and tests/site/).

What it is not: assertions (but `clean_run`'s, after a test). Helpers wait for the page to reach a
state and return what it shows; the tests decide what is right. Every wait has a generous timeout
because Python boots in the reader's browser (seconds, more on a busy machine); no helper measures speed.
"""
import contextlib
import html.parser
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from own_thread import in_own_thread

REPO = Path(__file__).resolve().parents[2]

# Quiet, offline-safe Chromium flags (see shared notes): no sandbox as root, no background traffic,
# and every host name except 127.0.0.1 resolves to nothing.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

PYTHON_TIMEOUT_MS = 180_000  # booting Pyodide plus a run, on a loaded 2-core machine
UI_TIMEOUT_MS = 30_000
SUB_PATH = "/some-repo/"  # a project sub-path, as GitHub Pages serves a project site
PYTHON_BLOCK = re.compile(r"^Python")


# ---- Build and serve ------------------------------------------------------------------------

def chromium_path():
    """The Chromium executable: $CHROMIUM, else the headless shell (what ./dev.sh test installs: a page costs
    about a tenth less than in the whole browser), else the first Chromium installed, else a clear error."""
    candidates = [os.environ.get("CHROMIUM"), "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", shutil.which("chromium"),
                  shutil.which("chromium-browser"), shutil.which("google-chrome")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            return candidate
    raise RuntimeError("No Chromium found: run ./dev.sh test (installs it) or set CHROMIUM=/path/to/chromium")


def free_port():
    """A TCP port on 127.0.0.1 that nothing uses right now, picked at random below 32768, where Linux starts the
    ports of outgoing connections: a port chosen now and bound later (a build's, a paused server's) cannot
    meanwhile become the local end of a connection that a browser or the other test process opens. (From
    10100: browsers refuse 10080.)"""
    while True:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", random.randrange(10_100, 32_768)))
            except OSError:
                continue
            return probe.getsockname()[1]


class SiteBuild:
    """`mkdocs build --strict` of the site into `destination` for the address `site_url`, running in the
    background from the moment it is made (a build keeps one core busy: two run side by side on two cores
    in the time of one). `folder()` waits for it and returns the folder; `cancel()` ends it if unfinished."""

    def __init__(self, destination, site_url):
        environment = {**os.environ, "SITE_URL": site_url, "NO_MKDOCS_2_WARNING": "1"}
        self.destination = Path(destination)
        self.output = tempfile.TemporaryFile("w+")  # a file, not a pipe: nobody reads it until the end
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(destination)],
            cwd=REPO, env=environment, stdout=self.output, stderr=subprocess.STDOUT, text=True)

    def folder(self):
        if self.process.wait() != 0:
            raise RuntimeError(f"mkdocs build failed:\n{written(self.output)}")
        return self.destination

    def cancel(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.output.close()


EARLY = pytest.StashKey()  # config.stash: ({fixture: (port, SiteBuild)}, their folder), started at collection


def early_build(config, fixture):
    """(port, SiteBuild) of `fixture`'s build, started at collection by tests/conftest.py, or None (a test
    that reaches the fixture only through request.getfixturevalue is not seen then: the fixture builds)."""
    return config.stash.get(EARLY, ({}, None))[0].get(fixture)


def build_site(destination, site_url):
    """Build the site with `mkdocs build --strict` into `destination` for the address `site_url`."""
    return SiteBuild(destination, site_url).folder()


class SiteServer:
    """site_scripts/server/serve.py serving `directory` on 127.0.0.1:`port` under `base`, as a process that
    can be stopped and started again on the same port (a test that needs the server gone stops it)."""

    def __init__(self, directory, port, base="/", isolation_headers=False):
        self.command = [sys.executable, str(REPO / "site_scripts" / "server" / "serve.py"), str(directory),
                        "--host", "127.0.0.1", "--port", str(port), "--base", base, "--quiet"]
        if isolation_headers:
            self.command.append("--isolation-headers")
        self.url = f"http://127.0.0.1:{port}{base}"
        self.process = self.errors = None

    def start(self):
        """Start serving; return the URL once it answers."""
        # A file, not a pipe: a pipe nobody reads fills up and then stops the server in the middle of a test.
        self.errors = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=self.errors, text=True)
        try:
            wait_until_serving(self.url, self.process, self.errors)
        except BaseException:
            self.stop()
            raise
        return self.url

    def stop(self):
        """Stop serving (nothing answers at the URL any more); does nothing when stopped already."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.errors.close()
            self.process = self.errors = None

    @contextlib.contextmanager
    def paused(self):
        """Leave the port free inside the `with` (stopped if it was serving, started again after)."""
        serving = self.process is not None
        self.stop()
        try:
            yield
        finally:
            if serving:
                self.start()


@contextlib.contextmanager
def serve_site(directory, port, base="/", isolation_headers=False):
    """Serve `directory` with site_scripts/server/serve.py on 127.0.0.1:`port` under `base`; yields the URL."""
    server = SiteServer(directory, port, base, isolation_headers)
    try:
        yield server.start()
    finally:
        server.stop()


def written(file):
    """Everything written so far to `file`, a file a subprocess writes to."""
    file.flush()
    file.seek(0)
    return file.read()


def wait_until_serving(url, server, errors, timeout_s=30):
    """Return once `url` answers; raise with the server's error output (the file `errors`) if it died or never did."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"serve.py exited early: {written(errors)}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise RuntimeError(f"serve.py did not answer at {url} within {timeout_s} s: {written(errors)}")


def is_outside(url):
    """True for a request that would leave this machine's 127.0.0.1 (data: and blob: stay local)."""
    parsed = urlparse(url)
    if parsed.scheme in ("data", "blob", "about", "chrome-extension", "chrome"):
        return False
    return parsed.hostname != "127.0.0.1"


# ---- The built site's runnable blocks, and what CPython makes of them ----------------------

class PageParts(html.parser.HTMLParser):
    """The runnable blocks and the figures of a built page: the attributes of every `div.runnable`
    (its original source in data-source, its exercise in data-exercise), in page order, as the browser
    numbers them, and of every element with data-widget. The tests' one reading of a built page's blocks."""

    def __init__(self):
        super().__init__()
        self.blocks, self.figures = [], []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "div" and "runnable" in (attributes.get("class") or "").split():
            self.blocks.append(attributes)
        if "data-widget" in attributes:
            self.figures.append(attributes)


def page_parts(html_file):
    """The PageParts (`.blocks`, `.figures`) of the built page `html_file`."""
    parser = PageParts()
    parser.feed(Path(html_file).read_text(encoding="utf-8"))
    return parser


def runnable_sources(html_file):
    """The sources of the runnable blocks of a built page, in page order."""
    return [attributes.get("data-source", "") for attributes in page_parts(html_file).blocks]


def pages_with_blocks(site_directory, minimum=1):
    """Paths (relative to the site's base URL, like "engine/") of built lesson pages with >= `minimum`
    blocks. "Build your own engine" is left out: its blocks are exercises on a `chained` page (a block
    runs again before a later one whenever it has not succeeded), so it has tests of its own."""
    site_directory = Path(site_directory)
    found = []
    for html_file in sorted(site_directory.rglob("index.html")):
        if "data-build-own" in html_file.read_text(encoding="utf-8"):
            continue
        if len(runnable_sources(html_file)) >= minimum:
            relative = html_file.parent.relative_to(site_directory).as_posix()
            found.append("" if relative == "." else f"{relative}/")
    return found


def lesson_with_blocks(site_directory, minimum):
    """The first lesson page (as pages_with_blocks orders them) with at least `minimum` runnable blocks."""
    candidates = pages_with_blocks(site_directory, minimum)
    assert candidates, f"the built site has no page with {minimum} runnable blocks"
    return candidates[0]


def cpython_outputs(sources):
    """Run `sources` in order in one namespace with the same runner the browser uses, here in
    CPython, as the build does for the lesson's outputs (site_scripts/hooks/block_outputs.py); return
    [(ok, output_text), ...], one per block (the text a block's output log shows: the figures show()
    sends are drawn apart from it)."""
    from site_scripts.hooks.block_outputs import page_outputs
    blocks = [(f"<block {number}>", source) for number, source in enumerate(sources, start=1)]
    outputs = in_own_thread(page_outputs, blocks)
    return [(output["ok"], "".join(text for stream, text in output["pieces"] if stream != "graph"))
            for output in outputs]


# ---- Pages ---------------------------------------------------------------------------------

def open_lesson(page, site_url, path=""):
    """Go to `path` (relative to the site's base URL) and wait until its runnable blocks are mounted."""
    page.goto(site_url + path.lstrip("/"))
    wait_blocks_mounted(page)


def wait_for_address(page, url, timeout=UI_TIMEOUT_MS):
    """Wait until the page's address is `url` (absolute), whatever #fragment follows it: Material's
    navigation.tracking writes the heading in view into the address whenever the page scrolls (a test's
    scroll_into_view_if_needed is enough)."""
    page.wait_for_url(lambda address: urlparse(address)._replace(fragment="").geturl() == url, timeout=timeout)


def wait_blocks_mounted(page):
    """Wait until the scripts turned every static runnable block of the page into a live one, and filled
    the page "Your work" or "Class overview" (loaded on its own, after the blocks)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('div.runnable')].every(b => b.dataset.mounted === 'true')"
        " && [...document.querySelectorAll('[data-your-work], [data-class-overview]')].every(e => e.hasChildNodes())",
        timeout=UI_TIMEOUT_MS)


def wait_python_ready(page, timeout=PYTHON_TIMEOUT_MS):
    """Wait until the page's Python runtime has booted and installed the wheels."""
    page.wait_for_function("() => document.documentElement.dataset.pythonState === 'ready'"
                           " || document.documentElement.dataset.pythonState === 'running'",
                           timeout=timeout)


def python_state(page):
    """The runtime's state as the page shows it: idle, starting, ready, running or error."""
    return page.evaluate("() => document.documentElement.dataset.pythonState || 'idle'")


# ---- Runnable blocks -------------------------------------------------------------------------

def blocks(page):
    """All runnable blocks of the page, as one locator (role group, name starting with "Python")."""
    return page.get_by_role("group", name=PYTHON_BLOCK)


def block(page, number):
    """The `number`-th runnable block of the page, counting from 1 as its label "Python block N" does."""
    return blocks(page).nth(number - 1)


def block_titled(page, title):
    """The runnable block whose fence said title="...", by its accessible name "Python: <title>"."""
    return page.get_by_role("group", name=f"Python: {title}", exact=True)


def run_count(block_locator):
    """How many runs of this block have finished (the block counts them in data-runs)."""
    return int(block_locator.get_attribute("data-runs") or 0)


def open_boxes_around(locator):
    """Open the closed boxes ("Go deeper: ...", a <details>) that hold `locator`, as a reader clicks them open."""
    locator.evaluate("element => { for (let box = element.closest('details'); box; box = box.parentElement.closest('details')) "
                     "if (!box.open) box.querySelector(':scope > summary').click(); }")


def open_boxes(page):
    """Open every closed <details> of the article ("Go deeper" boxes, folded outputs, answers) as a reader
    clicks them, a box before what it holds; with JavaScript off too."""
    for summary in page.locator("article details > summary").all():
        if summary.is_visible() and summary.locator("xpath=..").get_attribute("open") is None:
            summary.click()


def run_block(block_locator, timeout=PYTHON_TIMEOUT_MS):
    """Open the boxes around the block, press its Run button, wait for that run to finish and return the output text."""
    before = run_count(block_locator)
    open_boxes_around(block_locator)
    block_locator.get_by_role("button", name="Run", exact=True).click()
    wait_run_finished(block_locator, before, timeout)
    return output_text(block_locator)


NOT_BUSY = "element.getAttribute('aria-busy') !== 'true'"  # neither queued, running nor restoring


def wait_for_block(block_locator, condition, value=None, timeout=PYTHON_TIMEOUT_MS):
    """Wait until `condition`, a JavaScript expression over `element` (the block) and `value`, holds."""
    block_locator.page.wait_for_function(
        f"([element, value]) => {condition}", arg=[block_locator.element_handle(), value], timeout=timeout)


def wait_run_finished(block_locator, runs_before, timeout=PYTHON_TIMEOUT_MS):
    """Wait until the block has finished more runs than `runs_before` and is not busy."""
    wait_for_block(block_locator, f"Number(element.dataset.runs || 0) > value && {NOT_BUSY}", runs_before, timeout)


def wait_running(block_locator, timeout=PYTHON_TIMEOUT_MS):
    """Wait until the block's code is actually executing in Python (not just queued or booting)."""
    wait_for_block(block_locator, "element.dataset.state === 'running'", timeout=timeout)


def press(block_locator, name):
    """Press one of the block's buttons by its exact visible name ("Run", "Reset", "Stop")."""
    block_locator.get_by_role("button", name=name, exact=True).click()


def output_text(block_locator):
    """The text of the block's output log, as a reader sees it."""
    return block_locator.get_by_role("log", include_hidden=True).text_content() or ""


def open_editor(block_locator):
    """Click the code so the CodeMirror editor mounts; return the editable content's locator."""
    content = block_locator.locator(".cm-content")
    if content.count() == 0:
        # A block that has run opens its editor by itself, replacing the code under a click in progress:
        # click whichever of the two is there when the click lands (the code is the block's focusable <pre>).
        content.or_(block_locator.locator("pre[tabindex='0']")).first.click()
    content.wait_for(timeout=UI_TIMEOUT_MS)
    return content


def set_code(block_locator, code):
    """Replace the block's code by typing into its editor, as a reader would."""
    content = open_editor(block_locator)
    content.click()
    page = block_locator.page
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def editor_text(block_locator):
    """The block's current code, read from the editor's state (or the static code before it mounts)."""
    return block_locator.evaluate("element => element.runnableCode ? element.runnableCode() : ''")


def wait_output_contains(block_locator, text, timeout=PYTHON_TIMEOUT_MS):
    """Wait until the block's output log shows `text` (e.g. a note that arrives after the run ended)."""
    wait_for_block(block_locator, "(element.querySelector('[role=log]')?.textContent || '').includes(value)",
                   text, timeout)


def wait_not_busy(block_locator, timeout=PYTHON_TIMEOUT_MS):
    """Wait until the block is neither queued, running nor restoring earlier definitions."""
    wait_for_block(block_locator, NOT_BUSY, timeout=timeout)


def python_interpreter(page):
    """A number that changes every time the page's Python is replaced by a fresh interpreter."""
    return int(page.evaluate("() => document.documentElement.dataset.pythonInterpreter || 0"))


def run_then_stop(block_locator, code="while True:\n    pass"):
    """Run code that does not end by itself, press Stop once it runs, and wait for that run to end."""
    set_code(block_locator, code)
    runs_before = int(block_locator.get_attribute("data-runs"))
    press(block_locator, "Run")
    wait_running(block_locator)
    press(block_locator, "Stop")
    wait_run_finished(block_locator, runs_before)


@pytest.fixture
def clean_run(outside_requests, page_errors):
    """After the test: nothing left 127.0.0.1 and the page raised no uncaught error (a fixture; conftest.py
    offers it to every test of tests/site)."""
    yield
    assert outside_requests == []
    assert page_errors == []


# ---- Exercises and refused storage ------------------------------------------------------------

CHECK_RESULT = re.compile(r"checks pass|did not finish|could not run")  # how every exercise check's results end
# An init script: the browser refuses the page's localStorage, as with storage turned off.
REFUSED_STORAGE = ("Object.defineProperty(window, 'localStorage', "
                   "{ get() { throw new DOMException('denied', 'SecurityError'); } });")


def press_check(panel):
    """Press the exercise panel's Check and wait until the results replace "Running your code…"; return their text."""
    from playwright.sync_api import expect
    panel.get_by_role("button", name="Check", exact=True).click()
    results = panel.get_by_role("status")
    expect(results).to_contain_text(CHECK_RESULT, timeout=PYTHON_TIMEOUT_MS)
    return results.text_content()


# ---- Figures (and the graphs show() draws, which are figures too) -----------------------------

def settled(figure):
    """Wait until the figure has no request to Python pending; return it."""
    from playwright.sync_api import expect
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    return figure


def box_gradient(figure, symbol):
    """The gradient written in the graph box of the value `symbol` ("–" before it is reached), once settled."""
    text = settled(figure).locator(f'[data-node="{symbol}"] [data-field="grad"]').text_content()
    return text.removeprefix("grad ").strip()


# ---- Other browsers: Firefox ESR (puppeteer-core over WebDriver BiDi) and WebKitGTK (Selenium) ----

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
OTHER_BROWSER_FILES = {  # what each engine needs, and the Debian package that installs it
    "firefox": [(FIREFOX, "firefox-esr"), (REPO / "node_modules" / "puppeteer-core", "npm puppeteer-core")],
    "webkit": [(WEBKIT_DRIVER, "webkit2gtk-driver"), (MINIBROWSER, "webkit2gtk-driver"), ("/usr/bin/Xvfb", "xvfb")],
}
SNAPSHOT_PATH = "assets/snapshot/python-snapshot.bin"
SERVICE_WORKER_PATH = "service-worker.js"


def require_browser(name):
    """Skip (by hand) or fail (under CI=true) when engine `name`'s files are missing, saying what to install."""
    missing = sorted({package for path, package in OTHER_BROWSER_FILES[name] if not Path(path).exists()})
    if missing:
        message = f"{name} is not installed: run ./dev.sh test (installs {', '.join(missing)})"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@contextlib.contextmanager
def serve_hiding(directory, hidden):
    """Serve `directory` on a free port of 127.0.0.1, answering 404 for the site paths in `hidden` (as if the
    build had not written them); yields the base URL. Used to force Python's plain start (no snapshot)."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".mjs": "text/javascript", ".wasm": "application/wasm"}

        def do_GET(self):
            if self.path.split("?")[0].lstrip("/") in hidden:
                self.send_error(404)
            else:
                super().do_GET()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()



# ---- A host that serves a file damaged first -----------------------------------------------------

STUCK = '"damaged"'  # the damaged copy's validator, which FaultyHost never changes


def cut_short(data):
    return data[:len(data) // 2]


class FaultyHost:
    """A context manager: serve.py's handler in this process, on a free port (`url`), serving `site` except
    `damaged` bytes for the site path `path` the first `times` times it is asked for; a request that names the
    damaged copy's validator gets a 304 (a host that keeps calling it current); the site paths in `hidden`
    answer 404. `good_served`: site paths served whole and good, in order."""

    def __init__(self, site, path=None, damaged=b"", times=1, hidden=()):
        import functools
        import io
        import threading

        from site_scripts.server.serve import LessonHandler, LessonServer
        self.site, self.path, self.damaged, self.left = site, path, damaged, times
        self.good_served = []
        host = self

        class Handler(LessonHandler):
            def send_head(self):
                path = self.path.split("?")[0].removeprefix("/")
                if path in hidden:
                    self.send_error(404)
                    return None
                if path != host.path:
                    return super().send_head()
                if STUCK in self.headers.get("If-None-Match", ""):
                    self.send_response(304)
                    self.send_header("ETag", STUCK)
                    self.end_headers()
                    return None
                if host.left > 0:
                    host.left -= 1
                    self.send_response(200)
                    self.send_header("Content-Type", self.guess_type(path))
                    self.send_header("Content-Length", str(len(host.damaged)))
                    self.send_header("ETag", STUCK)
                    self.end_headers()
                    return io.BytesIO(host.damaged)
                host.good_served.append(path)
                return super().send_head()

            def log_message(self, *args):
                pass

        self.server = LessonServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def damaged_host(site):
    """A FaultyHost of `site` whose first answer for Pyodide's wasm is cut short (the scenarios' "damaged" site)."""
    wasm = "assets/vendor/pyodide/pyodide.asm.wasm"
    return FaultyHost(site, wasm, cut_short((Path(site) / wasm).read_bytes()))


def deploy_another_build(site):
    """Build B over the built site `site` (a copy): one of Python's files changes, and the build's hooks write
    the new build's lists and pages, as a redeploy does."""
    from site_scripts.hooks import offline, python_build
    contract = Path(site) / "assets/lesson/browser/runtime/contract.mjs"
    contract.write_text(contract.read_text(encoding="utf-8") + "// build B\n", encoding="utf-8")
    for hook in (python_build, offline):
        hook.on_post_build(config={"site_dir": str(site)})


@contextlib.contextmanager
def redeploying_host(site, service_worker):
    """A FaultyHost of a copy of `site`, with or without its service worker, whose `redeploy()` deploys
    build B (the scenarios' "redeploy" and "redeployServiceWorker" sites)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = shutil.copytree(site, Path(folder) / "site")
        with FaultyHost(copy, hidden=() if service_worker else {SERVICE_WORKER_PATH}) as host:
            host.service_worker = service_worker
            host.redeploy = lambda: deploy_another_build(copy)
            yield host
