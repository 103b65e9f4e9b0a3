"""test_engine_in_pyodide.py: the engine's own tests, run inside Pyodide under Node, from pytest.

What it is: one Node process (tests/pyodide/run_in_pyodide.mjs) boots Pyodide from node_modules,
loads the unmodified engine/tinygrad.py and runs tests/engine/test_*.py with the tiny runner
run_engine_tests.py. The tests here fail if any engine test fails or does not run there, if the
file Pyodide imported differs by a single byte from engine/tinygrad.py, or if the runtime was dead
after the tests (the deep-graph tests free a 200,000-node graph). Modules that cannot run in Pyodide
are listed in CPYTHON_ONLY with the reason, and reported as skipped.

What it is not: a browser test (tests/site covers Pyodide in Chromium, in a Web Worker).
"""
import ast
import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine" / "tinygrad.py"
ENGINE_TESTS = REPO / "tests" / "engine"
NODE_SCRIPT = REPO / "tests" / "pyodide" / "run_in_pyodide.mjs"
RUNNER = REPO / "tests" / "pyodide" / "run_engine_tests.py"

CPYTHON_ONLY = {
    "test_engine_symbolic.py": "SymPy is not available in Pyodide offline",
    "test_engine_script.py": "it starts a subprocess, which Pyodide cannot",
}


def modules_for_pyodide():
    return sorted(p for p in ENGINE_TESTS.glob("test_*.py") if p.name not in CPYTHON_ONLY)


def names_of_tests_in(module):
    tree = ast.parse(module.read_text(encoding="utf-8"))
    functions = (node.name for node in tree.body if isinstance(node, ast.FunctionDef))
    return {name for name in functions if name.startswith("test_")}


@pytest.fixture(scope="module")
def pyodide_run():
    """The output of running the engine tests inside Pyodide once: (exit code, stdout, stderr)."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run Pyodide (see README: ./dev.sh test installs node_modules)"
    relative = [str(p.relative_to(REPO)) for p in [RUNNER, *modules_for_pyodide()]]
    finished = subprocess.run(
        [node, str(NODE_SCRIPT), *relative], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    return finished.returncode, finished.stdout, finished.stderr


def test_every_engine_test_passes_inside_pyodide(pyodide_run):
    exit_code, stdout, stderr = pyodide_run
    failures = re.findall(r"^FAIL .*?(?=^PASS |^FAIL |^summary:|\Z)", stdout, re.M | re.S)
    assert not failures, "".join(failures)
    assert exit_code == 0, f"exit code {exit_code}\n{stdout[-3000:]}\n{stderr[-3000:]}"
    passed = set(re.findall(r"^PASS (\S+) \(", stdout, re.M))
    expected = {
        f"{module.relative_to(REPO)}::{name}"
        for module in modules_for_pyodide()
        for name in names_of_tests_in(module)
    }
    assert expected, "no engine tests found"
    assert expected <= passed, f"did not pass in Pyodide: {sorted(expected - passed)}\n{stdout}"


def test_pyodide_ran_python_3_14_on_the_byte_identical_engine_file(pyodide_run):
    _, stdout, stderr = pyodide_run
    found = re.search(r"^engine (\S+) sha256 ([0-9a-f]{64})$", stdout, re.M)
    assert found, stdout + stderr
    assert found[1] == "/repo/engine/tinygrad.py"
    assert found[2] == hashlib.sha256(ENGINE.read_bytes()).hexdigest()
    assert re.search(r"^python 3\.14\.\d+ on emscripten$", stdout, re.M), stdout


def test_pyodide_runtime_is_alive_after_the_deep_graphs(pyodide_run):
    _, stdout, stderr = pyodide_run
    assert "test_engine_deep_graphs.py::test_chain_is_backpropagated_and_freed_without_recursion" in stdout
    assert "pyodide runtime alive after the script: yes" in stdout, stdout + stderr


@pytest.mark.parametrize("module_name", sorted(CPYTHON_ONLY))
def test_cpython_only_modules_are_skipped_in_pyodide(module_name):
    assert (ENGINE_TESTS / module_name).is_file(), f"{module_name} is in CPYTHON_ONLY but does not exist"
    pytest.skip(f"{module_name} not run in Pyodide: {CPYTHON_ONLY[module_name]}")
