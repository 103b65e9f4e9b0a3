"""runner.py: runs a code block in the namespace of its page, the way the Python prompt would.

What it is: all blocks of a page share one namespace (`namespaces[page]`, holding only `show` when
fresh), in page order. `run(page, code, on_output, on_graph)` executes a block there (top-level
`await` allowed), prints the value of a final expression like the prompt, streams what it prints
through output.Output, and answers its result as a plain value: {"ok", "report", "error",
"engineChanged", "tasksLeft"}, where report is what the output showed of an error (a traceback of the reader's
code, with a hint, hints.py), error the error value of the contract (contract.error: exception,
stopped or exit) and engineChanged whether the run changed the lesson's engine or what its figures
compute with, tasksLeft whether an asyncio task it started ignored its cancellation and goes on (the
page replays neither kind of run after a restart). After every run the guards put back what a block deleted, the
run's asyncio tasks are cancelled (stopping.py), and a change that lasts is said and remembered with
the block that made it: what the figures compute with (the figures then name that block), and a
built-in hidden behind a value of the block's own (`print = None`: a later "'NoneType' object is not
callable" names the block).
What it is not: a sandbox or a scheduler: the dispatcher answers one request at a time, and stopping
a runaway loop is the page's and the worker's job (an interrupt, or a fresh worker).
"""
import ast
import inspect
import linecache
import reprlib
import sys

from . import guards, output, packages, stopping
from .contract import error
from .hints import hint_for
from .show import shower
from .tracebacks import UNSHOWN, reader_traceback, text_of

namespaces = {}  # page key -> the globals its blocks share
shadowed_by = {}  # (page key, name of a built-in) -> the block that hid the built-in behind its own value
EXIT_NOTE = ("exit(), quit(), sys.exit() and os._exit() end a whole program; in the page they only end this "
             "block. Everything defined so far is kept.")
LOWERED_LIMIT = ("Python stopped because this block lowered its limit of nested calls (sys.setrecursionlimit) "
                 "below what the code needed.")
STOPPED_REPORT = "KeyboardInterrupt: stopped by the Stop button. Everything defined before it is kept.\n"


def fresh_namespace(page):
    """Forget what earlier runs of this page defined; return its new namespace (only `show` in it)."""
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    namespace["show"] = shower(namespace)
    namespaces[page] = namespace
    return namespace


def succeeded(engine_changed=False):
    return {"ok": True, "report": "", "error": None, "engineChanged": engine_changed}


def failed(report, failure, engine_changed=False):
    return {"ok": False, "report": report, "error": failure, "engineChanged": engine_changed}


async def run(page, code, on_output, on_graph=None, filename="<python block>", fresh=False):
    """Run `code` in page `page`'s namespace; output goes to on_output(stream, text) and graphs to
    on_graph(graph). Answers the run's result (see the module's docstring)."""
    namespace = fresh_namespace(page) if fresh or page not in namespaces else namespaces[page]
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    printed = output.Output(on_output, on_graph)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = output.NoInput(), output.Stream("stdout", printed), output.Stream("stderr", printed)
    guards.watch.start(namespace, filename)
    stopping.started()
    guards.restore_recursion_limit()  # one lowered outside a run (by a call's code) holds no longer
    repaired, engine_changed, recursion_limit, tasks_left = "", False, "", False
    engine_before, figures_before = guards.engine_changes(), guards.figures_changes()
    shadowed_before = guards.shadowed_built_ins(namespace)
    try:
        try:
            await execute(code, filename, namespace)
        finally:
            recursion_limit = guards.restore_recursion_limit()  # first: what follows needs room for its calls
            guards.watch.stop()
            ended_tasks, tasks_left = await stopping.end_tasks()
            figures_now = guards.figures_changes()
            remarks = (recursion_limit, guards.repair(namespace, shower(namespace)), ended_tasks,
                       figures_remark(filename, figures_now, figures_before),
                       *shadowing_remarks(page, namespace, filename, shadowed_before))
            repaired = "\n".join(remark for remark in remarks if remark)
            engine_changed = (figures_now not in ("", figures_before)
                              or guards.engine_changes() not in ("", engine_before))
        if repaired:
            printed.write("note", output.bracketed(repaired))
        printed.finish()
        return {**succeeded(engine_changed), "tasksLeft": tasks_left}
    except SystemExit as exit_request:
        try:
            result = ended_by_exit(exit_request, printed, engine_changed)
        except Exception:  # noqa: BLE001 - its own code (a `code` property) failed: an error of the reader's
            result = ended_by_error(exit_request, engine_changed)
            printed.report("stderr", result["report"])
        if repaired:
            printed.on_output("note", output.bracketed(repaired))
        return {**result, "tasksLeft": tasks_left}
    except BaseException as raised:  # noqa: BLE001 - KeyboardInterrupt is the reader's too
        lowered = LOWERED_LIMIT if recursion_limit and isinstance(raised, RecursionError) else None
        result = ended_by_error(raised, engine_changed, lowered or hidden_built_in(page, namespace, raised))
        printed.report("stderr", result["report"])
        if repaired:
            printed.on_output("note", output.bracketed(repaired))
        return {**result, "tasksLeft": tasks_left}
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        stopping.ended()


def block_name(filename):
    """How the page names a block: "Block 1" for "<block 1>", the block “The function” for "<The function>"."""
    title = filename.removeprefix("<").removesuffix(">")
    return title.capitalize() if title.startswith("block ") else f"The block “{title}”"


def figures_remark(filename, figures_now, figures_before):
    """The remark of a run that changed what the figures compute with (remembered with the block, which the
    figures then name), or ""."""
    if figures_now in ("", figures_before):
        return ""
    guards.figures_changed_by = block_name(filename)
    return (f"This block changed what the lesson's engine and figures compute with ({figures_now}): the figures "
            "show a notice instead of numbers until you press Restart Python (which does not run this block again).")


def shadowing_remarks(page, namespace, filename, shadowed_before):
    """The remarks of a run that hid built-ins behind values of its own, each remembered with the block, which
    a later "... object is not callable" then names."""
    remarks = []
    for name, value in guards.shadowed_built_ins(namespace).items():
        if shadowed_before.get(name, namespace) is not value:
            shadowed_by[page, name] = block_name(filename)
            remarks.append(f"This block gave `{name}` the value {reprlib.repr(value)}: in this page's next blocks "
                           f"`{name}` is that, not Python's built-in {name}(). `del {name}` brings the built-in back.")
    return remarks


def hidden_built_in(page, namespace, raised):
    """A sentence for "'NoneType' object is not callable" when the page's namespace hides a built-in
    behind a value of that type (`print = None` in an earlier block), naming the block; else None."""
    if not isinstance(raised, TypeError):
        return None
    for name, value in guards.shadowed_built_ins(namespace).items():
        if text_of(raised) == f"'{type(value).__name__}' object is not callable":
            block = shadowed_by.get((page, name), "A block")
            return (f"{block} changed `{name}`: in this page it is {reprlib.repr(value)}, not Python's built-in "
                    f"{name}(). `del {name}` brings the built-in back (and Reset that block, or run it again "
                    "without the change).")
    return None


def ended_by_error(raised, engine_changed, sentence_of_the_page=None):
    """The result of a run that `raised`: stopped by the reader, or an exception with its traceback (and the
    page's own sentence on it, if any, instead of a hint)."""
    if stopping.ended_by_stop(raised):
        return failed(STOPPED_REPORT, error("stopped", STOPPED_REPORT.strip()), engine_changed)
    try:
        hint, sentence = hint_for(raised)
    except Exception:  # noqa: BLE001 - the error's own code failed while the hint looked at it: no hint
        hint, sentence = None, None
    sentence = sentence_of_the_page or sentence
    name, message = type(raised).__name__, text_of(raised)
    report = reader_traceback(raised)
    report += "" if report.endswith("\n") else "\n"  # notes that are not a list end without one
    if message.startswith(UNSHOWN):
        report += f"The message of this {name} could not be shown: str() of it raised an error of its own.\n"
    if sentence:  # after the error's own notes, as a note of its own would be
        report += sentence + "\n"
    return failed(report, error("exception", message, type=name, traceback=report, hint=hint), engine_changed)


def ended_by_exit(exit_request, printed, engine_changed):
    """sys.exit()/exit()/quit() in a block: a note; a non-zero status also counts as an error."""
    status = exit_request.code
    number = int.__int__(status) if issubclass(type(status), int) else None  # never the status's own code
    if status is None or number == 0:
        printed.report("note", EXIT_NOTE + "\n")
        return succeeded(engine_changed)
    report = f"SystemExit: {number if number is not None else text_of(status)}\n"
    printed.report("stderr", report)
    printed.on_output("note", EXIT_NOTE + "\n")
    return failed(report, error("exit", report.strip(), status=number), engine_changed)


async def execute(code, filename, namespace):
    """Execute a block; if it ends with an expression, print that value's repr (unless None)."""
    tree = ast.parse(code, filename, "exec")
    final_expression = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        final_expression = ast.Expression(tree.body.pop().value)
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    await packages.provide(tree)  # micropip from the site's own files, for a block that imports it
    await evaluate(compile(tree, filename, "exec", flags=flags), namespace)
    if final_expression is not None:
        value = await evaluate(compile(final_expression, filename, "eval", flags=flags), namespace)
        if value is not None:
            print(repr(value))


async def evaluate(code_object, namespace):
    result = eval(code_object, namespace)  # noqa: S307 - running the reader's code is the runner's job
    return await result if inspect.iscoroutine(result) else result
