"""readers.py: a reader in Firefox or in WebKit: one driver interface, two drivers (issue #19, #27).

What it is: `Reader`, what a reader does on the lesson, written once on top of a handful of primitives:
open a page and wait until its blocks are mounted, reload, find a control by its role and accessible
name, click it, type, read a text or an attribute, wait for a condition, go offline; and what every page
recorded (console errors, uncaught errors, Content-Security-Policy violations, the texts the offline
status line showed). Each browser implements only the primitives (`goto`, `reload_page`, `evaluate`,
`click_at`, `keys`, `type_text`, `set_offline`, `logged`, `every_document`):
  - `FirefoxReader`: Firefox ESR (/usr/bin/firefox-esr) under npm's puppeteer-core over WebDriver BiDi (no
    geckodriver, no browser download), through tests/site/firefox/driver.mjs, a Node process that performs
    one primitive a JSON line; Firefox itself reports console errors and page errors, and goes offline.
  - `WebKitReader`: WebKitGTK's MiniBrowser (Safari's engine) under Selenium and /usr/bin/WebKitWebDriver
    (--automation), on an Xvfb display of its own (MiniBrowser has no headless mode). WebKitGTK's WebDriver
    gives no console log, so each page records its own problems once loaded (a buffered ReportingObserver
    also sees the CSP violations from before), and it cannot take a page offline: it stops the site's server.
Page scripts are function bodies that read `arguments` (as WebDriver's execute script takes them); an
element is passed and returned as an `Element`, only as a top-level argument or as the whole result.

What it is not: scenarios or expectations (tests/site/scenarios.py holds both, once for every browser),
and not the Chromium tests' driver (those use Playwright directly, helpers.py).
"""
import contextlib
import json
import os
import queue
import re
import subprocess
import tempfile
import threading
import time

from helpers import FIREFOX, MINIBROWSER, PYTHON_TIMEOUT_MS, REPO, UI_TIMEOUT_MS, WEBKIT_DRIVER

WINDOW = (1280, 900)
POLL_S = 0.1

# Firefox lays out MathML while the page is still being parsed, and under load it may report an element whose
# children have not all arrived yet ("Invalid markup: Incorrect number of children for <mfrac/> tag."). Such a
# report counts only if the finished page still has an element of that name with the wrong number of children.
MATH_MISCOUNT = re.compile(r"Invalid markup: Incorrect number of children for <(\w+)/> tag")
MATH_CHILDREN = {"mfrac": 2, "mroot": 2, "msub": 2, "msup": 2, "msubsup": 3, "munder": 2, "mover": 2, "munderover": 3}
MISCOUNTED = ("return Object.entries(arguments[0]).filter(([name, count]) =>"
              " [...document.querySelectorAll(name)].some((element) => element.children.length !== count)).map(([name]) => name)")

# Installed in every page (from its start where the browser can, else once it has loaded; `arguments[0]`
# true then): keeps the CSP violations, uncaught errors and unhandled rejections the page sees, and every
# text the offline status line shows (it may pass through "Saving… N%" faster than a poll would see).
# Installed late, it also catches console.error calls and asks for the CSP reports buffered before it.
RECORDER = """
if (!window.__lessonSeen) {
  const late = arguments[0];
  const seen = { problems: [], statusTexts: [] };
  Object.defineProperty(window, "__lessonSeen", { value: seen });
  const note = (text) => seen.problems.push(text);
  document.addEventListener("securitypolicyviolation", (e) =>
    note(`CSP: ${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile || location.href})`));
  addEventListener("error", (e) => note(`uncaught in the page: ${e.message} (${e.filename}:${e.lineno})`));
  addEventListener("unhandledrejection", (e) => note(`unhandled rejection in the page: ${e.reason?.stack ?? e.reason}`));
  if (late) {
    if (typeof ReportingObserver === "function") {
      new ReportingObserver((reports) => {
        for (const report of reports) note(`${report.type}: ${JSON.stringify(report.body)}`);
      }, { types: ["csp-violation"], buffered: true }).observe();
    }
    const error = console.error.bind(console);
    console.error = (...args) => { note(`console: ${args.join(" ")}`); error(...args); };
  }
  const remember = () => {
    const text = document.querySelector(".lesson-offline-status")?.textContent;
    if (text && seen.statusTexts.at(-1) !== text) seen.statusTexts.push(text);
  };
  remember();
  new MutationObserver(remember).observe(document, { subtree: true, childList: true, characterData: true });
}
"""
TAKE_RECORDED = ("const seen = window.__lessonSeen;"
                 "return seen ? [seen.problems.splice(0), seen.statusTexts.splice(0)] : [[], []]")
PAGE_LOADED = ("return document.readyState === 'complete'"
               " && [...document.querySelectorAll('div.runnable')].every(b => b.dataset.mounted === 'true')")
# Leaving a page cancels the loads its service worker is answering, and Firefox reports each as a page error
# without an address: CANCELLED_LOAD. Such a report counts only if it comes while no page is changing (seen
# once on a loaded machine, after PYTHON_SETTLED's wait; which load it was is not known).
CANCELLED_LOAD = "Failed to load ‘’. A ServiceWorker intercepted the request"
# Python never started in the page, or its worker is up (runtime.mjs sets data-python-interpreter when a worker
# starts, data-python-boot once it is up). A reader waits for it before leaving a page: one left while its
# worker loads gets a CANCELLED_LOAD report for each of the worker's loads (seen when a scenario went on within
# ~150 ms of a reload).
PYTHON_SETTLED = ("const data = document.documentElement.dataset; return !(Number(data.pythonInterpreter) > 0)"
                  " || data.pythonBoot !== undefined || data.pythonState === 'error'")
PAGE_STATE = """return {
  boot: document.documentElement.dataset.pythonBoot || null,
  interpreter: Number(document.documentElement.dataset.pythonInterpreter || 0),
  isolated: crossOriginIsolated,
  canInterrupt: crossOriginIsolated && typeof SharedArrayBuffer === "function",
  controlled: navigator.serviceWorker?.controller != null,
  offline: document.documentElement.dataset.offline || null,
  status: document.querySelector(".lesson-offline-status")?.textContent ?? null,
  onLine: navigator.onLine,
};"""
SHOWN = ("const data = document.documentElement.dataset;"
         "return `Python ${data.pythonState}, boot ${data.pythonBoot}; `"
         " + [...document.querySelectorAll('[role=status], .figure__status')].map(s => s.textContent.trim())"
         ".filter(Boolean).join(' | ') + ' | ' + [...document.querySelectorAll('div.runnable')].map(b =>"
         " `block ${b.dataset.state}/${b.dataset.runs}: ` + (b.querySelector('[role=log]')?.textContent ?? '').slice(-200))"
         ".join(' | ')")
# The `nth` (from 1) element under `scope` (or the document) with role `role` (a button's is implicit) whose
# accessible name (aria-labelledby's text, else aria-label, else its own text) is `name`, or starts with it (`prefix`); with `enabled`, only
# controls a reader can use now. null when there is none.
FIND = r"""const [scope, role, name, nth, prefix, enabled] = arguments;
const labelledBy = (e) => e.getAttribute("aria-labelledby")?.split(/\s+/)
  .map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
const nameOf = (e) => (labelledBy(e) ?? e.getAttribute("aria-label") ?? e.textContent).trim();
const usable = (e) => !enabled || (!e.disabled && e.getAttribute("aria-disabled") !== "true");
const selector = role === "button" ? "button, [role=button]" : `[role="${role}"]`;
return [...(scope ?? document).querySelectorAll(selector)]
  .filter((e) => (prefix ? nameOf(e).startsWith(name) : nameOf(e) === name) && usable(e))[nth - 1] ?? null;"""
# Scroll the element to the middle of the window; after two frames, answer whether a click at its centre
# reaches it (CodeMirror scrolls its cursor into view a frame after a key, which can move what was there).
ON_TOP_AFTER_TWO_FRAMES = """const element = arguments[0];
element.scrollIntoView({block: "center"});
return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const box = element.getBoundingClientRect();
  done(element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)));
})));"""


class Element:
    """An element of the current page, as a driver holds it; stale once the page is left."""

    def __init__(self, handle):
        self.handle = handle

    def __repr__(self):
        return f"Element({self.handle!r})"


class Reader:
    """A reader in one browser: the actions the scenarios use. Subclasses implement the primitives."""

    name = ""             # the browser, as the tests name it
    interrupts = None     # True: an isolated page must interrupt Python; None: as the page says it can
    goes_offline = True   # the browser goes offline itself (navigator.onLine false); else the server stops
    records_from_start = True  # RECORDER runs before a page's own scripts; else from its load on (a busy
                               # machine's slow load can hide a whole count-up of the offline copy)

    def __init__(self):
        self.problems = {}      # scenario name -> the problems its pages recorded
        self.status_texts = []  # every text the offline status line showed, in order, over all scenarios
        self.scenario = "start"

    # ---- primitives (each browser's driver) ---------------------------------------------------
    def goto(self, url):
        """Navigate to `url` and wait for its load event."""
        raise NotImplementedError

    def reload_page(self):
        raise NotImplementedError

    def evaluate(self, body, *args):
        """Call the function body `body` in the page with `args`; its (awaited) result as plain data or an Element."""
        raise NotImplementedError

    def click_at(self, element):
        """The browser's own click at the element's centre."""
        raise NotImplementedError

    def keys(self, *chords):
        """Press keys in turn: "Delete", "Enter", or a chord such as "Control+a" or "Control+Home"."""
        raise NotImplementedError

    def type_text(self, text):
        """Type `text` key by key (CodeMirror then indents after a colon, as for a reader)."""
        raise NotImplementedError

    def set_offline(self, offline):
        """Take the page offline (or back online)."""
        raise NotImplementedError

    def logged(self):
        """Problems the browser itself reported since the last call (console errors, page errors)."""
        return []

    def every_document(self, body, *args):
        """Run `body` at the start of every new document, where the browser can (else nothing)."""

    # ---- waiting and reading ------------------------------------------------------------------
    def wait(self, body, *args, timeout_ms=UI_TIMEOUT_MS):
        """Poll `body` until it returns something truthy; return that."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            try:
                value = self.evaluate(body, *args)
            except Exception:  # the page is navigating
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for: {body[:160]} (the page shows: {self.shown()})")
            time.sleep(POLL_S)

    def shown(self):
        """Python's state, the status lines and the blocks' outputs, for a failure's message."""
        try:
            return self.evaluate(SHOWN)
        except Exception as error:  # the page is navigating, or the browser is gone
            return repr(error)

    def text(self, element):
        return self.evaluate("return arguments[0].textContent", element)

    def attribute(self, element, name):
        return self.evaluate("return arguments[0].getAttribute(arguments[1])", element, name)

    def state(self):
        """Where the page stands: Python's boot and interpreter, isolation, the service worker, the offline copy."""
        return self.evaluate(PAGE_STATE)

    # ---- pages ---------------------------------------------------------------------------------
    def collect(self, page_changed=False):
        """Move what the browser and the current page recorded into this scenario's problems (with
        `page_changed`, once a new page has loaded: less the loads leaving the last one cancelled)."""
        try:
            problems, texts = self.evaluate(TAKE_RECORDED)
        except Exception:
            problems, texts = [], []
        logged = [problem for problem in self.logged() if not (page_changed and CANCELLED_LOAD in problem)]
        self.problems.setdefault(self.scenario, []).extend(self.still_true(problems + logged))
        self.status_texts.extend(texts)

    def still_true(self, problems):
        """`problems` less the MathML children counts (MATH_MISCOUNT) that the finished page no longer has."""
        if not any(MATH_MISCOUNT.search(problem) for problem in problems):
            return problems
        try:
            miscounted = set(self.evaluate(MISCOUNTED, MATH_CHILDREN))
        except Exception:  # the page is gone: every report counts
            return problems
        return [problem for problem in problems
                if not ((found := MATH_MISCOUNT.search(problem)) and found.group(1) not in miscounted)]

    def loaded(self):
        self.wait(PAGE_LOADED)
        self.collect(page_changed=True)
        self.evaluate(RECORDER, True)

    def leave(self):
        """Before leaving a page: read what it recorded, and let a Python worker that is starting come up."""
        self.collect()
        self.wait(PYTHON_SETTLED, timeout_ms=PYTHON_TIMEOUT_MS)

    def open(self, url):
        self.leave()
        self.goto(url)
        self.loaded()

    def reload(self):
        self.leave()
        self.reload_page()
        self.loaded()

    def follow(self, url):
        """Click the footer's or the article's link to `url` as a reader would, if the page has one (Material's
        instant navigation then keeps the document, and Python); whether it had."""
        link = self.evaluate("return [...document.querySelectorAll('.md-footer a[href]'),"  # the footer's first
                             " ...document.querySelectorAll('.md-content a[href]')]"
                             ".find((a) => a.href === arguments[0] && a.getClientRects().length > 0) ?? null", url)
        if link is None:
            return False
        self.collect()
        self.click(link)
        self.wait("return document.querySelector('link[rel=canonical]')?.href === arguments[0]", url)
        self.loaded()
        return True

    def go_offline(self):
        self.set_offline(True)

    def go_online(self):
        self.set_offline(False)

    # ---- controls ------------------------------------------------------------------------------
    def find(self, role, name, within=None, nth=1, prefix=False, enabled=False):
        """The `nth` element with `role` and accessible name `name` (see FIND), or None."""
        return self.evaluate(FIND, within, role, name, nth, prefix, enabled)

    def control(self, role, name, within=None, timeout_ms=UI_TIMEOUT_MS, **how):
        """Wait until find(role, name, ...) finds the element; return it."""
        try:
            return self.wait(FIND, within, role, name, how.get("nth", 1), how.get("prefix", False),
                             how.get("enabled", False), timeout_ms=timeout_ms)
        except AssertionError as error:
            raise AssertionError(f"no {role} named {name!r} ({how or 'any'}): {error}") from None

    def click(self, element):
        """Click `element` as a reader would: once a click at its centre reaches it."""
        deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
        while not self.evaluate(ON_TOP_AFTER_TWO_FRAMES, element):
            if time.monotonic() > deadline:
                raise AssertionError(f"{element} stayed covered (the page shows: {self.shown()})")
        self.click_at(element)

    def scroll_to(self, element):
        """Scroll `element` to the middle of the window, as a reader scrolls to what they read."""
        self.evaluate("arguments[0].scrollIntoView({block: 'center'})", element)

    def press(self, scope, name, timeout_ms=PYTHON_TIMEOUT_MS):
        """Press the button named `name` inside `scope` once it is enabled (Python may still be starting)."""
        self.click(self.control("button", name, within=scope, enabled=True, timeout_ms=timeout_ms))

    # ---- runnable blocks -----------------------------------------------------------------------
    def block(self, number):
        """The `number`-th runnable block (role group, name "Python block N" or "Python: <title>")."""
        return self.control("group", "Python", nth=number, prefix=True)

    def output(self, block):
        return self.evaluate("return arguments[0].querySelector('[role=log]')?.textContent ?? ''", block)

    def code(self, block):
        """The block's code, from its editor's state."""
        return self.evaluate("return arguments[0].runnableCode()", block)

    def set_code(self, block, code):
        """Click into the block's editor, select all and type `code` in its place."""
        # A block that has run opens its editor by itself once its result is on screen: wait for it there.
        if not self.evaluate("return arguments[0].querySelector('.cm-content') !== null || arguments[0].dataset.runs !== '0'", block):
            self.click(self.evaluate("return arguments[0].querySelector('pre')", block))
        self.click(self.wait("return arguments[0].querySelector('.cm-content')", block))
        self.keys("Control+a", "Delete")
        self.type_text(code)
        self.wait("return arguments[0].runnableCode() === arguments[1]", block, code)

    def run(self, block):
        """Press Run, wait until that run has finished; return the output."""
        before = int(self.attribute(block, "data-runs") or 0)
        self.press(block, "Run")
        self.wait("return Number(arguments[0].dataset.runs || 0) > arguments[1]"
                  " && arguments[0].getAttribute('aria-busy') !== 'true'", block, before, timeout_ms=PYTHON_TIMEOUT_MS)
        return self.output(block)


# ---- Firefox: puppeteer-core in a Node process, one primitive a JSON line -------------------------------

class FirefoxReader(Reader):
    name = "firefox"
    interrupts = True

    def __init__(self, process, answers):
        super().__init__()
        self.process, self.answers, self.asked = process, answers, 0
        self.every_document(RECORDER, False)

    def ask(self, op, timeout_ms=PYTHON_TIMEOUT_MS, **request):
        self.asked += 1
        self.process.stdin.write(json.dumps({"id": self.asked, "op": op, **request}) + "\n")
        self.process.stdin.flush()
        while True:
            try:
                answer = self.answers.get(timeout=timeout_ms / 1000)
            except queue.Empty:
                raise AssertionError(f"driver.mjs did not answer {op} within {timeout_ms / 1000:.0f} s") from None
            if answer is None:
                raise AssertionError(f"driver.mjs ended during {op} ({self.process.poll()})")
            if answer.get("id") == self.asked:
                break
        if "error" in answer:
            raise RuntimeError(f"Firefox: {op}: {answer['error']}")
        return answer["value"]

    @staticmethod
    def wire(value):
        return {"$element": value.handle} if isinstance(value, Element) else value

    def goto(self, url):
        self.ask("goto", url=url)

    def reload_page(self):
        self.ask("reload")

    def evaluate(self, body, *args):
        value = self.ask("evaluate", body=body, args=[self.wire(arg) for arg in args])
        return Element(value["$element"]) if isinstance(value, dict) and set(value) == {"$element"} else value

    def every_document(self, body, *args):
        self.ask("everyDocument", body=body, args=list(args))

    def click_at(self, element):
        self.ask("click", element=self.wire(element))

    def keys(self, *chords):
        self.ask("keys", chords=list(chords))

    def type_text(self, text):
        self.ask("type", text=text)

    def set_offline(self, offline):
        self.ask("offline", offline=offline)

    def logged(self):
        return self.ask("logged")


@contextlib.contextmanager
def firefox_reader():
    """A FirefoxReader with one Firefox and one page, closed afterwards."""
    options = {"executablePath": FIREFOX, "timeoutMs": PYTHON_TIMEOUT_MS, "uiTimeoutMs": UI_TIMEOUT_MS,
               "width": WINDOW[0], "height": WINDOW[1]}
    with tempfile.TemporaryFile("w+") as errors:  # a file: a pipe nobody reads fills up and stops Node
        process = subprocess.Popen(["node", str(REPO / "tests" / "site" / "firefox" / "driver.mjs"), json.dumps(options)],
                                   cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, text=True)
        answers = queue.Queue()

        def read_answers():
            for line in process.stdout:
                if line.startswith("{"):
                    answers.put(json.loads(line))
            answers.put(None)

        threading.Thread(target=read_answers, daemon=True).start()
        try:
            started = answers.get(timeout=PYTHON_TIMEOUT_MS / 1000 + 30)
            if not started or not started.get("ready"):
                errors.seek(0)
                raise AssertionError(f"Firefox did not start: {errors.read()[-4000:]}")
            reader = FirefoxReader(process, answers)
            yield reader
        finally:
            if process.poll() is None:
                with contextlib.suppress(Exception):
                    process.stdin.write(json.dumps({"id": 0, "op": "close"}) + "\n")
                    process.stdin.flush()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


# ---- WebKit: Selenium and WebKitWebDriver, MiniBrowser on Xvfb ---------------------------------------

SELENIUM_KEYS = {"Control": "CONTROL", "Delete": "DELETE", "Enter": "ENTER", "Home": "HOME"}


class WebKitReader(Reader):
    name = "webkit"
    goes_offline = False
    records_from_start = False  # WebDriver classic has no script that runs before a page's own

    def __init__(self, driver, server):
        super().__init__()
        self.driver, self.server = driver, server

    def wire(self, value):
        return value.handle if isinstance(value, Element) else value

    def unwire(self, value):
        from selenium.webdriver.remote.webelement import WebElement
        if isinstance(value, WebElement):
            return Element(value)
        if isinstance(value, list):
            return [self.unwire(item) for item in value]
        return value

    def goto(self, url):
        self.driver.get(url)

    def reload_page(self):
        self.driver.refresh()

    def evaluate(self, body, *args):
        return self.unwire(self.driver.execute_script(body, *[self.wire(arg) for arg in args]))

    def click_at(self, element):
        element.handle.click()

    def keys(self, *chords):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        actions = ActionChains(self.driver)
        for chord in chords:
            *modifiers, key = [getattr(Keys, SELENIUM_KEYS[name]) if name in SELENIUM_KEYS else name
                               for name in chord.split("+")]
            for modifier in modifiers:
                actions.key_down(modifier)
            actions.send_keys(key)
            for modifier in reversed(modifiers):
                actions.key_up(modifier)
        actions.perform()

    def type_text(self, text):
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).send_keys(text).perform()

    def set_offline(self, offline):
        """WebDriver cannot take WebKit offline: the site's server stops (and starts again on its port)."""
        if offline:
            self.server.stop()
        else:
            self.server.start()


@contextlib.contextmanager
def x_display():
    """An Xvfb display of its own (the server picks a free number and tells it through -displayfd)."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              pass_fds=[write_end], stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as announced:
        number = announced.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def webkit_reader(server):
    """A WebKitReader with one MiniBrowser on its own display; going offline stops `server` (a SiteServer)."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    with x_display() as display:
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        previous_display = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = display  # WebKitWebDriver starts MiniBrowser with its own environment
        try:
            driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER))
        finally:
            os.environ.pop("DISPLAY") if previous_display is None else os.environ.update(DISPLAY=previous_display)
        try:
            driver.set_window_size(*WINDOW)
            yield WebKitReader(driver, server)
        finally:
            driver.quit()
