"""test_engine_script.py: `python3 tinygrad.py` prints the lesson's results.

What it is: runs a copy of engine/tinygrad.py as a script in a fresh process, from an empty folder,
with site-packages switched off (-I -S), the way a student runs the downloaded file, and checks what
it prints: loss 9.0, w.grad -12.0, b.grad -6.0, a.grad 7.0, the fitted line w = 2, b = 1 and the XOR
predictions [-1.0, 1.0, 1.0, -1.0].

What it is not: runnable inside Pyodide (it starts a subprocess), so
tests/pyodide/test_engine_in_pyodide.py leaves it out, saying why.
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "tinygrad.py"

EXPECTED_OUTPUT = {
    "loss 9.0": r"\bloss\W+9\.0\b",
    "w.grad -12.0": r"\bw\.grad\W+-12\.0\b",
    "b.grad -6.0": r"\bb\.grad\W+-6\.0\b",
    "a.grad 7.0": r"\ba\.grad\W+7\.0\b",
    "w = 2.0000": r"\bw = 2\.0000\b",
    "b = 1.0000": r"\bb = 1\.0000\b",
    "XOR predictions": r"\[-1\.0, 1\.0, 1\.0, -1\.0\]",
}


def test_running_the_file_prints_the_lessons_results():
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "tinygrad.py"
        shutil.copyfile(ENGINE, script)
        finished = subprocess.run(
            [sys.executable, "-I", "-S", script.name],
            cwd=folder, capture_output=True, text=True, timeout=120,
        )
    assert finished.returncode == 0, finished.stderr
    assert finished.stderr == ""
    missing = [name for name, pattern in EXPECTED_OUTPUT.items() if not re.search(pattern, finished.stdout)]
    assert not missing, f"not printed: {missing}\noutput:\n{finished.stdout}"
