"""stopping.py: Stop for a run that waits in an `await`, which the interrupt flag cannot reach.

What it is: on a cross-origin isolated page Stop sets a flag that Python checks while it executes,
and raises KeyboardInterrupt. A block that waits (asyncio.sleep, a coroutine that never ends)
leaves Python idle, so it never looks at the flag: the worker then hands the dispatcher a "stop"
request, and `stop_waiting_run()` cancels the run's task; the run then ends like an interrupted one
(`ended_by_stop(error)`). The runner marks the run in progress with `started()` and `ended()`.
What it is not: the interrupt itself (the page's runtime.mjs sets the flag) nor a way to stop
Python that runs (only the flag, or a fresh worker, does that).
"""
import asyncio

waiting_run = None  # the asyncio task of the run in progress, which Stop may cancel while it awaits
stop_cancelled = False  # the run in progress ended because Stop cancelled it
CHANGING = ("waiting_run", "stop_cancelled")  # this module's own state: the keeper (keeper.py) leaves it alone


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
    return isinstance(error, KeyboardInterrupt) or (isinstance(error, asyncio.CancelledError) and stop_cancelled)
