"""hints.py: a sentence in plain words for the errors a reader cannot guess the meaning of in a page.

What it is: `hint_for(error)` classifies an exception once, into a kind (KINDS), and answers
(kind, sentence), or (None, None) when no hint helps: the engine missing, replaced or changed, a
package that cannot be installed, a name of the engine used without its import, a deleted show()
or built-in, runaway recursion, threads, asyncio.run(), memory, the page's document or window
asked for through `js` (Python runs in a web worker, apart from the page), and JavaScript made from
text (js.eval), which the page's security policy refuses. The kind is decided from what the error
is: its class (the guards raise classes of their own for threads and for waiting on async code, see
guards.py; Pyodide's JsException carries the JavaScript error's `name`), the `name` Python gives an
ImportError, NameError or AttributeError, and the engine's state; only a size too big for 32 bits
is told by the message of its OverflowError, the one sign Python gives.
What it is not: the traceback (tracebacks.py) or the run (runner.py adds the sentence as a note of
the exception and puts the kind into the run's error).
"""
import importlib
import sys
import types

from . import guards

ENGINE_MODULES = {"tinygrad", "tutor"}
KINDS = ("engine-missing", "engine-changed", "missing-package", "engine-name", "show-deleted", "built-in-deleted",
         "recursion", "no-threads", "no-blocking-wait", "memory", "no-page", "no-eval")
DESKTOP_RECURSION_LIMIT = 1_000  # Python's own limit of nested calls, which the guards lower in the page
JS_MODULE = "js"  # Pyodide's module for JavaScript's global scope (in the worker: the worker's, not the page's)


def hint_for(error):
    """(kind, sentence) for `error`, or (None, None)."""
    kind = kind_of(error)
    return (kind, sentence(kind, error)) if kind else (None, None)


def kind_of(error):
    """The kind of hint `error` needs (one of KINDS), or None."""
    if out_of_the_worker(error):
        return "no-page"
    if type(error).__name__ == "JsException" and getattr(error, "name", None) == "EvalError":
        return "no-eval"
    if isinstance(error, ImportError) and engine_replaced(error.name):
        return "engine-missing"
    if isinstance(error, Exception) and not isinstance(error, SyntaxError) and guards.engine_changes():
        return "engine-changed"
    if isinstance(error, ModuleNotFoundError):
        package = (error.name or "").partition(".")[0]
        if package and package not in sys.stdlib_module_names:
            return "missing-package"
    if isinstance(error, NameError) and error.name in engine_names():
        return "engine-name"
    if isinstance(error, NameError) and error.name == "show":
        return "show-deleted"
    if isinstance(error, NameError) and error.name in guards.ORIGINAL_BUILTINS:
        return "built-in-deleted"
    if isinstance(error, RecursionError):
        return "recursion"
    if isinstance(error, guards.NoThreads):
        return "no-threads"
    if isinstance(error, guards.NoBlockingWait):
        return "no-blocking-wait"
    if isinstance(error, MemoryError) or index_too_big(error):
        return "memory"
    return None


def out_of_the_worker(error):
    """`from js import document` (an ImportError naming js) or `js.document` (an AttributeError of the js
    module): something of the page, asked for from the worker, which has none of it."""
    if isinstance(error, ImportError) and not isinstance(error, ModuleNotFoundError):
        return error.name == JS_MODULE
    if isinstance(error, AttributeError) and JS_MODULE in sys.modules:
        return getattr(error, "obj", None) is sys.modules[JS_MODULE]
    return False


def index_too_big(error):
    """A size that does not fit the browser's 32-bit Python ([0] * 10**10): Python says so only in the
    message of its OverflowError, which other overflows (math.exp(1000)) share the class of."""
    return isinstance(error, OverflowError) and "index-sized" in str(error)


def sentence(kind, error):
    if kind == "engine-missing":
        return ("The engine, tinygrad, was removed or replaced in this Python session: "
                "press Restart Python to load it again.")
    if kind == "engine-changed":
        return (f"The lesson's engine was changed in this Python session ({guards.engine_changes()}), so the "
                "code that uses it may fail: press Restart Python to load it again.")
    if kind == "missing-package":
        package = error.name.partition(".")[0]
        return (f"{package} is not available here: Python runs offline in your browser with only the "
                "standard library and the lesson's engine, tinygrad. The one package it can install is micrograd, "
                'from this site: `import micropip` then `await micropip.install("micrograd")`.')
    if kind == "engine-name":
        return (f"{error.name} comes from the lesson's engine: `from tinygrad import {error.name}` brings it "
                "back. If a block changed the engine itself, press Restart Python to load it again.")
    if kind == "show-deleted":
        return "show() belongs to the page: a block deleted it, and it is back for the next run."
    if kind == "built-in-deleted":
        return (f"{error.name} is one of Python's built-ins, which a block deleted or replaced: "
                "the original is back for the next run.")
    if kind == "recursion":
        limit = sys.getrecursionlimit()
        smaller = (f" in the page (desktop Python allows {DESKTOP_RECURSION_LIMIT:,}: deeper calls would overflow the "
                   "browser's smaller stack)" if limit < DESKTOP_RECURSION_LIMIT else "")
        return (f"A function kept calling itself: Python stops after about {limit} nested calls{smaller}. Check that "
                "every chain of calls reaches a case that returns directly; a function that calls itself once per "
                "Value of a long graph (a sum() of hundreds of Values, say) needs a loop with a list as its stack "
                "instead.")
    if kind == "no-threads":
        return ("Python in the browser has no threads: call the function directly instead, "
                "or make it async and await it.")
    if kind == "no-page":
        missing = getattr(error, "name_from", None) if isinstance(error, ImportError) else error.name
        lacks = f"the worker has no `{missing}`, and " if missing else ""
        return (f"Python runs in a web worker, apart from the page: {lacks}the page itself (its document, window and "
                "elements) is out of Python's reach. print() is how a block shows something: what it prints "
                "appears under the block.")
    if kind == "no-eval":
        return ("The page runs no JavaScript made from text (eval, new Function): its security policy forbids "
                "it, so that code from a block cannot put scripts into the page. Do the work in Python; print() "
                "shows the result.")
    if kind == "no-blocking-wait":
        return ("Python in the page cannot wait for async code inside a function such as asyncio.run(): "
                "write `await main()` on a line of the block instead (blocks may use await at the top level).")
    return ("That needs more memory than Python in a browser tab can have (a few gigabytes at most, "
            "and sizes must fit in 32 bits). Try a much smaller size.")


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
