"""warm_up.py: what the build runs in Pyodide just before it takes Python's memory snapshot.

What it is: `prepare_snapshot()`, which site_scripts/hooks/make_snapshot.mjs calls: it imports what a
page needs at once (the engine, this runtime and every figure model), runs one block the way a page
does (`warm_up()`: the bytecode of the runtime and the engine specialized as it runs, caches filled
on first use, so a reader's first block runs sooner), collects the garbage and answers the lesson
modules now in memory and what the warm-up block printed (the maker writes both into the snapshot's
header). The warm-up leaves no namespace, no source line for tracebacks and no state of a run
behind.
What it is not: the snapshot (make_snapshot.mjs makes it; the worker's snapshot.mjs reads it).
"""
import gc
import importlib
import linecache
import pkgutil
import sys

from . import runner

# What warm_up() runs: a block like the lesson's first ones (the engine, one backward pass, a print).
WARM_UP_BLOCK = """from tinygrad import Value
a = Value(3.0)
q = a * a + a
q.backward()
print("q =", q.data, "dq/da =", a.grad)
"""
WARM_UP_PAGE, WARM_UP_FILENAME = "<warm-up>", "<warm-up block>"
IMPORTED_FIRST = ("tinygrad", "tutor.runtime.dispatcher", "tutor.figures")


def warm_up():
    """Run WARM_UP_BLOCK once, as a page runs a block, forget it, and answer what it printed."""
    printed = []
    coroutine = runner.run(WARM_UP_PAGE, WARM_UP_BLOCK, lambda stream, text: printed.append(text),
                           filename=WARM_UP_FILENAME)
    try:
        coroutine.send(None)
    except StopIteration as finished:
        result = finished.value
    else:  # it waited for something: nothing of the block may do that
        coroutine.close()
        result = {"ok": False, "report": "the block waited in an await"}
    finally:
        runner.namespaces.pop(WARM_UP_PAGE, None)  # the run resets its own state (stopping.py)
        linecache.cache.pop(WARM_UP_FILENAME, None)
    if not result["ok"]:
        raise RuntimeError(f"warm_up: the warm-up block failed: {result['report']}")
    return "".join(printed)


def prepare_snapshot():
    """Import what pages need, warm up, collect; {"modules": lesson modules in memory, "warmUp": printed}."""
    for name in IMPORTED_FIRST:
        importlib.import_module(name)
    for module in pkgutil.iter_modules(sys.modules["tutor.figures"].__path__, "tutor.figures."):
        importlib.import_module(module.name)
    printed = warm_up()
    gc.collect()
    modules = sorted(name for name in sys.modules if name == "tinygrad" or name.startswith("tutor"))
    return {"modules": modules, "warmUp": printed}
