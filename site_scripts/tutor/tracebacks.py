"""tracebacks.py: a traceback shown to the reader, cut down to the frames that are theirs.

What it is: one helper, `traceback_of(error, keep)`, shared by the block runner (tutor.session, which
drops its own frames) and the engine check (tutor.engine_edit, which keeps only the edited engine's).
What it is not: a hint writer; the callers add their notes to the error first.
"""
import traceback


def traceback_of(error, keep):
    """The formatted traceback of `error` with only the frames `keep(frame)` accepts; a SyntaxError,
    raised while compiling, has no frame to show and gets its own short form."""
    if isinstance(error, SyntaxError):
        return "".join(traceback.format_exception_only(error))
    summary = traceback.TracebackException.from_exception(error)
    summary.stack = traceback.StackSummary.from_list([frame for frame in summary.stack if keep(frame)])
    return "".join(summary.format())
