"""run_joined_engine.py: a reader's own tinygrad.py (from "Build your own engine"), checked and trained in Pyodide.

What it is: `python run_joined_engine.py site_scripts/tutor/engine_edit.py SOURCE`, meant to run under
tests/pyodide/run_in_pyodide.mjs (which copies site_scripts/tutor/ into Pyodide because its first
argument names a file there). SOURCE is the text of the reader's file. It prints the verdict of the
site's engine check (`engine check: ok` or the problem), then imports the text as `tinygrad` and prints
the rounded XOR predictions of its train_xor() and the result of its train_line().
What it is not: the test (tests/tutor/exercises/test_own_engine_checks.py runs this and reads its output).
"""
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path("site_scripts").resolve()))

from tutor import engine_edit


def main(source):
    verdict = engine_edit.check(source)
    print("engine check:", "ok" if verdict["ok"] else verdict["problem"])
    folder = Path(tempfile.mkdtemp())
    (folder / "tinygrad.py").write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    import tinygrad
    assert Path(tinygrad.__file__).parent == folder, tinygrad.__file__
    predictions, loss = tinygrad.train_xor()
    print("xor predictions:", [round(p, 4) for p in predictions], f"loss = {loss:.2e}")
    print("line:", tinygrad.train_line())
    return 0 if verdict["ok"] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[2]))
