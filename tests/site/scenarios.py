"""scenarios.py: the reader's scenarios that Firefox and WebKit go through, and what each must show.

What it is: one table, SCENARIOS, of what a reader does and what must come of it, the same for every
browser; test_firefox.py and test_webkit.py each run it in one browser (a `Reader` of readers.py), one
test per row, in table order, on one browser profile:
  - the service worker takes control and the page is cross-origin isolated after a reload;
  - a block runs from the snapshot and from the plain start (the server then hides the snapshot and the
    service worker), and where the first wasm the host sends is cut short (issue #39), with the output
    CPython gives for the same code;
  - a figure's control answers with Python's number;
  - Stop ends an endless loop: on an isolated page that can interrupt it keeps the interpreter,
    elsewhere a fresh Python replays the earlier blocks (Firefox also on the plain start); either way the
    definitions are back;
  - a saved edit survives a reload; an edited engine applies and restores;
  - a checked prediction names the slip of a wrong answer, confirms the right one and keeps it after a reload;
  - every lesson page shows, reached as a reader goes through the lesson (instant navigation); Python runs
    offline after the footer said the copy is saved;
  - the teacher's class overview reads two learners' work files and a bad one dropped onto it;
  - a block cannot reach the offline copy, and a cached page rewritten behind its back is never served;
  - a redeploy under an open page, with and without the service worker: the page never runs the new
    build's Python, and reloads (edits kept) only when the reader presses Reload;
  - and in every scenario no page logs a console error, an uncaught error or a CSP violation.

Adding a scenario: write `def my_scenario(reader, url, lesson)`, which drives `reader` (open, control,
press, set_code, run, wait, ...) from `url` (the site's base URL) and returns what it saw as plain data,
and `def check_my_scenario(seen, run)`, which asserts on it (`run.lesson`, `run.reader`, `run.status_texts`
say what else it may need); then add a row `Scenario("myScenario", my_scenario, check_my_scenario)` where
it belongs in the order (with `on="plain"` for the site without snapshot and service worker, `needs=` for
scenarios that must have run first, `tolerated=` for a problem text that is not the page's error there,
`browsers=` for a row only some browsers play).
Codes are one line each (or lines without indentation): a reader types them key by key into CodeMirror,
which indents after a colon.

What it is not: a driver (readers.py), or the whole suite again in other browsers (Chromium runs that).
"""
import dataclasses
import json
import re
from functools import cached_property
from pathlib import Path
from typing import Callable

from helpers import PYTHON_TIMEOUT_MS, REPO, cpython_outputs, lesson_with_blocks, runnable_sources
from prediction_answers import answered
from test_figures import TITLES, figure_page
from test_hosting import lesson_pages
from test_untrusted_storage import POISON_FROM_PAGE
from test_predictions_in_browser import plain
from sample_work_files import DROP_FILES, expected_counts, generated_work, lesson_map, row_text

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
# Reader code against the offline copy (issue #34): a block reaches for Cache Storage and is refused; then the
# page itself (standing in for a Python that still had it) rewrites a cached lesson page, which is never served.
UNTRUSTED = {"code": "import js; print(js.caches)", "refusal": "Python in this lesson has no access to the site's storage",
             "target": "your-work/", "marker": "POISONED-BY-A-BLOCK"}
POISON_CACHED_PAGE = f"return ({POISON_FROM_PAGE})([arguments[0], arguments[1]]);"  # as WebDriver runs a script
CLASS = {"page": "class-overview/", "learners": ["Kim", "Lou"], "bad": ["notes.json", "not a work file"],
         "refusal": "notes.json: This is not a work file: its text is not JSON."}
# A checked prediction: on `page`, the one with `id` (docs/predictions.yml), answered first with the value of
# its first slip, then rightly.
PREDICTION = {"page": "backpropagation/", "id": "paths-total"}
PREDICTION_FEEDBACK = ("const shown = arguments[0].querySelector('.prediction__feedback')?.textContent ?? '';"
                       "return shown !== arguments[1] && shown")
SAVED_STATUS = "Saved for offline use"
SAVING_STATUS = "Saving the lesson for offline use…"
# A redeploy under an open page (issue #39): a page of build A whose Python has not started (its first block
# is below the fold) is edited while the host deploys build B. Run must not start B's Python under page A: it
# says a new version is available, and only the reader's Reload brings B, the edit kept. With the service
# worker, B's worker takes over the page, which the reader touched (a key), and the notice comes at once.
REDEPLOY = {"page": "loss-and-gradient/", "code": "print('edited by the reader')",
            "notice": "A new version of the lesson is available"}
PAGE_BUILD = "return document.querySelector('meta[name=\"lesson-python-build\"]')?.content ?? null"
# Requests the sites without a service worker ("plain", "redeploy") answer 404 on purpose; an engine's note
# about them is not a page's error.
HIDDEN_ON_PURPOSE = ("python-snapshot.bin", "service-worker.js", "ServiceWorker")
WITHOUT_SERVICE_WORKER = ("plain", "redeploy")
# Firefox reports this over WebDriver BiDi when Stop terminates a worker busy in Python's WebAssembly; the
# page itself sees no error (its error and unhandledrejection listeners record nothing).
WORKER_TERMINATED = "page error: uncaught exception: undefined"
# A page is done loading what it loads by itself once its figures are drawn (their views are modules
# loaded by name) or say why not.
FIGURES_DRAWN = ("return [...document.querySelectorAll('[data-widget]')].every(f =>"
                 " f.querySelector('.figure__picture svg, .figure__error'))")


@dataclasses.dataclass(frozen=True)
class Lesson:
    """The built site as the scenarios use it: the pages, and what CPython prints for the block page."""
    built_site: Path

    @cached_property
    def block_page(self):
        return lesson_with_blocks(self.built_site, minimum=BLOCK_PAGE_MINIMUM_BLOCKS)

    @cached_property
    def figure_page(self):
        return figure_page(self.built_site, FIGURE["name"])

    @cached_property
    def pages(self):
        return lesson_pages(self.built_site)

    @cached_property
    def predictions(self):
        """The checked predictions, answered by the engine as the build answers them."""
        return answered(REPO / "docs")

    @cached_property
    def first_output(self):
        """What the block page's first block prints in CPython, run the way the page runs it."""
        (ok, output), = cpython_outputs(runnable_sources(self.built_site / self.block_page / "index.html")[:1])
        assert ok, output
        return output


# ---- Scenarios: each drives a reader and returns what it saw ---------------------------------------

def service_worker_takes_control(reader, url, lesson):
    reader.open(url + lesson.block_page)
    reader.wait("return navigator.serviceWorker.controller !== null", timeout_ms=PYTHON_TIMEOUT_MS)
    first = reader.state()
    reader.reload()  # the page reloads itself once when that loses nothing; a reader's reload does the same
    return {"first": first, "afterReload": reader.state()}


def check_control(seen, run):
    assert seen["first"]["controlled"] is True, seen
    assert seen["afterReload"]["controlled"] is True and seen["afterReload"]["isolated"] is True, seen


def block_runs(reader, url, lesson):
    reader.open(url + lesson.block_page)
    return {"output": reader.run(reader.block(1)), **reader.state()}


def check_block_from(boot):
    def check_block_run(seen, run):
        assert seen["boot"] == boot, seen
        assert seen["output"] == run.lesson.first_output, seen
    return check_block_run


def figure_answers(reader, url, lesson):
    reader.open(url + lesson.figure_page)
    figure = reader.control("group", TITLES[FIGURE["name"]])
    reader.scroll_to(figure)  # as a reader would; Python starts when a figure nears the view
    reader.press(figure, FIGURE["button"])
    readout = reader.wait("const shown = arguments[0].querySelector(`[data-readout=\"${arguments[1]}\"]`);"
                          "return arguments[0].getAttribute('aria-busy') === 'false' && shown?.textContent.trim()",
                          figure, FIGURE["readout"], timeout_ms=PYTHON_TIMEOUT_MS)
    return {"readout": readout}


def check_figure(seen, run):
    assert seen["readout"] == FIGURE["shows"], seen


def stop_ends_a_loop(reader, url, lesson):
    reader.open(url + lesson.block_page)
    for number, code in enumerate(STOP["codes"], start=1):
        reader.set_code(reader.block(number), code)
    last = reader.block(len(STOP["codes"]))
    reader.press(last, "Run")
    reader.wait("return arguments[0].dataset.state === 'running'", last, timeout_ms=PYTHON_TIMEOUT_MS)
    before = reader.state()
    reader.press(last, "Stop")
    reader.wait("const log = arguments[0].querySelector('[role=log]')?.textContent ?? '';"
                "return arguments[0].getAttribute('aria-busy') !== 'true' && arguments[0].dataset.state !== 'running'"
                " && arguments[1].some(t => log.includes(t))", last, STOP["endings"], timeout_ms=PYTHON_TIMEOUT_MS)
    stopped, after = reader.output(last), reader.state()
    earlier = [reader.attribute(reader.block(number), "data-runs") for number in range(1, len(STOP["codes"]))]
    reader.set_code(last, STOP["check"])
    return {"before": before, "after": after, "stopped": stopped, "earlierRuns": earlier, "check": reader.run(last)}


def check_stop(can_interrupt):
    """After Stop: interrupted (same interpreter) where the page can interrupt, else replaced and replayed.
    `can_interrupt` None: as the page said before Stop (the browser's `interrupts` says which it must be)."""
    def check_stop_ended_the_loop(seen, run):
        interrupts = can_interrupt if can_interrupt is not None else run.reader.interrupts
        if interrupts is None:  # WebKitGTK isolates the page but has no SharedArrayBuffer: then it replays
            interrupts = seen["before"]["canInterrupt"]
        if interrupts:
            assert "KeyboardInterrupt" in seen["stopped"], seen["stopped"]
            assert seen["after"]["interpreter"] == seen["before"]["interpreter"], "an interrupt must keep the interpreter"
        else:
            assert "Re-ran blocks 1 and 2" in seen["stopped"], seen["stopped"]
            assert seen["after"]["interpreter"] > seen["before"]["interpreter"], "Stop must replace the interpreter"
            assert seen["earlierRuns"] == ["1", "1"], "a re-run must be silent"
        assert seen["check"] == "restored True\n", seen
    return check_stop_ended_the_loop


def saved_edit_survives(reader, url, lesson):
    reader.open(url + lesson.block_page)
    reader.set_code(reader.block(1), SAVED_EDIT)
    reader.reload()
    return {"afterReload": reader.code(reader.block(1))}


def check_saved_edit(seen, run):
    assert seen["afterReload"] == SAVED_EDIT, seen


def number_typed(value):
    return f"{value:g}"


def answer_prediction(reader, group, text):
    """Type `text` into the prediction's field as a reader does, press Check answer; the feedback it shows."""
    before = reader.evaluate("return arguments[0].querySelector('.prediction__feedback')?.textContent ?? ''", group)
    reader.click(reader.evaluate("return arguments[0].querySelector('.prediction__field input')", group))
    reader.keys("Control+a", "Delete")
    reader.type_text(text)
    reader.press(group, "Check answer")
    return reader.wait(PREDICTION_FEEDBACK, group, before)


def prediction_answered(reader, url, lesson):
    prediction = lesson.predictions[PREDICTION["id"]]
    name = f"Prediction: {plain(prediction['question'])}"
    reader.open(url + PREDICTION["page"])
    group = reader.control("group", name)
    wrong = answer_prediction(reader, group, number_typed(prediction["slips"][0]["values"][0]))
    right = answer_prediction(reader, group, number_typed(prediction["answer"]))
    reader.reload()
    group = reader.control("group", name)
    kept = reader.wait("const field = arguments[0].querySelector('.prediction__field input');"
                       "const shown = arguments[0].querySelector('.prediction__feedback')?.textContent;"
                       "return field && shown && {value: field.value, feedback: shown,"
                       " reason: !arguments[0].querySelector('.prediction__revealed').hidden}", group)
    return {"wrong": wrong, "right": right, "afterReload": kept}


def check_prediction(seen, run):
    """The wrong answer got its slip's feedback; the right one "Right." and its reason, also after a reload."""
    prediction = run.lesson.predictions[PREDICTION["id"]]
    assert seen["wrong"] == f"Not quite: {plain(prediction['slips'][0]['says'])} Try again, or press Show me.", seen["wrong"]
    assert seen["right"] == "Right. ", seen["right"]
    assert seen["afterReload"] == {"value": number_typed(prediction["answer"]), "feedback": "Right. ", "reason": True}, seen


def edited_engine(reader, url, lesson):
    reader.open(url + ENGINE["page"])
    editor = reader.control("group", ENGINE["editor"])
    reader.wait("return arguments[0].querySelector('.cm-content .cm-line')", editor)
    # The engine's first line, not the middle of the editor: it is taller than the window.
    reader.click(reader.evaluate("return arguments[0].querySelector('.cm-content .cm-line')", editor))
    reader.keys("Control+Home")
    reader.type_text(ENGINE["firstLine"])
    reader.keys("Enter")
    reader.wait("return arguments[0].engineEditor.editor.getCode().startsWith(arguments[1] + '\\n')",
                editor, ENGINE["firstLine"])
    reader.press(editor, "Use this engine")
    applied = reader.wait("return arguments[0].getAttribute('aria-busy') === 'false' && [...arguments[0]"
                          ".querySelectorAll('[role=status]')].map(s => s.textContent.trim())"
                          ".find(t => /^(Applied|Not applied)/.test(t))", editor, timeout_ms=PYTHON_TIMEOUT_MS)
    reader.open(url + lesson.block_page)
    first = reader.block(1)
    reader.set_code(first, ENGINE["check"])
    with_edit = reader.run(first)
    banner = reader.control("region", "Edited engine")
    reader.press(banner, "Restore the original engine")
    reader.wait("return arguments[0].textContent.includes('original engine is back')", banner)
    return {"applied": applied, "withEdit": with_edit, "restored": reader.run(first)}


def check_engine(seen, run):
    assert seen["applied"].startswith("Applied"), seen["applied"]
    assert (seen["withEdit"], seen["restored"]) == ("42\n", "original\n"), seen


def every_page(reader, url, lesson):
    """As a reader goes through the lesson: the home page opened, then the footer's "next" page, or else the
    first page not seen yet, each reached by its link where the page holds one (the teachers' page's to the
    class overview), which Material's instant navigation follows in the same document (one Python), or else
    opened."""
    visited, followed = [], []
    reader.open(url + lesson.pages[0])
    while True:
        reader.wait(FIGURES_DRAWN)
        visited.append(reader.evaluate("return document.querySelector('link[rel=canonical]').href"))
        remaining = [url + path for path in lesson.pages if url + path not in visited]
        if not remaining:
            return {"visited": visited, "followed": followed}
        following = reader.evaluate("return document.querySelector('.md-footer__link--next')?.href ?? null")
        target = following if following in remaining else remaining[0]
        reader.evaluate("window.lessonTourDocument = true")
        if reader.follow(target):
            followed.append(reader.evaluate("return window.lessonTourDocument === true") and target)
        else:
            reader.open(target)


def check_every_page(seen, run):
    """Every page was shown; most were reached by a link, each in the same document."""
    assert sorted(seen["visited"]) == sorted(run.urls["site"] + path for path in run.lesson.pages), seen
    assert all(seen["followed"]) and len(seen["followed"]) >= len(run.lesson.pages) / 2, seen


def works_offline(reader, url, lesson):
    reader.open(url + lesson.block_page)
    first = reader.block(1)
    if reader.code(first) != reader.evaluate("return arguments[0].dataset.source", first):
        reader.press(first, "Reset")  # the lesson's own code, whose output CPython gives
    reader.wait("return document.documentElement.dataset.offline === 'ready'", timeout_ms=PYTHON_TIMEOUT_MS)
    online = {"status": reader.state()["status"]}
    reader.go_offline()
    try:
        reader.reload()
        return {"online": online, "output": reader.run(reader.block(1)), **reader.state()}
    finally:
        reader.go_online()


def check_offline(seen, run):
    """The footer counted the copy up ("Saving… N%"; where the reader records from a page's start: WebKit's
    may load the page through the whole count-up) and said it was saved; then, with no network (the browser
    offline, or the server stopped), a reload ran Python from the offline copy."""
    texts = run.status_texts
    assert seen["online"]["status"] == SAVED_STATUS
    if run.reader.records_from_start:
        progress = [text for text in texts if text.startswith(SAVING_STATUS) and text.endswith("%")]
        assert progress and SAVED_STATUS in texts[texts.index(progress[0]):], texts
    assert seen["output"] == run.lesson.first_output, seen
    assert seen["boot"] == "snapshot" and seen["controlled"] is True, seen
    if run.reader.goes_offline:
        assert seen["onLine"] is False, seen


def untrusted_code_changes_nothing_served(reader, url, lesson):
    reader.open(url + lesson.block_page)
    first = reader.block(1)
    reader.set_code(first, UNTRUSTED["code"])
    output = reader.run(first)
    poisoned = reader.evaluate(POISON_CACHED_PAGE, UNTRUSTED["target"], UNTRUSTED["marker"])
    reader.open(url + UNTRUSTED["target"])
    return {"output": output, "poisoned": poisoned, "heading": reader.evaluate("return document.querySelector('h1')?.textContent")}


def check_untrusted(seen, run):
    assert UNTRUSTED["refusal"] in seen["output"], seen
    assert seen["poisoned"] is True, seen  # the entry was there to be served
    assert seen["heading"].startswith("Your work") and UNTRUSTED["marker"] not in seen["heading"], seen


def class_overview_reads_work_files(reader, url, lesson):
    reader.open(url + CLASS["page"])
    reader.wait("const field = document.querySelector('.class-overview input[type=file]'); return field && !field.disabled")
    works = [generated_work(lesson_map(lesson.built_site), name, seed=seed) for seed, name in enumerate(CLASS["learners"])]
    reader.evaluate(DROP_FILES, [[f"{work['learner']}.json", json.dumps(work)] for work in works] + [CLASS["bad"]])
    reader.wait("return document.querySelectorAll('.class-overview tbody tr').length === arguments[0]", len(works))
    reader.press(None, "Show every column")  # the overview opens compact, one column per chapter
    rows = reader.wait("const rows = [...document.querySelectorAll('.class-overview tbody tr')];"
                       "return document.querySelector('.class-overview__full').getAttribute('aria-pressed') === 'true'"
                       " && rows.length === arguments[0] && rows.map(row => [...row.cells].map(cell => cell.textContent))",
                       len(works))
    problems = reader.evaluate("return [...document.querySelectorAll('.class-overview__problems li')].map(li => li.textContent)")
    return {"works": works, "rows": rows, "problems": problems}


def check_class_overview(seen, run):
    """One row per learner with the numbers their file holds (the last change is in the browser's own time
    zone, so only its form is compared), and the bad file listed with its reason."""
    lesson = lesson_map(run.lesson.built_site)
    assert [row[0] for row in seen["rows"]] == CLASS["learners"], seen["rows"]
    for work, row in zip(seen["works"], seen["rows"]):
        expected = row_text(expected_counts(work, lesson), lesson)
        assert row[1:7] + row[8:] == expected[:6] + expected[7:], row
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}|—", row[7]), row
    assert seen["problems"] == [CLASS["refusal"]], seen["problems"]


def redeploy_under_an_open_page(reader, host, lesson):
    reader.open(host.url + REDEPLOY["page"])
    at_load = {"interpreter": reader.state()["interpreter"], "build": reader.evaluate(PAGE_BUILD)}
    if host.service_worker:
        reader.wait("return navigator.serviceWorker.controller !== null", timeout_ms=PYTHON_TIMEOUT_MS)
        reader.keys("Home")  # the reader touched the page: it is not reloaded behind their back
    host.redeploy()
    if host.service_worker:
        reader.evaluate("return navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)")
        reader.control("alert", REDEPLOY["notice"], prefix=True, timeout_ms=PYTHON_TIMEOUT_MS)
    first = reader.block(1)
    reader.set_code(first, REDEPLOY["code"])
    refused = reader.run(first)
    notice = reader.control("alert", REDEPLOY["notice"], prefix=True)
    reader.leave()
    reader.evaluate("window.lessonPageLeft = true")  # a new page has no such name
    reader.press(notice, "Reload")
    reader.wait("return !window.lessonPageLeft")
    reader.loaded()
    first = reader.block(1)
    return {"atLoad": at_load, "refused": refused, "kept": reader.code(first), "build": reader.evaluate(PAGE_BUILD),
            "afterReload": reader.run(first)}


def check_redeploy(seen, run):
    """Page A's Run said a new version is available and ran nothing; the reader's Reload showed build B
    with the edit kept, and ran it."""
    assert seen["atLoad"]["interpreter"] == 0, "Python started at load, before the redeploy"
    assert REDEPLOY["notice"] in seen["refused"] and "edited by the reader" not in seen["refused"], seen
    assert seen["build"] not in (None, seen["atLoad"]["build"]), seen
    assert (seen["kept"], seen["afterReload"]) == (REDEPLOY["code"], "edited by the reader\n"), seen


@dataclasses.dataclass(frozen=True)
class Scenario:
    name: str                       # the test's id: test_firefox[name]
    play: Callable                  # play(reader, url, lesson) -> what the reader saw (plain data)
    check: Callable                 # check(seen, run) asserts on it
    on: str = "site"                # "site" (as shipped, service worker allowed), "plain" (no snapshot, no SW),
                                    # "damaged" (its first answer for Pyodide's wasm is cut short) or
                                    # "redeploy" or "redeployServiceWorker" (a copy, without or with its
                                    # SW; play gets its host, whose redeploy() deploys build B, for a URL)
    needs: tuple = ()               # scenarios that must have run before, in the same browser profile
    tolerated: tuple = ()           # starts of problem texts that are not the page's errors here
    browsers: tuple = ("firefox", "webkit")  # the readers (Reader.name) that play it


# Each Stop comes last on its host: WebKitGTK's Worker.terminate() leaves a pure-Python loop running in the page's
# web process until that process ends (a thread at ~80 % of a core, measured), which slowed every later scenario.
SCENARIOS = [
    Scenario("serviceWorkerTakesControl", service_worker_takes_control, check_control),
    Scenario("snapshotBoot", block_runs, check_block_from("snapshot")),
    Scenario("figure", figure_answers, check_figure),
    Scenario("savedEdit", saved_edit_survives, check_saved_edit),
    Scenario("prediction", prediction_answered, check_prediction),
    Scenario("engine", edited_engine, check_engine),
    Scenario("everyPage", every_page, check_every_page),
    Scenario("classOverview", class_overview_reads_work_files, check_class_overview),
    Scenario("offline", works_offline, check_offline, needs=("serviceWorkerTakesControl",)),
    Scenario("untrustedCode", untrusted_code_changes_nothing_served, check_untrusted, needs=("offline",)),
    Scenario("stopIsolated", stop_ends_a_loop, check_stop(None), needs=("serviceWorkerTakesControl",)),
    Scenario("plainBoot", block_runs, check_block_from("plain"), on="plain"),
    Scenario("damagedWasm", block_runs, check_block_from("snapshot"), on="damaged"),
    Scenario("redeploy", redeploy_under_an_open_page, check_redeploy, on="redeploy"),
    Scenario("redeployServiceWorker", redeploy_under_an_open_page, check_redeploy, on="redeployServiceWorker"),
    # Not in WebKitGTK: it cannot interrupt on any host (no SharedArrayBuffer), so its stopIsolated already stops
    # by replacing Python and replaying; this one, on two plain boots there, took 50 s.
    Scenario("stopNotIsolated", stop_ends_a_loop, check_stop(False), on="plain", tolerated=(WORKER_TERMINATED,),
             browsers=("firefox",)),
]
NAMES = [scenario.name for scenario in SCENARIOS]


def names_for(browser):
    """The names of the scenarios `browser` (a Reader.name) plays, in SCENARIOS' order."""
    return [scenario.name for scenario in SCENARIOS if browser in scenario.browsers]


class ScenarioRun:
    """One browser going through SCENARIOS: plays each once (its `needs` first), judges it on demand."""

    def __init__(self, reader, urls, built_site):
        self.reader, self.urls, self.lesson = reader, urls, Lesson(Path(built_site))
        self.seen = {}  # name -> observations, or {"error": ...} when the scenario raised

    @property
    def status_texts(self):
        return self.reader.status_texts

    def play(self, scenario):
        for name in scenario.needs:
            if name not in self.seen:
                self.play(SCENARIOS[NAMES.index(name)])
        self.reader.scenario = scenario.name
        try:
            self.seen[scenario.name] = scenario.play(self.reader, self.urls[scenario.on], self.lesson)
        except Exception as error:  # judged by this scenario's test; the next one still runs
            self.seen[scenario.name] = {"error": f"{type(error).__name__}: {error}"}
        self.reader.collect()

    def judge(self, name):
        """Play scenario `name` (unless already played) and assert what it must show."""
        scenario = SCENARIOS[NAMES.index(name)]
        if name not in self.seen:
            self.play(scenario)
        seen = self.seen[name]
        assert "error" not in seen, seen.get("error")
        scenario.check(seen, self)
        problems = real_problems(self.reader.problems.get(name, []), scenario)
        assert problems == [], f"the pages of scenario {name} reported problems: {problems}"


def real_problems(problems, scenario):
    """The console errors, uncaught errors and CSP violations seen in `scenario`, less the deliberate 404s of
    a site without service worker and the texts the scenario tolerates."""
    return [problem for problem in problems
            if not (scenario.on in WITHOUT_SERVICE_WORKER and any(hidden in problem for hidden in HIDDEN_ON_PURPOSE))
            and not problem.startswith(scenario.tolerated)]

