"""session.py: the Python side of the lesson's runtime, installed in the browser as `tutor.session`.

What it is: the module the web worker calls. `run` executes a code block in the namespace of its
page (all blocks of a page share one, in page order), streams what the code prints through a
callback, shows the value of a final expression the way the Python prompt does, and turns an
exception into a traceback that starts at the reader's code. `call` runs a function of a figure
model (`tutor.widgets.<name>`) with JSON arguments and returns its result as JSON.

What it is not: a sandbox or a scheduler. The worker runs one request at a time; stopping a
runaway loop is the worker's job (an interrupt, or a fresh worker).
"""
import ast
import importlib
import inspect
import json
import linecache
import re
import sys
import traceback

namespaces = {}  # page key -> the globals its blocks share
WIDGET_NAME = re.compile(r"[a-z_][a-z0-9_]*")


class Stream:
    """A write-only text stream that hands every write to `emit(stream_name, text)` at once."""

    def __init__(self, name, emit):
        self.name = name
        self.emit = emit

    def write(self, text):
        if text:
            self.emit(self.name, text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"


def fresh_namespace(page):
    """Forget what earlier runs of this page defined; return its new, empty namespace."""
    namespaces[page] = {"__name__": "__main__", "__builtins__": __builtins__}
    return namespaces[page]


async def run(page, code, emit, filename="<python block>", fresh=False):
    """Run `code` in page `page`'s namespace, streaming output to `emit(stream, text)`.

    Returns "" on success, else the formatted traceback (also written to stderr).
    """
    namespace = fresh_namespace(page) if fresh or page not in namespaces else namespaces[page]
    linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
    saved_streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = Stream("stdout", emit), Stream("stderr", emit)
    try:
        await execute(code, filename, namespace)
        return ""
    except BaseException as error:  # noqa: B036 - KeyboardInterrupt and SystemExit are the reader's too
        report = reader_traceback(error)
        sys.stderr.write(report)
        return report
    finally:
        sys.stdout.flush()
        sys.stdout, sys.stderr = saved_streams


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
    """The traceback of `error` without this module's frames: it starts at the reader's code."""
    if isinstance(error, KeyboardInterrupt):
        return "KeyboardInterrupt: stopped\n"
    if isinstance(error, SyntaxError):  # raised while compiling: no frame of the reader's to show
        return "".join(traceback.format_exception_only(error))
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(error), error, tb))


def call(widget, function, arguments_json):
    """Call tutor.widgets.<widget>.<function>(**arguments) and return its result as JSON text.

    Bad names or arguments raise ValueError/TypeError with a message saying what was wrong.
    """
    if not isinstance(widget, str) or not WIDGET_NAME.fullmatch(widget):
        raise ValueError(f"call: widget must be a module name such as 'line_fit', not {widget!r}")
    if not isinstance(function, str) or not function.isidentifier() or function.startswith("_"):
        raise ValueError(f"call: function must be a public function name, not {function!r}")
    try:
        module = importlib.import_module(f"tutor.widgets.{widget}")
    except ModuleNotFoundError as error:
        raise ValueError(f"call: there is no figure model named {widget!r}") from error
    target = getattr(module, function, None)
    if not callable(target):
        raise ValueError(f"call: tutor.widgets.{widget} has no function {function!r}")
    arguments = json.loads(arguments_json)
    if not isinstance(arguments, dict):
        raise TypeError(f"call: arguments must be an object of keyword arguments, not {arguments!r}")
    return json.dumps(target(**arguments))
