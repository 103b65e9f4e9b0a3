"""guards.py: what keeps a block's code from breaking the page's Python for the blocks after it.

What it is: what deals with code a curious reader may write against the interpreter itself, as
functions the runtime calls:
- `install(wait, on_deep_graph, note, flush)` changes the browser's interpreter once, when the page
  configures it (dispatcher.py): the recursion limit stays low enough for the browser's small stack
  whatever sys.setrecursionlimit() asks (and a limit a block lowers holds for that block only, as
  `restore_recursion_limit()` puts it back after the run), `time.sleep` waits through `wait` (a JavaScript function of
  the worker that blocks in short slices Stop can end; Pyodide's own needs WebAssembly stack
  switching), `os._exit` ends only the block, the Stop button's interrupt raises stopping.StopPressed
  (a reader's own KeyboardInterrupt stays theirs), starting a thread raises NoThreads and waiting for
  async code from synchronous code (asyncio.run()) raises NoBlockingWait, so their hints know them
  by class (hints.py), and a garbage-collector callback watches for a very deep chain of Values while
  a run builds it.
- `repair(namespace, show)`, after every run, puts back Python's built-ins and the page's `show` that a
  block deleted or replaced, and says which.
- `engine_changes()` says in words how a block changed the lesson's engine (a name of tinygrad that
  is no longer what tinygrad.py defines or no longer the object installed, as importlib.reload makes
  anew, or the file itself), for the hint to press Restart Python; `figures_changes()` adds the
  standard modules the engine and the figures compute with (math.tanh replaced), so that a figure
  says so instead of drawing numbers the lesson's engine would not (page_calls.py).
- `shadowed_built_ins(namespace)`: the built-ins a namespace hides behind a value that is not
  callable (`print = None`), for the runner to name the block that did it.
- `holds_deep_graph(namespaces)` tells whether Python holds a chain of Values deep enough that
  freeing it may overflow the browser's stack: the worker sends that to the page ahead of any
  crash, so the crash message can name the cause only when it is the likely one.
What it is not: a sandbox. A block can still break its Python on purpose; Restart Python is the
way back, and the runtime restarts Python on its own when it dies.
"""
import ast
import builtins
import gc
import importlib
import importlib.util
import inspect
import itertools
import math
import operator
import os
import reprlib
import sys
import time
import types
from pathlib import Path

from . import stopping

# Measured in Pyodide 314 in Chromium: recursion that passes through C overflows the browser's own
# stack, a fatal crash, at about 700 levels for an __add__ using +, and between 250 and 300 for a
# __repr__ calling repr(); below this limit it ends as a RecursionError instead. Plain recursion much
# deeper only takes minutes to build and report its traceback. Only the worker sets it (install()).
SAFE_RECURSION_LIMIT = 200
SLEEP_SLICE_SECONDS = 0.1  # time.sleep waits in slices this long, so Stop is seen between them
LONG_SLEEP_SECONDS = 10  # a sleep this long or longer first says how long it will wait
# A chain of Values this many levels deep, not yet through backward(), is what overflows the browser's
# stack when it is freed (from about 1,500 levels). The watch during a run reports it from here on,
# early enough to reach the page before the chain grows to a crash.
DEEP_CHAIN = 500
MOST_NAMES_WATCHED = 1_000  # names of a namespace looked at (while a run goes on: none in a bigger one)
ENGINE = "tinygrad"

ORIGINAL_BUILTINS = dict(vars(builtins))
requested_recursion_limit = None  # the last limit a block asked for above SAFE_RECURSION_LIMIT
lowered_recursion_limit = None  # (the limit a block set lower than the one before, that one) until the run ends
SET_RECURSION_LIMIT = sys.setrecursionlimit  # Python's own
engine_file = None  # (path, text) of tinygrad.py as this interpreter installed it, once known
engine_objects = {}  # the engine's classes and functions as this interpreter first imported them, once known
figures_changed_by = None  # the block whose run changed what the figures compute with ("Block 1"), once one did
STANDARD_MODULES = ("math", "random")  # the standard modules the engine and the figures compute with
ORIGINAL_STANDARD = {name: (module, {key: value for key, value in vars(module).items() if not key.startswith("_")})
                     for name, module in ((name, importlib.import_module(name)) for name in STANDARD_MODULES)}
# This module's own state, which it rebinds while it works: the keeper (keeper.py) leaves it alone.
CHANGING = ("requested_recursion_limit", "lowered_recursion_limit", "engine_file", "reported_engine_text", "engine_objects", "figures_changed_by")


class NoThreads(RuntimeError):
    """Python in the browser cannot start a thread (Pyodide has none)."""


class NoBlockingWait(RuntimeError):
    """Synchronous code (asyncio.run(), loop.run_until_complete()) cannot wait for async code here."""


def install(wait=None, on_deep_graph=None, note=None, flush=None):
    """Change the browser's interpreter (never CPython's in the tests): see the module's docstring.

    `wait(seconds)` blocks for at most that long and answers True if Stop was pressed meanwhile;
    `on_deep_graph()` is called once per run when the run builds a deep chain of Values;
    `note(text)` shows a remark of the page's in the running block's output and `flush()` sends
    what the block printed so far.
    """
    note = note or (lambda text: None)
    set_limit = getattr(sys.setrecursionlimit, "original", sys.setrecursionlimit)
    set_limit(SAFE_RECURSION_LIMIT)
    sys.setrecursionlimit = limited_recursion(set_limit, note)
    if wait is not None:
        time.sleep = page_sleep(wait, note, flush or (lambda: None))
    os._exit = end_block
    stopping.catch_stop()
    refuse_threads()
    refuse_blocking_waits()
    remember_engine_file()
    if on_deep_graph is not None:
        watch.callback = on_deep_graph
        if watch not in gc.callbacks:
            gc.callbacks.append(watch)


def limited_recursion(set_limit, note):
    """sys.setrecursionlimit for the browser: a limit above SAFE_RECURSION_LIMIT becomes that limit."""
    def setrecursionlimit(limit):
        """Set the maximum depth of nested calls; in the page, at most SAFE_RECURSION_LIMIT."""
        global requested_recursion_limit, lowered_recursion_limit
        limit = operator.index(limit)
        before = sys.getrecursionlimit()
        if limit < before:  # the lowest limit Python takes leaves the page's own code no room: for this run only
            lowered_recursion_limit = (limit, lowered_recursion_limit[1] if lowered_recursion_limit else before)
        if limit > SAFE_RECURSION_LIMIT:
            requested_recursion_limit = limit
            note(f"sys.setrecursionlimit({limit}): in the page Python allows at most {SAFE_RECURSION_LIMIT} "
                 "nested calls, because deeper ones would overflow the browser's small stack and crash Python.")
        set_limit(min(limit, SAFE_RECURSION_LIMIT))

    setrecursionlimit.original = set_limit
    return setrecursionlimit


def restore_recursion_limit():
    """After a run: the limit of nested calls as it was before the run lowered it; the remark to show, or ""."""
    global lowered_recursion_limit
    if lowered_recursion_limit is None:
        return ""
    (lowered, before), lowered_recursion_limit = lowered_recursion_limit, None
    SET_RECURSION_LIMIT(before)
    return (f"This block lowered Python's limit of nested calls to {lowered}: it is {before} again for the next run, "
            "which the page's own code needs.")


def page_sleep(wait, note, flush):
    """time.sleep for the page: waits in slices of SLEEP_SLICE_SECONDS through `wait`, so Stop ends it."""
    def sleep(seconds):
        """Wait `seconds` seconds (press Stop to end the wait sooner)."""
        asked, seconds = seconds, sleep_length(seconds)
        if seconds >= LONG_SLEEP_SECONDS:
            note(f"time.sleep({reprlib.repr(asked)}) waits {duration(seconds)}: press Stop to end it sooner.")
        flush()  # what was printed before the pause shows during it
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if wait(min(left, SLEEP_SLICE_SECONDS)):
                raise stopping.StopPressed

    return sleep


def sleep_length(seconds):
    """`seconds` as time.sleep checks it: a real number, not negative, not NaN."""
    if not isinstance(seconds, float):
        seconds = operator.index(seconds)  # TypeError for "1", None, ...
    if math.isnan(seconds):
        raise ValueError("Invalid value NaN (not a number)")
    if seconds < 0:
        raise ValueError("sleep length must be non-negative")
    return float(seconds)


def duration(seconds):
    """A length of time in the unit a reader thinks in: "12 seconds", "3 minutes", "11.6 days"."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.3g} {unit}s" if seconds / size < 1e6 else f"{seconds / size:,.0f} {unit}s"
    return f"{seconds:g} seconds"


def end_block(status=0):
    """os._exit in the page: ends the block like exit() (Python itself must go on for the page)."""
    raise SystemExit(status)


def no_thread(*args, **kwargs):
    raise NoThreads("can't start new thread")


# Where a thread can be started from: _thread's functions, and threading's own references to them.
THREAD_STARTERS = (("_thread", "start_new_thread"), ("_thread", "start_new"), ("_thread", "start_joinable_thread"),
                   ("threading", "_start_joinable_thread"), ("threading", "_start_new_thread"))


def refuse_threads():
    """Every way to start a thread raises NoThreads (Pyodide's own raises a plain RuntimeError)."""
    for module, name in THREAD_STARTERS:
        scope = importlib.import_module(module)
        if hasattr(scope, name):
            setattr(scope, name, no_thread)


def refuse_blocking_waits():
    """Pyodide's event loop waits for a coroutine from synchronous code (asyncio.run()) only where the
    stack can be switched, and never in a worker started from the snapshot: there its run_sync fails
    before the coroutine ever started, which is what tells that failure from one of the coroutine's
    own, and then raises NoBlockingWait."""
    try:
        from pyodide import webloop
    except ImportError:  # not Pyodide
        return
    run_sync = getattr(webloop.run_sync, "original", webloop.run_sync)

    def guarded_run_sync(awaitable):
        try:
            return run_sync(awaitable)
        except RuntimeError as error:
            if not (inspect.iscoroutine(awaitable) and inspect.getcoroutinestate(awaitable) == inspect.CORO_CREATED):
                raise
            awaitable.close()  # never awaited: no "coroutine was never awaited" warning
            raise NoBlockingWait(f"cannot wait for async code from synchronous code here ({error})") from None

    guarded_run_sync.original = run_sync
    webloop.run_sync = guarded_run_sync


# ---- What a run changed ----------------------------------------------------------------------

def repair(namespace, show):
    """Put back the built-ins a block deleted or replaced, the namespace's `__builtins__` and `show` if
    it was deleted; returns the remarks to show the reader (one line each), or ""."""
    current = vars(builtins)
    changed = [name for name, original in ORIGINAL_BUILTINS.items()
               if name != "_" and current.get(name, current) is not original]
    for name in changed:
        current[name] = ORIGINAL_BUILTINS[name]
    remarks = []
    if changed:
        remarks.append(f"This block deleted or replaced Python's built-in {names_text(changed)}: "
                       "the original is back for the next run." if len(changed) == 1 else
                       f"This block deleted or replaced Python's built-ins {names_text(changed)}: "
                       "the originals are back for the next run.")
    if namespace.get("__builtins__") is not current and namespace.get("__builtins__") is not builtins:
        namespace["__builtins__"] = current
        remarks.append("This block deleted or replaced `__builtins__`: Python's built-ins are back for the next run.")
    if "show" not in namespace:
        namespace["show"] = show
        remarks.append("show() belongs to the page: it is back for the next run.")
    changed_file = engine_file_changed()
    if changed_file:
        remarks.append(changed_file)
    return "\n".join(remarks)


NOTHING_REPORTED = object()
reported_engine_text = NOTHING_REPORTED  # the changed text of tinygrad.py (None: deleted) a remark was made about


def engine_file_changed():
    """A remark, once per change, when tinygrad.py no longer holds what this interpreter installed."""
    global reported_engine_text
    if engine_file is None:
        return ""
    path, text = engine_file
    try:
        now = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        now = None  # deleted, or no longer text
    if now == text or now == reported_engine_text:
        return ""
    reported_engine_text = now
    if now is None:
        return (f"This block deleted the engine's file, {path.name}, from this Python's file system: code that "
                "imports it anew (importlib.reload) fails. Press Restart Python to get the file back.")
    return (f"This block changed the engine's file, {path.name}, in this Python's file system: code that "
            "imports it anew (importlib.reload) gets the changed text. Press Restart Python to get the file back.")


def names_text(names):
    shown = [f"`{name}`" for name in names[:5]]
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return ", ".join(shown) + more


def remember_engine_file():
    """Note tinygrad.py as this interpreter installed it (an edited engine is installed before)."""
    global engine_file, engine_objects
    path = engine_path()
    if path is not None:
        engine_file = (path, path.read_text(encoding="utf-8"))
        engine_objects = {}  # noted by engine_changes() once the engine is imported (an edited one is not yet)


def engine_path():
    try:
        spec = importlib.util.find_spec(ENGINE)
    except (ImportError, ValueError):
        return None
    return Path(spec.origin) if spec is not None and spec.origin else None


def engine_changes(with_file=True):
    """How this interpreter's engine differs from what its tinygrad.py defines, in words ("" if not); with_file:
    a changed file counts too (it changes nothing the page's code holds, only what imports it anew)."""
    engine = sys.modules.get(ENGINE)
    if engine is None:
        return ""
    if not isinstance(engine, types.ModuleType):
        return f"sys.modules['{ENGINE}'] is {reprlib.repr(engine)}, not the engine"
    if engine_file is None:
        remember_engine_file()
    if engine_file is None:
        return ""
    path, text = engine_file
    if with_file:
        try:
            unchanged = path.read_text(encoding="utf-8") == text
        except OSError:
            unchanged = False
        if not unchanged:
            return f"its file {path.name} was changed or deleted"
    if not engine_objects:  # the first look at the engine this interpreter imported
        engine_objects.update((name, getattr(engine, name, None)) for name in defined_names(text))
    for name in defined_names(text):
        found = getattr(engine, name, None)
        if getattr(found, "__module__", None) != ENGINE or getattr(found, "__name__", None) != name:
            return (f"{ENGINE}.{name} was deleted" if not hasattr(engine, name)
                    else f"{ENGINE}.{name} is now {reprlib.repr(found)}")
        if name in engine_objects and found is not engine_objects[name]:
            return f"{ENGINE}.{name} was made anew (importlib.reload), unlike the {name} the page's code holds"
    return ""


def standard_changes():
    """The names of STANDARD_MODULES a block replaced or deleted, in words ("math.tanh was replaced")."""
    changed = []
    for module_name, (module, saved) in ORIGINAL_STANDARD.items():
        current = vars(module)
        changed += [f"{module_name}.{name} was " + ("deleted" if name not in current else "replaced")
                    for name, value in saved.items() if current.get(name, current) is not value]
    return changed


def figures_changes():
    """What a block changed that the figures compute with (the engine, math), in words ("" if nothing)."""
    changes = [engine_changes(with_file=False)] + standard_changes()
    return "; ".join(change for change in changes if change)


def shadowed_built_ins(namespace):
    """{name: value} of the built-ins the namespace hides behind a value that cannot be called (print = None)."""
    return {name: value for name, value in namespace.items()
            if name in ORIGINAL_BUILTINS and callable(ORIGINAL_BUILTINS[name]) and not callable(value)}


_defined = {}


def defined_names(text):
    """The classes and functions a module's source `text` defines at its top level."""
    if text not in _defined:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            tree = ast.Module(body=[], type_ignores=[])
        _defined.clear()
        _defined[text] = [node.name for node in tree.body
                          if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
    return _defined[text]


# ---- Deep chains of Values ------------------------------------------------------------------

def chain_depth(value, limit):
    """How many levels of edges lie below `value` along its first and along its last parents (the
    chains a loop such as `total = total + term` or `total = term + total` builds), at most `limit`."""
    deepest = 0
    for pick in (0, -1):
        node, depth = value, 0
        while depth < limit:
            edges = getattr(node, "edges", None)
            if not edges:
                break
            try:
                node = edges[pick][0]
            except (TypeError, IndexError, KeyError):
                break
            depth += 1
        deepest = max(deepest, depth)
    return deepest


def deep_values(candidates, limit=DEEP_CHAIN):
    """True when one of `candidates` is a Value of the engine with a chain at least `limit` levels deep
    below it that backward() did not order for a safe release (see tinygrad.Value.backward)."""
    engine = sys.modules.get(ENGINE)
    value_type = getattr(engine, "Value", None)
    if not isinstance(value_type, type):
        return False
    for candidate in candidates:
        if type(candidate) is value_type and getattr(candidate, "order_for_freeing", None) is None:
            if chain_depth(candidate, limit) >= limit:
                return True
    return False


def held_values(namespace):
    """The values of a namespace and those in its lists, tuples and dicts (one level down)."""
    for held in namespace.values():
        yield held
        if isinstance(held, (list, tuple)):
            yield from held[-100:]
        elif isinstance(held, dict):
            yield from itertools.islice(reversed(held.values()), 100)


def holds_deep_graph(namespaces):
    """Whether the page namespaces `namespaces` hold a chain of Values deep enough that freeing it may
    overflow the browser's stack (only their first MOST_NAMES_WATCHED names are looked at)."""
    return any(deep_values(itertools.islice(held_values(namespace), MOST_NAMES_WATCHED))
               for namespace in namespaces)


class Watch:
    """The garbage collector's callback that looks, while a run goes on, for a deep chain of Values
    held by the running block's namespace or its functions' variables, and reports it once."""

    def __init__(self):
        self.callback = None
        self.namespace = None  # the running block's namespace; None between runs
        self.filename = None
        self.reported = False

    def start(self, namespace, filename):
        self.namespace, self.filename, self.reported = namespace, filename, False

    def stop(self):
        self.namespace = None

    def __call__(self, phase, info):
        if phase != "start" or self.namespace is None or self.reported or self.callback is None:
            return
        try:
            if self.deep_now():
                self.reported = True
                self.callback()
        except Exception:  # noqa: BLE001 - a watch must never break the reader's code
            pass

    def deep_now(self):
        held = []
        if len(self.namespace) <= MOST_NAMES_WATCHED:
            held.append(self.namespace.values())
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.filename and frame.f_globals is self.namespace \
                    and frame.f_code.co_name != "<module>":
                held.append(frame.f_locals.values())
            frame = frame.f_back
        return deep_values(itertools.chain.from_iterable(held))


watch = Watch()
