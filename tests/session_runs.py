"""session_runs.py: runs code as a block through tutor.session in CPython, the way the page runs it.

What it is: the one wrapper the CPython tests use around `tutor.session.run` (the Python side of a
block's run, which the build and the browser's worker call too): it collects what the block sends to
its output, in its own thread (own_thread.py says why), and returns the error report, the text a
block's output log shows, and every item (stream, text) in order, the show() graphs included.
What it is not: a browser test helper (tests/site/helpers.py runs blocks in Chromium).
"""
import asyncio

from own_thread import in_own_thread
from tutor import session


def run_in_session(code, page="test-page", fresh=True, filename="<python block>"):
    """Run `code` as a block of `page` (a fresh namespace unless `fresh` is false);
    (report: "" on success, output text without the show() graphs, [(stream, text), ...])."""
    items = []
    report = in_own_thread(asyncio.run, session.run(page, code, lambda stream, text: items.append((stream, text)),
                                                    filename=filename, fresh=fresh))
    return report, "".join(text for stream, text in items if stream != "graph"), items
