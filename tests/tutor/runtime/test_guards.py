"""Tests of tutor.runtime.guards and the hostile-code side of the runner and its hints, in CPython.

What it is: the Python half of what keeps a block from breaking the page's Python (issue #21): the
recursion limit a block cannot raise past what the browser takes, time.sleep in slices that Stop
ends, os._exit ending only the block, built-ins and show() put back after a run, the hint when a
block changed the lesson's engine, the hints for threads and asyncio.run(), the detection of a deep
chain of Values (after a run and while it builds), a Stop that cancels a run waiting in an await, and the
hints for asking the worker for the page (`from js import document`) and for js.eval, which the page refuses.
What it is not: the browser's half (the worker's wait, forged messages, crash messages): the hostile
cells of tests/site/test_robustness.py run those in Chromium. Nothing here changes this CPython's
own recursion limit, time.sleep or os._exit: the replacements are built with stand-ins.
"""
import asyncio
import builtins
import gc
import importlib
import os
import sys
import types

import pytest

import tinygrad
from block_runs import cpython_run
from own_thread import in_own_thread
from tutor.runtime import guards, hints, output, runner, stopping


def run(code, page="guards-page", fresh=True):
    """Run `code` as a block in CPython; (report, output text without graphs, the output items)."""
    ran = cpython_run(code, page=page, fresh=fresh)
    return ran.report, ran.text, ran.items


@pytest.fixture
def engine_as_installed():
    """The engine module's names as the file defines them, put back after the test changed them."""
    saved = dict(vars(tinygrad))
    yield tinygrad
    vars(tinygrad).clear()
    vars(tinygrad).update(saved)


# ---- The recursion limit --------------------------------------------------------------------

def test_a_raised_recursion_limit_stays_at_what_the_browser_takes_and_says_so():
    limits, notes = [], []
    setrecursionlimit = guards.limited_recursion(limits.append, notes.append)
    setrecursionlimit(10**6)
    setrecursionlimit(100)
    assert limits == [guards.SAFE_RECURSION_LIMIT, 100] and guards.SAFE_RECURSION_LIMIT > 100
    assert len(notes) == 1 and f"at most {guards.SAFE_RECURSION_LIMIT} nested calls" in notes[0]
    assert "1000000" in notes[0]
    with pytest.raises(TypeError):
        setrecursionlimit("deep")


def test_the_recursion_error_reads_the_same_whatever_limit_was_asked():
    report, _, _ = run("import sys\ndef f():\n    return f()\nf()")
    assert "RecursionError: maximum recursion depth exceeded" in report and "kept calling itself" in report


@pytest.fixture
def page_recursion_limit():
    """Python's limit of nested calls as the guards set it in the page; desktop Python's again afterwards."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(guards.SAFE_RECURSION_LIMIT)
    yield
    sys.setrecursionlimit(previous)


def test_the_recursion_hint_says_the_page_s_limit_is_lower_than_desktop_python_s(page_recursion_limit):
    walk = ("from tinygrad import Value\ntotal = sum(Value(i) for i in range(300))\n\ndef depth(value):\n"
            "    return 1 + max((depth(child) for child, _ in value.edges), default=0)\n\ndepth(total)")
    report, _, _ = run(walk)
    assert "RecursionError" in report and report.endswith(
        f"Python stops after about {guards.SAFE_RECURSION_LIMIT} nested calls in the page (desktop Python allows "
        "1,000: deeper calls would overflow the browser's smaller stack). Check that every chain of calls reaches a "
        "case that returns directly; a function that calls itself once per Value of a long graph (a sum() of "
        "hundreds of Values, say) needs a loop with a list as its stack instead.\n")


# ---- time.sleep -------------------------------------------------------------------------------

def fake_sleep(interrupt_after=None):
    """guards.page_sleep over a clock that `wait` advances: (sleep, waits, notes, flushes)."""
    waits, notes, flushes = [], [], []
    clock = [0.0]

    def wait(seconds):
        waits.append(seconds)
        clock[0] += seconds
        return interrupt_after is not None and len(waits) >= interrupt_after

    sleep = guards.page_sleep(wait, notes.append, lambda: flushes.append(True))
    return sleep, waits, notes, flushes, clock


def test_sleep_waits_the_whole_time_in_slices_after_sending_the_output(monkeypatch):
    sleep, waits, notes, flushes, clock = fake_sleep()
    monkeypatch.setattr(guards.time, "monotonic", lambda: clock[0])
    sleep(0.35)
    assert sum(waits) == pytest.approx(0.35) and max(waits) <= guards.SLEEP_SLICE_SECONDS
    assert flushes == [True] and notes == []


def test_stop_ends_a_long_sleep_which_says_how_long_it_would_wait(monkeypatch):
    sleep, waits, notes, _, clock = fake_sleep(interrupt_after=3)
    monkeypatch.setattr(guards.time, "monotonic", lambda: clock[0])
    with pytest.raises(KeyboardInterrupt):
        sleep(10**6)
    assert len(waits) == 3
    assert notes == ["time.sleep(1000000) waits 11.6 days: press Stop to end it sooner."]


@pytest.mark.parametrize("seconds, error", [(-1, ValueError), (float("nan"), ValueError), ("1", TypeError),
                                            (None, TypeError)])
def test_sleep_refuses_what_time_sleep_refuses(seconds, error):
    sleep, waits, _, _, _ = fake_sleep()
    with pytest.raises(error):
        sleep(seconds)
    assert waits == []


@pytest.mark.parametrize("seconds, text", [(12, "12 seconds"), (600, "10 minutes"), (7200, "2 hours"),
                                           (10**6, "11.6 days")])
def test_durations_read_in_the_unit_a_reader_thinks_in(seconds, text):
    assert guards.duration(seconds) == text


# ---- os._exit, built-ins, show ---------------------------------------------------------------

def test_os_exit_ends_only_the_block_and_keeps_the_namespace(monkeypatch):
    monkeypatch.setattr(os, "_exit", guards.end_block)
    report, shown, _ = run("kept = 1\nimport os\nos._exit(0)\nprint('not reached')")
    assert report == "" and "only end this block" in shown and "not reached" not in shown
    assert run("print(kept)", fresh=False)[1] == "1\n"


@pytest.mark.parametrize("code, remark", [
    ("import builtins\ndel builtins.print", "built-in `print`"),
    ("import builtins\nbuiltins.len = None\nbuiltins.print = None", "built-ins `len`, `print`"),
    ("__builtins__ = None", "`__builtins__`"),
    ("del show", "show() belongs to the page"),
])
def test_deleted_or_replaced_built_ins_and_show_come_back_after_the_run(code, remark):
    report, shown, _ = run(code)
    assert report == "" and remark in shown and "back for the next run" in shown, shown
    assert builtins.print is guards.ORIGINAL_BUILTINS["print"] and builtins.len is guards.ORIGINAL_BUILTINS["len"]
    assert run("print(len([1, 2]), callable(show))", fresh=False)[1] == "2 True\n"


def test_using_a_deleted_built_in_in_the_same_block_gets_a_hint():
    report, _, _ = run("import builtins\ndel builtins.abs\nabs(-1)")
    assert "NameError" in report and "abs is one of Python's built-ins" in report


# ---- A changed engine -----------------------------------------------------------------------

def test_an_engine_name_replaced_by_another_value_gets_the_restart_hint(engine_as_installed):
    report, _, _ = run("import tinygrad\ntinygrad.Value = None\nfrom tinygrad import Value\nValue(2)")
    assert "TypeError: 'NoneType' object is not callable" in report
    assert "tinygrad.Value is now None" in report and "press Restart Python" in report


def test_a_deleted_engine_function_gets_the_hint_and_an_intact_engine_none(engine_as_installed):
    assert guards.engine_changes() == ""
    assert "Restart Python" not in run("1 / 0")[0]
    del tinygrad.train_line
    assert guards.engine_changes() == "tinygrad.train_line was deleted"
    assert "Restart Python" in run("1 / 0")[0]


def test_the_run_that_changed_the_engine_is_told_apart_from_later_ones(engine_as_installed):
    page = "engine-changing-page"
    assert cpython_run("import tinygrad\ntinygrad.MLP = None", page).result["engineChanged"] is True  # not replayed
    assert cpython_run("print(1)", page, fresh=False).result["engineChanged"] is False
    assert cpython_run("import tinygrad\ntinygrad.MLP = 1", page, fresh=False).result["engineChanged"] is True
    assert cpython_run("import tinygrad\ntinygrad.Value = None\n1 / 0", page, fresh=False).result["engineChanged"]


def test_a_rewritten_engine_file_is_reported_once_and_gets_the_hint(tmp_path, monkeypatch):
    engine_file = tmp_path / "tinygrad.py"
    engine_file.write_text("class Value:\n    pass\n", encoding="utf-8")
    monkeypatch.setattr(guards, "engine_file", (engine_file, engine_file.read_text(encoding="utf-8")))
    monkeypatch.setattr(guards, "reported_engine_text", guards.NOTHING_REPORTED)
    assert guards.engine_file_changed() == ""
    engine_file.write_text("broken = True\n", encoding="utf-8")
    assert "Press Restart Python to get the file back" in guards.engine_file_changed()
    assert guards.engine_file_changed() == ""  # once per change
    assert guards.engine_changes() == "its file tinygrad.py was changed or deleted"


def test_an_engine_installed_anew_is_noted_when_it_is_first_imported(monkeypatch):
    guards.engine_changes()  # the lesson's engine, noted (as the build's snapshot notes it)
    for name in ("engine_file", "engine_objects"):
        monkeypatch.setattr(guards, name, getattr(guards, name))  # put back after the test
    monkeypatch.delitem(sys.modules, "tinygrad")  # what installing an edited engine does before configure's guards
    guards.remember_engine_file()
    importlib.import_module("tinygrad")  # a figure imports the installed engine: new classes, none a block made
    assert guards.engine_changes() == "" and guards.figures_changes() == ""
    importlib.reload(sys.modules["tinygrad"])  # a block's
    assert guards.figures_changes().startswith("tinygrad.Value was made anew (importlib.reload)")


def test_a_deleted_engine_file_is_reported_once(tmp_path, monkeypatch):
    engine_file = tmp_path / "tinygrad.py"
    engine_file.write_text("class Value:\n    pass\n", encoding="utf-8")
    monkeypatch.setattr(guards, "engine_file", (engine_file, engine_file.read_text(encoding="utf-8")))
    monkeypatch.setattr(guards, "reported_engine_text", guards.NOTHING_REPORTED)
    report, text, _ = run(f"import os\nos.remove({str(engine_file)!r})")
    assert report == "" and text == (
        "[This block deleted the engine's file, tinygrad.py, from this Python's file system: code that imports it "
        "anew (importlib.reload) fails. Press Restart Python to get the file back.]\n")
    assert run("x = 1")[1] == ""  # once per change


# ---- Hints for what the browser's Python cannot do ------------------------------------------

class JsException(Exception):
    """Pyodide's pyodide.ffi.JsException, as far as the hints read it: the JavaScript error's `name`."""

    def __init__(self, name, message):
        super().__init__(f"{name}: {message}")
        self.name = name


@pytest.fixture
def js_module(monkeypatch):
    """A stand-in for Pyodide's `js` module (the worker's global scope), which has no document."""
    module = types.ModuleType("js")
    monkeypatch.setitem(sys.modules, "js", module)
    return module


def test_asking_the_worker_for_the_page_says_python_runs_apart_from_it(js_module):
    for code in ("from js import document", "import js\njs.document"):
        with pytest.raises((ImportError, AttributeError)) as raised:
            exec(code, {})
        kind, sentence = hints.hint_for(raised.value)
        assert kind == "no-page" and "runs in a web worker, apart from the page" in sentence, code
        assert "print() is how a block shows something" in sentence
    assert hints.hint_for(AttributeError("'int' object has no attribute 'document'")) == (None, None)


@pytest.mark.parametrize("error, kind, hint", [
    (JsException("EvalError", "Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed"),
     "no-eval", "runs no JavaScript made from text"),
    (JsException("TypeError", "x is not a function"), None, None),
    (guards.NoThreads("can't start new thread"), "no-threads", "no threads"),
    (guards.NoBlockingWait("no stack switching"), "no-blocking-wait", "`await main()`"),
    (RuntimeError("can't start new thread"), None, None),  # a RuntimeError of the reader's own: no hint
    (MemoryError(), "memory", "more memory than Python in a browser tab can have"),
    (OverflowError("cannot fit 'int' into an index-sized integer"), "memory", "sizes must fit in 32 bits"),
    (OverflowError("math range error"), None, None),
])
def test_what_the_browser_s_python_cannot_do_gets_a_hint_by_the_error_s_kind(error, kind, hint):
    found_kind, sentence = hints.hint_for(error)
    assert found_kind == kind and (hint in sentence if hint else sentence is None)


def test_the_guards_make_starting_a_thread_raise_their_own_error(monkeypatch):
    for module, name in guards.THREAD_STARTERS:
        scope = importlib.import_module(module)
        if hasattr(scope, name):
            monkeypatch.setattr(scope, name, getattr(scope, name))  # put back after the test
    guards.refuse_threads()
    # No thread of our own for this run either (own_thread.py): the block never awaits, so one send() runs it.
    running = runner.run("threads-page", "import threading\nthreading.Thread(target=print).start()",
                         lambda stream, text: None, fresh=True)
    with pytest.raises(StopIteration) as finished:
        running.send(None)
    result = finished.value.value
    assert result["error"]["type"] == "NoThreads" and result["error"]["hint"] == "no-threads"
    assert "has no threads" in result["report"]


# ---- Deep chains of Values --------------------------------------------------------------------

def chain(length, accumulated_first=True):
    total = tinygrad.Value(0)
    for _ in range(length):
        total = total + 1 if accumulated_first else tinygrad.Value(1) + total
    return total


@pytest.mark.parametrize("accumulated_first", [True, False])
def test_a_namespace_holding_a_deep_chain_is_told_apart_from_a_shallow_or_released_one(accumulated_first):
    deep = chain(guards.DEEP_CHAIN + 10, accumulated_first)
    assert guards.holds_deep_graph([{"total": deep}])
    assert guards.holds_deep_graph([{"losses": [deep]}])
    assert not guards.holds_deep_graph([{"total": chain(50, accumulated_first)}])
    deep.backward()  # the engine now frees it newest first, one node at a time
    assert not guards.holds_deep_graph([{"total": deep}])




@pytest.mark.parametrize("code, deep", [
    ("from tinygrad import Value\ndef build():\n    total = Value(0)\n    for _ in range(3000):\n"
     "        total = total + 1\n    return total.data\nprint(build())", True),
    ("from tinygrad import Value\nw = Value(0.5)\nfor _ in range(3000):\n    loss = (w * 2 - 1) ** 2\n"
     "    loss.backward()\n    w.data -= 0.01 * w.grad", False),
    ("from tinygrad import Value\nvalues = [Value(i) * 2 for i in range(5000)]", False),
])
def test_the_watch_reports_a_deep_chain_while_a_run_builds_it(monkeypatch, code, deep):
    reported = []
    monkeypatch.setattr(guards.watch, "callback", lambda: reported.append(True))
    gc.callbacks.append(guards.watch)
    try:
        report, _, _ = run(code)
    finally:
        gc.callbacks.remove(guards.watch)
    assert report == ""
    assert reported == ([True] if deep else [])


# ---- Stop while a run waits ------------------------------------------------------------------

def test_stop_cancels_a_run_that_waits_in_an_await_and_keeps_the_namespace():
    async def run_then_stop():
        items = []
        running = asyncio.ensure_future(runner.run(
            "await-page", "kept = 1\nimport asyncio\nawait asyncio.sleep(100)\nprint('not reached')",
            lambda stream, text: items.append(text), fresh=True))
        await asyncio.sleep(0.05)
        assert stopping.stop_waiting_run()
        return await running

    result = in_own_thread(asyncio.run, run_then_stop())
    assert result["report"].startswith("KeyboardInterrupt: stopped by the Stop button")
    assert result["error"]["kind"] == "stopped"
    assert not stopping.stop_waiting_run()  # nothing waits now
    assert run("print(kept)", page="await-page", fresh=False)[1] == "1\n"


# ---- show() ---------------------------------------------------------------------------------

def test_a_flood_of_show_calls_draws_only_the_first_graphs_and_prints_every_summary():
    report, shown, items = run("from tinygrad import Value\nv = Value(1)\nfor _ in range(2000):\n    show(v)")
    assert report == ""
    assert sum(stream == "graph" for stream, _ in items) == output.GRAPHS_PER_RUN
    assert "already drew 20 graphs" in shown and "Graph of v: 1 value, 0 edges" in shown.splitlines()[-1]


def test_waiting_for_async_code_where_the_stack_cannot_switch_raises_the_guards_own_error(monkeypatch):
    """Pyodide's run_sync fails before the coroutine starts; a failure of the coroutine itself stays its own."""
    import types

    def run_sync(awaitable):
        if getattr(awaitable, "cr_code", None) is not None and awaitable.cr_code.co_name == "fails_itself":
            awaitable.send(None)  # it starts, and raises its own RuntimeError
        raise RuntimeError("WebAssembly stack switching not supported in this JavaScript runtime")

    webloop = types.SimpleNamespace(run_sync=run_sync)
    monkeypatch.setitem(sys.modules, "pyodide", types.SimpleNamespace(webloop=webloop))
    monkeypatch.setitem(sys.modules, "pyodide.webloop", webloop)
    guards.refuse_blocking_waits()

    async def main():
        return 1

    async def fails_itself():
        raise RuntimeError("the reader's own")

    with pytest.raises(guards.NoBlockingWait):
        webloop.run_sync(main())
    with pytest.raises(RuntimeError, match="the reader's own"):
        webloop.run_sync(fails_itself())
