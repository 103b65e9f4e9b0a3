"""stopping.py: what Stop raises, and Stop for a run that waits in an `await`, which the flag cannot reach.

What it is: on a cross-origin isolated page Stop sets a flag that Python checks while it executes,
and Python calls its handler of SIGINT: `catch_stop()` (the guards install it) makes that handler
raise StopPressed, a KeyboardInterrupt of the Stop button's own, so a reader's own
`raise KeyboardInterrupt("mine")` stays theirs, an error with its traceback. A block that waits
(asyncio.sleep, a coroutine that never ends) leaves Python idle, so it never looks at the flag: the
worker then hands the dispatcher a "stop" request, and `stop_waiting_run()` cancels the run's task;
the run then ends like an interrupted one (`ended_by_stop(error)`). The runner marks the run in
progress with `started()` and `ended()`.
A block's asyncio tasks end with it: `await end_tasks()`, when a run ends (or Stop ended it),
cancels every task the run started and left running (asyncio.ensure_future of a loop that would
go on changing the page's Python behind the next blocks) and says which, and which ignored it (those
go on: the page then never replays that run, and only Restart Python ends them).
What it is not: the interrupt itself (the page's runtime.mjs sets the flag) nor a way to stop
Python that runs (only the flag, or a fresh worker, does that).
"""
import asyncio
import signal
from pathlib import Path

RUNTIME_FOLDER = Path(__file__).resolve().parent
TURNS_TO_END = 3  # turns of the event loop a cancelled task gets to see its cancellation and end

waiting_run = None  # the asyncio task of the run in progress, which Stop may cancel while it awaits
stop_cancelled = False  # the run in progress ended because Stop cancelled it
earlier_tasks = set()  # the tasks that ran already when the run in progress started: not its own
# This module's own state, which it rebinds while it works: the keeper (keeper.py) leaves it alone.
CHANGING = ("waiting_run", "stop_cancelled", "earlier_tasks")


class StopPressed(KeyboardInterrupt):
    """The interrupt the Stop button sends (a reader's own KeyboardInterrupt is not one)."""


def stop_pressed(signum, frame):
    """Python's handler of SIGINT in the page: the interrupt comes from the Stop button."""
    raise StopPressed


def catch_stop():
    """Make the Stop button's interrupt (SIGINT) raise StopPressed."""
    signal.signal(signal.SIGINT, stop_pressed)


def started():
    """A run begins: remember its task (none when it runs without an event loop) and the tasks before it."""
    global waiting_run, stop_cancelled, earlier_tasks
    waiting_run, stop_cancelled, earlier_tasks = current_task(), False, set(readers_tasks())


def ended():
    global waiting_run, earlier_tasks
    waiting_run, earlier_tasks = None, set()


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


def readers_tasks():
    """The tasks of the running event loop not done yet, other than the runtime's own (a request it answers)."""
    try:
        tasks = asyncio.all_tasks()
    except RuntimeError:  # no event loop running
        return []
    return [task for task in tasks if task is not asyncio.current_task() and not runtime_task(task)]


def runtime_task(task):
    code = getattr(task.get_coro(), "cr_code", None)
    return code is not None and Path(code.co_filename).resolve().parent == RUNTIME_FOLDER


def task_name(task):
    code = getattr(task.get_coro(), "cr_code", None)
    return f"{code.co_name}()" if code is not None else task.get_name()


async def end_tasks():
    """Cancel the tasks the run in progress started and left running; (the remark to show, "" if none; whether
    one of them ignored its cancellation and goes on)."""
    left = [task for task in readers_tasks() if task not in earlier_tasks]
    if not left:
        return "", False
    for task in left:
        task.cancel()
    for _ in range(TURNS_TO_END):
        if all(task.done() for task in left):
            break
        await asyncio.sleep(0)
    names = ", ".join(sorted({task_name(task) for task in left}))
    remark = (f"This block left asyncio tasks running ({names}): they are cancelled now that it has ended, so they "
              "change nothing behind the next blocks. `await` a task in its block to let it finish."
              if len(left) > 1 else
              f"This block left an asyncio task running ({names}): it is cancelled now that the block has ended, so "
              "it changes nothing behind the next blocks. `await` a task in its block to let it finish.")
    ignoring = sorted({task_name(task) for task in left if not task.done()})
    if ignoring:
        remark += f"\n{', '.join(ignoring)} caught the cancellation and goes on: press Restart Python to end it."
    return remark, bool(ignoring)
