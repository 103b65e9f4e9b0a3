"""conftest.py (tests/): makes the engine importable as `tinygrad` for every test.

What it is: the one piece of setup the tests share: engine/ on sys.path, exactly as a student who
saved tinygrad.py next to their own script would import it; site_scripts/, so the Python that runs
in the browser imports as it does there (`tutor.runtime.runner`, `tutor.figures.line_fit`); and the
repository root, so the build hooks and the classroom server import as `site_scripts.<...>`; and
site_scripts/hooks/, where the hooks find each other (as MkDocs lets them while it loads one); and
tests/ itself, for the helpers every folder of tests uses (own_thread.py, block_runs.py).

What it is not: a place for fixtures. The engine tests use none (they also run inside Pyodide, where
pytest is not available); the browser tests have their own conftest in tests/site.
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "engine"), str(REPO / "site_scripts"), str(REPO / "site_scripts" / "hooks"), str(REPO),
                 str(REPO / "tests")]
