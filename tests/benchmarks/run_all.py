"""run_all.py: the benchmark behind `./dev.sh bench`: builds the site, drives Chromium, prints one table.

What it is: every speed target of issue #8 measured side by side in one run on this machine:
  - cold visit (new browser profile) and warm visit (second visit, same profile): time from
    navigation to the first Python result of a runnable block, against a bare page that only calls
    `loadPyodide` and one `runPython` from the very Pyodide files the site ships (bare/, copied
    next to the built site as bench-bare/), and the lesson's runtime alone on an otherwise empty
    page (bare/runtime.html: what the start-up itself costs, apart from the lesson page). The site as shipped (Python starts from the build's
    memory snapshot) is what issue #8's and issue #10's targets judge; the site with the server
    answering 404 for the snapshot (Python starts the plain way, the fallback) is reported beside
    it; plus the bytes each way's cold visit transferred, and where the lesson page's extra time goes:
    how long after navigation the page creates Python's worker, how long the worker then takes until
    Python is ready, and the first run from there, each beside the runtime alone; and the processor
    time all of the browser's processes used until the first result (lesson page, runtime alone,
    bare page), which divided by the machine's cores is the floor under any wall-clock target;
  - cold and warm visits from a host like GitHub Pages (issue #31: no isolation headers, gzip,
    Cache-Control: max-age=600, the service worker allowed), of the site and the bare page, and how
    many documents a first visit loads there (one: the page is never reloaded for isolation);
  - the same cold and warm visits of the site and the bare page through a throttled link (a Link in
    the server: 40 Mbit/s shared, 40 ms a request), where the downloads rather than the processor
    decide, from the classroom server (the build's gzip copies) and from the gzipping one (there also
    without the snapshot);
  - in one reader session: chapter switches through Material's instant navigation (link click to
    the next chapter's first block result; one interpreter, a namespace per chapter), a figure's
    slider -> Python -> SVG update round trip, and "Run 100 steps" of the line fit;
  - the figures of issue #17: the loss landscape's "Start w" slider and the cost figure's
    "Parameters" slider (slider -> Python -> SVG), and "Train 100 steps" on the XOR surface
    (17 parameters, 24 x 24 outputs) -> SVG;
  - bytes a first visit transfers (service worker allowed), counted at the server, which runs in
    this process with serve.py's handler: a chapter read without running anything, and a chapter
    whose block runs; plus any file sent twice;
  - the class overview's "Check the exercises in Python" (issue #38): 30 honest work files (every exercise
    solved with the lesson's solution) loaded into the overview, the button pressed, until it says it checked
    them all (Python's start in a fresh page included);
  - the engine's XOR benchmark against micrograd, and Pyodide/CPython (tests/benchmarks/xor.py).
Times are measured inside the page with performance.now() (ms since navigation), medians of a few
repeats. A row is a dict; each measure_* function returns its rows, so a later issue adds rows by
adding a function to MEASUREMENTS (or rows to one of them).

What it is not: a test. Nothing here fails on speed; test_bench_smoke.py only checks that every row
is produced. `--quick` uses one repeat and skips the slow engine run inside Pyodide; run(smoke=True),
the smoke test's, also makes one browser profile on disk and contexts of one browser for the others,
sends the link's rows unthrottled, checks one work file instead of 30 and trains XOR for a few steps
only (every row measured, none of them worth reading).

Run: `./dev.sh bench` or `.venv/bin/python tests/benchmarks/run_all.py [--quick] [--repeats N]
[--only visits pages link reader_session transfer recheck engine]`.
"""
import argparse
import contextlib
import email.utils
import functools
import gzip
import io
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import expect, sync_playwright

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS.parent))  # tests/: own_thread.py, which helpers imports
sys.path.insert(0, str(BENCHMARKS.parent / "site"))
sys.path.insert(0, str(BENCHMARKS))
sys.path.insert(0, str(BENCHMARKS.parents[1]))
sys.path[:0] = [str(BENCHMARKS.parents[1] / "site_scripts"), str(BENCHMARKS.parents[1] / "engine")]  # tutor.exercises' solutions

import xor  # noqa: E402  (after the path is set)
from helpers import CHROMIUM_ARGS, PYTHON_TIMEOUT_MS, build_site, chromium_path, free_port, wait_for_address  # noqa: E402
from sample_work_files import honest_work, lesson_map  # noqa: E402
from site_scripts.server.serve import LessonHandler, LessonServer  # noqa: E402

BARE_FOLDER = "bench-bare/"
RUNTIME_ALONE = "runtime.html"     # in BARE_FOLDER: the lesson's runtime on an otherwise empty page
BLOCK_CHAPTER = "checking/"        # its first block is in view on arrival: the cold/warm "first result"
NEXT_CHAPTER = "engine/"           # reached from BLOCK_CHAPTER by a click in the navigation
FIGURE_CHAPTER = "derivatives/"    # holds the "Secant and tangent" figure
FIGURE, SLIDER = "secant_tangent", "Position x"
LINE_FIT_CHAPTER = "training/"
VIEW_ONLY_SETTLE_MS = 4000         # how long a view-only visit stays open, so late requests count too
PYTHON_FILES = ("/assets/vendor/pyodide/", "/assets/wheels/", "/assets/snapshot/")  # URL paths (site at /)
SNAPSHOT_FILE = "/assets/snapshot/python-snapshot.bin"
SNAPSHOT_GROWTH_BUDGET = 4_000_000  # issue #10: a cold visit may grow by at most 4 MB for the snapshot
LINK_RATE, LINK_LATENCY = 5_000_000, 0.040  # measure_link: 40 Mbit/s shared by all requests, 40 ms each
GITHUB_PAGES_MAX_AGE = 600         # seconds: the Cache-Control GitHub Pages sends
# At 1280 x 720 (Playwright's window), the first block or figure of BELOW_THE_FOLD is beyond start-early.js's
# margin (no Python at load); that of BLOCK_CHAPTER is near the view (Python starts at load).
BELOW_THE_FOLD = "loss-and-gradient/"
SETTLE_AFTER_CONTROL_MS = 1500     # a reload for isolation would be asked for as the service worker takes control
CLASS_SIZE = 30                    # measure_recheck: work files the class overview checks (issue #38)
RECHECK_TIMEOUT_MS = 600_000       # long past the target: a slow check is measured, not cut short

TARGETS = {  # row key -> [(target text, test on the row), ...]; no test: the row is only reported
    "cold": [("ratio <= 1.15 (#8)", lambda row: row["ratio"] <= 1.15),
             ("ratio <= 0.45 (#31)", lambda row: row["ratio"] <= 0.45)],
    "warm": [("ratio <= 0.55 (#31)", lambda row: row["ratio"] <= 0.55)],
    "pages cold": [("ratio <= 0.6 (#31)", lambda row: row["ratio"] <= 0.6)],
    "pages warm": [("report", None)],
    "documents": [("1 (#31)", lambda row: row["value"] == 1)],
    "cold plain": [("report", None)],
    "cold worker start": [("report", None)],
    "cold worker boot": [("report", None)],
    "cold first run": [("report", None)],
    "warm worker start": [("report", None)],
    "warm worker boot": [("report", None)],
    "warm first run": [("report", None)],
    "cold runtime": [("report", None)],
    "warm runtime": [("report", None)],
    "link cold": [("report", None)],
    "link warm": [("report", None)],
    "link gzip cold": [("report", None)],
    "link gzip warm": [("report", None)],
    "link gzip cold plain": [("report", None)],
    "link gzip warm plain": [("report", None)],
    "cold cpu": [("report", None)],
    "warm cpu": [("report", None)],
    "warm plain": [("report", None)],
    "snapshot bytes": [("growth <= 4 MB", lambda row: row["value"] - row["bare"] <= SNAPSHOT_GROWTH_BUDGET)],
    "switch": [("<= 300 ms", lambda row: row["value"] <= 300)],
    "first switch": [("<= 300 ms", lambda row: row["value"] <= 300)],
    "round trip": [("<= 16 ms", lambda row: row["value"] <= 16)],
    "run 100": [("<= 200 ms", lambda row: row["value"] <= 200)],
    "landscape slider": [("<= 16 ms", lambda row: row["value"] <= 16)],
    "cost slider": [("<= 16 ms", lambda row: row["value"] <= 16)],
    "xor train 100": [("<= 500 ms", lambda row: row["value"] <= 500)],
    "view only": [("<= 1 MB", lambda row: row["value"] <= 1_000_000)],
    "with python": [("report", None)],
    "recheck": [("<= 60 s (#38)", lambda row: row["value"] <= 60)],
    "engine": [(f"ratio <= {xor.TARGET_RATIO}", lambda row: row["ratio"] <= xor.TARGET_RATIO)],
    "pyodide": [("report", None)],
}

# Installed before any page script: the time of the first finished block run (data-runs 0 -> 1) and the
# time Python was first ready (<html data-python-state="ready">). When the page created Python's worker
# is the performance mark that start-early.js's createWorker() sets (WORKER_CREATED).
FIRST_RESULT_WATCH = """
new MutationObserver((records) => {
  for (const { target, attributeName } of records) {
    if (attributeName === "data-python-state" && target.dataset.pythonState === "ready"
        && window.benchPythonReadyMs === undefined) {
      window.benchPythonReadyMs = performance.now();
    }
    if (attributeName === "data-runs" && target.dataset.runs !== "0" && window.benchFirstResultMs === undefined) {
      window.benchFirstResultMs = performance.now();
    }
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-runs", "data-python-state"] });
"""
WORKER_CREATED = """() => [performance.getEntriesByName("lesson-python-worker")[0]?.startTime, window.benchPythonReadyMs]"""

# In the page: click the nav link to `href`, wait for the new chapter's first block, press its Run
# button, wait for the result. Times in ms from the link click.
SWITCH_CHAPTER = """async (href) => {
  const deadline = performance.now() + 60000;
  const seen = () => {  // what the page shows, for the message of a switch that timed out
    const block = document.querySelector("div.runnable:not([data-bench-old])");
    return `at ${location.href}, Python ${document.documentElement.dataset.pythonState}, `
      + (block ? `new first block: mounted ${block.dataset.mounted}, state ${block.dataset.state}, `
        + `runs ${block.dataset.runs}, busy ${block.getAttribute("aria-busy")}, `
        + `Run ${block.querySelector("button.runnable__run")?.disabled ? "disabled" : "enabled"}` : "no new block");
  };
  const until = (test, waitingFor) => new Promise((resolve, reject) => {
    const poll = () => {
      const value = test();
      if (value) resolve(value);
      else if (performance.now() > deadline) reject(new Error(`chapter switch timed out waiting for ${waitingFor}: ${seen()}`));
      else setTimeout(poll, 1);
    };
    poll();
  });
  for (const old of document.querySelectorAll("div.runnable")) old.dataset.benchOld = "true";
  const link = [...document.querySelectorAll("a.md-nav__link")].find((a) => a.href === href);
  const started = performance.now();
  link.click();
  // The address may gain a #heading as soon as it changes (Material's navigation.tracking), even one
  // of the chapter just left: compare without it.
  const shown = () => { const here = new URL(location.href); here.hash = ""; return here.href; };
  const block = await until(() => shown() === href
    && document.querySelector("div.runnable[data-mounted='true']:not([data-bench-old])"), "the new chapter's block");
  const mounted = performance.now() - started;
  block.querySelector("button.runnable__run").click();
  await until(() => block.dataset.runs !== "0" && block.getAttribute("aria-busy") !== "true", "its result");
  return { mounted, result: performance.now() - started, state: block.dataset.state,
           output: block.querySelector("[role=log]").textContent };
}"""

# In the page: a control of a figure -> Python -> the figure's picture replaced. Times in ms.
FIGURE_ROUND_TRIPS = """async ([name, control, moves]) => {
  const figure = document.querySelector(`[data-widget="${name}"]`);
  const picture = figure.querySelector(".figure__picture");
  const find = (label) => {
    const caption = [...figure.querySelectorAll("label")].find((l) => l.textContent.trim() === label);
    return caption ? document.getElementById(caption.htmlFor)
      : [...figure.querySelectorAll("button")].find((b) => b.textContent.trim() === label);
  };
  const settled = () => new Promise((resolve) => {
    const check = () => figure.getAttribute("aria-busy") === "false" ? resolve() : setTimeout(check, 1);
    check();
  });
  const repainted = (act) => new Promise((resolve) => {
    const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()); });
    observer.observe(picture, { childList: true });
    act();
  });
  const target = find(control);
  const times = [];
  for (let move = 0; move < moves.length; move++) {
    await settled();
    let started;
    const finished = await repainted(() => {
      started = performance.now();
      if (target.type === "range") {
        target.value = moves[move];
        target.dispatchEvent(new Event("input", { bubbles: true }));
      } else target.click();
    });
    times.push(finished - started);
    if (moves[move] === "reset") { await settled(); await repainted(() => find("Reset").click()); }
  }
  await settled();
  return times;
}"""


def median(values):
    return statistics.median(values)


def row(key, name, value, unit, bare=None, ratio=None, note="", checks=None):
    """One line of the table; `key` picks its targets from TARGETS. `checks` maps a property the
    measurement observed (not a speed) to whether it held; they are printed under the row.
    "met": whether every target was met (None for a row that is only reported); "met_each": per target."""
    targets = TARGETS[key]
    entry = {"key": key, "name": name, "value": value, "unit": unit, "bare": bare, "ratio": ratio,
             "note": note, "target": "; ".join(text for text, _ in targets), "checks": checks or {}}
    entry["met_each"] = [None if test is None else bool(test(entry)) for _, test in targets]
    entry["met"] = None if None in entry["met_each"] else all(entry["met_each"])
    return entry


class Link:
    """A network link shared by every response of a server: it carries at most `rate` bytes a second
    in all, and each request waits `latency` seconds before it is read (a round trip)."""

    def __init__(self, rate, latency):
        self.rate, self.latency = rate, latency
        self.lock = threading.Lock()
        self.free_at = 0.0  # time.monotonic() when the bytes already sent will have gone through

    def carry(self, size):
        """Wait until `size` more bytes have gone through the link."""
        with self.lock:
            self.free_at = max(time.monotonic(), self.free_at) + size / self.rate
            wait = self.free_at - time.monotonic()
        if wait > 0:
            time.sleep(wait)


class Gzipped:
    """The built site's compressible files, gzipped once (not while a page waits for them), as a host
    that compresses serves them: GitHub Pages gzips text, JavaScript, JSON, SVG and WebAssembly; the
    snapshot (application/octet-stream), the wheels and the zips go as they are (they are compressed
    already and would hardly shrink)."""

    SUFFIXES = (".html", ".css", ".js", ".mjs", ".json", ".xml", ".svg", ".txt", ".wasm", ".map", ".py")

    def __init__(self, site):
        self.bodies = {os.path.normpath(path): gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
                       for path in Path(site).rglob("*") if path.is_file() and path.suffix in self.SUFFIXES}

    def get(self, path):
        return self.bodies.get(os.path.normpath(path))


class CountingHandler(LessonHandler):
    """serve.py's handler, quiet, recording (path, status, bytes sent incl. headers) per request
    in `traffic` (a list shared by the server): the bytes that really left the server; with a `link`,
    its responses go through that Link; with `gzipped` (a Gzipped), it answers those files gzip-encoded
    to a browser that accepts it; with `max_age`, it sends Cache-Control: max-age (GitHub Pages: 600 s)
    instead of serve.py's no-cache."""

    quiet = True
    traffic = None
    hidden = None   # URL paths answered 404, as if the build had not written them (a set shared by the server)
    link = None
    gzipped = None

    def handle_one_request(self):
        """One request of a connection (serve.py keeps connections open for the next one), counted once answered."""
        if self.link:
            time.sleep(self.link.latency)
        self.sent, self.status = 0, None
        super().handle_one_request()
        if self.status is not None:
            self.traffic.append((self.path.split("?")[0], self.status, self.sent))

    def send_head(self):
        if self.path.split("?")[0] in self.hidden:
            self.send_error(404)
            return None
        if self.gzipped is not None and "gzip" in self.headers.get("Accept-Encoding", ""):
            answered, body = self.send_gzipped()
            if answered:
                return body
        return super().send_head()

    def brotli_copy(self, path, digest):
        """GitHub Pages sends none of the build's Brotli copies (nor their variants of the snapshot and the standard
        library): with `gzipped`, neither does this host."""
        return None if self.gzipped is not None else super().brotli_copy(path, digest)

    def send_gzipped(self):
        """(True, body or None) if the request is for a file `gzipped` holds (a 304 has no body), else (False, None)."""
        if self.path.split("?")[0].endswith("sitemap.xml"):
            return False, None  # serve.py rewrites it for the address it is served at (tiny: left as it is)
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        body = self.gzipped.get(path) if path.is_file() else None
        if body is None:
            return False, None
        modified = int(path.stat().st_mtime)
        since = self.headers.get("If-Modified-Since")
        with contextlib.suppress(TypeError, ValueError):
            if since and email.utils.parsedate_to_datetime(since).timestamp() >= modified:
                self.send_response(304)
                self.end_headers()
                return True, None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(modified))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return True, io.BytesIO(body)

    def setup(self):
        super().setup()
        socket_writer = self.wfile
        handler = self

        class Counting:
            def write(self, data):
                handler.sent += len(data)
                if handler.link:
                    handler.link.carry(len(data))
                return socket_writer.write(data)

            def __getattr__(self, name):
                return getattr(socket_writer, name)

        self.wfile = Counting()

    def send_response(self, code, message=None):
        self.status = code
        super().send_response(code, message)


@contextlib.contextmanager
def counting_server(directory, port, link=None, isolation_headers=False, gzipped=None, max_age=None):
    """Serve `directory` on 127.0.0.1:`port` in this process, through `link` (a Link) if given, with the
    isolation headers, gzip (`gzipped`, a Gzipped of `directory`) and Cache-Control as asked; yields
    (base URL, traffic list, set of hidden paths)."""
    traffic, hidden = [], set()
    handler = type("Handler", (CountingHandler,), {"traffic": traffic, "hidden": hidden, "link": link,
                                                   "isolation_headers": isolation_headers, "gzipped": gzipped,
                                                   "cache_control": f"max-age={max_age}" if max_age is not None
                                                   else LessonHandler.cache_control})
    server = LessonServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/", traffic, hidden
    finally:
        server.shutdown()
        server.server_close()


class Bench:
    """The served site, one Chromium, and the ways to visit a page that the measurements share."""

    def __init__(self, playwright, site, site_url, traffic, hidden, scratch, repeats, smoke=False):
        self.playwright = playwright
        self.site = site  # the built site's folder
        self.site_url = site_url
        self.traffic = traffic
        self.hidden = hidden
        self.scratch = Path(scratch)
        self.repeats = repeats
        self.smoke = smoke
        self.link = (float("inf"), 0.0) if smoke else (LINK_RATE, LINK_LATENCY)  # measure_link's (rate, latency)
        self.xor_work = {"steps": 20, "chain_length": 2_000} if smoke else {}  # measure_engine's, else xor.py's
        self.browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        self.gzipped = None
        self.profile_started = False  # whether persistent_context() has started a browser on a profile yet

    def close(self):
        self.browser.close()

    def like_github_pages(self, link=None):
        """A second server of the site, answering as GitHub Pages does: no isolation headers, gzip,
        Cache-Control: max-age=600 (through `link` if given). Yields (base URL, traffic, hidden paths)."""
        if self.gzipped is None:
            self.gzipped = Gzipped(self.site)  # once per run, before any page waits for it
        return counting_server(self.site, free_port(), link, gzipped=self.gzipped, max_age=GITHUB_PAGES_MAX_AGE)

    @contextlib.contextmanager
    def fresh_page(self, service_workers="block"):
        """A page in a fresh context (empty caches): a first visit."""
        context = self.browser.new_context(service_workers=service_workers)
        context.set_default_timeout(PYTHON_TIMEOUT_MS)
        context.add_init_script(FIRST_RESULT_WATCH)
        try:
            yield context.new_page()
        finally:
            context.close()

    @contextlib.contextmanager
    def persistent_context(self, name, service_workers="block"):
        """A browser profile on disk (disk cache, compiled-code cache) as a reader's browser has;
        empty the first time `name` is used. The smoke run starts one such browser (that way works), then takes
        fresh contexts of its one browser instead (caches in memory, kept from the cold visit to the warm one)."""
        if self.smoke and self.profile_started:
            context = self.browser.new_context(service_workers=service_workers)
        else:
            self.profile_started = True
            context = self.playwright.chromium.launch_persistent_context(
                self.scratch / name, executable_path=chromium_path(), args=CHROMIUM_ARGS,
                service_workers=service_workers)
        context.set_default_timeout(PYTHON_TIMEOUT_MS)
        context.add_init_script(FIRST_RESULT_WATCH)
        try:
            yield context
        finally:
            context.close()

    @staticmethod
    def cpu_seconds(browser_session):
        """{process id: CPU seconds used so far} of every process of the browser behind `browser_session`
        (a CDP session on the browser target): its pages, workers, GPU, network and browser processes."""
        return {process["id"]: process["cpuTime"]
                for process in browser_session.send("SystemInfo.getProcessInfo")["processInfo"]}

    def first_block_result_ms(self, page, path=BLOCK_CHAPTER, site_url=None):
        """Navigate to `path` (of `site_url`, else the site's address), press Run on its first block as
        soon as it exists; ms from navigation."""
        page.goto((site_url or self.site_url) + path, wait_until="commit")
        first = page.locator("div.runnable").first
        first.get_by_role("button", name="Run", exact=True).click()
        page.wait_for_function("() => window.benchFirstResultMs !== undefined", timeout=PYTHON_TIMEOUT_MS)
        page.wait_for_function("block => block.getAttribute('aria-busy') !== 'true'", arg=first.element_handle())
        if first.get_attribute("data-state") != "done":
            raise RuntimeError(f"the first block of {path} failed: {first.get_by_role('log').text_content()}")
        return page.evaluate("() => window.benchFirstResultMs")

    def bare_result_ms(self, page, path="", site_url=None):
        """Navigate to a bare page (bench-bare/`path`) and wait for the result it reports; ms from navigation."""
        page.goto((site_url or self.site_url) + BARE_FOLDER + path, wait_until="commit")
        # At "commit" the new document may not have its root element yet.
        page.wait_for_function("() => document.documentElement?.dataset.benchResultMs", timeout=PYTHON_TIMEOUT_MS)
        return float(page.evaluate("() => document.documentElement.dataset.benchResultMs"))


# ---- Measurements: each returns a list of rows --------------------------------------------------

def measure_visits(bench):
    """Cold and warm visits: per repeat, a new browser profile for each of the site as shipped
    (snapshot boot), the site without its snapshot (the server answers 404: plain boot), the
    lesson's runtime alone on an empty page and the bare page, in turn; the first visit is cold, the second (same profile: disk cache, compiled
    WebAssembly) is warm. The server sends the isolation headers (as serve.py --isolation-headers) and
    service workers are off, so all pages fetch the same way. The bytes
    the server sent during each cold visit of the site, until its first result, are kept too."""
    times = {way: {"cold": [], "warm": []} for way in ("snapshot", "plain", "runtime", "bare")}
    cpu = {way: {"cold": [], "warm": []} for way in ("snapshot", "runtime", "bare")}  # browser CPU ms per visit
    moments = {way: {"cold": [], "warm": []} for way in ("snapshot", "runtime")}  # (worker created, Python ready)
    cold_bytes = {"snapshot": [], "plain": []}
    boots = {"snapshot": set(), "plain": set(), "runtime": set()}
    visits = {"snapshot": bench.first_block_result_ms, "plain": bench.first_block_result_ms,
              "runtime": lambda page: bench.bare_result_ms(page, RUNTIME_ALONE), "bare": bench.bare_result_ms}
    for repeat in range(bench.repeats):
        for way in times:
            visit = visits[way]
            bench.hidden.clear()
            if way == "plain":
                bench.hidden.add(SNAPSHOT_FILE)
            with bench.persistent_context(f"visit-{way}-{repeat}") as context:
                page = context.pages[0] if context.pages else context.new_page()
                browser_session = context.browser.new_browser_cdp_session()
                bench.traffic.clear()
                for kind in ("cold", "warm"):
                    before = bench.cpu_seconds(browser_session)
                    times[way][kind].append(visit(page))
                    if way in cpu:
                        after = bench.cpu_seconds(browser_session)
                        cpu[way][kind].append(1000 * sum(used - before.get(pid, 0) for pid, used in after.items()))
                    if way in moments:
                        moments[way][kind].append(page.evaluate(WORKER_CREATED))
                    if kind == "cold" and way in cold_bytes:
                        cold_bytes[way].append(sum(size for _, _, size in bench.traffic))
                    if kind == "cold" and way in boots:
                        boots[way].add(page.evaluate("() => document.documentElement.dataset.pythonBoot"))
    bench.hidden.clear()
    bare = {kind: median(times["bare"][kind]) for kind in ("cold", "warm")}
    rows = []
    for way, checks, key_suffix, label in [
            ("snapshot", {"booted from the snapshot": boots["snapshot"] == {"snapshot"}}, "",
             "as shipped (snapshot boot)"),
            ("plain", {"plain boot without the snapshot": boots["plain"] == {"plain"}}, " plain",
             "snapshot answered 404 (plain boot)"),
            ("runtime", {"booted from the snapshot": boots["runtime"] == {"snapshot"}}, " runtime",
             "the lesson's runtime alone on an empty page (snapshot boot)")]:
        for kind in ("cold", "warm"):
            value = median(times[way][kind])
            note = ("bare column: loadPyodide + runPython from the same files; the server sends the isolation "
                    "headers, no service worker" if kind == "cold" and not key_suffix else "")
            result = "first result" if way == "runtime" else "first block result"
            rows.append(row(kind + key_suffix, f"{kind.capitalize()} visit, {label}: navigation -> {result}",
                            value, "ms", bare=bare[kind], ratio=value / bare[kind], note=note,
                            checks=checks if kind == "cold" else None))
    # Where the lesson page's extra time goes: how late it creates the worker, how long the worker then
    # takes until Python is ready, and how long the first run takes from there (on the empty page: one
    # line), each against the runtime alone on an empty page.
    for kind in ("cold", "warm"):
        spans = {way: [(begun, ready - begun, result - ready)
                       for (begun, ready), result in zip(moments[way][kind], times[way][kind])] for way in moments}
        for index, (key, name) in enumerate([
                ("worker start", "navigation -> the page creates Python's worker"),
                ("worker boot", "worker created -> Python ready"),
                ("first run", "Python ready -> first result (empty page: one line)")]):
            site, alone = (median([span[index] for span in spans[way]]) for way in ("snapshot", "runtime"))
            note = "other column: the lesson's runtime alone on an empty page" if kind == "cold" and index == 0 else ""
            rows.append(row(f"{kind} {key}", f"{kind.capitalize()} visit: {name}", site, "ms", bare=alone,
                            ratio=site / alone, note=note))
    # The processor time all of the browser's processes spent from navigation to the first result. On a
    # machine with `cores` processors no page can show its result sooner than that time / cores, so
    # this is the floor under any target on the wall-clock time.
    cores = os.cpu_count() or 1
    for kind, factor in (("cold", 0.45), ("warm", 0.55)):
        site, alone, plain = (median(cpu[way][kind]) for way in ("snapshot", "runtime", "bare"))
        rows.append(row(f"{kind} cpu", f"{kind.capitalize()} visit: browser CPU time, navigation -> first block result",
                        site, "ms", bare=alone, ratio=site / alone,
                        note=(f"other column: the runtime alone on an empty page; the bare page used {plain:,.0f} ms. "
                              f"On {cores} cores the first block result needs at least {site / cores:,.0f} ms "
                              f"(the runtime alone {alone / cores:,.0f} ms); #31 asks for <= {factor} x bare = "
                              f"{factor * bare[kind]:,.0f} ms")))
    snapshot_bytes, plain_bytes = median(cold_bytes["snapshot"]), median(cold_bytes["plain"])
    rows.append(row("snapshot bytes", "Cold visit transfer until the first result: snapshot boot (other: plain boot)",
                    snapshot_bytes, "bytes", bare=plain_bytes, ratio=snapshot_bytes / plain_bytes,
                    note=f"growth {(snapshot_bytes - plain_bytes) / 1e6:+.2f} MB; the classroom server (serve.py)"))
    return rows


def measure_link(bench):
    """Cold and warm visits as in measure_visits (a new profile for each way per repeat), but through a
    network link (LINK_RATE bytes a second shared by every request, LINK_LATENCY before each): where
    the downloads, not the processor, decide, starting Python's downloads early counts. Twice: from a
    classroom server (serve.py, sending the build's gzip copies) the site as shipped and the bare page; and
    from one that gzips as GitHub Pages does, where the wasm shrinks to about a third but the snapshot
    hardly shrinks, also the site without its snapshot (plain boot): whether the snapshot still wins."""
    rows = []
    for compressed in (False, True):
        ways = ("snapshot", "plain", "bare") if compressed else ("snapshot", "bare")
        times = {way: {"cold": [], "warm": []} for way in ways}
        created = {"cold": [], "warm": []}  # when the page created Python's worker (the site as shipped)
        link = Link(*bench.link)
        server = bench.like_github_pages(link) if compressed else counting_server(bench.site, free_port(), link)
        with server as (site_url, _, hidden):
            for repeat in range(bench.repeats):
                for way in ways:
                    hidden.clear()
                    if way == "plain":
                        hidden.add(SNAPSHOT_FILE)
                    with bench.persistent_context(f"link-{'gzip-' * compressed}{way}-{repeat}") as context:
                        page = context.pages[0] if context.pages else context.new_page()
                        for kind in ("cold", "warm"):
                            if way == "bare":
                                times[way][kind].append(bench.bare_result_ms(page, site_url=site_url))
                                continue
                            times[way][kind].append(bench.first_block_result_ms(page, site_url=site_url))
                            if way == "snapshot":
                                created[kind].append(page.evaluate(WORKER_CREATED)[0])
        link_name = f"a {link.rate * 8 / 1e6:.0f} Mbit/s link" + (", gzip as GitHub Pages" if compressed else "")
        for way in ways[:-1]:
            for kind in ("cold", "warm"):
                value, bare = median(times[way][kind]), median(times["bare"][kind])
                if way == "snapshot":
                    note = (f"every request waits {link.latency * 1000:.0f} ms and all share the link; the page "
                            f"created Python's worker at {median(created[kind]):,.0f} ms")
                    label = ""
                else:
                    snapshot = median(times["snapshot"][kind])
                    note = f"the snapshot boot is {'faster' if snapshot < value else 'SLOWER'} by {abs(value - snapshot):,.0f} ms"
                    label = ", snapshot answered 404 (plain boot)"
                key = f"link {'gzip ' * compressed}{kind}{' plain' if way == 'plain' else ''}"
                rows.append(row(key, f"{kind.capitalize()} visit through {link_name}{label}: navigation -> first block result",
                                value, "ms", bare=bare, ratio=value / bare, note=note))
    return rows


def measure_pages(bench):
    """A host like GitHub Pages (no isolation headers, gzip, Cache-Control: max-age=600) with the
    service worker allowed, as a reader's browser has it: per repeat, a new profile for the site as
    shipped (BLOCK_CHAPTER's block run as soon as it exists) and one for the bare page, cold then warm
    (the second visit is controlled by the service worker, which adds the isolation headers). Then the
    documents a first visit loads, for a reader who only reads (nothing touched) a chapter whose block
    is below the fold (BELOW_THE_FOLD) and one whose block is near the view (BLOCK_CHAPTER), counted
    until the service worker controls the page and SETTLE_AFTER_CONTROL_MS more, and in the cold visits."""
    times = {way: {"cold": [], "warm": []} for way in ("site", "bare")}
    documents = {"cold visit": [], BELOW_THE_FOLD: [], BLOCK_CHAPTER: []}
    isolated = {"cold": set(), "warm": set()}

    def count_documents(page):
        loads = []
        page.on("request", lambda request: request.is_navigation_request()
                and request.frame == page.main_frame and loads.append(request.url))
        return loads

    def settle(page):
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_TIMEOUT_MS)
        page.wait_for_timeout(SETTLE_AFTER_CONTROL_MS)

    with bench.like_github_pages() as (site_url, _, _):
        for repeat in range(bench.repeats):
            for way in times:
                with bench.persistent_context(f"pages-{way}-{repeat}", service_workers="allow") as context:
                    page = context.pages[0] if context.pages else context.new_page()
                    for kind in ("cold", "warm"):
                        if way == "bare":
                            times[way][kind].append(bench.bare_result_ms(page, site_url=site_url))
                            continue
                        loads = count_documents(page) if kind == "cold" else None
                        times[way][kind].append(bench.first_block_result_ms(page, site_url=site_url))
                        isolated[kind].add(page.evaluate("() => crossOriginIsolated"))
                        if kind == "cold":
                            settle(page)
                            documents["cold visit"].append(len(loads))
        for chapter in (BELOW_THE_FOLD, BLOCK_CHAPTER):
            with bench.fresh_page(service_workers="allow") as page:
                loads = count_documents(page)
                page.goto(site_url + chapter, wait_until="load")
                settle(page)
                documents[chapter].append(len(loads))
    rows = []
    for kind in ("cold", "warm"):
        value, bare = median(times["site"][kind]), median(times["bare"][kind])
        checks = ({"first visit not isolated (one document)": isolated["cold"] == {False}} if kind == "cold"
                  else {"second visit isolated by the service worker": isolated["warm"] == {True}})
        rows.append(row(f"pages {kind}", f"{kind.capitalize()} visit, a host like GitHub Pages (no isolation headers, "
                        "gzip, service worker): navigation -> first block result", value, "ms", bare=bare,
                        ratio=value / bare, checks=checks,
                        note="bare column: the bare page from the same server" if kind == "cold" else ""))
    rows.append(row("documents", "Documents a first visit loads, a host like GitHub Pages", max(max(counts) for counts in documents.values()),
                    "documents", note="; ".join(f"{place}: {', '.join(map(str, counts))}" for place, counts in documents.items())
                    + f" (untouched, counted until {SETTLE_AFTER_CONTROL_MS} ms after the service worker took control)"))
    return rows


def measure_reader_session(bench):
    """One reader, one page load: a block on BLOCK_CHAPTER, chapter switches through the navigation
    (one interpreter, a namespace per chapter), then a figure on FIGURE_CHAPTER and the line fit."""
    wasm_downloads = []
    with bench.fresh_page() as page:
        page.context.on("request", lambda request: wasm_downloads.append(request.url)
                        if request.url.endswith(".wasm") else None)
        bench.first_block_result_ms(page)
        first_key = urlparse(page.url).path
        interpreter = page.evaluate(NAMESPACE_MARK)
        switches = []
        for switch in range(max(3, bench.repeats)):
            target = NEXT_CHAPTER if switch % 2 == 0 else BLOCK_CHAPTER
            switched = page.evaluate(SWITCH_CHAPTER, bench.site_url + target)
            if switched["state"] != "done":
                raise RuntimeError(f"the first block of {target} failed: {switched['output']}")
            switches.append(switched["result"])
            if switch == 0:
                seen = page.evaluate(NAMESPACE_SEEN, first_key)

        moves = 10 if bench.repeats == 1 else 30
        follow_link_to_figure(page, bench.site_url + FIGURE_CHAPTER, FIGURE)
        slider = page.evaluate(SLIDER_RANGE, [FIGURE, SLIDER])
        span = slider["max"] - slider["min"]
        values = [str(round(slider["min"] + span * ((7 * k) % moves) / moves, 6)) for k in range(moves)]
        round_trips = page.evaluate(FIGURE_ROUND_TRIPS, [FIGURE, SLIDER, values])
        follow_link_to_figure(page, bench.site_url + LINE_FIT_CHAPTER, "line_fit")
        runs = page.evaluate(FIGURE_ROUND_TRIPS, ["line_fit", "Run 100 steps", ["reset"] * bench.repeats])

    checks = {"same interpreter": len(wasm_downloads) == 1 and seen["interpreter"] == interpreter,
              "own namespace": not seen["here"] and seen["there"]}
    note = (f"{len(switches)} switches between {BLOCK_CHAPTER} and {NEXT_CHAPTER}; same interpreter = one wasm "
            f"download in the whole session; own namespace = a name set in {BLOCK_CHAPTER} is unseen in "
            f"{NEXT_CHAPTER} and kept in {BLOCK_CHAPTER}")
    return [row("switch", "Chapter switch (instant navigation): click -> first result",
                median(switches), "ms", note=note, checks=checks),
            row("round trip", f"Figure slider -> Python -> SVG ({SLIDER}, median of {moves})",
                median(round_trips), "ms", note=f"slowest {max(round_trips):.1f} ms"),
            row("run 100", '"Run 100 steps" of the line fit -> SVG', median(runs), "ms")]


def measure_training_figures(bench):
    """The figures of issue #17 on one page load each: two sliders and the XOR surface's training."""
    moves = 10 if bench.repeats == 1 else 30
    results = {}
    with bench.fresh_page() as page:
        for chapter, figure, control, values in (
                (LINE_FIT_CHAPTER, "loss_landscape", "Start w", None),
                (LINE_FIT_CHAPTER, "xor_surface", "Train 100 steps", ["reset"] * max(3, bench.repeats)),
                ("checking/", "gradient_cost", "Parameters", None)):
            if urlparse(page.url).path != urlparse(bench.site_url + chapter).path:
                page.goto(bench.site_url + chapter)
            wait_figure_ready(page, figure)
            if values is None:
                slider = page.evaluate(SLIDER_RANGE, [figure, control])
                span = slider["max"] - slider["min"]
                values = [str(round(slider["min"] + span * ((7 * k) % moves) / moves, 1)) for k in range(moves)]
            results[figure] = page.evaluate(FIGURE_ROUND_TRIPS, [figure, control, values])
    return [row("landscape slider", f"Loss landscape: Start w -> Python -> SVG (median of {moves})",
                median(results["loss_landscape"]), "ms", note=f"slowest {max(results['loss_landscape']):.1f} ms"),
            row("cost slider", f"The cost of a gradient: Parameters -> Python -> SVG (median of {moves})",
                median(results["gradient_cost"]), "ms", note=f"slowest {max(results['gradient_cost']):.1f} ms"),
            row("xor train 100", '"Train 100 steps" of the XOR surface -> SVG', median(results["xor_surface"]), "ms",
                note="17 parameters, 24 x 24 outputs")]


def wait_figure_ready(page, figure):
    """Scroll to `figure` and wait (polling from Python: the site's CSP forbids evaluated strings) until it is interactive."""
    page.locator(f'[data-widget="{figure}"]').scroll_into_view_if_needed()
    deadline = time.monotonic() + PYTHON_TIMEOUT_MS / 1000
    while page.evaluate("w => document.querySelector(`[data-widget=\"${w}\"]`)?.dataset.python", figure) != "ready":
        if time.monotonic() > deadline:
            raise RuntimeError(f"the figure {figure} never became interactive")
        time.sleep(0.05)


def measure_first_visit_switch(bench):
    """A reader's very first visit on a host like GitHub Pages (a fresh profile, the service worker
    allowed, no isolation headers): Run on BLOCK_CHAPTER, then the first move to NEXT_CHAPTER. Issue
    #20: the same document and interpreter, first result <= 0.3 s (isolation waits for the next full
    page load)."""
    switches, same = [], []
    with bench.like_github_pages() as (site_url, _, _):
        for _ in range(bench.repeats):
            with bench.fresh_page(service_workers="allow") as page:
                bench.first_block_result_ms(page, site_url=site_url)
                page.evaluate("() => { window.sameDocument = true; }")
                interpreter = page.evaluate(NAMESPACE_MARK)
                switched = page.evaluate(SWITCH_CHAPTER, site_url + NEXT_CHAPTER)
                if switched["state"] != "done":
                    raise RuntimeError(f"the first block of {NEXT_CHAPTER} failed: {switched['output']}")
                switches.append(switched["result"])
                same.append(page.evaluate("() => window.sameDocument === true")
                            and page.evaluate(NAMESPACE_MARK) == interpreter)
    return [row("first switch", "First visit, a host like GitHub Pages: first chapter switch -> first result",
                median(switches), "ms", checks={"same document and interpreter": all(same)},
                note=f"{len(switches)} first visits")]


def follow_link_to_figure(page, url, figure):
    """Click the navigation link to `url` (instant navigation), scroll to `figure`, wait until it is interactive."""
    page.evaluate("url => [...document.querySelectorAll('a.md-nav__link')].find((a) => a.href === url).click()", url)
    wait_for_address(page, url)
    page.locator(f'[data-widget="{figure}"]').scroll_into_view_if_needed()
    page.wait_for_function("figure => document.querySelector(`[data-widget=\"${figure}\"]`)?.dataset.python === 'ready'",
                           arg=figure, timeout=PYTHON_TIMEOUT_MS)


SLIDER_RANGE = """([name, label]) => {
  const figure = document.querySelector(`[data-widget="${name}"]`);
  const caption = [...figure.querySelectorAll("label")].find((l) => l.textContent.trim() === label);
  const input = document.getElementById(caption.htmlFor);
  return { min: Number(input.min), max: Number(input.max) };
}"""


# A name set in the first chapter's namespace must be unseen in the next chapter's and kept in its own.
IMPORT_RUNTIME = """const { runtime } = await import(
    document.querySelector("script[src$='main.mjs']").src.replace(/main\\.mjs$/, "runtime/runtime.mjs"));"""
NAMESPACE_MARK = """async () => {
  %s
  await runtime.run({ page: location.pathname, code: "bench_marker = 1" });
  return runtime.interpreter;
}""" % IMPORT_RUNTIME
NAMESPACE_SEEN = """async (firstKey) => {
  %s
  const has_marker = async (page) => {
    let text = "";
    await runtime.run({ page, code: "print('bench_marker' in globals())", onOutput: (_, t) => { text += t; } });
    return text.trim() === "True";
  };
  return { interpreter: runtime.interpreter, here: await has_marker(location.pathname), there: await has_marker(firstKey) };
}""" % IMPORT_RUNTIME


def measure_transfer(bench):
    """Bytes the server sent for one first visit (new browser profile, service worker allowed):
    a chapter read at its top without running anything, and a chapter whose first block runs
    (counted until the service worker reports its offline copy complete). Counted at the server
    (status line, headers and body of every response), so the page, its workers and the service
    worker are all included and nothing is counted twice."""
    rows = []
    for key, name, run_python in [("view only", f"Transfer, {FIGURE_CHAPTER} read at its top, nothing run", False),
                                  ("with python", f"Transfer, {BLOCK_CHAPTER} with its first block run", True)]:
        with bench.persistent_context(f"transfer-{key}", service_workers="allow") as context:
            page = context.pages[0] if context.pages else context.new_page()
            bench.traffic.clear()
            if run_python:
                bench.first_block_result_ms(page, BLOCK_CHAPTER)
                page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'",
                                       timeout=PYTHON_TIMEOUT_MS)
            else:
                page.goto(bench.site_url + FIGURE_CHAPTER, wait_until="load")
                page.wait_for_timeout(VIEW_ONLY_SETTLE_MS)
            sent = list(bench.traffic)
            bodies = [path for path, status, _ in sent if status == 200]
            twice = sorted({path for path in bodies if bodies.count(path) > 1})
            checks = {"Python files downloaded once": not [path for path in twice if path.startswith(PYTHON_FILES)]}
            if not run_python:
                shown = page.evaluate(FIGURES_WITHOUT_PYTHON)
                checks["Python not started"] = shown["python"] == "idle"
                checks["figures painted without Python"] = 0 < shown["painted"] == shown["figures"]
        python_bytes = sum(size for path, _, size in sent if path.startswith(PYTHON_FILES))
        note = (f"{len(sent)} responses, {python_bytes:,} B of them Python files"
                + (f"; sent twice: {', '.join(twice)}" if twice else ""))
        rows.append(row(key, name, sum(size for _, _, size in sent), "bytes", note=note, checks=checks))
    return rows


FIGURES_WITHOUT_PYTHON = """() => ({
  figures: document.querySelectorAll("[data-widget]").length,
  painted: document.querySelectorAll("[data-widget] .figure__picture svg").length,
  python: document.documentElement.dataset.pythonState || "idle",
})"""


def measure_recheck(bench):
    """The class overview's re-check (issue #38): CLASS_SIZE honest work files (every exercise solved with
    the lesson's solution; one in the smoke run) chosen in "Students' work files", then "Check the exercises
    in Python" pressed in a fresh page, until the status says how many it checked. Seconds from the press,
    so Python's start is included, as a teacher waits for it; the note adds the processor time the browser used
    meanwhile (its workers included), which says more than the seconds on a busy machine."""
    lesson = lesson_map(bench.site)
    count = 1 if bench.smoke else CLASS_SIZE
    folder = bench.scratch / "class-work"
    folder.mkdir(exist_ok=True)
    files = []
    for seed in range(count):
        files.append(folder / f"learner-{seed:02d}-backprop-work.json")
        files[-1].write_text(json.dumps(honest_work(lesson, f"Learner {seed:02d}", seed)), encoding="utf-8")
    exercises = len(lesson["exercises"])
    with bench.fresh_page() as page:
        page.goto(bench.site_url + "class-overview/")
        field = page.get_by_label("Students' work files")
        expect(field).to_be_enabled()
        field.set_input_files([str(path) for path in files])
        status = page.locator(".class-overview > [role=status]")
        expect(status).to_have_text(f"Added {count} learner{'s' * (count != 1)}: {count} in the table.")
        browser_session = bench.browser.new_browser_cdp_session()
        before, load = bench.cpu_seconds(browser_session), os.getloadavg()[0]
        started = time.perf_counter()
        page.get_by_role("button", name="Check the exercises in Python").click()
        page.wait_for_function("() => /^(Checked|Stopped|The exercises could not)/.test("
                               "document.querySelector('.class-overview > [role=status]').textContent)",
                               timeout=RECHECK_TIMEOUT_MS)
        seconds = time.perf_counter() - started
        cpu = sum(used - before.get(pid, 0) for pid, used in bench.cpu_seconds(browser_session).items())
        said = status.text_content()
        page.get_by_role("button", name="Show every column").click()
        table = page.get_by_role("table")
        column = table.locator("thead th").all_inner_texts().index("Exercises passed (checked)")
        checked = [row.locator("th, td").nth(column).inner_text() for row in table.locator("tbody tr").all()]
    checks = {f"all {count * exercises} exercises checked": said.startswith(f"Checked {count * exercises} exercises"),
              "every one found solved": checked == [f"{exercises} of {exercises}"] * count}
    return [row("recheck", f"Class overview: {count} work files x {exercises} exercises checked in Python",
                seconds, "s", checks=checks,
                note=f"from the press to the end, Python's start included; the browser's processor time {cpu:.1f} s "
                     f"(on {os.cpu_count()} cores, load average {load:.1f} at the press); the page said: {said}")]


def measure_engine(bench):
    """xor.py: the engine against micrograd under CPython, and the same engine inside Pyodide."""
    results = xor.run(repeats=5 if bench.repeats > 1 else 1, include_pyodide=bench.repeats > 1, **bench.xor_work)
    rows = [row("engine", "Engine XOR time / micrograd's (CPython)", results["engine_xor_seconds"] * 1000, "ms",
                bare=results["micrograd_xor_seconds"] * 1000, ratio=results["ratio"], note="bare column: micrograd")]
    pyodide = results["pyodide"]
    if pyodide:
        rows.append(row("pyodide", "Engine XOR in Pyodide (Node) / CPython", pyodide["engine_xor_seconds"] * 1000,
                        "ms", bare=results["engine_xor_seconds"] * 1000,
                        ratio=pyodide["engine_xor_seconds"] / results["engine_xor_seconds"],
                        note="bare column: CPython"))
    return rows


MEASUREMENTS = [measure_visits, measure_pages, measure_link, measure_reader_session, measure_first_visit_switch, measure_training_figures,
                measure_transfer, measure_recheck, measure_engine]


def format_table(rows):
    """The rows as the fixed-width table the command prints."""
    def number(value, unit):
        if value is None:
            return "-"
        if unit == "bytes":
            return f"{value / 1e6:.2f} MB"
        return f"{value:,} {unit}" if isinstance(value, int) else f"{value:,.1f} {unit}"

    header = ["Measurement", "This site", "Bare / other", "Ratio", "Target", "Met"]
    lines = [[r["name"], number(r["value"], r["unit"]), number(r["bare"], r["unit"]),
              "-" if r["ratio"] is None else f"{r['ratio']:.2f}", r["target"],
              "; ".join({True: "yes", False: "NO", None: "-"}[met] for met in r["met_each"])] for r in rows]
    widths = [max(len(str(line[i])) for line in [header] + lines) for i in range(len(header))]
    rule = "  ".join("-" * width for width in widths)
    text = [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths)), rule]
    for entry, line in zip(rows, lines):
        text.append("  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)))
        checks = ", ".join(f"{name}: {'yes' if held else 'NO'}" for name, held in entry["checks"].items())
        for detail in (checks, entry["note"]):
            if detail:
                text.append(f"    {detail}")
    return "\n".join(text + [rule])


def run(repeats=3, quick=False, only=None, site=None, port=None, smoke=False):
    """Build, serve and measure (all of MEASUREMENTS, or those named in `only`, e.g. "visits");
    returns the rows (dicts) in table order. With `site`, a folder already built for
    http://127.0.0.1:`port`/ (the tests' shared build), a copy of it is measured instead of a new build.
    `smoke`: quick, and as cheap as every row can be (the module's docstring)."""
    measurements = [m for m in MEASUREMENTS if not only or m.__name__.removeprefix("measure_") in only]
    repeats = 1 if quick or smoke else repeats
    with tempfile.TemporaryDirectory(prefix="bench-") as scratch:
        if site is None:
            port = free_port()
            site = build_site(Path(scratch) / "site", f"http://127.0.0.1:{port}/")
        else:
            site = Path(shutil.copytree(site, Path(scratch) / "site"))
        shutil.copytree(BENCHMARKS / "bare", site / BARE_FOLDER)
        # The classroom server with the isolation headers (serve.py --isolation-headers); the rows of a host
        # without them (GitHub Pages) use bench.like_github_pages().
        with counting_server(site, port, isolation_headers=True) as (url, traffic, hidden), \
                sync_playwright() as playwright:
            bench = Bench(playwright, site, url, traffic, hidden, scratch, repeats, smoke)
            try:
                return [entry for measure in measurements for entry in measure(bench)]
            finally:
                bench.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Measure the lesson site's speed targets in Chromium.")
    parser.add_argument("--repeats", type=int, default=3, help="visits per timed row (default 3; medians)")
    parser.add_argument("--quick", action="store_true", help="one repeat, no engine run inside Pyodide")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these measurements: " + ", ".join(
        m.__name__.removeprefix("measure_") for m in MEASUREMENTS))
    arguments = parser.parse_args(argv)
    print(format_table(run(arguments.repeats, arguments.quick, arguments.only)))


if __name__ == "__main__":
    main()
