"""own_thread.py: calls a function in a thread of its own and returns what it returns.

What it is: the one way the tests run the session's coroutines (CPython's side of a block run, as the
build and the browser run them) when Playwright may be active: its sync API holds the main thread's
event loop for the whole session once a browser test has run, so asyncio.run() there fails with
"cannot be called from a running event loop". `in_own_thread(asyncio.run, coroutine)` gives the
coroutine a loop of its own.
What it is not: a fixture, nor a way to run things in parallel (the caller waits).
"""
import concurrent.futures


def in_own_thread(function, *args, **kwargs):
    """function(*args, **kwargs), called in a new thread; its result, or the exception it raised."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(function, *args, **kwargs).result()
