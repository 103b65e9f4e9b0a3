"""test_snapshot.py: Python starts from the build's memory snapshot, and without it just as well.

What it is: Chromium tests of issue #10. How a test knows which way Python started: the worker
reports it with its "ready" status and the page shows it as <html data-python-boot="snapshot|plain">
(runtime.mjs); on the snapshot path the worker has also fetched assets/snapshot/python-snapshot.bin
and the engine is already in memory before the reader's first line imports it.
  - A page boots from the snapshot and runs a block, a figure and `from tinygrad import Value`.
    This is the test that fails loudly when a Pyodide upgrade breaks the (private) snapshot API.
  - The engine inside a snapshot boot is engine/tinygrad.py: the file it was loaded from, and every
    function's compiled code in memory, equal what the repository's file compiles to.
  - With the snapshot missing (404), damaged or made by another Pyodide, the page starts Python the
    plain way and the same block, figure and engine all work (cut short: test_damaged_downloads.py).
The service worker and offline copy are tested with the snapshot in test_hosting.py (the snapshot is
an ordinary file of the build's precache list).

What it is not: a speed test (tests/benchmarks/run_all.py compares both paths' times and bytes).
"""
import hashlib
import json
import struct

import pytest

from helpers import REPO, block, open_lesson, run_block, set_code
from test_figures import button, messages, open_figure, readout
from tutor.runtime import warm_up

SNAPSHOT_FILE = "assets/snapshot/python-snapshot.bin"
SNAPSHOT_ROUTE = "**/" + SNAPSHOT_FILE
ENGINE = REPO / "engine" / "tinygrad.py"
MAGIC = b"PYSNAP01"
BLOCKS_AND_FIGURE_PAGE = "derivatives/"  # blocks and the "x × x, traced" figure
BLOCKS_ONLY_PAGE = "checking/"           # no figure, so nothing imports the engine before block 1
ENGINE_CHECK = "from tinygrad import Value\nx = Value(3.0)\ny = x * x + x\ny.backward()\nprint('slope', x.grad)\n"

# Run as the page's first code: was the engine in memory already, which file is it, and does every
# function of the module in memory carry exactly the code the repository's file compiles to?
ENGINE_IN_MEMORY = """import inspect, sys, types
print("in memory before import:", "tinygrad" in sys.modules)
import tinygrad
print("file:", tinygrad.__file__)
print("source equal:", inspect.getsource(tinygrad) == REPOSITORY_ENGINE)

def code_objects(code):
    found, waiting = {}, [code]
    while waiting:
        current = waiting.pop()
        found[current.co_qualname] = current
        waiting.extend(constant for constant in current.co_consts if isinstance(constant, types.CodeType))
    return found

def functions_of(module):
    waiting, found = list(vars(module).values()), {}
    while waiting:
        value = waiting.pop()
        if isinstance(value, type) and value.__module__ == module.__name__:
            waiting.extend(vars(value).values())
        elif isinstance(value, property):
            waiting.extend(part for part in (value.fget, value.fset, value.fdel) if part)
        elif isinstance(value, (staticmethod, classmethod)):
            waiting.append(value.__func__)
        elif isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            found[value.__code__.co_qualname] = value.__code__
    return found

compiled = code_objects(compile(REPOSITORY_ENGINE, tinygrad.__file__, "exec"))
in_memory = functions_of(tinygrad)
print("functions compared:", len(in_memory))
print("differing:", sorted(name for name, code in in_memory.items() if compiled.get(name) != code))
"""


def boot_path(page):
    """How the page's current Python started, as the page shows it: "snapshot" or "plain"."""
    return page.evaluate("() => document.documentElement.dataset.pythonBoot || 'not ready'")


def runs_a_block_a_figure_and_the_engine(page, site_url, built_site):
    """On the page with blocks and a figure: the figure answers from Python, the page's first block
    runs, and a block importing the engine computes a known slope. Returns how Python started."""
    figure = open_figure(page, site_url, built_site, "x_times_x")
    button(figure, "Evaluate x × x").click()
    assert readout(figure, "q = x × x") == "25"
    button(figure, "Seed output gradient").click()
    assert "dq/dq = 1" in messages(figure)

    first = block(page, 1)
    first.scroll_into_view_if_needed()
    assert "Traceback" not in run_block(first)
    assert first.get_attribute("data-state") == "done"
    second = block(page, 2)
    set_code(second, ENGINE_CHECK)
    assert run_block(second) == "slope 7.0\n"
    return boot_path(page)


def snapshot_file(built_site):
    return (built_site / SNAPSHOT_FILE).read_bytes()


def with_header(snapshot, **changes):
    """The snapshot file with fields of its JSON header replaced (format of runtime/snapshot.mjs)."""
    assert snapshot.startswith(MAGIC)
    (length,) = struct.unpack_from("<I", snapshot, len(MAGIC))
    start = len(MAGIC) + 4
    header = {**json.loads(snapshot[start:start + length]), **changes}
    encoded = json.dumps(header).encode()
    return MAGIC + struct.pack("<I", len(encoded)) + encoded + snapshot[start + length:]


def damaged(snapshot):
    """The snapshot with one byte in the middle of its compressed pages flipped."""
    changed = bytearray(snapshot)
    changed[len(changed) // 2] ^= 0xFF
    return bytes(changed)


# ---- The snapshot path --------------------------------------------------------------------------

def test_the_build_made_a_snapshot_of_this_engine_within_the_download_budget(built_site):
    snapshot = snapshot_file(built_site)
    (length,) = struct.unpack_from("<I", snapshot, len(MAGIC))
    header = json.loads(snapshot[len(MAGIC) + 4:len(MAGIC) + 4 + length])
    package = json.loads((REPO / "package.json").read_text())

    assert header["format"] == "lesson-python-snapshot/2" and header["pages"] == "gzip"
    assert header["pyodide"] == package["devDependencies"]["pyodide"]
    assert header["engine"] == hashlib.sha256(ENGINE.read_bytes()).hexdigest()
    assert {"tinygrad", "tutor.runtime.dispatcher", "tutor.figures.x_times_x"} <= set(header["modules"])
    assert header["warmUp"] == warm_up.warm_up()  # the maker ran the warm-up block, and it printed as in CPython
    assert len(snapshot) <= 4_000_000  # issue #10: a cold visit grows by at most 4 MB


def test_a_snapshot_boot_keeps_nothing_of_the_warm_up_block(page, site_url):
    """The snapshot was taken after tutor.runtime.warm_up ran a block: a page's first block sees none
    of its names, and no source line of it is kept for tracebacks."""
    open_lesson(page, site_url, BLOCKS_ONLY_PAGE)
    first = block(page, 1)
    set_code(first, "import linecache\nprint(sorted(n for n in dir() if not n.startswith('__')))\n"
                    f"print({warm_up.WARM_UP_FILENAME!r} in linecache.cache)\n")
    assert run_block(first) == "['linecache', 'show']\nFalse\n"
    assert boot_path(page) == "snapshot"


def test_a_page_boots_from_the_snapshot_and_runs_a_block_a_figure_and_the_engine(
        page, site_url, built_site, requests_made, outside_requests, page_errors):
    assert runs_a_block_a_figure_and_the_engine(page, site_url, built_site) == "snapshot"
    assert site_url + SNAPSHOT_FILE in requests_made
    assert outside_requests == [] and page_errors == []


def test_from_the_classroom_server_a_page_boots_from_the_brotli_snapshot_and_imports_from_the_brotli_library(
        page, site_url, page_errors):
    """serve.py (site_url's host) sends Chromium, which accepts br on 127.0.0.1, the snapshot with its pages
    stored and the standard library with its entries stored, each Brotli-encoded (issue #38): Python boots
    from that snapshot, and a module it never imported comes from that library."""
    responses = []
    page.context.on("response", lambda response: responses.append(response))
    open_lesson(page, site_url, BLOCKS_ONLY_PAGE)
    first = block(page, 1)
    set_code(first, "import fractions, statistics\nprint(fractions.Fraction(1, 3) + fractions.Fraction(1, 6), "
                    "statistics.median([3, 1, 2]))\n")
    assert run_block(first) == "1/2 2\n"
    assert boot_path(page) == "snapshot"
    encodings = {response.url.removeprefix(site_url): response.header_value("content-encoding") for response in responses}
    assert (encodings[SNAPSHOT_FILE], encodings["assets/vendor/pyodide/python_stdlib.zip"]) == ("br", "br")
    assert page_errors == []


def test_the_engine_inside_a_snapshot_boot_is_the_repository_engine(page, site_url):
    open_lesson(page, site_url, BLOCKS_ONLY_PAGE)
    first = block(page, 1)
    set_code(first, f"REPOSITORY_ENGINE = {ENGINE.read_text(encoding='utf-8')!r}\n{ENGINE_IN_MEMORY}")
    output = run_block(first)

    assert boot_path(page) == "snapshot"
    lines = dict(line.split(": ", 1) for line in output.splitlines())
    assert lines["in memory before import"] == "True", output
    assert lines["file"].endswith("/tinygrad.py"), output  # where the worker unpacked the wheel
    assert lines["source equal"] == "True", output
    assert int(lines["functions compared"]) >= 10, output
    assert lines["differing"] == "[]", output


def test_the_comparison_of_engine_code_sees_a_changed_function(page, site_url):
    """The check above can fail: with one constant of the engine changed, its function differs."""
    original = ENGINE.read_text(encoding="utf-8")
    changed = original.replace("1.0 - result * result", "1.0 - result * result * 1.0", 1)
    assert changed != original, "the engine no longer has the line this test edits"
    open_lesson(page, site_url, BLOCKS_ONLY_PAGE)
    first = block(page, 1)
    set_code(first, f"REPOSITORY_ENGINE = {changed!r}\n{ENGINE_IN_MEMORY}")
    output = run_block(first)

    lines = dict(line.split(": ", 1) for line in output.splitlines())
    assert lines["source equal"] == "False", output
    assert lines["differing"] != "[]", output


# ---- Without a usable snapshot: a plain boot, everything the same -------------------------------

# A snapshot cut short: test_damaged_downloads.py (as a file and as the .br variant, and the next visit's snapshot boot).
BROKEN_SNAPSHOTS = {
    "missing": lambda snapshot: None,
    "damaged": damaged,
    "made by another Pyodide": lambda snapshot: with_header(snapshot, pyodide="0.0.1"),
}


@pytest.mark.parametrize("case", BROKEN_SNAPSHOTS)
def test_without_a_usable_snapshot_python_starts_plainly_and_everything_works(
        page, site_url, built_site, case, outside_requests, page_errors):
    served = BROKEN_SNAPSHOTS[case](snapshot_file(built_site))
    page.context.route(SNAPSHOT_ROUTE, lambda route: route.fulfill(status=404, body="Not found") if served is None
                       else route.fulfill(status=200, body=served, content_type="application/octet-stream"))

    assert runs_a_block_a_figure_and_the_engine(page, site_url, built_site) == "plain"
    assert outside_requests == [] and page_errors == []
