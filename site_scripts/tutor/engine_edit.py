"""engine_edit.py: the Python side of "Edit the engine", installed in the browser as `tutor.engine_edit`.

What it is: two jobs. `check(source)` checks a reader's edited tinygrad.py before the site switches
to it: it compiles the text, runs it as a module of its own (never registered as `tinygrad`, so the
engine in use is untouched), looks for the names the lesson's blocks import and the attributes the
site reads on a Value (each missing one said with what it is for, MEANING), then asks what the site
expects of them, in the reader's terms and with the engine's line (engine_expectations.py: `edges` as
pairs, backward() following them and zeroing first, MLP(sizes, seed) returning a list, ...), and then
tries on it, once each, what the site itself will do with it (engine_trial.py): every figure's starting state and then each of its controls once, with small
arguments (one step where the page may ask for many, one entry), show()'s picture of a small loss,
the import of every exercise's checks, and, for each exercise whose solution imports from tinygrad,
that solution (its loops cut to a few passes) and its checks on it, which may answer "not yet" but
not raise. An engine the check accepts therefore starts every figure and answers each of its
controls once. Not tried: a figure's controls more than once or with other arguments (a long
training, a by-hand figure's last box), the chapters' blocks themselves (only the names they use are
looked for, NEEDED_NAMES), and the solutions of the exercises that never import tinygrad (the steps
of "Build your own engine", the by-hand ones), whose checks are only imported. It returns the
verdict, {"ok", "problem", "note"}, which the page gets through runtime.call (tutor.runtime.page_calls);
the note, for an engine that passes, names where its gradients differ from central differences: such
an engine is applied (wrong gradients are the experiments of "Edit the engine"), with that said. A
check stopped (by the reader, or by the page's time limit) says where it was and how long Python had
worked, without guessing why.
`install(source)` makes the next `import tinygrad` load the edited text: it rewrites the installed
tinygrad.py and forgets the engine and every lesson module already imported, so it works in a
freshly booted interpreter and in one restored from a memory snapshot (where tinygrad and the figure
models are imported already).
What it is not: a sandbox. An edited engine runs with the same rights as any code block; the worker
calls `install` only for a text the page has checked, and the page keeps a one-click way back to the
original engine (a fresh worker that never calls `install`).
"""
import contextlib
import importlib
import importlib.util
import io
import linecache
import sys
import sysconfig
import time
import traceback
import types
from pathlib import Path

from . import engine_expectations, engine_trial
from .runtime.tracebacks import traceback_of

ENGINE_MODULE = "tinygrad"
ENGINE_FILENAME = "tinygrad.py"
# The name the checked text gets in messages. Not a file: under the plain name, tracebacks would
# show the lines of the installed engine (found on sys.path) instead of the reader's.
CHECKED_FILENAME = "tinygrad.py (your edit)"
# What the lesson's blocks use from the engine, by name: without these the site breaks in ways that
# have nothing to do with the experiment the reader wants to make. The figures and show() read a
# Value's `data`, `grad` and `edges` (pairs (parent, local derivative)) and call backward(); they
# find the graph's order themselves (tutor.figures.graph_trace.values_in_order). Whatever else a
# figure or an exercise's checks use is found by trying them on the candidate (engine_trial.py).
NEEDED_NAMES = ("Value", "MLP", "gradient_step", "train_line", "train_xor")
NEEDED_VALUE_METHODS = ("backward", "tanh", "wrap")
NEEDED_VALUE_ATTRIBUTES = ("data", "grad", "edges")
# What each needed name is for, in the reader's terms: said for each name a refused engine lacks.
MEANING = {
    "Value": "Value(data, edges=()): a number that records the operations that produced it",
    "MLP": "MLP(sizes, seed=42): a network such as MLP([2, 4, 1], seed=42), called on a list of inputs, "
           "returning a list of Values, with parameters()",
    "gradient_step": "gradient_step(parameters, learning_rate): p.data -= learning_rate * p.grad for each p",
    "train_line": "train_line(steps=1000, learning_rate=0.05): fits a line, returns (w, b, loss)",
    "train_xor": "train_xor(steps=1000, learning_rate=0.1): trains MLP([2, 4, 1], seed=42) on XOR, returns "
                 "(predictions, loss)",
    "Value.backward": "v.backward(): sets every grad of v's graph to 0, then fills each with d v / d that value",
    "Value.tanh": "v.tanh(): a new Value, tanh of v's number, with the edge (v, 1 - tanh² of it)",
    "Value.wrap": "Value.wrap(x), a static method: x itself if it is a Value, else the leaf Value(x)",
    "Value.data": "v.data: the number a Value holds",
    "Value.grad": "v.grad: the gradient backward() left there",
    "Value.edges": "v.edges: the pairs (parent, local derivative) v was computed from, as given in "
                   "Value(3, [(leaf, 1.5)]); () for a leaf",
}
# Lesson modules that stay when the engine is replaced: the package, this module, the trial and the
# runtime the worker holds (tutor.runtime imports no engine). Every other tutor module may hold the
# old engine's Value (holds_engine).
RUNTIME_PACKAGE = "tutor.runtime"
ENGINE_FREE = {"tutor", __name__, "tutor.engine_trial", "tutor.engine_expectations"}
# The check's limit in Python's own work (CPU time), checked between the things the trial tries; the page's
# clock (CHECK_TIME_LIMIT_MS of engine-editor.mjs) is longer and stops what never returns.
CHECK_SECONDS = 15
PAGE_CALLS = ("check",)  # what the page may call (tutor.runtime.page_calls)


def problems(source):
    """What stops `source` from serving as the site's engine, in plain words; "" if nothing does."""
    linecache.cache[CHECKED_FILENAME] = (len(source), None, source.splitlines(keepends=True), CHECKED_FILENAME)
    try:
        code = compile(source, CHECKED_FILENAME, "exec")
    except (SyntaxError, ValueError) as error:  # ValueError: a character compile() refuses
        return ("Your engine has a syntax error, so Python cannot read it:\n"
                + "".join(traceback.format_exception_only(error)))
    started = time.process_time()
    module = types.ModuleType(ENGINE_MODULE)
    module.__file__ = CHECKED_FILENAME
    captured = io.StringIO()  # what the engine prints at import is not the verdict
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            exec(code, module.__dict__)  # noqa: S102 - the reader's engine, checked as an import would run it
    except KeyboardInterrupt:  # Stop the check, or its time limit, on a page that can interrupt Python
        return stopped("to import your engine", started)
    except BaseException as error:  # noqa: BLE001 - SystemExit at import breaks the site just the same
        return "Importing your engine failed:\n" + engine_traceback(error)
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            missing = missing_names(module)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # noqa: BLE001 - the reader's Value failed: say so
        return ("Your engine imports, but making a Value with it failed (the site makes Value(2) and "
                "Value(3, [(leaf, 1.5)])):\n" + engine_traceback(error))
    if missing:
        return (f"Your engine does not define {', '.join(missing)}, which the lesson's code blocks and "
                "figures use:\n" + "".join(f"- {MEANING[name]}\n" for name in missing if name in MEANING)
                + "Put them back (Reset shows the original) and try again.")
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            unmet = engine_expectations.first_unmet(module)
    except KeyboardInterrupt:
        return stopped(f"{engine_expectations.trying} with your engine", started)
    if unmet:
        return ("Your engine defines the names the lesson uses, but does not do with them what the site "
                f"expects:\n{unmet}\nReset shows the lesson's engine, which does.")
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            failure = engine_trial.first_failure(module, holds_engine, until=started + CHECK_SECONDS)
    except KeyboardInterrupt:
        return stopped(f"{engine_trial.trying} with your engine", started)
    except engine_trial.OutOfTime as out_of_time:
        return (f"The check needed more than {CHECK_SECONDS:g} seconds of Python's own work with your engine (time "
                "spent waiting for a busy computer does not count) and had got only as far as "
                f"{out_of_time}. The lesson's engine needs a second or two for all of it: is something in your "
                "engine much slower, such as walking the whole graph again for every value?")
    if failure:
        return (f"Your engine defines the names the lesson uses, but {failure}\nThe figures, show() and the "
                "exercises' checks run on your engine too: keep what they use (Reset shows the original) "
                "and try again.")
    return ""


def gradient_note(source):
    """For an engine text the check accepted: how its gradients differ from a numerical estimate, in words
    ("" when they agree). Such an engine is applied (breaking the gradients is the experiment of the page
    "Edit the engine"), and the reader is told where its numbers part from the estimate."""
    module = types.ModuleType(ENGINE_MODULE)
    module.__file__ = CHECKED_FILENAME
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            exec(compile(source, CHECKED_FILENAME, "exec"), module.__dict__)  # noqa: S102 - checked already
            difference = engine_expectations.gradient_difference(module)
    except KeyboardInterrupt:
        raise
    except Exception as error:  # noqa: BLE001 - the trial passed; a formula of its own that fails is said so
        return f"Your engine's gradients could not be compared with a numerical estimate: {engine_traceback(error)}"
    if not difference:
        return ""
    return (f"Your engine's gradients differ from a numerical estimate: {difference}. Every block and figure "
            "now shows your engine's numbers, which are not the derivatives.")


def stopped(what, started):
    """The verdict on a check stopped (by the reader, or by its time limit) while it tried `what`: where it was
    and how long Python had worked, without guessing why: a loop that never ends, a slow engine or a busy
    computer all end this way."""
    worked = time.process_time() - started
    return (f"The check was stopped while it tried {what}, after {worked:.1f} seconds of "
            "Python's work on the check. \"Stop the check\" stops it, and so does its time limit; a loop that "
            "never ends (at the top level, or in backward()) reaches that limit, and so can an engine that is much slower than "
            "the lesson's, or a computer busy with other work. If your engine has no such loop there, try again.")


def engine_traceback(error):
    """The traceback of an exception raised while the engine ran, from the engine's lines only."""
    return traceback_of(error, lambda frame: frame.filename == CHECKED_FILENAME)


def missing_names(module):
    """The needed names `module` does not define, like "Value.backward", "Value.edges" or "MLP".

    The attributes are looked for on a leaf, Value(2), and on a value made with one edge,
    Value(3, [(leaf, 1.5)]), which must keep that edge as the pair (leaf, 1.5): the site makes
    values that way. An error the engine raises there is passed on (see problems()).
    """
    missing = [name for name in NEEDED_NAMES if not hasattr(module, name)]
    value = getattr(module, "Value", None)
    if value is None:
        return missing
    missing += [f"Value.{name}" for name in NEEDED_VALUE_METHODS if not callable(getattr(value, name, None))]
    leaf = value(2)
    made = value(3, [(leaf, 1.5)])
    missing += [f"Value.{name}" for name in NEEDED_VALUE_ATTRIBUTES
                if not (hasattr(leaf, name) and hasattr(made, name))]
    if "Value.edges" not in missing and not keeps_its_edge(made, leaf):
        missing.append("Value.edges holding the pairs (parent, local derivative) it was given, as in "
                       "Value(3, [(leaf, 1.5)])")
    return missing


def keeps_its_edge(made, leaf):
    """True when `made`, made as Value(3, [(leaf, 1.5)]), has exactly that one edge."""
    try:
        [(parent, local_derivative)] = made.edges
    except (TypeError, ValueError):  # not a sequence of one pair
        return False
    return parent is leaf and local_derivative == 1.5


def check(source):
    """The verdict on the engine text `source`: {"ok": bool, "problem": what is wrong, in words, "note": for
    an engine that passes, how its gradients differ from a numerical estimate (gradient_note), else ""}."""
    if not isinstance(source, str):
        raise TypeError(f"check needs the engine's text, not {type(source).__name__}")
    started = time.process_time()
    problem = problems(source)
    note = ""
    if not problem:
        try:
            note = gradient_note(source)
        except KeyboardInterrupt:  # Stop the check, or its time limit
            problem = stopped("to compare your engine's gradients with central differences", started)
    return {"ok": not problem, "problem": problem, "note": note}


def install(source):
    """Make the next `import tinygrad` (a block's or a figure model's) load `source`."""
    forget_engine()
    path = engine_path()
    path.write_text(source, encoding="utf-8")
    Path(importlib.util.cache_from_source(str(path))).unlink(missing_ok=True)  # never a stale .pyc
    importlib.invalidate_caches()
    linecache.checkcache(str(path))  # tracebacks show the edited lines


def holds_engine(name):
    """Whether the lesson module `name` may hold on to the engine it was imported with."""
    return name.startswith("tutor.") and name not in ENGINE_FREE and name != RUNTIME_PACKAGE \
        and not name.startswith(RUNTIME_PACKAGE + ".")


def forget_engine():
    """Drop the imported engine and every lesson module that may hold on to it from sys.modules."""
    for name in list(sys.modules):
        if name == ENGINE_MODULE or holds_engine(name):
            del sys.modules[name]


def engine_path():
    """The installed tinygrad.py: where the import system finds it, else in site-packages."""
    spec = importlib.util.find_spec(ENGINE_MODULE)
    if spec is not None and spec.origin and spec.origin.endswith(ENGINE_FILENAME):
        return Path(spec.origin)
    return Path(sysconfig.get_paths()["purelib"]) / ENGINE_FILENAME
