"""Tests of tutor.session.warm_up, the block the build runs just before it takes Python's memory
snapshot (site_scripts/hooks/make_snapshot.mjs), in CPython.

What it is: it runs its block the way a page's block runs and answers what it printed (the engine's
numbers for q = a·a + a at a = 3); it leaves nothing behind (no page namespace, no source line kept
for tracebacks, no state of a run); a page's first run afterwards starts from an empty namespace;
a warm-up block that fails stops with a clear error (the build then stops).
What it is not: the snapshot itself (tests/site/test_snapshot.py checks what the build's warm-up
printed and that a page booted from it sees none of its names).
"""
import linecache

import pytest

from session_runs import run_in_session
from tinygrad import Value
from tutor import session


def test_warm_up_runs_its_block_and_answers_what_it_printed():
    a = Value(3.0)
    q = a * a + a
    q.backward()
    assert session.warm_up() == f"q = {q.data} dq/da = {a.grad}\n"


def test_warm_up_leaves_nothing_behind():
    pages_before = dict(session.namespaces)
    cached_before = set(linecache.cache)
    session.warm_up()
    assert session.namespaces == pages_before
    assert set(linecache.cache) == cached_before
    assert session.waiting_run is None and session.stop_cancelled is False and session.changed_engine is False

    report, printed, _ = run_in_session("print(sorted(n for n in dir() if not n.startswith('__')))", "after-warm-up/",
                                        fresh=False)
    assert report == "" and printed == "['show']\n"


def test_a_failing_warm_up_block_stops_with_its_error(monkeypatch):
    monkeypatch.setattr(session, "WARM_UP_BLOCK", "print('before')\n1 / 0\n")
    with pytest.raises(RuntimeError, match=r"(?s)warm_up: the warm-up block failed: .*ZeroDivisionError"):
        session.warm_up()
    assert session.WARM_UP_PAGE not in session.namespaces
