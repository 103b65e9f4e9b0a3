"""Tests of the contract between the page and Python, through the one dispatcher, in CPython.

What it is: the dispatcher driven as the worker drives it (JSON text in, the result's JSON text out,
events through `send`): every request kind (configure, run, call, stop), every event kind
Python sends (begin, output, graph, deep-graph, result) with only the fields the contract declares,
and every error kind Python finds (exception, stopped, exit, not-allowed, bad-request, bad-arguments,
no-namespace, not-json, broken), none of them an exception out of the dispatcher; a block that
replaces the runtime's names cannot break the next request (the keeper puts them back, and says so),
a lesson module a block imported and changed is imported afresh, a block that clears sys.modules breaks
no other block, and a block that breaks what the
runtime relies on elsewhere makes a checked run and the next run answer `broken`; whose fault an error is (a
reader's error whose own code fails while shown stays theirs, only Stop's interrupt is "stopped", and one that
lands after the reader's code ended never ends the answer); what a
block leaves behind is said and ended or named (its asyncio tasks cancelled, a figure names the block that
changed what it computes with, a later error the block that hid a built-in); and the JavaScript copy of the kinds
(site_scripts/browser/runtime/contract.mjs) is the one contract_js.py writes from contract.py, which
the page's adapter and the worker use instead of spelling kinds themselves.
What it is not: the worker and the page's adapter (tests/site/test_contract_in_browser.py runs them in
Chromium, with the error kinds only JavaScript sees: not-started, stack-overflow, process-exit,
crashed, restarted).
"""
import asyncio
import json
import re
import signal
import sys
import types

import pytest

import contract_js
from helpers import REPO
from own_thread import in_own_thread
from tutor.runtime import contract, dispatcher as dispatcher_module, guards, page_calls, runner, stopping

PYTHON_ERROR_KINDS = {kind.name for kind in contract.ERRORS if kind.by == "python"}
PYTHON_EVENTS = {kind.name for kind in contract.EVENTS if kind.sender == "python"}


class Worker:
    """The dispatcher as the worker holds it, and every event it sent, checked against the contract."""

    def __init__(self):
        self.events = []
        self.dispatch = dispatcher_module.dispatcher(self.received)

    def received(self, text):
        event = json.loads(text)
        assert event["kind"] in PYTHON_EVENTS
        assert set(event) - {"kind"} <= set(contract.EVENT[event["kind"]].fields), event
        self.events.append(event)

    def send(self, request):
        """The result of `request` (a dict, or text as it is), checked against the contract."""
        text = request if isinstance(request, str) else json.dumps(request)
        reply = in_own_thread(asyncio.run, self.dispatch(text))
        if reply is None:
            return None
        result = json.loads(reply)
        assert result["kind"] == "result" and set(result) - {"kind"} <= set(contract.EVENT["result"].fields)
        assert isinstance(result["deepGraph"], bool)
        if not result["ok"]:
            assert result["error"]["kind"] in PYTHON_ERROR_KINDS
            assert set(result["error"]) - {"kind"} <= set(contract.ERROR[result["error"]["kind"]].fields)
        return result

    def of(self, identifier, kind):
        return [event for event in self.events if event.get("id") == identifier and event["kind"] == kind]


@pytest.fixture
def worker():
    return Worker()


def run(worker, identifier, code, page="contract-page", fresh=True):
    return worker.send({"kind": "run", "id": identifier, "page": page, "code": code, "filename": "<block 1>",
                        "fresh": fresh})


def checked_run(worker, identifier, code):
    """A run as the page re-runs a block to restore definitions: Python then checks its machinery still answers."""
    return worker.send({"kind": "run", "id": identifier, "page": "contract-page", "code": code, "filename": "<block 1>",
                        "fresh": False, "check": True})


def call(worker, identifier, module, fn, kwargs=None, page=None):
    return worker.send({"kind": "call", "id": identifier, "module": module, "fn": fn, "kwargs": kwargs or {},
                        "page": page})


# ---- Requests and events ---------------------------------------------------------------------

def test_a_run_sends_begin_output_and_graph_events_then_its_result(worker):
    result = run(worker, 1, "from tinygrad import Value\nx = Value(3)\nprint('x is', x.data)\nshow(x * x)\nx.data")
    assert result == {"kind": "result", "id": 1, "ok": True, "report": "", "error": None, "engineChanged": False,
                      "tasksLeft": False, "deepGraph": False}
    assert [event["kind"] for event in worker.events if event["kind"] != "output"] == ["begin", "graph"]
    printed = "".join(event["text"] for event in worker.of(1, "output"))
    assert printed == "x is 3.0\nGraph of the expression: 2 values, 2 edges\n3.0\n"
    [graph] = worker.of(1, "graph")
    assert graph["graph"]["title"] == "Graph of the expression" and graph["graph"]["states"]


def test_a_call_answers_the_value_and_what_the_function_printed(worker):
    result = call(worker, 2, "tutor.figures.x_times_x", "initial")
    assert result["ok"] is True and result["error"] is None and result["printed"] == "" and result["printedLines"] == 0
    assert result["value"]["graph"]["nodes"][0]["data_text"] == "5"
    assert [event["kind"] for event in worker.events] == ["begin"]


def test_configure_installs_the_guards_and_the_reader_s_engine(worker, monkeypatch):
    installed, engines = [], []
    monkeypatch.setattr(guards, "install", lambda **settings: installed.append(settings))
    monkeypatch.setattr("tutor.engine_edit.install", engines.append)
    assert worker.send({"kind": "configure", "id": 3, "engineSource": None})["ok"] is True
    assert worker.send({"kind": "configure", "id": 4, "engineSource": "print('mine')"})["ok"] is True
    assert engines == ["print('mine')"] and len(installed) == 2
    installed[0]["on_deep_graph"]()  # what the guards call when a run builds a deep chain of Values
    assert worker.events[-1] == {"kind": "deep-graph"}


def test_an_engine_that_cannot_be_installed_is_an_error_of_configure(worker, monkeypatch):
    monkeypatch.setattr(guards, "install", lambda **settings: None)

    def refuse(source):
        raise OSError("read-only file system")

    monkeypatch.setattr("tutor.engine_edit.install", refuse)
    result = worker.send({"kind": "configure", "id": 5, "engineSource": "x = 1"})
    assert result["error"]["kind"] == "exception" and "could not be installed (read-only" in result["error"]["message"]


def test_stop_cancels_the_run_that_waits_and_gets_no_answer_of_its_own(worker):
    async def run_then_stop():
        running = asyncio.ensure_future(worker.dispatch(json.dumps(
            {"kind": "run", "id": 6, "page": "stop-page", "code": "kept = 1\nimport asyncio\nawait asyncio.sleep(60)",
             "fresh": True})))
        await asyncio.sleep(0.05)
        assert await worker.dispatch(json.dumps({"kind": "stop", "ids": [99]})) is None  # another request: nothing
        assert not running.done()
        assert await worker.dispatch(json.dumps({"kind": "stop", "ids": [6]})) is None
        return json.loads(await running)

    result = in_own_thread(asyncio.run, run_then_stop())
    assert result["ok"] is False and result["error"]["kind"] == "stopped"
    assert result["report"].startswith("KeyboardInterrupt: stopped by the Stop button")
    assert run(worker, 7, "print(kept)", "stop-page", fresh=False)["ok"] is True  # the namespace is kept
    assert "".join(event["text"] for event in worker.of(7, "output")) == "1\n"


TICKING = """import asyncio
ticks = 0
async def ticking():
    global ticks
    while True:
        ticks += 1
        try:
            await asyncio.sleep(0)
        except asyncio.CancelledError:
            if stubborn:
                continue
            raise
task = asyncio.ensure_future(ticking())
await asyncio.sleep(0)
"""


def in_one_loop(worker, *requests):
    """The results of `requests`, answered one after the other in one event loop, as the worker's own: a
    task a block leaves running there would go on between and during the next requests."""
    async def answer_all():
        results = []
        for request in requests:
            reply = await worker.dispatch(json.dumps(request))
            results.append(json.loads(reply) if reply else None)
            for _ in range(10):  # the loop turns while the page waits for the reader
                await asyncio.sleep(0)
        return results

    return in_own_thread(asyncio.run, answer_all())


def block(identifier, code, fresh=False, page="task-page"):
    return {"kind": "run", "id": identifier, "page": page, "code": code, "filename": "<block 1>", "fresh": fresh}


def test_a_task_a_block_leaves_running_is_cancelled_when_the_block_ends_and_the_block_is_told(worker):
    first, *later = in_one_loop(worker, block(43, "stubborn = False\n" + TICKING, fresh=True),
                                *(block(identifier, "print(task.cancelled(), ticks)") for identifier in (44, 45)))
    assert first["ok"] is True and [result["ok"] for result in later] == [True, True]
    assert first["tasksLeft"] is False  # the task ended: the page may replay this block after a restart
    assert "".join(event["text"] for event in worker.of(43, "output")) == (
        "[This block left an asyncio task running (ticking()): it is cancelled now that the block has ended, so it "
        "changes nothing behind the next blocks. `await` a task in its block to let it finish.]\n")
    assert "".join(event["text"] for event in worker.of(44, "output") + worker.of(45, "output")) == "True 1\nTrue 1\n"


def test_a_task_that_catches_its_cancellation_is_told_of_once_and_stop_cancels_a_block_s_tasks(worker):
    stubborn, _, _ = in_one_loop(worker, block(46, "stubborn = True\n" + TICKING, fresh=True), block(47, "x = 1"),
                                 block(48, "stubborn = False"))
    assert "ticking() caught the cancellation and goes on: press Restart Python to end it." in "".join(
        event["text"] for event in worker.of(46, "output"))
    assert worker.of(47, "output") == [] and stubborn["ok"] is True  # the next block is not blamed for it
    assert stubborn["tasksLeft"] is True  # the page never replays this block: a restart would start the task again

    async def run_then_stop():
        running = asyncio.ensure_future(worker.dispatch(json.dumps(block(49, "stubborn = False\n" + TICKING.replace(
            "await asyncio.sleep(0)\n", "await asyncio.sleep(60)\n"), fresh=True, page="stop-task-page"))))
        while "task" not in runner.namespaces.get("stop-task-page", {}):
            await asyncio.sleep(0)
        await worker.dispatch(json.dumps({"kind": "stop", "ids": [49]}))
        return json.loads(await running)

    stopped = in_own_thread(asyncio.run, run_then_stop())
    assert stopped["error"]["kind"] == "stopped", stopped
    assert runner.namespaces["stop-task-page"]["task"].cancelled()


@pytest.fixture
def lesson_python(monkeypatch):
    """The engine's names, math.tanh and what the guards remember of changes, put back after the test."""
    import math
    import tinygrad
    saved = dict(vars(tinygrad))
    monkeypatch.setattr(math, "tanh", math.tanh)
    monkeypatch.setattr(guards, "figures_changed_by", None)
    guards.engine_changes()  # the engine as installed, noted before any block changes it
    yield
    vars(tinygrad).clear()
    vars(tinygrad).update(saved)


@pytest.mark.parametrize("code, change", [
    ("import math\nmath.tanh = lambda x: 0.5", "math.tanh was replaced"),
    ("import importlib, tinygrad\nimportlib.reload(tinygrad)", "tinygrad.Value was made anew (importlib.reload)"),
])
def test_a_figure_names_the_block_that_changed_what_it_computes_with_instead_of_drawing(worker, lesson_python,
                                                                                       code, change):
    assert call(worker, 51, "tutor.figures.mystery_curve", "initial")["ok"] is True
    changing = run(worker, 52, code)
    assert changing["ok"] is True and changing["engineChanged"] is True  # so the page does not replay it on a restart
    note = "".join(event["text"] for event in worker.of(52, "output"))
    assert f"[This block changed what the lesson's engine and figures compute with ({change}" in note
    assert call(worker, 53, "tutor.exercises", "results", {"name": "relu"}, page="contract-page")["ok"] is True
    refused = call(worker, 54, "tutor.figures.mystery_curve", "initial")
    assert refused["ok"] is False and refused["value"] is None and refused["error"]["kind"] == "broken"
    assert refused["error"]["message"].startswith(f"Block 1 changed what this figure computes with ({change}")
    assert refused["error"]["message"].endswith("Press Restart Python to draw it again.")


def test_a_built_in_a_block_hid_behind_its_own_value_is_named_with_that_block_when_a_later_one_fails(worker):
    first = worker.send({"kind": "run", "id": 55, "page": "print-page", "code": "print = None", "fresh": True,
                         "filename": "<block 1>"})
    assert first["ok"] is True and "".join(event["text"] for event in worker.of(55, "output")) == (
        "[This block gave `print` the value None: in this page's next blocks `print` is that, not Python's built-in "
        "print(). `del print` brings the built-in back.]\n")
    later = worker.send({"kind": "run", "id": 56, "page": "print-page", "code": "print('hello')", "fresh": False,
                         "filename": "<block 2>"})
    assert later["report"].endswith("TypeError: 'NoneType' object is not callable\nBlock 1 changed `print`: in this "
                                     "page it is None, not Python's built-in print(). `del print` brings the built-in "
                                     "back (and Reset that block, or run it again without the change).\n")
    assert worker.send({"kind": "run", "id": 57, "page": "print-page", "code": "del print\nprint('hello')",
                        "fresh": False, "filename": "<block 2>"})["ok"] is True


LOWEST_LIMIT = """import sys
for limit in range(1, 1000):
    try:
        sys.setrecursionlimit(limit)  # the lowest limit Python takes here
        break
    except RecursionError:
        pass
print(limit)
"""


def test_a_recursion_limit_a_block_lowers_holds_for_that_block_only(worker, monkeypatch):
    before = sys.getrecursionlimit()
    monkeypatch.setattr(sys, "setrecursionlimit", guards.limited_recursion(sys.setrecursionlimit, lambda text: None))
    lowest = run(worker, 59, LOWEST_LIMIT)
    assert sys.getrecursionlimit() == before
    assert lowest["error"]["kind"] == "exception" and lowest["error"]["type"] == "RecursionError", lowest
    assert lowest["report"].endswith("RecursionError: maximum recursion depth exceeded\nPython stopped because this "
                                     "block lowered its limit of nested calls (sys.setrecursionlimit) below what the "
                                     "code needed.\n")
    note = "".join(event["text"] for event in worker.of(59, "output") if event["stream"] == "note")
    assert re.fullmatch(rf"\[This block lowered Python's limit of nested calls to \d+: it is {before} again for the "
                        r"next run, which the page's own code needs\.\]\n", note), note
    assert run(worker, 60, "print('next')")["ok"] is True and call(worker, 61, "tutor.figures.x_times_x", "initial")["ok"]


def test_every_result_says_whether_python_holds_a_deep_chain_of_values(worker):
    deep = f"from tinygrad import Value\nchain = Value(0)\nfor _ in range({guards.DEEP_CHAIN + 10}):\n    chain = chain + 1"
    assert run(worker, 8, deep, "deep-page")["deepGraph"] is True
    assert call(worker, 9, "tutor.figures.x_times_x", "initial")["deepGraph"] is True  # any request says it
    assert run(worker, 10, "chain.backward()", "deep-page", fresh=False)["deepGraph"] is False


def test_a_run_that_changes_the_engine_says_so(worker, monkeypatch):
    import tinygrad
    monkeypatch.setattr(tinygrad, "MLP", tinygrad.MLP)  # put back after the test
    assert run(worker, 11, "import tinygrad\ntinygrad.MLP = None")["engineChanged"] is True


# ---- Every error kind Python finds -------------------------------------------------------------

def test_an_exception_in_a_run_is_reported_and_carries_its_type_and_hint(worker):
    result = run(worker, 12, "import numpy as np")
    error = result["error"]
    assert error["kind"] == "exception" and error["type"] == "ModuleNotFoundError" and error["hint"] == "missing-package"
    assert result["report"] == error["traceback"] and "numpy is not available here" in result["report"]
    assert all(word in result["report"] for word in ("offline", "standard library", "tinygrad"))  # what there is
    assert 'await micropip.install("micrograd")' in result["report"]  # the one package the site serves
    assert "".join(event["text"] for event in worker.of(12, "output")) == result["report"]  # shown in the output
    syntax = run(worker, 62, "total = 1\nprint(total +)\nprint('never')")
    assert syntax["error"]["type"] == "SyntaxError" and 'File "<block 1>", line 2' in syntax["report"], syntax
    assert "never" not in "".join(event["text"] for event in worker.of(62, "output"))


def test_exit_with_a_status_is_an_exit_error_and_without_one_is_no_error(worker):
    result = run(worker, 13, "raise SystemExit(3)")
    assert result["error"] == {"kind": "exit", "message": "SystemExit: 3", "status": 3}
    assert "".join(event["text"] for event in worker.of(13, "output")) == f"SystemExit: 3\n{runner.EXIT_NOTE}\n"
    assert run(worker, 14, "exit()")["ok"] is True


@pytest.fixture
def stop_button():
    """Python's handler of the Stop button's interrupt (SIGINT) as the guards install it in the page; the
    test session's own again afterwards."""
    previous = signal.getsignal(signal.SIGINT)
    stopping.catch_stop()
    yield
    signal.signal(signal.SIGINT, previous)


def test_only_the_stop_button_s_interrupt_is_a_stopped_error(worker, stop_button):
    # When the Stop button's interrupt arrives, Python calls its handler of SIGINT where the code runs: as this block does.
    stopped = run(worker, 15, "import signal\nsignal.getsignal(signal.SIGINT)(signal.SIGINT, None)")
    assert stopped["error"]["kind"] == "stopped"
    assert stopped["report"].startswith("KeyboardInterrupt: stopped by the Stop button")
    mine = run(worker, 39, "raise KeyboardInterrupt('mine')")
    assert mine["error"]["kind"] == "exception" and mine["error"]["type"] == "KeyboardInterrupt"
    assert mine["report"].endswith('    raise KeyboardInterrupt(\'mine\')\nKeyboardInterrupt: mine\n')
    assert "Stop" not in "".join(event["text"] for event in worker.of(39, "output"))


def test_a_stop_that_lands_after_the_reader_s_code_ended_never_ends_the_answer(monkeypatch):
    interrupts = [stopping.StopPressed()]  # the Stop button's interrupt, pressed as the block ended (or twice)

    def interrupted_once(namespaces):
        if interrupts:
            raise interrupts.pop()
        return False

    monkeypatch.setattr(guards, "holds_deep_graph", interrupted_once)  # the dispatcher's own work after the code
    late = Worker()
    result = run(late, 42, "print('ran')")
    assert result["ok"] is True and interrupts == [], result
    assert run(late, 43, "print('next')")["ok"] is True


UNPRINTABLE = "class Unprintable(Exception):\n    def __str__(self):\n        raise ValueError('no text')\n"


@pytest.mark.parametrize("code, last_lines", [
    (UNPRINTABLE + "raise Unprintable()",
     "The message of this Unprintable could not be shown: str() of it raised an error of its own.\n"),
    ("error = RecursionError('deep')\nerror.__notes__ = 'not a list'\nraise error",  # and a hint to add
     "needs a loop with a list as its stack instead.\n"),
    ("class Odd(Exception):\n    @property\n    def __notes__(self):\n        raise ValueError\nraise Odd('mine')",
     "Odd: mine\n"),
])
def test_an_error_whose_own_code_fails_while_it_is_shown_is_still_the_reader_s(worker, code, last_lines):
    result = run(worker, 40, code)
    assert result["error"]["kind"] == "exception", result["error"]
    assert result["report"].startswith("Traceback (most recent call last):\n  File \"<block 1>\", line ")
    assert result["report"].endswith(last_lines) and result["report"] == result["error"]["traceback"]
    assert "".join(event["text"] for event in worker.of(40, "output")) == result["report"]


def test_an_exit_whose_status_fails_when_compared_or_shown_is_an_exit_error(worker):
    status = "class Status:\n    def __eq__(self, other):\n        raise ValueError\n    __hash__ = None\n"
    assert run(worker, 41, status + "raise SystemExit(Status())")["error"]["kind"] == "exit"
    result = run(worker, 42, UNPRINTABLE + "raise SystemExit(Unprintable())")
    assert result["error"] == {"kind": "exit", "status": None,
                               "message": "SystemExit: (its text could not be shown: str() of it raised ValueError)"}
    unreadable = "class Unreadable(SystemExit):\n    @property\n    def code(self):\n        raise ValueError\n"
    result = run(worker, 58, unreadable + "raise Unreadable()")
    assert result["error"]["kind"] == "exception" and result["error"]["type"] == "Unreadable"
    assert result["report"].startswith("Traceback (most recent call last):\n  File \"<block 1>\", line 5")


def test_a_call_of_a_name_the_page_may_not_call_is_not_allowed(worker):
    assert call(worker, 16, "tutor.figures.line_fit", "Value")["error"]["kind"] == "not-allowed"
    assert call(worker, 17, "tutor.widgets.backprop_graph", "build")["error"]["kind"] == "not-allowed"


@pytest.mark.parametrize("request_text", [
    "not json", "[]", json.dumps({"kind": "sing", "id": 1}), json.dumps({"kind": "run", "page": "p", "code": ""}),
    json.dumps({"kind": "run", "id": 1, "page": 3, "code": ""}),
    json.dumps({"kind": "run", "id": 1, "page": "p", "code": "", "fresh": "yes"}),
    json.dumps({"kind": "call", "id": 1, "module": "tutor.exercises", "fn": "results", "kwargs": [1]}),
    json.dumps({"kind": "configure", "id": 1, "engineSource": 42}),
])
def test_a_request_python_cannot_read_is_a_bad_request(worker, request_text):
    assert worker.send(request_text)["error"]["kind"] == "bad-request"


def test_arguments_that_do_not_fit_are_bad_arguments(worker):
    assert call(worker, 18, "tutor.figures.line_fit", "initial", {"x": 1})["error"]["kind"] == "bad-arguments"


def test_a_call_with_the_namespace_of_a_page_that_never_ran_is_no_namespace(worker):
    result = call(worker, 19, "tutor.exercises", "results", {"name": "relu"}, page="page-that-never-ran")
    assert result["error"] == {"kind": "no-namespace",
                               "message": "call: no code block of this page has run yet, so it has no namespace"}
    run(worker, 20, "fast_rate = 0.2", page="page-that-ran")
    result = call(worker, 21, "tutor.exercises", "results", {"name": "faster_line"}, page="page-that-ran")
    assert result["ok"] is True and result["value"][0]["passed"] is True


def test_a_value_that_is_not_json_is_a_not_json_error(worker, monkeypatch):
    model = types.ModuleType("tutor.figures.unsendable")
    model.PAGE_CALLS = ("initial",)
    model.initial = lambda: {"loss": float("inf")}
    monkeypatch.setitem(sys.modules, model.__name__, model)
    assert call(worker, 22, model.__name__, "initial")["error"]["kind"] == "not-json"


def test_a_call_of_a_lesson_module_whose_file_a_block_deleted_says_so_in_plain_words(worker, monkeypatch, tmp_path):
    import tutor
    monkeypatch.delitem(sys.modules, "tutor.engine_edit", raising=False)
    monkeypatch.setattr(tutor, "__path__", [str(tmp_path)])  # its folder as shutil.rmtree leaves it: without files
    assert call(worker, 50, "tutor.engine_edit", "check", {"source": "x = 1"})["error"] == {
        "kind": "broken", "type": "ModuleNotFoundError",
        "message": "The lesson's own file for tutor.engine_edit is gone from this Python's file system: a block "
                   "deleted it. Press Restart Python to get a fresh Python with every file back."}


def test_every_error_kind_python_finds_is_tested_here():
    tested = set(re.findall(r'"kind"\] == "([a-z-]+)"|"kind": "([a-z-]+)"', open(__file__, encoding="utf-8").read()))
    assert PYTHON_ERROR_KINDS <= {name for pair in tested for name in pair if name}


def test_nothing_a_request_makes_python_do_escapes_the_dispatcher(worker, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug of the runtime")

    monkeypatch.setattr(page_calls, "call", broken)
    dispatch = dispatcher_module.dispatcher(worker.received)  # made after the bug, so it holds the broken call
    result = json.loads(in_own_thread(asyncio.run, dispatch(json.dumps(
        {"kind": "call", "id": 23, "module": "tutor.exercises", "fn": "results", "kwargs": {}, "page": None}))))
    assert result["error"] == {"kind": "broken", "type": "RuntimeError", "message": (
        "Python's own code for the page failed (RuntimeError: a bug of the runtime), not your code: a block "
        "changed something the page relies on. Press Restart Python to get a fresh Python.")}


CLOBBERED = {"runner": ("run", "execute", "fresh_namespace"), "output": ("Output", "Stream", "bracketed"),
             "page_calls": ("call", "allowed_function", "Printed"), "dispatcher": ("dispatcher",),
             "guards": ("repair", "SAFE_RECURSION_LIMIT"), "keeper": ("keeper",), "tracebacks": ("reader_traceback",)}


def test_a_block_that_replaces_the_runtime_s_names_cannot_break_the_next_request(worker, monkeypatch):
    output_module = sys.modules["tutor.runtime.output"]
    monkeypatch.setitem(sys.modules, "tutor.runtime.output", output_module)
    for module, names in CLOBBERED.items():
        for name in names:  # put back after the test, should the keeper fail
            monkeypatch.setattr(f"tutor.runtime.{module}.{name}", getattr(sys.modules[f"tutor.runtime.{module}"], name))
    clobber = "".join(f"import tutor.runtime.{module} as m\nm.{'= m.'.join(names)} = None\n"
                      for module, names in CLOBBERED.items())
    run(worker, 24, clobber + "import sys\nsys.modules['tutor.runtime.output'] = None\nm.len = None")  # it may fail
    [note] = [event["text"] for event in worker.of(24, "output") if event["stream"] == "note"]
    assert note.startswith("[This block changed the lesson's own code (")
    assert sys.modules["tutor.runtime.output"] is output_module  # put back in sys.modules too
    assert "it is put back, so the page keeps working.]" in note
    assert run(worker, 25, "print('still running')")["ok"] is True
    assert "".join(event["text"] for event in worker.of(25, "output")) == "still running\n"
    assert call(worker, 26, "tutor.figures.x_times_x", "initial")["ok"] is True
    assert not hasattr(sys.modules["tutor.runtime.tracebacks"], "len")  # an added name that hid a built-in is gone
    assert run(worker, 27, "raise ValueError('mine')")["error"]["type"] == "ValueError"  # tracebacks work again


def test_a_block_that_clears_sys_modules_breaks_no_other_block_or_figure():
    saved = dict(sys.modules)
    engine = sys.modules.pop("tinygrad")
    worker = Worker()  # a Python that booted before anything imported the engine
    sys.modules["tinygrad"] = engine  # as a figure's first call imports it
    assert call(worker, 38, "tutor.figures.x_times_x", "initial")["ok"] is True  # the lesson's own request
    try:
        assert run(worker, 39, "import sys\nsys.modules.clear()")["ok"] is True
        note = "".join(event["text"] for event in worker.of(39, "output") if event["stream"] == "note")
        assert note.startswith("[This block removed modules Python and the page need from sys.modules (sys, ")
        assert "they are put back, so the page keeps working." in note
        assert sys.modules["tinygrad"] is engine  # not made anew by the next import, unlike what the figures hold
        other = run(worker, 40, "import sys, tinygrad\nprint(tinygrad.Value(2) * 3, bool(sys.warnoptions) in (0, 1))",
                    page="another-chapter")
        assert other["ok"] is True, other
        assert "".join(event["text"] for event in worker.of(40, "output")) == "Value(data=6.0, grad=0.0) True\n"
        assert call(worker, 41, "tutor.figures.x_times_x", "initial")["ok"] is True
    finally:
        sys.modules.update(saved)


def test_a_lesson_module_a_block_imported_and_changed_is_imported_afresh(worker, monkeypatch):
    monkeypatch.delitem(sys.modules, "tutor.figures.paths_add_up", raising=False)  # imported by no one yet
    assert call(worker, 28, "tutor.figures.x_times_x", "initial")["ok"] is True  # before the block: the keeper noted the modules
    assert run(worker, 29, "import tutor.figures.paths_add_up as model\nmodel.initial = None")["ok"] is True
    result = call(worker, 30, "tutor.figures.paths_add_up", "initial")
    assert result["ok"] is True, result


def test_the_lesson_s_own_requests_never_count_as_a_block_s_changes(worker):
    engine = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
    assert call(worker, 35, "tutor.engine_edit", "check", {"source": engine})["value"]["ok"] is True  # its trial
    assert call(worker, 36, "tutor.figures.line_fit", "initial")["ok"] is True  # imports, drops, puts back modules
    assert run(worker, 37, "from tinygrad import Value\nshow(Value(2) * 3)")["ok"] is True
    assert run(worker, 38, "x = 1")["ok"] is True
    assert [event for event in worker.events if event["kind"] == "output" and event["stream"] == "note"] == []


def test_a_checked_run_answers_whether_even_an_empty_block_runs_after_it(worker, monkeypatch):
    import ast
    assert checked_run(worker, 31, "x = 1")["ok"] is True
    parse = ast.parse
    monkeypatch.setattr(ast, "parse", parse)  # put back after the test
    assert run(worker, 32, "import ast\nast.parse = None")["ok"] is True  # unchecked and no error: not looked at
    ast.parse = parse
    result = checked_run(worker, 33, "import ast\nast.parse = None")  # as the page re-runs a block: checked
    assert result["ok"] is False
    broken = result["error"]
    assert broken["kind"] == "broken" and broken["type"] == "TypeError", broken
    assert "(TypeError: 'NoneType' object is not callable), not your code" in broken["message"]
    result = run(worker, 34, "print('anything')")
    assert result["error"]["kind"] == "broken"
    assert "Even an empty block fails now" in "".join(event["text"] for event in worker.of(34, "output"))


# ---- One source for JavaScript ---------------------------------------------------------------------

def test_the_javascript_constants_are_written_from_the_python_contract():
    assert contract_js.check() == "", contract_js.check()
    text = contract_js.JAVASCRIPT.read_text(encoding="utf-8")
    for kind in (*contract.REQUESTS, *contract.EVENTS, *contract.ERRORS):
        assert f"  {kind.constant}: {json.dumps(kind.name)}," in text


def test_a_changed_contract_is_noticed(monkeypatch, tmp_path):
    stale = tmp_path / "contract.mjs"
    stale.write_text(contract_js.javascript().replace('"deep-graph"', '"deep_graph"'), encoding="utf-8")
    monkeypatch.setattr(contract_js, "JAVASCRIPT", stale)
    assert "does not match" in contract_js.check() and contract_js.COMMAND in contract_js.check()


@pytest.mark.parametrize("script", ["runtime.mjs", "worker.mjs"])
def test_the_adapter_and_the_worker_name_kinds_only_through_the_constants(script):
    text = (contract_js.JAVASCRIPT.parent / script).read_text(encoding="utf-8")
    spelled = re.findall(r'(?:kind\s*(?:===|!==|:)\s*|case\s+)"([a-z-]+)"', text)
    assert spelled == [], f"{script} spells kinds {spelled}: use contract.mjs"
