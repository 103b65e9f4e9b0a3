"""tracebacks.py: a traceback shown to the reader, cut down to the frames that are theirs.

What it is: `traceback_of(error, keep)`, shared by the runtime and the engine check (tutor.engine_edit,
which keeps only the edited engine's frames), and `reader_traceback(error)`, which drops the frames
of the runtime itself (this folder): a block's traceback starts at the reader's code, a call's at
the called function. An error whose own code fails when it is shown (a `__str__` that raises, odd
`__notes__`) is still the reader's: `text_of(value)` says when a value's text cannot be shown, and a
traceback Python cannot format shows at least the frames and the error's type.
What it is not: a hint writer; the callers add their notes to the error first.
"""
import traceback
from pathlib import Path

RUNTIME_FOLDER = str(Path(__file__).resolve().parent)
UNSHOWN = "(its text could not be shown"


def traceback_of(error, keep):
    """The formatted traceback of `error` with only the frames `keep(frame)` accepts; a SyntaxError,
    raised while compiling, has no frame to show and gets its own short form."""
    try:
        if isinstance(error, SyntaxError):
            return "".join(traceback.format_exception_only(error))
        summary = traceback.TracebackException.from_exception(error)
        summary.stack = traceback.StackSummary.from_list([frame for frame in summary.stack if keep(frame)])
        return "".join(summary.format())
    except Exception:  # noqa: BLE001 - the error's own code failed: show what does not need it
        frames = [frame for frame in traceback.extract_tb(error.__traceback__) if keep(frame)]
        shown = "".join(traceback.format_list(frames))
        message = text_of(error)
        final = type(error).__name__ + (f": {message}" if message and not message.startswith(UNSHOWN) else "")
        return ("Traceback (most recent call last):\n" if shown else "") + shown + final + "\n"


def text_of(value):
    """str(value), or, when the value's own __str__ fails, a sentence saying it could not be shown."""
    try:
        return str(value)
    except Exception as failure:  # noqa: BLE001 - the reader's code, which may raise anything
        return f"{UNSHOWN}: str() of it raised {type(failure).__name__})"


def reader_traceback(error):
    """The traceback of `error` without the runtime's own frames."""
    return traceback_of(error, lambda frame: str(Path(frame.filename).resolve().parent) != RUNTIME_FOLDER)
