"""page_calls.py: the page's one way to call the lesson's Python: a function a module lists in PAGE_CALLS.

What it is: `call(module, fn, kwargs, namespace)` calls module.fn(**kwargs) when `module` is a module
of the `tutor` package that declares PAGE_CALLS, a tuple naming the functions the page may call
(every figure model: PAGE_CALLS = ("initial", ...); tutor.exercises: ("results",); tutor.engine_edit:
("check",)), and fn is one of them. Nothing else can be called: not a helper, not a name the module
imported (a model's Value), not a module without the list. `namespace` (a page's namespace, for the
exercises' checks) is passed as the keyword argument `namespace` when given. It never raises: it
answers {"ok", "value", "error", "printed", "printedLines"}, where error is an error value of the
contract (not-allowed, bad-arguments, exception, stopped, not-json or broken), printed the first
PRINTED_LINES lines the function printed (at most PRINTED_CHARACTERS; kept from the page's console,
so a figure can say it printed) and printedLines how many lines it printed in all (an engine that
prints in Value.__init__ prints thousands: only they are counted, nothing more is kept). A module of
the lesson whose file a block deleted (os.remove, shutil.rmtree) is the error broken, in plain words,
and so is a figure's call after a block changed what the figures compute with (guards.figures_changes:
the engine reloaded, math.tanh replaced): the figure says so, and which block, instead of drawing
numbers the lesson's engine would not. While the reader's edited engine is installed, a figure's state also
carries `engine_note` when the gradients of the figure's start differ from a numerical estimate (engine_note).
What it is not: the check of a request's fields (dispatcher.py) nor the functions themselves.
"""
import contextlib
import importlib
import inspect
import json
import re
import sys
from pathlib import Path

from . import guards, stopping
from .contract import error
from .tracebacks import reader_traceback, text_of

MODULE_NAME = re.compile(r"tutor(\.[a-z_][a-z0-9_]*)+")
PRINTED_LINES = 5  # the first lines a call printed that its answer keeps ("the first few")
PRINTED_CHARACTERS = 2_000
FIGURES = "tutor.figures."  # the figures' models
LESSON_FOLDER = Path(__file__).resolve().parent.parent  # the tutor package
# Every module of the lesson as the page started: one that cannot be imported later lost its file.
LESSON_MODULES = {".".join(("tutor", *path.relative_to(LESSON_FOLDER).with_suffix("").parts)).removesuffix(".__init__")
                  for path in LESSON_FOLDER.rglob("*.py")}


def call(module, fn, kwargs, namespace=None):
    """module.fn(**kwargs) (plus `namespace` when given), answered as {"ok", "value", "error", "printed", "printedLines"}."""
    printed = Printed()
    try:
        target = allowed_function(module, fn)
        changed = guards.figures_changes() if module.startswith(FIGURES) else ""
        if changed:
            raise Refused("broken", f"{guards.figures_changed_by or 'A block'} changed what this figure computes "
                                    f"with ({changed}), so it would show numbers the lesson's engine would not. "
                                    "Press Restart Python to draw it again.")
        arguments = dict(kwargs) if namespace is None else {**kwargs, "namespace": namespace}
        try:
            inspect.signature(target).bind(**arguments)
        except TypeError as mismatch:
            raise Refused("bad-arguments", f"call: {module}.{fn}() {mismatch}") from None
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            value = target(**arguments)
            note = engine_note(module) if module.startswith(FIGURES) and isinstance(value, dict) else ""
        if note:
            value = {**value, "engine_note": note}
    except Refused as refusal:
        return answer(error(refusal.kind, refusal.message), printed)
    except stopping.StopPressed:  # a KeyboardInterrupt of the called code's own is an exception like any other
        return answer(error("stopped", "Stopped by the Stop button."), printed)
    except BaseException as raised:  # noqa: BLE001 - SystemExit in a called function is an error too
        if isinstance(raised, ModuleNotFoundError) and raised.name in LESSON_MODULES:
            return answer(error("broken", deleted_file(raised.name), type=type(raised).__name__), printed)
        return answer(error("exception", text_of(raised), type=type(raised).__name__,
                            traceback=reader_traceback(raised), hint=None), printed)
    problem = not_json(value)
    if problem:
        return answer(error("not-json", f"call: {module}.{fn}() answered a value the page cannot receive: {problem}"),
                      printed)
    return {"ok": True, "value": value, "error": None, **printed.answer()}


class Refused(Exception):
    """A call the page may not make, or with arguments that do not fit: its error kind and message."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


def engine_note(module):
    """For a figure, while the reader's edited engine is installed: where its own gradients differ from a numerical
    estimate (tutor.engine_edit.figure_note), which each of its states carries as `engine_note`; else ""."""
    edit = sys.modules.get("tutor.engine_edit")  # imported only by a page that edits or installs an engine
    return edit.figure_note(module) if edit is not None else ""


def answer(failure, printed):
    return {"ok": False, "value": None, "error": failure, **printed.answer()}


class Printed:
    """What a called function prints (its sys.stdout and sys.stderr): the first PRINTED_LINES lines are
    kept, the rest only counted, so a flood of prints costs little and reaches no console."""

    def __init__(self):
        self.kept, self.kept_characters, self.kept_lines = [], 0, 0
        self.line_breaks, self.open_line = 0, False

    def write(self, text):
        text = str(text)
        if not text:
            return 0
        self.line_breaks += text.count("\n")
        self.open_line = not text.endswith("\n")
        room = PRINTED_CHARACTERS - self.kept_characters
        if self.kept_lines < PRINTED_LINES and room > 0:
            piece, end = text[:room], 0
            while self.kept_lines < PRINTED_LINES:
                line_end = piece.find("\n", end)
                if line_end < 0:  # a line without its break (yet): kept as far as it goes
                    end = len(piece)
                    break
                end = line_end + 1
                self.kept_lines += 1
            self.kept.append(piece[:end])
            self.kept_characters += end
        return len(text)

    def flush(self):
        pass

    def answer(self):
        """{"printed": the lines kept, "printedLines": how many lines were printed in all, a last line
        without its line break included}."""
        return {"printed": "".join(self.kept), "printedLines": self.line_breaks + (1 if self.open_line else 0)}


def deleted_file(module):
    """What to say when the lesson's own module `module` can no longer be imported."""
    return (f"The lesson's own file for {module} is gone from this Python's file system: a block deleted it. "
            "Press Restart Python to get a fresh Python with every file back.")


def not_json(value):
    """Why `value` cannot be sent as JSON (a Value, NaN, a set...), or "" when it can."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as problem:
        return str(problem)
    return ""


def allowed_function(module, fn):
    """The function `fn` of `module` if the module lists it in PAGE_CALLS, else Refused("not-allowed")."""
    if not isinstance(module, str) or not MODULE_NAME.fullmatch(module):
        raise Refused("not-allowed", f"call: {module!r} is not one of the lesson's modules the page may call")
    try:
        imported = importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name in LESSON_MODULES:
            raise
        if missing.name is not None and module.startswith(missing.name):  # the module itself, not its import
            raise Refused("not-allowed", f"call: there is no module named {module!r}") from None
        raise
    page_calls = getattr(imported, "PAGE_CALLS", ())
    if not isinstance(page_calls, tuple):
        page_calls = ()
    if not isinstance(fn, str) or fn not in page_calls:
        listed = ", ".join(page_calls) or "none"
        raise Refused("not-allowed", f"call: {fn!r} is not a function of {module} the page may call "
                                     f"(its PAGE_CALLS: {listed})")
    target = getattr(imported, fn, None)
    if not callable(target):
        raise Refused("not-allowed", f"call: {module} lists {fn!r} in PAGE_CALLS but has no such function")
    return target
