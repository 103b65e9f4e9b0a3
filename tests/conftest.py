"""conftest.py (tests/): makes the engine importable as `tinygrad` for every test.

What it is: the one piece of setup the tests share: engine/ on sys.path, exactly as a student who
saved tinygrad.py next to their own script would import it, and the repository root, so the site's
Python (figure models, build hooks) imports as `site_scripts.<...>`.

What it is not: a place for fixtures. The engine tests use none (they also run inside Pyodide, where
pytest is not available); the browser tests have their own conftest in tests/site.
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "engine"), str(REPO)]
