"""run_engine_tests.py: a tiny test runner for the engine's test modules, for Pyodide.

What it is: `python run_engine_tests.py tests/engine/test_<module>.py ...` imports each module and calls
every top-level function whose name starts with `test_`, in the order they are written, and prints
one line per test: `PASS path::name`, or `FAIL path::name` followed by the traceback. It prints the
SHA-256 of the engine file it imported first, and exits with 1 if any test failed. Pyodide has no
pytest offline, so the engine tests use plain `assert` and no fixtures; this runner needs nothing
else. tests/pyodide/run_in_pyodide.mjs runs it inside Pyodide.

What it is not: a replacement for pytest. It knows no fixtures, marks or parametrization.
"""
import hashlib
import importlib.util
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path("engine").resolve()))

import tinygrad


def load_module(path):
    """Import the test module at `path`, with its own folder importable for its helpers."""
    folder = str(Path(path).resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_module(path):
    """Run every test function of one module; return how many passed and failed."""
    passed = failed = 0
    module = load_module(path)
    tests = [(name, f) for name, f in vars(module).items() if name.startswith("test_") and callable(f)]
    for name, test in tests:
        started = time.perf_counter()
        try:
            test()
        except Exception:
            failed += 1
            print(f"FAIL {path}::{name}\n{traceback.format_exc()}", flush=True)
        else:
            passed += 1
            print(f"PASS {path}::{name} ({time.perf_counter() - started:.2f} s)", flush=True)
    return passed, failed


def main(paths):
    engine_bytes = Path(tinygrad.__file__).read_bytes()
    print(f"engine {tinygrad.__file__} sha256 {hashlib.sha256(engine_bytes).hexdigest()}")
    print(f"python {sys.version.split()[0]} on {sys.platform}")
    passed = failed = 0
    for path in paths:
        module_passed, module_failed = run_module(path)
        passed += module_passed
        failed += module_failed
    print(f"summary: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
