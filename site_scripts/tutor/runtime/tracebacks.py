"""tracebacks.py: a traceback shown to the reader, cut down to the frames that are theirs.

What it is: `traceback_of(error, keep)`, shared by the runtime and the engine check (tutor.engine_edit,
which keeps only the edited engine's frames), and `reader_traceback(error)`, which drops the frames
of the runtime itself (this folder): a block's traceback starts at the reader's code, a call's at
the called function.
What it is not: a hint writer; the callers add their notes to the error first.
"""
import traceback
from pathlib import Path

RUNTIME_FOLDER = str(Path(__file__).resolve().parent)


def traceback_of(error, keep):
    """The formatted traceback of `error` with only the frames `keep(frame)` accepts; a SyntaxError,
    raised while compiling, has no frame to show and gets its own short form."""
    if isinstance(error, SyntaxError):
        return "".join(traceback.format_exception_only(error))
    summary = traceback.TracebackException.from_exception(error)
    summary.stack = traceback.StackSummary.from_list([frame for frame in summary.stack if keep(frame)])
    return "".join(summary.format())


def reader_traceback(error):
    """The traceback of `error` without the runtime's own frames."""
    return traceback_of(error, lambda frame: str(Path(frame.filename).resolve().parent) != RUNTIME_FOLDER)
