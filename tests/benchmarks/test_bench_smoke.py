"""test_bench_smoke.py: proves that `./dev.sh bench` still runs and measures every row, so it cannot rot.

What it is: one quick run of run_all.run(quick=True) (one repeat, no engine run inside Pyodide),
checking that every row of the table is there with a measured number, that the chapter switch kept
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

import run_all  # noqa: E402  (after the path is set)


def test_the_benchmark_starts_as_the_command_starts_it():
    """`./dev.sh bench` runs run_all.py as a script, with none of the tests' conftest paths."""
    started = subprocess.run([sys.executable, str(Path(run_all.__file__)), "--help"], capture_output=True,
                             text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    assert "--repeats" in started.stdout


@pytest.mark.browser
def test_quick_benchmark_measures_every_row():
    rows = run_all.run(quick=True)

    expected = set(run_all.TARGETS) - {"pyodide"}  # the run inside Pyodide is skipped by --quick
    assert {entry["key"] for entry in rows} == expected
    for entry in rows:
        assert isinstance(entry["value"], (int, float)) and math.isfinite(entry["value"]) and entry["value"] > 0, entry
        assert entry["met"] in (True, False, None)
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
