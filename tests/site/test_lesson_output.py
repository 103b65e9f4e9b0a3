"""test_lesson_output.py: every runnable block shows the lesson's output before anything runs.

What it is: Chromium tests of the output the build writes into each block (site_scripts/hooks/
runnable_fence.py, computed by tutor.runtime.runner under CPython) and of how block.mjs treats it. With
JavaScript off, on screen (once its "Go deeper" box and its fold, if any, are opened) and in print,
each block of a chapter shows a group "Output of the lesson's code" holding what CPython prints for that block
when the page's blocks run in order, with a caption
that says where it comes from. With JavaScript on it is there while Python has not started; running a
block (and the earlier blocks it runs first) replaces it with the block's own output, editing the code
hides it, a saved edit keeps it hidden after a reload, and Reset brings it back.
What it is not: a check that Pyodide prints what CPython prints (test_article_blocks.py).
"""
import pytest
from playwright.sync_api import expect

from helpers import (block, cpython_outputs, open_boxes, open_lesson, output_text, pages_with_blocks, press, python_state,
                     run_block, runnable_sources, set_code, wait_blocks_mounted)

LABEL = "Output of the lesson's code"
CAPTION = "computed when this page was built"


@pytest.fixture(scope="module")
def chapter(built_site):
    """The chapter with the most blocks (at least three), its path and what CPython prints for each block."""
    paths = pages_with_blocks(built_site, minimum=3)
    assert paths, "no page has three runnable blocks"
    sources = {path: runnable_sources(built_site / path / "index.html") for path in paths}
    path = max(paths, key=lambda candidate: len(sources[candidate]))
    outputs = cpython_outputs(sources[path])
    assert all(ok for ok, _ in outputs), "a lesson block fails under CPython"
    return path, [text for _, text in outputs]


def lesson_output(scope):
    return scope.get_by_role("group", name=LABEL, exact=True)


def shown_text(group):
    """The lesson's output as shown, without its caption."""
    return group.locator(".runnable__output").text_content()


@pytest.mark.parametrize("media", ["screen", "print"])
def test_each_block_shows_its_output_with_javascript_off(browser, site_url, chapter, media):
    path, expected = chapter
    context = browser.new_context(java_script_enabled=False, service_workers="block")
    try:
        page = context.new_page()
        page.emulate_media(media=media)
        page.goto(site_url + path)
        if media == "screen":  # a reader opens the "Go deeper" boxes and the outputs folded for a prediction
            open_boxes(page)
        groups = lesson_output(page)
        expect(groups).to_have_count(len(expected))
        for number, text in enumerate(expected):
            group = groups.nth(number)
            expect(group).to_be_visible()
            assert CAPTION in group.text_content()
            assert shown_text(group) == (text or "(The code prints nothing.)"), f"block {number + 1}"
    finally:
        context.close()


def test_run_replaces_it_edit_hides_it_reset_brings_it_back(page, site_url, chapter):
    path, expected = chapter
    open_lesson(page, site_url, path)
    open_boxes(page)                                  # blocks in a "Go deeper" box count too
    first, second, third = block(page, 1), block(page, 2), block(page, 3)
    for number, shown in enumerate((first, second, third)):
        expect(lesson_output(shown)).to_be_visible()
        assert shown_text(lesson_output(shown)) == (expected[number] or "(The code prints nothing.)")
    assert python_state(page) in ("idle", "starting", "ready")  # nothing has run

    assert run_block(second).strip()                 # runs block 1 first, as the page does
    expect(lesson_output(second)).to_be_hidden()
    expect(lesson_output(first)).to_be_hidden()
    assert output_text(first).strip() and first.get_attribute("data-state") == "done"
    expect(lesson_output(third)).to_be_visible()

    press(second, "Reset")
    expect(lesson_output(second)).to_be_visible()
    assert output_text(second) == ""

    set_code(third, "print('my own code')")
    expect(lesson_output(third)).to_be_hidden()
    page.reload()                                     # the saved edit comes back: still no lesson output
    wait_blocks_mounted(page)
    open_boxes(page)
    expect(lesson_output(block(page, 3))).to_be_hidden()
    expect(lesson_output(block(page, 2))).to_be_visible()
    press(block(page, 3), "Reset")
    expect(lesson_output(block(page, 3))).to_be_visible()
