"""test_robustness.py: hostile code in runnable blocks, Stop, crashes and Restart Python, in Chromium.

What it is: what a learner may type, checked against the built site served on 127.0.0.1. HOSTILE
is one table of cells (endless loops and recursion, a raised recursion limit, memory bombs, floods
of output and of show() graphs, input(), exit() and os._exit(), time.sleep and asyncio loops that
never end, threads, HTML in the output, a changed engine or its
file, messages forged to the page from the worker, the page asked for from the worker, crashes of
Python itself, a million globals). JavaScript evaluated from text (js.eval) is refused where the
service worker gives the Python worker its policy: test_security.py tests that message.
Each cell says what its block must show and how it must end; `test_hostile_cell` runs it in block 1,
presses Stop or Restart Python when the cell says so, and then checks that the next run works.
The cells of one group share one page visit (booting Python costs seconds): "plain" on a page that
is not cross-origin isolated (Stop restarts Python), "isolated" on one that is (Stop interrupts).
When Python has to be restarted (Stop without interrupts, a fatal crash) the page's earlier
blocks are re-run to restore the reader's definitions; Restart Python runs nothing, and the next
block the reader runs runs them first and names them: the tests of restarts open the page afresh,
so what they re-run is theirs alone. A block that replaces the lesson's own runtime
(`tutor.runtime.output.Output = None`) breaks nothing: the next runs and the figures work, and after
a restart what the blocks hold then runs (after Reset, the lesson's code). A block that breaks what
the runtime relies on elsewhere (`ast.parse = None`) is named when a replay or a later block re-runs
it, and is not run again until it changes. A double-clicked Stop stops once, and a block whose last run was
stopped, changed the engine or left a task that ignores its cancellation never runs first for a later
block, which names it instead. Errors whose words are Python's alone (a missing package, a syntax
error, SystemExit(3), one's own KeyboardInterrupt, an error whose __str__ raises) are tested in
CPython (tests/tutor/runtime/test_contract.py), and so are deleted or replaced built-ins and show()
(test_guards.py): the browser has nothing of its own to add there.

What it is not: the ordinary run/edit/reset behaviour (test_blocks.py), saved edits
(test_saved_edits.py), or speed: no assertion here measures time. A bound such as "ends within
seconds" is checked by the block ending at all before the helpers' generous timeouts.
"""
import hashlib
from dataclasses import dataclass

import pytest

from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REPO, UI_TIMEOUT_MS, block, open_lesson, output_text, press,
                     python_interpreter, run_block, run_count, set_code, wait_not_busy,
                     wait_output_contains, wait_run_finished, wait_running)
from tutor.runtime.guards import SAFE_RECURSION_LIMIT

RESTORED = "your definitions are back"
NOTHING_RE_RUN = "No block was re-run. When you run a block, the earlier blocks it needs run again first."
RAN_AGAIN = "Python was restarted since block 1 last ran: re-ran it first, for what it defines.\n"
BREAKS_PYTHON = "import ast\nast.parse = None  # what every run needs first"
ENGINE_SHA256 = hashlib.sha256((REPO / "engine" / "tinygrad.py").read_bytes()).hexdigest()
STOPPED_BY_RESTART = "Python had to be restarted to stop this code"
INTERRUPTED = "KeyboardInterrupt: stopped by the Stop button. Everything defined before it is kept."
CRASHED = "Python crashed"
ENGINE_CHANGED = "its last run changed what the lesson's engine and figures compute with"
KEPT_BACK = "Block 1 did not run first: {why}. Run it again, or press its Reset, if this block needs what it defines.\n"
FORGE = """import js, json
def forge(**message):
    js.postMessage(js.JSON.parse(json.dumps(message)))
for request in range(1, 300):  # whatever this run's id is, one of these claims to be its answer
    forge(kind="output", id=request, stream="stdout", text="FORGED OUTPUT")
    forge(kind="result", id=request, ok=False, report="FORGED RESULT", error={"kind": "exception", "message": "x"})
forge(kind="status", state="error", message="FORGED STATUS")
forge(kind="fatal", error={"kind": "stack-overflow", "message": "Maximum call stack size exceeded"})
print("posted")"""


@dataclass(frozen=True)
class Cell:
    """One hostile block: its code, what its output must show (an entry that is a tuple: one of those)
    and must not show, the state it ends in, and what the test does around it."""
    name: str
    code: str
    shows: tuple = ()
    hides: tuple = ()
    state: str = "error"  # the block's data-state once the run ended: done, error or stopped
    stop_when: str | None = None  # press Stop once the output shows this ("" = once the code runs)
    restarts: bool | None = False  # whether Python is replaced meanwhile (None: either may happen)
    restart_after: bool = False  # press Restart Python before the next run (what the hint says)
    then: tuple = ("print(6 * 7)", "42\n")  # the next run, in block 2, and its whole output
    kept_back: str = ""  # why block 1 is not replayed by the restart: block 2 then names it, not run first
    group: str = "plain"


HOSTILE = [
    Cell("endless recursion", "def f():\n    return f()\n\nf()",
         shows=("RecursionError: maximum recursion depth exceeded", "kept calling itself")),
    # recursion through C (an operator calling itself) overflows the browser's stack first
    Cell("recursion through an operator", "class Loop:\n    def __add__(self, other):\n        return self + other\n\n"
         "Loop() + 1", shows=("RecursionError: maximum recursion depth exceeded", "kept calling itself")),
    Cell("an asyncio task left running", "import asyncio\n\nasync def spin():\n    while True:\n"
         "        await asyncio.sleep(0.01)\n\ntask = asyncio.ensure_future(spin())",
         shows=("left an asyncio task running (spin()): it is cancelled",), state="done",
         then=("print(task.cancelled())", "True\n")),
    # One that ignores its cancellation goes on until Restart Python, which never starts it again: block 1 is named
    Cell("an asyncio task that ignores its cancellation", "import asyncio\n\nasync def stubborn():\n    while True:\n"
         "        try:\n            await asyncio.sleep(0.01)\n        except asyncio.CancelledError:\n            pass\n\n"
         "task = asyncio.ensure_future(stubborn())\nawait asyncio.sleep(0.05)  # the task is in its loop",
         shows=("stubborn() caught the cancellation and goes on",),
         state="done", restart_after=True, kept_back="its last run left an asyncio task running that ignored its "
         "cancellation", then=("import asyncio\nprint(sorted(task.get_name() for task in asyncio.all_tasks()\n"
                               "             if task.get_coro().__name__ == 'stubborn'))", "[]\n")),
    Cell("sys.modules cleared", "import sys\nsys.modules.clear()",
         shows=("This block removed modules Python and the page need from sys.modules (sys, ",), state="done",
         then=("import tinygrad, json\nprint(json.dumps(tinygrad.Value(2.0).data * 21))", "42.0\n")),
    Cell("the engine's file deleted", "import os, tinygrad\nos.remove(tinygrad.__file__)",
         shows=("This block deleted the engine's file, tinygrad.py",), state="done", restart_after=True,
         kept_back=ENGINE_CHANGED),
    Cell("the lowest recursion limit Python takes", "import sys\nfor limit in range(1, 1000):\n    try:\n"
         "        sys.setrecursionlimit(limit)\n        break\n    except RecursionError:\n        pass\nprint(limit)",
         shows=("lowered its limit of nested calls", f"it is {SAFE_RECURSION_LIMIT} again for the next run"),
         hides=("Python's own code",)),
    Cell("raised recursion limit", "import sys\nsys.setrecursionlimit(10**6)\n\ndef f():\n    return f()\n\nf()",
         shows=(f"at most {SAFE_RECURSION_LIMIT} nested calls", "RecursionError: maximum recursion depth exceeded",
                "kept calling itself")),
    Cell("raised limit, recursion through C", "import sys\nsys.setrecursionlimit(10**5)\n\nclass Loop:\n"
         "    def __repr__(self):\n        return repr(self)\n\nrepr(Loop())",
         shows=("RecursionError: maximum recursion depth exceeded",)),
    *[Cell(f"memory bomb {code}", code, shows=(("more memory than Python in a browser tab can have", CRASHED),),
           restarts=None) for code in ("x = [0] * 10**10", "b = bytearray(3 * 10**9)", 's = "x" * 10**10')],
    Cell("input()", 'name = input("Your name? ")\nprint("Hello", name)',
         shows=("input() cannot work here", "Assign the value"), hides=("Hello",)),
    Cell("reading stdin", "import sys\nsys.stdin.read()", shows=("input() cannot work here",)),
    *[Cell(f"{ending.splitlines()[-1]}", f"kept_after_exit = 'still here'\n{ending}\nprint('not reached')",
           shows=("only end this block", "kept"), hides=("not reached",), state="done",
           then=("print(kept_after_exit)", "still here\n"))
      for ending in ("exit()", "import os\nos._exit(0)")],  # sys.exit(), quit(): the SystemExit of exit()
    Cell("os._exit underneath", "import posix\nposix._exit(3)", shows=("ended Python's process itself",),
         restarts=True),
    Cell("HTML in the output", "print('<img src=x onerror=alert(1)>')\nprint('<script>alert(2)</script>')",
         shows=("<img src=x onerror=alert(1)>\n<script>alert(2)</script>",), state="done"),
    Cell("a line of 10^7 characters", 'print("x" * 10**7)', shows=("Long output", "not shown"), state="done"),
    Cell("endless loop, Stop", "while True:\n    pass", stop_when="", shows=(STOPPED_BY_RESTART,),
         state="stopped", restarts=True),
    Cell("time.sleep(3)", "import time\nstart = time.monotonic()\ntime.sleep(3)\n"
         "print('slept', time.monotonic() - start >= 3)", shows=("slept True",), hides=("stack switching",),
         state="done"),
    Cell("time.sleep(10**6), Stop", "import time\ntime.sleep(10**6)", stop_when="waits 11.6 days",
         shows=("press Stop to end it sooner", STOPPED_BY_RESTART), state="stopped", restarts=True),
    Cell("asyncio loop that never ends, Stop", "import asyncio\n\nasync def forever():\n    while True:\n"
         "        await asyncio.sleep(0.1)\n\nawait forever()", stop_when="", shows=(STOPPED_BY_RESTART,),
         state="stopped", restarts=True),
    Cell("asyncio.run()", "import asyncio\n\nasync def main():\n    return 1\n\nasyncio.run(main())",
         shows=("`await main()`",)),
    Cell("a thread", "import threading\nthreading.Thread(target=print, args=('in a thread',)).start()",
         shows=("can't start new thread", "no threads")),
    Cell("forged messages to the page", FORGE, shows=("posted",), hides=("FORGED",), state="done"),
    Cell("closing the worker", "import js\njs.close()", shows=("close() would end the worker",)),
    Cell("the page's document, from the worker", "from js import document",
         shows=("runs in a web worker, apart from the page", "`document`", "print() is how a block shows something")),
    Cell("an engine name replaced", "import tinygrad\ntinygrad.Value = None\nfrom tinygrad import Value\nValue(2)",
         shows=("TypeError: 'NoneType' object is not callable", "tinygrad.Value is now None", "press Restart Python"),
         restart_after=True, kept_back=ENGINE_CHANGED, then=("from tinygrad import Value\nprint(Value(2).data)", "2.0\n")),
    Cell("an engine name replaced by a run that succeeds", "import tinygrad\ntinygrad.MLP = None", state="done",
         restart_after=True, kept_back=ENGINE_CHANGED, then=("import tinygrad\nprint(tinygrad.MLP.__name__)", "MLP\n")),
    Cell("the engine module replaced", "import sys\nsys.modules['tinygrad'] = None\nfrom tinygrad import Value",
         shows=("import of tinygrad halted", "press Restart Python"), restart_after=True,
         then=("from tinygrad import Value\nprint(Value(2).data)", "2.0\n")),
    Cell("the engine's file overwritten", "import tinygrad\nwith open(tinygrad.__file__, 'w') as file:\n"
         "    file.write('broken = True')", shows=("changed the engine's file", "Restart Python"), state="done",
         restart_after=True, kept_back=ENGINE_CHANGED, then=("import hashlib, tinygrad\nwith open(tinygrad.__file__, 'rb') as file:\n"
                                   "    print(hashlib.sha256(file.read()).hexdigest())", f"{ENGINE_SHA256}\n")),
    Cell("a file of one's own", "with open('notes.txt', 'w') as file:\n    file.write('kept')\n"
         "print(open('notes.txt').read())", shows=("kept",), state="done",
         then=("print(open('notes.txt').read())", "kept\n")),
    Cell("10^5 show() graphs", "from tinygrad import Value\nv = Value(1)\nfor _ in range(10**5):\n    show(v)",
         shows=("already drew 20 graphs", "not shown", "Graph of v: 1 value, 0 edges"), state="done"),
    Cell("a deeply nested list printed", "x = []\nfor _ in range(10**5):\n    x = [x]\nrepr(x)",
         shows=(CRASHED, "stack ran out", "nested"), hides=("Values",), restarts=True),
    Cell("a deep chain of Values built and freed", "from tinygrad import Value\nchain = Value(0)\n"
         "for _ in range(5000):\n    chain = chain + 1\ndel chain",
         shows=(CRASHED, "stack ran out", "deep chain of Values", "backward()"), restarts=True),
    Cell("10^6 globals", "for i in range(10**6):\n    globals()[f'g{i}'] = i\nprint(len(globals()) > 10**6)",
         shows=("True",), state="done", then=("print(g999999)", "999999\n")),
    # With cross-origin isolation Stop interrupts Python and keeps every definition.
    Cell("time.sleep(3), isolated", "import time\nstart = time.monotonic()\ntime.sleep(3)\n"
         "print('slept', time.monotonic() - start >= 3)", shows=("slept True",), state="done", group="isolated"),
    Cell("time.sleep(10**6), Stop, isolated", "kept = 'kept'\nimport time\ntime.sleep(10**6)",
         stop_when="waits 11.6 days", shows=(INTERRUPTED,), hides=("Traceback",), state="stopped", group="isolated",
         then=("print(kept)", "kept\n")),
    Cell("asyncio loop that never ends, Stop, isolated", "import asyncio\nkept = 'kept'\n\nasync def forever():\n"
         "    while True:\n        await asyncio.sleep(1)\n\nawait forever()", stop_when="", shows=(INTERRUPTED,),
         hides=("Traceback",), state="stopped", group="isolated", then=("print(kept)", "kept\n")),
    Cell("await asyncio.sleep(10**6), Stop, isolated", "import asyncio\nawait asyncio.sleep(10**6)",
         stop_when="", shows=(INTERRUPTED,), state="stopped", group="isolated"),
    Cell("a raised recursion limit, isolated", "import sys\nsys.setrecursionlimit(10**6)\n\ndef f():\n"
         "    return f()\n\nf()", shows=("RecursionError: maximum recursion depth exceeded",), group="isolated"),
]


class Visits:
    """One visit of the lesson page per group of cells, opened when the group's first cell runs (the
    previous group's is closed then), with its uncaught errors and any dialog that opened (none may)."""

    def __init__(self, browser, urls, path):
        self.browser, self.urls, self.path = browser, urls, path
        self.group, self.context = None, None

    def open(self, group):
        if group != self.group:
            self.close()
            self.context = self.browser.new_context(service_workers="block")
            self.context.set_default_timeout(UI_TIMEOUT_MS)
            self.page = self.context.new_page()
            self.errors, self.dialogs = [], []
            self.page.on("pageerror", lambda error: self.errors.append(str(error)))
            self.page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
            open_lesson(self.page, self.urls[group], self.path)
            assert self.page.evaluate("() => crossOriginIsolated") == (group == "isolated")
            self.group = group
        self.errors.clear()
        return self.page

    def close(self):
        if self.context is not None:
            self.context.close()
        self.group, self.context = None, None


@pytest.fixture(scope="module")
def visits(browser, site_url, isolated_url, lesson_path):
    shared = Visits(browser, {"plain": site_url, "isolated": isolated_url}, lesson_path)
    yield shared
    shared.close()


@pytest.fixture
def hostile(visits):
    """The shared page of the plain group; the test fails if the page raised an error or opened a dialog."""
    page = visits.open("plain")
    yield page
    assert visits.errors == [] and visits.dialogs == []


def run_code(block_locator, code):
    """Type `code` into the block, run it, return the output as it stood the moment the block showed the run
    as finished (its run count went up): what the page adds later, a screen reader has already passed by."""
    set_code(block_locator, code)
    block_locator.evaluate("""element => {
        const log = element.querySelector('[role="log"]');
        new MutationObserver((changes, observer) => {
            element.outputWhenFinished = log.textContent;
            observer.disconnect();
        }).observe(element, { attributeFilter: ["data-runs"] });
    }""")
    run_block(block_locator)
    return block_locator.evaluate("element => element.outputWhenFinished")


def assert_shows(shown, expected, unexpected):
    for entry in expected:
        assert any(text in shown for text in (entry if isinstance(entry, tuple) else (entry,))), (entry, shown)
    for text in unexpected:
        assert text not in shown, (text, shown)


def test_a_million_printed_lines_are_capped_and_the_page_keeps_answering(hostile):
    first, second = block(hostile, 1), block(hostile, 2)
    set_code(first, "for i in range(10**6):\n    print(i)")
    runs_before = int(first.get_attribute("data-runs"))
    press(first, "Run")
    wait_running(first)

    typed = "answer = 'typed while Python printed'"
    set_code(second, typed)  # the page takes keystrokes while the flood goes on
    state_meanwhile, text_meanwhile = hostile.evaluate(
        "([running, other]) => [running.dataset.state, other.runnableCode()]",
        [first.element_handle(), second.element_handle()])
    wait_run_finished(first, runs_before)

    assert state_meanwhile == "running", "the flood ended before the page could be used: nothing was shown"
    assert text_meanwhile == typed
    shown = output_text(first)
    lines = shown.splitlines()
    assert lines[:3] == ["0", "1", "2"]
    assert lines[-1] == "999999"
    assert len(lines) < 1100, "the output was not capped"
    assert "not shown" in shown
    assert first.get_attribute("data-state") == "done"


@pytest.mark.parametrize("cell", sorted(HOSTILE, key=lambda cell: cell.group == "isolated"),
                         ids=lambda cell: cell.name)
def test_hostile_cell(visits, cell):
    try:
        check_hostile_cell(visits, cell)
    except BaseException:
        visits.close()  # the next cell opens the page afresh rather than inherit what this one broke
        raise


def check_hostile_cell(visits, cell):
    page = visits.open(cell.group)
    first, second = block(page, 1), block(page, 2)
    interpreter = python_interpreter(page)
    set_code(first, cell.code)
    runs_before = int(first.get_attribute("data-runs"))
    press(first, "Run")
    if cell.stop_when is not None:
        wait_running(first)
        wait_output_contains(first, cell.stop_when)
        press(first, "Stop")
    wait_run_finished(first, runs_before)

    shown = output_text(first)
    try:
        assert_shows(shown, cell.shows, cell.hides)
        assert first.get_attribute("data-state") == cell.state, shown
        if cell.restarts is not None:
            assert (python_interpreter(page) > interpreter) == cell.restarts, shown
        log = first.get_by_role("log")
        assert log.locator("img").count() == 0 and log.locator("script").count() == 0  # output is text only
    finally:  # the next cells need a working Python even when this one failed
        wait_not_busy(first)
        if cell.restart_after:
            restarted = python_interpreter(page)
            press(first, "Restart Python")
            wait_output_contains(first, "Python was restarted")
            wait_not_busy(first)
            assert python_interpreter(page) > restarted

    code, expected = cell.then
    if cell.kept_back:  # block 1 (it changed the engine, say) is never run again silently before block 2: it is named
        expected += KEPT_BACK.format(why=cell.kept_back)
    assert run_code(second, code) == expected
    assert visits.errors == [] and visits.dialogs == []


# ---- Restarts: each test opens the page afresh --------------------------------------------------

def prepare_three_blocks(page, last_code):
    """Blocks 1 and 2 define names; block 3 gets `last_code`. Runs block 3 (so 1 and 2 run first)
    up to the point where it executes; returns block 3."""
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    set_code(first, "from tinygrad import Value\nkept = 'restored'")
    set_code(second, "count = Value(2.0) * 3")
    set_code(third, last_code)
    press(third, "Run")
    wait_running(third)
    return third


def assert_definitions_restored(page, third):
    """After a restart: the note says blocks 1–2 were re-run, and their names work again."""
    wait_output_contains(third, RESTORED)
    wait_not_busy(third)
    assert "Re-ran blocks 1 and 2" in output_text(third)
    for number in (1, 2):
        assert block(page, number).get_attribute("data-runs") == "1", "a re-run must be silent"
    assert run_code(third, "print(kept, count.data == 2.0 * 3)") == "restored True\n"


def test_stop_without_isolation_restarts_python_and_replays_earlier_blocks(page, site_url, lesson_path,
                                                                          page_errors):
    open_lesson(page, site_url, lesson_path)
    assert not page.evaluate("() => crossOriginIsolated")
    third = prepare_three_blocks(page, "while True:\n    pass")
    interpreter = python_interpreter(page)

    press(third, "Stop")

    wait_output_contains(third, "Stopped")
    assert python_interpreter(page) > interpreter, "without isolation Stop must replace the interpreter"
    wait_output_contains(third, RESTORED)
    said = output_text(third)
    assert "lost" not in said and "gone" not in said, f"the definitions are back, not lost: {said}"
    assert_definitions_restored(page, third)
    assert page_errors == []


def test_stop_with_isolation_interrupts_and_keeps_the_namespace(page, isolated_url, lesson_path, page_errors):
    open_lesson(page, isolated_url, lesson_path)
    assert page.evaluate("() => crossOriginIsolated")
    third = prepare_three_blocks(page, "progress = 0\nwhile True:\n    progress += 1")
    interpreter = python_interpreter(page)

    press(third, "Stop")
    wait_output_contains(third, INTERRUPTED)  # the Stop button's interrupt, not a KeyboardInterrupt of the code's
    wait_not_busy(third)

    assert python_interpreter(page) == interpreter, "an interrupt must keep the interpreter"
    assert "Re-ran" not in output_text(third)
    assert run_code(third, "print(kept, count.data == 2.0 * 3, progress > 0)") == "restored True True\n"
    assert page_errors == []


def test_stop_with_isolation_restarts_code_that_ignores_the_interrupt(page, isolated_url, lesson_path,
                                                                     page_errors):
    open_lesson(page, isolated_url, lesson_path)
    third = prepare_three_blocks(page, "sum(range(10**13))")  # one C call: no interrupt is checked
    interpreter = python_interpreter(page)

    press(third, "Stop")

    wait_output_contains(third, "did not answer the interrupt")
    assert python_interpreter(page) > interpreter
    assert_definitions_restored(page, third)
    assert page_errors == []


def test_a_crashed_python_is_detected_and_the_page_recovers(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "from tinygrad import Value\nchain = Value(0)\nfor _ in range(5000):\n"
                    "    chain = chain + 1\nkept = 'restored'")
    set_code(second, "del chain")
    interpreter = python_interpreter(page)

    shown = run_block(second)

    assert "Python crashed" in shown and "deep" in shown and "backward()" in shown, shown
    assert second.get_attribute("data-state") == "error"
    assert python_interpreter(page) > interpreter
    wait_output_contains(second, RESTORED)
    wait_not_busy(second)
    assert "Re-ran block 1" in output_text(second)
    assert run_code(second, "print(kept, chain.data == 5000)") == "restored True\n"
    assert page_errors == []


def test_restart_python_rebuilds_a_broken_engine(page, site_url, lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "from tinygrad import Value\nkept = 'restored'")
    set_code(second, "import sys\nsys.modules['tinygrad'] = None\ndel Value")
    run_block(second)
    broken = run_code(second, "from tinygrad import Value as Engine\nprint(Value(2.0).data)")
    assert "Restart Python" in broken, broken
    interpreter = python_interpreter(page)

    press(second, "Restart Python")

    wait_output_contains(second, NOTHING_RE_RUN)
    wait_not_busy(second)
    assert python_interpreter(page) > interpreter
    assert "Python was restarted" in output_text(second)
    assert run_code(second, "from tinygrad import Value as Engine\nprint(Value is Engine)") == "True\n" + RAN_AGAIN
    assert run_code(block(page, 3), "print(kept)") == "restored\n"
    assert page_errors == []


def test_restart_python_runs_no_block_until_the_reader_runs_one(page, site_url, lesson_path, page_errors):
    """Restart Python runs nothing: a block that printed has not run again (its run count stays) until
    the reader runs a later block, which runs it first and says so."""
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "kept = 'restored'\nprint('block 1 ran')")
    assert run_block(first) == "block 1 ran\n"
    runs = run_count(first)
    interpreter = python_interpreter(page)

    press(first, "Restart Python")

    wait_output_contains(first, "Python was restarted.")  # with what follows it at once
    wait_not_busy(first)
    assert python_interpreter(page) > interpreter
    assert output_text(first) == "Python was restarted.\n" + NOTHING_RE_RUN + "\n", output_text(first)
    assert run_count(first) == runs, "Restart Python ran block 1 again"
    assert run_code(second, "print(kept)") == "restored\n" + RAN_AGAIN
    assert run_count(first) == runs + 1 and output_text(first) == "block 1 ran\n"
    assert page_errors == []



# ---- The lesson's own machinery -----------------------------------------------------------------

CLOBBER = ("import tutor.runtime.output as output, tutor.runtime.runner as runner, tutor.runtime.page_calls as calls\n"
           "output.Output = runner.fresh_namespace = calls.allowed_function = calls.call = None\n"
           "kept = 'from the clobbering block'")
SECANT, POSITION, TANGENT = "Secant and tangent", "Position x", "Tangent slope 2x"


def test_a_block_that_clobbers_the_runtime_breaks_nothing_and_after_a_restart_the_code_shown_runs(page, site_url,
                                                                                                 page_errors):
    open_lesson(page, site_url, "derivatives/")
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    set_code(first, CLOBBER)
    assert "it is put back, so the page keeps working" in run_block(first)
    assert first.get_attribute("data-state") == "done"
    assert run_code(second, "print(kept)") == "from the clobbering block\n"  # runs go on
    figure = page.get_by_role("group", name=SECANT, exact=True)
    figure.scroll_into_view_if_needed()
    position = figure.get_by_role("slider", name=POSITION)
    expect(position).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    position.fill("-3")  # and so do the figures' calls
    expect(figure.locator(f'[data-readout="{TANGENT}"]')).to_have_text("−6", timeout=PYTHON_TIMEOUT_MS)

    press(first, "Reset")  # the lesson's code again: after a restart that runs, not the clobbering code
    interpreter = python_interpreter(page)
    press(second, "Restart Python")
    wait_output_contains(second, NOTHING_RE_RUN)
    wait_not_busy(second)
    assert python_interpreter(page) > interpreter
    assert run_code(third, "print('kept' in globals())") == ("False\nPython was restarted since block 2 last ran: "
                                                             "re-ran it first, for what it defines.\n")
    assert second.get_attribute("data-state") == "error"  # print(kept): the lesson's block 1 has no kept
    assert page_errors == []


def test_a_replayed_block_that_breaks_python_is_named_and_a_restart_without_replay_is_offered(page, site_url,
                                                                                           lesson_path, page_errors):
    """Stop without isolation replays block 1 with the code it holds now, which breaks Python."""
    open_lesson(page, site_url, lesson_path)
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    run_block(first)
    set_code(first, BREAKS_PYTHON)  # edited, not run: the replay runs it
    set_code(second, "while True:\n    pass")
    press(second, "Run")
    wait_running(second)
    press(second, "Stop")
    offer = second.get_by_role("alert")
    expect(offer).to_contain_text("Re-running block 1 broke the page's Python", timeout=PYTHON_TIMEOUT_MS)
    interpreter = python_interpreter(page)
    offer.get_by_role("button", name="Restart Python without re-running blocks").click()
    wait_output_contains(second, "No block was re-run")
    wait_not_busy(second)
    assert python_interpreter(page) > interpreter
    assert "Block 1 broke Python when it was re-run" in output_text(second)
    expect(offer).to_be_hidden()

    press(first, "Reset")  # as the note says: block 1 runs first again before block 3, block 2 (stopped) does not
    shown = run_code(third, "print(6 * 7)")
    assert shown == "42\n" + KEPT_BACK.replace("Block 1", "Block 2").format(why="its last run was stopped"), shown
    assert page_errors == []


def test_an_earlier_block_that_breaks_python_when_run_first_again_is_named_and_not_run_again(page, site_url,
                                                                                            lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    set_code(first, BREAKS_PYTHON)
    run_block(first)
    shown = run_code(second, "print('never printed')")
    assert "Even an empty block fails now" in shown and "Restart Python" in shown, shown
    press(second, "Restart Python")
    wait_output_contains(second, NOTHING_RE_RUN)
    wait_not_busy(second)

    shown = run_code(third, "print(6 * 7)")  # block 1 runs first again, breaks Python: block 3 does not run
    assert "42" not in shown and "Not run: block 1, run first, broke the page's Python" in shown, shown
    assert "Even an empty block fails now" in output_text(first)
    press(third, "Restart Python")
    wait_output_contains(third, NOTHING_RE_RUN)
    wait_not_busy(third)
    runs = run_count(first)

    shown = run_code(third, "print(6 * 7)")  # block 1 is named, not run (block 2's last run failed: not run either)
    assert shown == "42\n" + KEPT_BACK.format(why="its re-run broke the page's Python"), shown
    assert run_count(first) == runs
    assert page_errors == []


@pytest.mark.parametrize("where", ["plain", "isolated", "chained"])
def test_stop_double_clicked_stops_once_and_the_next_block_never_repeats_the_loop(page, site_url, isolated_url,
                                                                                 lesson_path, page_errors, where):
    """A double-click on Stop, on a page that Stop restarts, one it interrupts, and "Build your own engine",
    whose blocks each build on the earlier ones (a later block runs them first, but never a stopped one)."""
    open_lesson(page, isolated_url if where == "isolated" else site_url,
                "build-your-own/" if where == "chained" else lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "while True:\n    pass")
    set_code(second, "print('block 2 ran')")
    runs_before = run_count(first)
    press(first, "Run")
    wait_running(first)
    interpreter = python_interpreter(page)

    first.get_by_role("button", name="Stop", exact=True).dblclick()  # a reader's double-click
    wait_run_finished(first, runs_before)
    wait_not_busy(first)

    assert python_interpreter(page) <= interpreter + 1, "a second Stop while the first is under way restarted Python again"
    assert run_block(second) == "block 2 ran\n"
    assert run_count(first) == runs_before + 1, "block 1's endless loop ran again before block 2"
    assert first.get_attribute("data-state") == "stopped", output_text(first)
    assert page_errors == []


def test_after_restart_python_a_block_that_changed_the_engine_never_runs_first_and_is_named(page, site_url,
                                                                                            lesson_path, page_errors):
    open_lesson(page, site_url, lesson_path)
    first, second = block(page, 1), block(page, 2)
    set_code(first, "import math\nmath.tanh = lambda x: 0.5\nkept = 'kept'")
    run_block(first)
    runs = run_count(first)

    press(first, "Restart Python")
    wait_output_contains(first, "Python was restarted")
    wait_not_busy(first)
    shown = run_code(second, "print('kept' in globals())")

    assert shown.startswith("False\n"), shown  # block 1 did not run first, silently or not
    assert "Block 1 did not run first: its last run changed what the lesson's engine and figures compute with. " \
           "Run it again, or press its Reset, if this block needs what it defines." in shown, shown
    assert run_count(first) == runs
    assert page_errors == []
