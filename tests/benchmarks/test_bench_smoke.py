"""test_bench_smoke.py: proves that `./dev.sh bench` still runs and measures every row, so it cannot rot.

What it is: one run of run_all.run(smoke=True) (one repeat, no engine run inside Pyodide, one browser
profile on disk and contexts of one browser for the others, the link's rows unthrottled, a short XOR
training: each row as cheaply as it can be measured) on a copy of the
session's shared site build (tests/conftest.py's `built_site`, served on the port it was built for
while the tests' own server pauses), checking that every row of the table is there with a
measured number and its unit (and its comparison, where it has one), one verdict per target (yes or
no where the target has a test, none where the row is only reported), that the chapter switch kept
one interpreter with a namespace per chapter, that the cold and warm visit rows measured the site as
shipped (snapshot boot) and the plain-boot rows the fallback, and that the table prints.

What it is not: a speed test. No time or size is compared with a target here (the benchmark prints
those); a slow machine passes as long as everything was measured.
"""
import math
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run_all
from own_thread import in_own_thread


def test_the_benchmark_starts_as_the_command_starts_it():
    """`./dev.sh bench` runs run_all.py as a script, with none of the tests' conftest paths."""
    started = subprocess.run([sys.executable, str(Path(run_all.__file__)), "--help"], capture_output=True,
                             text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    assert "--repeats" in started.stdout


UNITS = {"ms", "s", "bytes", "documents"}


def measured(value):
    """A number the benchmark measured: finite and above zero (nothing takes no time or no bytes)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0


@pytest.mark.browser
def test_quick_benchmark_measures_every_row(built_site, site_port, site_server):
    with site_server.paused():  # the bench serves the build on the port it was built for
        # In a thread of its own: the run drives a Playwright of its own, which cannot start in the thread
        # whose Playwright (the browser tests', in the same test process) is already running.
        rows = in_own_thread(run_all.run, smoke=True, site=built_site, port=site_port)

    expected = set(run_all.TARGETS) - {"pyodide"}  # the run inside Pyodide is skipped by --quick
    assert sorted(entry["key"] for entry in rows) == sorted(expected)  # each row once
    for entry in rows:
        assert measured(entry["value"]) and entry["unit"] in UNITS and entry["name"], entry
        # A row compared with something (the bare page, the runtime alone, micrograd) has both numbers.
        assert (entry["bare"] is None) == (entry["ratio"] is None), entry
        assert entry["bare"] is None or (measured(entry["bare"]) and measured(entry["ratio"])), entry
        # One verdict per target: yes or no where the target has a test, none where the row is only reported.
        targets = run_all.TARGETS[entry["key"]]
        assert len(entry["met_each"]) == len(targets), entry
        for (_, test), met in zip(targets, entry["met_each"]):
            assert met is None if test is None else isinstance(met, bool), entry
        assert all(entry["checks"].values()), entry
    switch = next(entry for entry in rows if entry["key"] == "switch")
    assert set(switch["checks"]) == {"same interpreter", "own namespace"}
    # The visit rows judged by the targets are the site as shipped; the plain boot is reported beside them.
    by_key = {entry["key"]: entry for entry in rows}
    assert set(by_key["cold"]["checks"]) == {"booted from the snapshot"}
    assert set(by_key["cold plain"]["checks"]) == {"plain boot without the snapshot"}
    assert len(by_key["cold"]["met_each"]) == 2 and by_key["cold plain"]["met"] is None
    table = run_all.format_table(rows)
    assert all(entry["name"] in table for entry in rows)
