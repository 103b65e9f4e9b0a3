"""test_webkit.py: the lesson in WebKitGTK, Safari's engine, driven by Selenium (issue #19).

What it is: one MiniBrowser (the browser webkit2gtk-driver ships, started by /usr/bin/WebKitWebDriver
with --automation) per module, on an X display of its own (Xvfb: MiniBrowser has no headless mode),
goes through the scenarios of other_browsers.py in order and checks each with the same expectations
as test_firefox.py: on this module's own server (service worker allowed; stopped for the offline
check, since WebDriver cannot take a WebKit page offline) and on the site served without its snapshot
and service worker (plain start). WebKitGTK gives no console log over WebDriver, so every page records
its uncaught errors, console.error calls and CSP violations (a buffered ReportingObserver also sees the
violations from before the recorder started). Without WebKitGTK or Xvfb the tests skip (fail under CI=true).

What it is not: the whole suite again (a few focused tests), nor a test of Safari's own service-worker
or storage rules on Apple's systems.
"""
import contextlib
import os
import subprocess
import time

import pytest

import other_browsers as expect
from helpers import (MINIBROWSER, PYTHON_TIMEOUT_MS, SERVICE_WORKER_PATH, SNAPSHOT_PATH, UI_TIMEOUT_MS,
                     WEBKIT_DRIVER, free_port, require_browser, serve_hiding, serve_site)
from test_hosting import lesson_pages

# Installed in each page after it loads: keeps what the page reports from then on, and the CSP
# violations the browser buffered since the page started.
RECORDER = """
if (!window.__lessonSeen) {
  const seen = { problems: [], statusTexts: [] };
  Object.defineProperty(window, "__lessonSeen", { value: seen });
  const note = (text) => seen.problems.push(text);
  if (typeof ReportingObserver === "function") {
    new ReportingObserver((reports) => {
      for (const report of reports) note(`${report.type}: ${JSON.stringify(report.body)}`);
    }, { types: ["csp-violation"], buffered: true }).observe();
  }
  document.addEventListener("securitypolicyviolation", (e) => note(`CSP: ${e.effectiveDirective} blocked ${e.blockedURI}`));
  addEventListener("error", (e) => note(`page error: ${e.message}`));
  addEventListener("unhandledrejection", (e) => note(`page error: ${e.reason}`));
  const error = console.error.bind(console);
  console.error = (...args) => { note(`console: ${args.join(" ")}`); error(...args); };
  const remember = () => {
    const text = document.querySelector(".lesson-offline-status")?.textContent;
    if (text && seen.statusTexts.at(-1) !== text) seen.statusTexts.push(text);
  };
  remember();
  new MutationObserver(remember).observe(document, { subtree: true, childList: true, characterData: true });
}
"""
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


# Scroll the element to the middle of the window; after two frames, answer whether a click at its centre reaches it.
ON_TOP_AFTER_TWO_FRAMES = """const [element, done] = arguments;
element.scrollIntoView({block: "center"});
requestAnimationFrame(() => requestAnimationFrame(() => {
  const box = element.getBoundingClientRect();
  done(element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)));
}));"""


class WebKitReader:
    """A reader in MiniBrowser: opens pages, types into blocks, presses buttons by their names."""

    def __init__(self, driver):
        self.driver = driver
        self.problems = {}
        self.status_texts = []  # every text the offline status line showed, in order
        self.scenario = "start"

    # ---- pages --------------------------------------------------------------------------------
    def wait(self, script, *args, timeout_ms=UI_TIMEOUT_MS):
        """Poll `script` (a function body returning a value) until it returns something truthy."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            try:
                value = self.driver.execute_script(script, *args)
            except Exception:  # the page is navigating
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for: {script[:160]} (the page shows: {self.shown()})")
            time.sleep(0.1)

    def shown(self):
        """Python's state and every status line of the page, for a failure's message."""
        try:
            return self.driver.execute_script(
                "return `Python ${document.documentElement.dataset.pythonState}, boot ${document.documentElement.dataset.pythonBoot}; `"
                " + [...document.querySelectorAll('[role=status], .figure__status')].map(s => s.textContent.trim()).filter(Boolean).join(' | ')")
        except Exception as error:  # the page is navigating, or the browser is gone
            return repr(error)

    def collect(self):
        """Move what the current page recorded into this scenario's problems."""
        try:
            found = self.driver.execute_script("const seen = window.__lessonSeen;"
                                               "return seen ? [seen.problems.splice(0), seen.statusTexts.splice(0)] : [[], []]")
        except Exception:
            found = [[], []]
        self.problems.setdefault(self.scenario, []).extend(found[0])
        self.status_texts.extend(found[1])

    def loaded(self):
        self.wait("return document.readyState === 'complete' && [...document.querySelectorAll('div.runnable')]"
                  ".every(b => b.dataset.mounted === 'true')")
        self.driver.execute_script(RECORDER)

    def leave(self):
        """Before the driver leaves a page: read what it recorded, and let a Python worker that is starting
        come up first (other_browsers.PYTHON_SETTLED says why)."""
        self.collect()
        self.wait(expect.PYTHON_SETTLED, timeout_ms=PYTHON_TIMEOUT_MS)

    def open(self, url):
        self.leave()
        self.driver.get(url)
        self.loaded()

    def reload(self):
        self.leave()
        self.driver.refresh()
        self.loaded()

    def state(self):
        return self.driver.execute_script(PAGE_STATE)

    # ---- blocks -------------------------------------------------------------------------------
    def block(self, number):
        from selenium.webdriver.common.by import By
        self.wait("return document.querySelectorAll('div.runnable').length >= arguments[0]", number)
        return self.driver.find_elements(By.CSS_SELECTOR, "div.runnable")[number - 1]

    def press(self, scope, name, timeout_ms=PYTHON_TIMEOUT_MS):
        button = self.wait("return [...arguments[0].querySelectorAll('button')].find(b => b.textContent.trim() === arguments[1]"
                           " && !b.disabled && b.getAttribute('aria-disabled') !== 'true')", scope, name, timeout_ms=timeout_ms)
        self.click(button)

    def click(self, element):
        """Click `element` as a reader would. WebDriver clicks a point of the screen, so the element must
        still be there after the page's pending frames (CodeMirror scrolls its cursor into view a frame
        after a key), or the click lands on whatever moved there."""
        deadline = time.monotonic() + UI_TIMEOUT_MS / 1000
        while not self.driver.execute_async_script(ON_TOP_AFTER_TWO_FRAMES, element):
            if time.monotonic() > deadline:
                raise AssertionError(f"{element.tag_name} stayed covered (the page shows: {self.shown()})")
        element.click()

    def type_into(self, target, text):
        """Click `target`, select all and type `text` in its place."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        self.click(target)
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL) \
            .send_keys(Keys.DELETE).send_keys(text).perform()

    def set_code(self, block, code):
        from selenium.webdriver.common.by import By
        if not block.find_elements(By.CSS_SELECTOR, ".cm-content"):
            self.click(block.find_element(By.TAG_NAME, "pre"))
        self.wait("return arguments[0].querySelector('.cm-content')", block)
        self.type_into(block.find_element(By.CSS_SELECTOR, ".cm-content"), code)
        self.wait("return arguments[0].runnableCode() === arguments[1]", block, code)

    def output(self, block):
        return self.driver.execute_script("return arguments[0].querySelector('[role=log]')?.textContent ?? ''", block)

    def run(self, block):
        before = int(block.get_attribute("data-runs") or 0)
        self.press(block, "Run")
        self.wait("return Number(arguments[0].dataset.runs || 0) > arguments[1]"
                  " && arguments[0].getAttribute('aria-busy') !== 'true'", block, before, timeout_ms=PYTHON_TIMEOUT_MS)
        return self.output(block)

    # ---- scenarios (the same as tests/site/firefox/scenarios.mjs) -----------------------------
    def service_worker_takes_control(self, base, settings):
        self.open(base + settings["blockPage"])
        self.wait("return navigator.serviceWorker.controller !== null", timeout_ms=PYTHON_TIMEOUT_MS)
        first = self.state()
        self.reload()  # the page reloads itself once when that loses nothing; a reader's reload does the same
        return {"first": first, "afterReload": self.state()}

    def block_runs(self, base, settings):
        self.open(base + settings["blockPage"])
        return {"output": self.run(self.block(1)), **self.state()}

    def figure_answers(self, base, settings):
        from selenium.webdriver.common.by import By
        figure_settings = settings["figure"]
        self.open(base + figure_settings["page"])
        figure = self.driver.find_element(By.CSS_SELECTOR, f'[data-widget="{figure_settings["name"]}"]')
        # As a reader would, and Python starts only when a figure nears the view: its button is enabled after that.
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", figure)
        self.press(figure, figure_settings["button"])
        readout = self.wait("const shown = arguments[0].querySelector(`[data-readout=\"${arguments[1]}\"]`);"
                            "return arguments[0].getAttribute('aria-busy') === 'false' && shown?.textContent.trim()",
                            figure, figure_settings["readout"], timeout_ms=PYTHON_TIMEOUT_MS)
        return {"readout": readout}

    def stop_ends_a_loop(self, base, settings):
        stop = settings["stop"]
        self.open(base + settings["blockPage"])
        for number, code in enumerate(stop["codes"], start=1):
            self.set_code(self.block(number), code)
        last = self.block(len(stop["codes"]))
        self.press(last, "Run")
        self.wait("return arguments[0].dataset.state === 'running'", last, timeout_ms=PYTHON_TIMEOUT_MS)
        before = self.state()
        self.press(last, "Stop")
        self.wait("const log = arguments[0].querySelector('[role=log]')?.textContent ?? '';"
                  "return arguments[0].getAttribute('aria-busy') !== 'true' && arguments[1].some(t => log.includes(t))",
                  last, stop["endings"], timeout_ms=PYTHON_TIMEOUT_MS)
        stopped, after = self.output(last), self.state()
        earlier = [self.block(number).get_attribute("data-runs") for number in range(1, len(stop["codes"]))]
        self.set_code(last, stop["check"])
        return {"before": before, "after": after, "stopped": stopped, "earlierRuns": earlier, "check": self.run(last)}

    def saved_edit_survives(self, base, settings):
        self.open(base + settings["blockPage"])
        self.set_code(self.block(1), settings["savedEdit"])
        self.reload()
        return {"afterReload": self.driver.execute_script("return arguments[0].runnableCode()", self.block(1))}

    def edited_engine(self, base, settings):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        engine = settings["engine"]
        self.open(base + engine["page"])
        editor = self.wait(f"return document.querySelector('[aria-label=\"{engine['editor']}\"] .cm-content')"
                           f" && document.querySelector('[aria-label=\"{engine['editor']}\"]')")
        # The engine's first line, not the middle of the editor: it is taller than the window.
        first_line = editor.find_element(By.CSS_SELECTOR, ".cm-content .cm-line")
        self.click(first_line)
        ActionChains(self.driver).key_down(Keys.CONTROL).send_keys(Keys.HOME).key_up(Keys.CONTROL) \
            .send_keys(engine["firstLine"] + Keys.ENTER).perform()
        self.wait("return arguments[0].engineEditor.editor.getCode().startsWith(arguments[1] + '\\n')", editor, engine["firstLine"])
        self.press(editor, "Use this engine")
        applied = self.wait("return arguments[0].getAttribute('aria-busy') === 'false' && [...arguments[0]"
                            ".querySelectorAll('[role=status]')].map(s => s.textContent.trim())"
                            ".find(t => /^(Applied|Not applied)/.test(t))", editor, timeout_ms=PYTHON_TIMEOUT_MS)
        self.open(base + settings["blockPage"])
        first = self.block(1)
        self.set_code(first, engine["check"])
        with_edit = self.run(first)
        banner = self.driver.find_element(By.CSS_SELECTOR, '[aria-label="Edited engine"]')
        self.press(banner, "Restore the original engine")
        self.wait("return arguments[0].textContent.includes('original engine is back')", banner)
        return {"applied": applied, "withEdit": with_edit, "restored": self.run(first)}

    def every_page(self, base, pages):
        for path in pages:
            self.open(base + path)
            time.sleep(0.5)  # prefetches and late module loads
        return {"pages": len(pages)}

    def saved_for_offline(self, base, settings):
        self.open(base + settings["blockPage"])
        first = self.block(1)
        if self.driver.execute_script("return arguments[0].runnableCode() !== arguments[0].dataset.source", first):
            self.press(first, "Reset")  # the lesson's own code, whose output CPython gives
        self.wait("return document.documentElement.dataset.offline === 'ready'", timeout_ms=PYTHON_TIMEOUT_MS)
        return {"status": self.driver.execute_script("return document.querySelector('.lesson-offline-status')?.textContent")}

    def runs_offline(self, base, settings, online):
        """With the server stopped: a reload comes from the offline copy and Python runs."""
        self.reload()
        return {"online": online, "output": self.run(self.block(1)), **self.state()}


@pytest.fixture(scope="module")
def webkit(built_site):
    """Every scenario's observations, from one MiniBrowser, as {"scenarios": ..., "problems": ...}."""
    require_browser("webkit")
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    settings = expect.settings(built_site)
    seen = {"scenarios": {}, "expected output": expect.first_block_output(built_site, settings["blockPage"])}
    with x_display() as display, serve_hiding(built_site, {SNAPSHOT_PATH, SERVICE_WORKER_PATH}) as plain_url:
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        previous_display = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = display  # WebKitWebDriver starts MiniBrowser with its own environment
        try:
            driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBKIT_DRIVER))
        finally:
            os.environ.pop("DISPLAY") if previous_display is None else os.environ.update(DISPLAY=previous_display)
        driver.set_window_size(1280, 900)
        reader = WebKitReader(driver)

        only = os.environ.get("WEBKIT_ONLY")  # e.g. WEBKIT_ONLY=figure,engine while working on one scenario

        def scenario(name, action, *args):
            if only and name not in only.split(","):
                return
            reader.scenario = name
            started = time.monotonic()
            try:
                seen["scenarios"][name] = action(*args)
            except Exception as error:  # reported by the test of that scenario; the next one still runs
                seen["scenarios"][name] = {"error": f"{type(error).__name__}: {error}"}
            reader.collect()
            print(f"webkit: {name} took {time.monotonic() - started:.0f} s")  # shown with -s, or when a test fails

        try:
            port = free_port()
            with serve_site(built_site, port) as site_url:
                scenario("serviceWorkerTakesControl", reader.service_worker_takes_control, site_url, settings)
                scenario("snapshotBoot", reader.block_runs, site_url, settings)
                scenario("figure", reader.figure_answers, site_url, settings)
                scenario("stopIsolated", reader.stop_ends_a_loop, site_url, settings)
                scenario("savedEdit", reader.saved_edit_survives, site_url, settings)
                scenario("engine", reader.edited_engine, site_url, settings)
                scenario("everyPage", reader.every_page, site_url, lesson_pages(built_site))
                scenario("savedForOffline", reader.saved_for_offline, site_url, settings)
            scenario("offline", reader.runs_offline, site_url, settings, seen["scenarios"].get("savedForOffline"))
            scenario("plainBoot", reader.block_runs, plain_url, settings)
            scenario("stopNotIsolated", reader.stop_ends_a_loop, plain_url, settings)
        finally:
            driver.quit()
    seen["problems"], seen["statusTexts"] = reader.problems, reader.status_texts
    return seen


def scenario(webkit, name):
    return expect.scenario(webkit, name, "WEBKIT_ONLY")


def test_webkit_the_service_worker_takes_control_and_isolates_the_page(webkit):
    expect.check_control(scenario(webkit, "serviceWorkerTakesControl"))


def test_webkit_a_block_runs_from_the_snapshot(webkit):
    expect.check_block_run(scenario(webkit, "snapshotBoot"), webkit["expected output"], "snapshot")


def test_webkit_a_block_runs_from_the_plain_start(webkit):
    expect.check_block_run(scenario(webkit, "plainBoot"), webkit["expected output"], "plain")


def test_webkit_a_figure_answers(webkit):
    expect.check_figure(scenario(webkit, "figure"))


def test_webkit_stop_ends_a_loop_on_an_isolated_page(webkit):
    """WebKitGTK isolates the page but has no SharedArrayBuffer: Stop then replaces Python and replays."""
    seen = scenario(webkit, "stopIsolated")
    expect.check_stop(seen, can_interrupt=seen.get("before", {}).get("canInterrupt", False))


def test_webkit_stop_restarts_and_replays_where_the_page_is_not_isolated(webkit):
    expect.check_stop(scenario(webkit, "stopNotIsolated"), can_interrupt=False)


def test_webkit_a_saved_edit_survives_a_reload(webkit):
    expect.check_saved_edit(scenario(webkit, "savedEdit"))


def test_webkit_an_edited_engine_applies_and_restores(webkit):
    expect.check_engine(scenario(webkit, "engine"))


def test_webkit_python_runs_offline_after_the_footer_says_the_copy_is_saved(webkit):
    expect.check_offline(scenario(webkit, "offline"), webkit["expected output"], webkit["statusTexts"],
                         browser_offline=False)


def test_webkit_no_page_logs_an_error(webkit, built_site):
    every_page = scenario(webkit, "everyPage")
    assert "error" not in every_page, every_page.get("error")
    assert every_page["pages"] == len(lesson_pages(built_site))
    problems = {name: expect.real_problems(found, plain=name in ("plainBoot", "stopNotIsolated"),
                                           stopped_a_worker=name == "stopNotIsolated")
                for name, found in webkit["problems"].items()}
    assert {name: found for name, found in problems.items() if found} == {}
