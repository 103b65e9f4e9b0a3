"""fresh_python.py: the one way the build computes something under CPython: in a process of its own.

What it is: `in_fresh_python(module, function, *args)` answers <module>.<function>(*args) (a module of
site_scripts/hooks/; arguments and answer JSON data) computed by a fresh CPython with site_scripts/ (the
tutor package) and engine/ (tinygrad) importable, so every build, also under `mkdocs serve`, sees the
current engine and models, and nothing the lesson's code does reaches the build's own Python. What the
function prints goes to stderr, never into the answer; a failure raises FreshPythonError with the
child's stderr, whose last line is the failure's own message.
What it is not: a sandbox (the code it runs is this repository's).
"""
import contextlib
import importlib
import json
import subprocess
import sys
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class FreshPythonError(Exception):
    """The child failed; str() is its stderr."""


def in_fresh_python(module, function, *args):
    """<module>.<function>(*args), computed by a fresh CPython (see the docstring of this file)."""
    result = subprocess.run([sys.executable, "-B", __file__, module, function], input=json.dumps(args),
                            capture_output=True, text=True, encoding="utf-8", cwd=REPO)
    if result.returncode != 0:
        raise FreshPythonError(result.stderr.strip() or "no output")
    return json.loads(result.stdout)


def main(module, function):
    sys.path[:0] = [str(REPO / "site_scripts"), str(REPO / "engine")]
    args = json.load(sys.stdin)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            answer = getattr(importlib.import_module(module), function)(*args)
    except Exception as problem:  # noqa: BLE001  said whole, then in one line for whoever shows only that
        traceback.print_exc()
        sys.exit(str(problem))
    json.dump(answer, sys.stdout, ensure_ascii=False, allow_nan=False)


if __name__ == "__main__":
    main(*sys.argv[1:])
