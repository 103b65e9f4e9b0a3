"""conftest.py (tests/): makes the engine importable as `tinygrad` for every test.

What it is: the one piece of setup the engine tests need, putting engine/ on sys.path, exactly as a
student who saved tinygrad.py next to their own script would import it.

What it is not: a place for fixtures. The engine tests use none (they also run inside Pyodide, where
pytest is not available); the browser tests have their own conftest in tests/site.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
