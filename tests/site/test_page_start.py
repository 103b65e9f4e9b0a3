"""test_page_start.py: a page's blocks are live, and run, before Material's bundle has run.

What it is: a Chromium test of the order overrides/main.html gives the page's scripts: the lesson's
module (main.mjs) before Material's bundle, which is deferred. The test holds Material's bundle back
(a Playwright route; the fixtures block service workers, so the page's own request is what the route
sees): the blocks are mounted and a block runs all the same. Once the bundle is let go, Material
follows the page first shown without mounting it again (one Run button per block) and its instant
navigation works: the next chapter's blocks are mounted in the same document.
What it is not: a test of when Python starts (test_blocks.py) or of speed (the benchmark).
"""
from playwright.sync_api import expect

from helpers import block, blocks, open_lesson, run_block, wait_blocks_mounted, wait_for_address

FIRST, NEXT = "checking/", "derivatives/"
MATERIAL_BUNDLE = "**/assets/javascripts/bundle.*.min.js"
RUN_BUTTONS_PER_BLOCK = """() => [...document.querySelectorAll("div.runnable")].map(
  (b) => b.querySelectorAll("button.runnable__run").length)"""


def test_blocks_mount_and_run_before_materials_bundle_which_then_takes_over(page, site_url, page_errors):
    held = []
    page.route(MATERIAL_BUNDLE, lambda route: held.append(route))
    page.goto(site_url + FIRST, wait_until="commit")
    wait_blocks_mounted(page)
    assert run_block(block(page, 1)) != ""
    assert held, "Material's bundle was never asked for"
    assert page.evaluate("() => typeof document$") == "undefined", "Material's bundle ran although held back"

    for route in held:
        route.continue_()
    page.wait_for_function("() => typeof document$ !== 'undefined' && document.readyState === 'complete'")
    assert set(page.evaluate(RUN_BUTTONS_PER_BLOCK)) == {1}  # Material's document$ did not mount the page again
    page.evaluate("() => { window.sameDocument = true; }")

    page.get_by_role("navigation").get_by_role("link", name="Derivatives, three ways").first.click()
    wait_for_address(page, site_url + NEXT)
    expect(page.locator("article h1")).to_contain_text("Derivatives, three ways")
    wait_blocks_mounted(page)
    assert blocks(page).count() > 0
    assert set(page.evaluate(RUN_BUTTONS_PER_BLOCK)) == {1}
    assert page.evaluate("() => window.sameDocument === true"), "the click became a full page load"
    assert page_errors == []
