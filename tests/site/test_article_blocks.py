"""test_article_blocks.py: every runnable block of every lesson page runs cleanly in Chromium.

What it is: for each page of docs/ that has runnable blocks, one visit of the built site served on
127.0.0.1: the last block is clicked, which must run every earlier block first (on a page of three or
more, block 1 is clicked first, so the last runs only those between: a reader's click and the page's own
runs both count). Every block must end without an error and print what the same blocks print when run
in order in CPython with the same runner (tutor.runtime.runner), to the last digit (the expected output
is derived, never written down here).
What it is not: a test of the block machinery itself (test_blocks.py) or of the numbers the prose
states (tests/article/test_numbers.py).
"""
import re
from pathlib import Path

import pytest

from helpers import block, blocks, cpython_outputs, open_boxes, open_lesson, output_text, run_block, runnable_sources

DOCS = Path(__file__).resolve().parents[2] / "docs"
RUNNABLE_FENCE = re.compile(r"^```runnable\b", flags=re.M)


def lesson_paths():
    """Site paths ("", "engine/", ...) of the pages with a runnable fence."""
    return ["" if markdown.stem == "index" else f"{markdown.stem}/" for markdown in sorted(DOCS.glob("*.md"))
            if RUNNABLE_FENCE.search(markdown.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def expected_outputs(built_site):
    """{path: [output, ...]}: what CPython prints for each page's blocks, run in page order."""
    expected = {}
    for path in lesson_paths():
        results = cpython_outputs(runnable_sources(built_site / path / "index.html"))
        failed = [number for number, (ok, _) in enumerate(results, start=1) if not ok]
        assert failed == [], f"{path or 'home'}: blocks {failed} fail even in CPython"
        expected[path] = [output for _, output in results]
    return expected




def same_output(shown, expected):
    """The same text, to the last digit (issue #35): the page's build-time output is what the reader's run
    prints. WebAssembly's libm (tanh) may differ from the desktop's in the last bits, so the lesson's
    blocks print such numbers rounded where those bits are noise."""
    return shown == expected


def assert_all_blocks_done(page, expected):
    located = blocks(page)
    assert located.count() == len(expected)
    for number, expected_output in enumerate(expected, start=1):
        current = block(page, number)
        shown = output_text(current)
        assert current.get_attribute("data-state") == "done", f"block {number} ended with:\n{shown}"
        assert same_output(shown, expected_output), f"block {number}:\n{shown}\nCPython:\n{expected_output}"


@pytest.mark.parametrize("path", lesson_paths(), ids=lambda path: path.strip("/") or "home")
def test_every_block_runs_as_in_cpython(page, site_url, path, expected_outputs, page_errors):
    expected = expected_outputs[path]
    open_lesson(page, site_url, path)
    open_boxes(page)                 # blocks in a "Go deeper" box count too
    if len(expected) >= 3:
        run_block(block(page, 1))    # a reader's click; the last block then runs those between itself
    run_block(block(page, len(expected)))
    assert_all_blocks_done(page, expected)
    assert page_errors == []
