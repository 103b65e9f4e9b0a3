"""session.py: the Python side of the lesson's runtime, installed in the browser as `tutor.session`.

What it is: the module the web worker calls. `run` executes a code block in the namespace of its
page (all blocks of a page share one, in page order), streams what the code prints through a
callback, shows the value of a final expression the way the Python prompt does, and turns an
exception into a traceback of the reader's code, with a plain-words hint for the mistakes a page
cannot behave like a terminal for (input(), exit(), missing packages, runaway recursion or memory).
Output is batched (a flood of prints becomes a few messages) and capped: the first lines, a count
of the hidden ones, then the last lines. `call` is the page's one way to call a function of the
lesson's Python (runtime.call): a figure model's (`tutor.figures.<name>`), an exercise's checks,
the engine check or what a block computed for a prediction (tutor.predictions), from an allow-list, with JSON arguments (and the page's namespace where the
function asks for one); it answers a structured result or a structured error. Every namespace
holds `show(value)`: it prints a one-line summary of a Value's graph and sends the graph itself
as a "graph" output item (JSON), which the page draws under the block's output. What keeps a
block from breaking Python for the next ones (the recursion limit, time.sleep, built-ins it deleted,
a changed engine, a deep chain of Values that could crash Python when freed) is in tutor.guards.

What it is not: a sandbox or a scheduler. The worker runs one request at a time; stopping a
runaway loop is the worker's job (an interrupt, or a fresh worker).
"""
import ast
import asyncio
import collections
import importlib
import inspect
import json
import linecache
import re
import reprlib
import sys
import time
import types

from . import guards
from .tracebacks import traceback_of

namespaces = {}  # page key -> the globals its blocks share
waiting_run = None  # the asyncio task of the run in progress, which Stop may cancel while it awaits
stop_cancelled = False  # the run in progress ended because Stop cancelled it
changed_engine = False  # the last run changed the lesson's engine (the page does not replay such a run)
FIGURES = "tutor.figures"  # the figure models: the page may call every public function of each
FIGURE_MODULE = re.compile(r"tutor\.figures\.[a-z_][a-z0-9_]*")
# The other modules the page may call, and which of their functions.
CALLABLE = {"tutor.exercises": {"results"}, "tutor.engine_edit": {"check"}, "tutor.predictions": {"observed"}}

HEAD_LINES = 1000  # shown as they come; after that only a count and the last TAIL_LINES
HEAD_CHARACTERS = 100_000
TAIL_LINES = 20
TAIL_CHARACTERS = 10_000
SENDS_PER_WINDOW = 20  # messages to the page per window; a faster flood is batched
SEND_WINDOW_SECONDS = 0.1
FIGURES_PER_RUN = 20  # show() calls drawn per run; later ones print only their summary

ENGINE_MODULES = {"tinygrad", "tutor"}
EXIT_NOTE = ("exit(), quit(), sys.exit() and os._exit() end a whole program; in the page they only end this "
             "block. Everything defined so far is kept.")
INPUT_MESSAGE = ("input() cannot work here: a block in the page has no keyboard to read from. "
                 "Assign the value in the code instead, for example: name = \"Ada\"")


def configure(wait=None, on_deep_graph=None):
    """Settings for the browser's interpreter only (CPython tests import this module unchanged):
    `wait(seconds)` is the worker's blocking wait that time.sleep uses, `on_deep_graph()` tells the
    page at once when a run builds a deep chain of Values (see tutor.guards.install)."""
    guards.install(wait=wait, on_deep_graph=on_deep_graph, note=note, flush=flush)


def note(text):
    """A remark of the page's own in the output of the block that runs now (nothing between runs)."""
    if isinstance(sys.stdout, Stream):
        sys.stdout.output.write("note", bracketed(text))


def flush():
    """Send what the running block printed so far, now (before a pause, say)."""
    if isinstance(sys.stdout, Stream):
        sys.stdout.output.send()


def holds_deep_graph():
    """Whether some page's namespace holds a chain of Values that could crash Python when freed: the
    worker sends it to the page with every result, for the message of a crash that may follow."""
    return guards.holds_deep_graph(list(namespaces.values()))


class Output:
    """Everything one run prints: batched into few `emit(stream, text)` calls and capped.

    The first HEAD_LINES lines (at most HEAD_CHARACTERS) go out as they come; later text only
    keeps its last TAIL_LINES lines, shown with a count of the hidden ones when the run ends.
    Streams are "stdout", "stderr" and "note" (the runtime's own remarks to the reader); figures
    (the "graph" items of show()) are not text: they pass the cap, FIGURES_PER_RUN per run.
    """

    def __init__(self, emit):
        self.emit = emit
        self.pending = []  # [stream, text] not yet sent, neighbours of one stream merged
        self.shown_lines = 0
        self.shown_characters = 0
        self.at_line_start = True
        self.capped = False
        self.tail = collections.deque()  # (stream, text) written after the cap
        self.tail_lines = 0
        self.hidden_lines = 0
        self.window_start = 0.0
        self.sends_in_window = 0
        self.figures = 0

    def write(self, stream, text):
        if self.capped:
            self.keep_in_tail(stream, text)
            return
        room = self.room_for(text)
        if room < len(text):
            self.queue(stream, text[:room])
            self.capped = True
            line_break = "" if self.at_line_start else "\n"
            self.queue("note", f"{line_break}[Long output: the first {self.shown_lines:,} lines are shown here, "
                               f"the last {TAIL_LINES} when the block ends.]\n")
            self.keep_in_tail(stream, text[room:])
        else:
            self.queue(stream, text)
        self.send_if_due()

    def room_for(self, text):
        """How much of `text` fits in the head: up to the character limit or the last allowed line."""
        room = min(len(text), HEAD_CHARACTERS - self.shown_characters)
        lines_left = HEAD_LINES - self.shown_lines
        if text.count("\n", 0, room) >= lines_left:
            end_of_last_line = -1
            for _ in range(lines_left):
                end_of_last_line = text.index("\n", end_of_last_line + 1)
            room = end_of_last_line + 1
        return room

    def queue(self, stream, text):
        if not text:
            return
        self.shown_characters += len(text)
        self.shown_lines += text.count("\n")
        self.at_line_start = text.endswith("\n")
        if self.pending and self.pending[-1][0] == stream:
            self.pending[-1][1] += text
        else:
            self.pending.append([stream, text])

    def keep_in_tail(self, stream, text):
        """Keep the last TAIL_LINES lines (and the partial line before them) written after the cap."""
        text = text[-TAIL_CHARACTERS:]
        self.tail.append((stream, text))
        self.tail_lines += text.count("\n")
        while len(self.tail) > 1 and self.tail_lines - self.tail[0][1].count("\n") > TAIL_LINES:
            dropped_lines = self.tail.popleft()[1].count("\n")
            self.tail_lines -= dropped_lines
            self.hidden_lines += dropped_lines

    def send_if_due(self):
        now = time.monotonic()
        if now - self.window_start >= SEND_WINDOW_SECONDS:
            self.window_start, self.sends_in_window = now, 0
        if self.sends_in_window < SENDS_PER_WINDOW:
            self.sends_in_window += 1
            self.send()

    def send(self):
        pending, self.pending = self.pending, []
        for stream, text in pending:
            self.emit(stream, text)

    def finish(self):
        """Send what is held back, with the count of hidden lines and the last whole lines."""
        if self.capped:
            if self.tail_lines > TAIL_LINES:  # the first kept piece ends a line whose start was dropped
                stream, text = self.tail.popleft()
                self.tail.appendleft((stream, text.partition("\n")[2]))
                self.hidden_lines += 1
            hidden = f"{self.hidden_lines:,} more line{'s' if self.hidden_lines != 1 else ''}"
            self.pending.append(["note", f"[… {hidden} not shown; the last lines follow …]\n"])
            self.pending.extend([stream, text] for stream, text in self.tail)
            self.capped, self.tail = False, collections.deque()
        self.send()

    def figure(self, kind, text):
        """A figure for the page to draw, sent after the text printed before it."""
        self.figures += 1
        if self.figures > FIGURES_PER_RUN:
            if self.figures == FIGURES_PER_RUN + 1:
                self.write("note", f"[This run already drew {FIGURES_PER_RUN} graphs: further show() calls "
                                   "only print their summary.]\n")
            return
        self.send()
        self.emit(kind, text)

    def report(self, stream, text):
        """Text the reader must see whatever the cap (an error report, a note): sent at once."""
        self.finish()
        self.emit(stream, text)


class Stream:
    """A write-only text stream (sys.stdout or sys.stderr) feeding one run's Output."""

    def __init__(self, name, output):
        self.name = name
        self.output = output

    def write(self, text):
        if text:
            self.output.write(self.name, text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"


class NoInput:
    """sys.stdin of a run: there is no keyboard behind a block, so reading explains that."""

    def readline(self, size=-1):
        raise EOFError(INPUT_MESSAGE)

    read = readline

    def close(self):  # exit() and quit() close stdin before raising SystemExit
        pass

    def isatty(self):
        return False


def fresh_namespace(page):
    """Forget what earlier runs of this page defined; return its new namespace (only `show` in it)."""
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    namespace["show"] = graph_shower(namespace)
    namespaces[page] = namespace
    return namespace


def graph_shower(namespace):
    """The `show` function of one page's namespace (it names values by that namespace's variables)."""
    def show(value):
        """Print a summary of the graph that computed `value` (a Value) and draw it under the block,
        with buttons that step through its backward pass. The grads you computed are left as they are."""
        engine_value = importlib.import_module("tinygrad").Value
        if not isinstance(value, engine_value):
            raise TypeError(f"show() draws the graph of a Value, for example show(loss); it got "
                            f"{reprlib.repr(value)} (type {type(value).__name__})")
        graphs = importlib.import_module(f"{FIGURES}.expression_graph")
        output = sys.stdout.output if isinstance(sys.stdout, Stream) else None  # inside a run of a block
        if output is not None and output.figures >= FIGURES_PER_RUN:  # only the summary will show
            print(graphs.summary(value, namespace))
            output.figure("graph", "")
            return
        shown = graphs.picture(value, namespace)
        print(shown["summary"])
        if shown["figure"] is not None and output is not None:
            output.figure("graph", json.dumps(shown["figure"], separators=(",", ":"), allow_nan=False))

    return show


async def run(page, code, emit, filename="<python block>", fresh=False):
    """Run `code` in page `page`'s namespace, streaming output to `emit(stream, text)`.

    Returns "" on success, else the report of what went wrong (also written to stderr).
    """
    namespace = fresh_namespace(page) if fresh or page not in namespaces else namespaces[page]
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    output = Output(emit)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = NoInput(), Stream("stdout", output), Stream("stderr", output)
    guards.watch.start(namespace, filename)
    repaired = ""
    global waiting_run, stop_cancelled, changed_engine
    waiting_run, stop_cancelled = current_task(), False
    engine_before = guards.engine_changes()
    try:
        try:
            await execute(code, filename, namespace)
        finally:
            guards.watch.stop()
            repaired = guards.repair(namespace, graph_shower(namespace))
            changed_engine = guards.engine_changes() not in ("", engine_before)
        if repaired:
            output.write("note", bracketed(repaired))
        output.finish()
        return ""
    except SystemExit as exit_request:
        return ended_by_exit(exit_request, output)
    except BaseException as error:  # noqa: B036 - KeyboardInterrupt is the reader's too
        report = reader_traceback(error)
        output.report("stderr", report)
        if repaired:
            output.emit("note", bracketed(repaired))
        return report
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        waiting_run = None


# What warm_up() runs: a block like the lesson's first ones (the engine, one backward pass, a print).
WARM_UP_BLOCK = """from tinygrad import Value
a = Value(3.0)
q = a * a + a
q.backward()
print("q =", q.data, "dq/da =", a.grad)
"""
WARM_UP_PAGE, WARM_UP_FILENAME = "<warm-up>", "<warm-up block>"


def warm_up():
    """Run WARM_UP_BLOCK once, as a page runs a block, forget it, and answer what it printed.

    The build calls this just before it takes Python's memory snapshot (site_scripts/hooks/
    make_snapshot.mjs), so the snapshot holds the work a first run does only once (the bytecode of
    this module and of the engine specialized as it runs, caches filled on first use): a reader's
    first block then runs sooner. It leaves no namespace, no source line for tracebacks and no state
    of a run behind; what it printed is only answered (the maker writes it into the snapshot's header).
    """
    printed = []
    coroutine = run(WARM_UP_PAGE, WARM_UP_BLOCK, lambda stream, text: printed.append(text), filename=WARM_UP_FILENAME)
    try:
        coroutine.send(None)
    except StopIteration as finished:
        report = finished.value
    else:  # it waited for something: nothing of the block may do that
        coroutine.close()
        report = "the block waited in an await"
    finally:
        namespaces.pop(WARM_UP_PAGE, None)  # run() resets its own state of a run (waiting_run and so on)
        linecache.cache.pop(WARM_UP_FILENAME, None)
    if report:
        raise RuntimeError(f"warm_up: the warm-up block failed: {report}")
    return "".join(printed)


def current_task():
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop (a run called from plain synchronous code)
        return None


def stop_waiting_run():
    """Stop a run that waits in an `await` (asyncio.sleep, a coroutine that never ends): Python is then
    idle, so the interrupt of Stop would never be seen. The worker calls this when Stop arrives while
    Python does nothing; the run ends like an interrupted one. Returns whether a run was waiting."""
    global stop_cancelled
    if waiting_run is None or waiting_run.done():
        return False
    stop_cancelled = True
    waiting_run.cancel()
    return True


def bracketed(remarks):
    """The page's remarks (one a line) as the output shows them: each line in brackets."""
    return "".join(f"[{line}]\n" for line in remarks.splitlines())


def ended_by_exit(exit_request, output):
    """sys.exit()/exit()/quit() in a block: a note; a non-zero status also counts as an error."""
    status = exit_request.code
    if status is None or status == 0:
        output.report("note", EXIT_NOTE + "\n")
        return ""
    report = f"SystemExit: {status}\n"
    output.report("stderr", report)
    output.emit("note", EXIT_NOTE + "\n")
    return report


async def execute(code, filename, namespace):
    """Execute a block; if it ends with an expression, print that value's repr (unless None)."""
    tree = ast.parse(code, filename, "exec")
    final_expression = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        final_expression = ast.Expression(tree.body.pop().value)
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    await evaluate(compile(tree, filename, "exec", flags=flags), namespace)
    if final_expression is not None:
        value = await evaluate(compile(final_expression, filename, "eval", flags=flags), namespace)
        if value is not None:
            print(repr(value))


async def evaluate(code_object, namespace):
    result = eval(code_object, namespace)
    return await result if inspect.iscoroutine(result) else result


def reader_traceback(error):
    """The traceback of `error` without this module's frames, plus a hint when one helps."""
    if isinstance(error, KeyboardInterrupt) or (isinstance(error, asyncio.CancelledError) and stop_cancelled):
        return "KeyboardInterrupt: stopped by the Stop button. Everything defined before it is kept.\n"
    hint = hint_for(error)
    if hint:
        error.add_note(hint)
    return traceback_of(error, lambda frame: frame.filename != __file__)


def hint_for(error):
    """A sentence saying what an error means in the page, for the errors a reader cannot guess."""
    if isinstance(error, ImportError) and engine_replaced(error.name):
        return ("The engine, tinygrad, was removed or replaced in this Python session: "
                "press Restart Python to load it again.")
    changed = guards.engine_changes() if isinstance(error, Exception) and not isinstance(error, SyntaxError) else ""
    if changed:
        return (f"The lesson's engine was changed in this Python session ({changed}), so the code that "
                "uses it may fail: press Restart Python to load it again.")
    if isinstance(error, ModuleNotFoundError):
        package = (error.name or "").partition(".")[0]
        if package and package not in sys.stdlib_module_names:
            return (f"{package} is not available here: Python runs offline in your browser with only the "
                    "standard library and the lesson's engine, tinygrad, and cannot install packages.")
    if isinstance(error, NameError) and error.name in engine_names():
        return (f"{error.name} comes from the lesson's engine: `from tinygrad import {error.name}` brings it "
                "back. If a block changed the engine itself, press Restart Python to load it again.")
    if isinstance(error, NameError) and error.name == "show":
        return "show() belongs to the page: a block deleted it, and it is back for the next run."
    if isinstance(error, NameError) and error.name in guards.ORIGINAL_BUILTINS:
        return (f"{error.name} is one of Python's built-ins, which a block deleted or replaced: "
                "the original is back for the next run.")
    if isinstance(error, RecursionError):
        return (f"A function kept calling itself: Python stops after about {sys.getrecursionlimit()} "
                "nested calls. Check that every chain of calls reaches a case that returns directly.")
    if isinstance(error, RuntimeError) and "can't start new thread" in str(error):
        return ("Python in the browser has no threads: call the function directly instead, "
                "or make it async and await it.")
    if isinstance(error, RuntimeError) and "stack switching" in str(error):
        return ("Python in the page cannot wait for async code inside a function such as asyncio.run(): "
                "write `await main()` on a line of the block instead (blocks may use await at the top level).")
    if isinstance(error, MemoryError) or (
            isinstance(error, OverflowError) and "index-sized" in str(error)):
        return ("That needs more memory than Python in a browser tab can have (a few gigabytes at most, "
                "and sizes must fit in 32 bits). Try a much smaller size.")
    return None


def engine_replaced(module_name):
    """True when sys.modules holds something other than a module for the engine (or the tutor)."""
    package = (module_name or "").partition(".")[0]
    return package in ENGINE_MODULES and package in sys.modules and not isinstance(
        sys.modules[package], types.ModuleType)


def engine_names():
    """Public names of the lesson's engine (none if it cannot be imported right now)."""
    try:
        engine = importlib.import_module("tinygrad")
    except ImportError:
        return set()
    return {name for name in getattr(engine, "__dict__", {}) if not name.startswith("_")}


def call(module, function, arguments_json, page=None):
    """Call `function` of the lesson's module `module` with the keyword arguments in `arguments_json`
    (plus `namespace`, the namespace of `page`, when a page is given) and answer, as JSON text,
    {"ok": true, "value": ...} or {"ok": false, "type": "ValueError", "message": ..., "traceback": ...}.

    Only the figure models' public functions and those listed in CALLABLE can be called. Bad names or
    arguments, and what the called function raises, become the structured error.
    """
    try:
        target = callable_function(module, function)
        arguments = json.loads(arguments_json)
        if not isinstance(arguments, dict):
            raise TypeError(f"call: arguments must be an object of keyword arguments, not {arguments!r}")
        if page is not None:
            if page not in namespaces:
                raise ValueError("call: no code block of this page has run yet, so it has no namespace")
            arguments["namespace"] = namespaces[page]
        answer = {"ok": True, "value": target(**arguments)}
    except BaseException as error:  # noqa: B036 - KeyboardInterrupt (Stop) is reported the same way
        answer = {"ok": False, "type": type(error).__name__, "message": str(error),
                  "traceback": traceback_of(error, lambda frame: frame.filename != __file__)}
    return json.dumps(answer, allow_nan=False)


def callable_function(module, function):
    """The function the page may call, or ValueError saying why it may not."""
    if not isinstance(module, str) or not (FIGURE_MODULE.fullmatch(module) or module in CALLABLE):
        raise ValueError(f"call: {module!r} is not one of the lesson's modules the page may call")
    if not isinstance(function, str) or not function.isidentifier() or function.startswith("_") or (
            module in CALLABLE and function not in CALLABLE[module]):
        raise ValueError(f"call: {function!r} is not a function of {module} the page may call")
    try:
        imported = importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise ValueError(f"call: there is no module named {module!r}") from error
    target = getattr(imported, function, None)
    if not callable(target):
        raise ValueError(f"call: {module} has no function {function!r}")
    return target
