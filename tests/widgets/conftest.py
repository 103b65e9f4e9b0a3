"""conftest.py (tests/widgets/): makes the figure models importable as `site_scripts.widgets.<name>`.

What it is: puts the repository root on sys.path (tests/conftest.py already adds engine/, so the
models' `from tinygrad import ...` resolves to the project's engine, as in the browser).
What it is not: a place for fixtures; the model tests are plain functions.
"""
import sys
from pathlib import Path

REPO = str(Path(__file__).resolve().parents[2])
if REPO not in sys.path:
    sys.path.insert(0, REPO)
