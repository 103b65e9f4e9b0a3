"""stopping.py: what Stop raises, and Stop for a run that waits in an `await`, which the flag cannot reach.

What it is: on a cross-origin isolated page Stop sets a flag that Python checks while it executes,
and Python calls its handler of SIGINT: `catch_stop()` (the guards install it) makes that handler
raise StopPressed, a KeyboardInterrupt of the Stop button's own, so a reader's own
`raise KeyboardInterrupt("mine")` stays theirs, an error with its traceback. A block that waits (asyncio.sleep, a coroutine that never ends)
leaves Python idle, so it never looks at the flag: the worker then hands the dispatcher a "stop"
request, and `stop_waiting_run()` cancels the run's task; the run then ends like an interrupted one
(`ended_by_stop(error)`). The runner marks the run in progress with `started()` and `ended()`.
What it is not: the interrupt itself (the page's runtime.mjs sets the flag) nor a way to stop
Python that runs (only the flag, or a fresh worker, does that).
"""
import asyncio
import signal

waiting_run = None  # the asyncio task of the run in progress, which Stop may cancel while it awaits
stop_cancelled = False  # the run in progress ended because Stop cancelled it
CHANGING = ("waiting_run", "stop_cancelled")  # this module's own state: the keeper (keeper.py) leaves it alone


class StopPressed(KeyboardInterrupt):
    """The interrupt the Stop button sends (a reader's own KeyboardInterrupt is not one)."""


def stop_pressed(signum, frame):
    """Python's handler of SIGINT in the page: the interrupt comes from the Stop button."""
    raise StopPressed


def catch_stop():
    """Make the Stop button's interrupt (SIGINT) raise StopPressed."""
    signal.signal(signal.SIGINT, stop_pressed)


def started():
    """A run begins: remember its task (none when it runs without an event loop)."""
    global waiting_run, stop_cancelled
    waiting_run, stop_cancelled = current_task(), False


def ended():
    global waiting_run
    waiting_run = None


def current_task():
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop (a run called from plain synchronous code)
        return None


def stop_waiting_run():
    """Cancel the run in progress if it waits in an await; returns whether one was waiting."""
    global stop_cancelled
    if waiting_run is None or waiting_run.done():
        return False
    stop_cancelled = True
    waiting_run.cancel()
    return True


def ended_by_stop(error):
    """Whether `error`, which ended a run, means the reader pressed Stop."""
    return isinstance(error, StopPressed) or (isinstance(error, asyncio.CancelledError) and stop_cancelled)
