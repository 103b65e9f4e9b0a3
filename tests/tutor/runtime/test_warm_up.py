"""Tests of tutor.runtime.warm_up, what the build runs just before it takes Python's memory snapshot
(site_scripts/hooks/make_snapshot.mjs), in CPython.

What it is: warm_up() runs its block the way a page's block runs and answers what it printed (the
engine's numbers for q = a·a + a at a = 3); it leaves nothing behind (no page namespace, no source
line kept for tracebacks, no state of a run); a page's first run afterwards starts from an empty
namespace; a warm-up block that fails stops with a clear error (the build then stops).
prepare_snapshot() imports the engine, the runtime and every figure model and answers them.
What it is not: the snapshot itself (tests/site/test_snapshot.py checks what the build's warm-up
printed and that a page booted from it sees none of its names).
"""
import linecache

import pytest

from block_runs import cpython_run
from tinygrad import Value
from tutor.runtime import runner, stopping, warm_up
from tutor_sources import figure_names


def test_warm_up_runs_its_block_and_answers_what_it_printed():
    a = Value(3.0)
    q = a * a + a
    q.backward()
    assert warm_up.warm_up() == f"q = {q.data} dq/da = {a.grad}\n"


def test_warm_up_leaves_nothing_behind():
    pages_before = dict(runner.namespaces)
    cached_before = set(linecache.cache)
    warm_up.warm_up()
    assert runner.namespaces == pages_before
    assert set(linecache.cache) == cached_before
    assert stopping.waiting_run is None and stopping.stop_cancelled is False
    ran = cpython_run("print(sorted(n for n in dir() if not n.startswith('__')))", page="after-warm-up/")
    assert ran.result["ok"] and ran.text == "['show']\n"


def test_a_failing_warm_up_block_stops_with_its_error(monkeypatch):
    monkeypatch.setattr(warm_up, "WARM_UP_BLOCK", "print('before')\n1 / 0\n")
    with pytest.raises(RuntimeError, match=r"(?s)warm_up: the warm-up block failed: .*ZeroDivisionError"):
        warm_up.warm_up()
    assert warm_up.WARM_UP_PAGE not in runner.namespaces


def test_prepare_snapshot_imports_what_pages_need_and_answers_it():
    prepared = warm_up.prepare_snapshot()
    assert {"tinygrad", "tutor.runtime.dispatcher", *(f"tutor.figures.{name}" for name in figure_names())} \
        <= set(prepared["modules"])
    assert prepared["warmUp"] == warm_up.warm_up()
