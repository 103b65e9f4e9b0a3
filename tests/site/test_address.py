"""test_address.py: after instant navigation the address names the chapter the reader went to, not a heading of the one left.

What it is: a Chromium test of site_scripts/browser/navigation/address.mjs against the race it puts
right. Material's navigation.tracking writes the heading in view into the address 250 ms after the
reader last scrolled; a link followed within those 250 ms left that write pending, and it landed on
the next chapter's address (derivatives/#against-the-arithmetic-we-did-by-hand, a heading of
checking/). The test makes the race certain instead of likely: it follows the link inside the scroll
event itself. Twice: with the next chapter's download held back (a Playwright route; the fixtures block
service workers, so the page's own request is what the route sees) until the stale heading has reached
the address, and with the download as fast as the local server sends it, where the pending write is
made as the left chapter's table of contents is taken down. Both fail without address.mjs. It also
checks that the click was not lost: the next chapter is shown, in the same document.
What it is not: a test of Material's tracking on a page the reader stays on.
"""
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from helpers import open_lesson, wait_blocks_mounted

LEFT, NEXT = "checking/", "derivatives/"
NEXT_TITLE = "Derivatives, three ways"

# In the page: scroll so that the heading `first` is passed, until tracking has written it into the
# address (so tracking is past its first, skipped, update); then scroll on to the heading `second` and,
# in that very scroll event (so before tracking's 250 ms can pass), click the navigation link to `href`.
SCROLL_THEN_FOLLOW = """async ([first, second, href]) => {
  const heading = (id) => document.getElementById(id);
  const deadline = performance.now() + 20000;
  // Tracking skips its first update after the page is shown, which a scroll made soon after load becomes:
  // scroll again (by a pixel, to and fro) until the address shows the heading.
  for (let nudge = 0; location.hash !== "#" + first; nudge++) {
    if (performance.now() > deadline) throw new Error(`tracking never wrote #${first} (address ${location.href})`);
    scrollTo(0, heading(first).getBoundingClientRect().top + scrollY - 10 - (nudge % 2));
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  const link = [...document.querySelectorAll("a.md-nav__link")].find((a) => a.href === href);
  addEventListener("scroll", () => link.click(), { once: true });
  scrollTo(0, heading(second).getBoundingClientRect().top + scrollY - 10);
}"""


@pytest.mark.parametrize("download", ["held back", "as it comes"])
def test_a_link_followed_right_after_scrolling_gets_the_address_of_its_chapter(page, site_url, page_errors, download):
    page.clock.install()  # flows as the real clock; lets the test fire tracking's 250 ms timer at once
    open_lesson(page, site_url, LEFT)
    page.evaluate("() => { window.sameDocument = true; }")
    headings = page.eval_on_selector_all("article h2[id]", "hs => hs.map((h) => h.id)")
    held = []
    if download == "held back":  # the next chapter's page waits until the test lets it go
        page.route(site_url + NEXT, lambda route: held.append(route))

    page.evaluate(SCROLL_THEN_FOLLOW, [headings[1], headings[2], site_url + NEXT])
    if download == "held back":
        # Material pushed the next chapter's address at the click; the left chapter's pending write then
        # gave it one of that chapter's headings, while the next page was still on its way.
        page.wait_for_url(lambda address: urlparse(address).path == urlparse(site_url + NEXT).path
                          and urlparse(address).fragment != "")
        assert urlparse(page.url).fragment in headings
        page.clock.run_for(300)  # past tracking's 250 ms: the left chapter's tracking has nothing more to write
        assert len(held) == 1, "the next chapter's page was not requested"
        held[0].continue_()
    # As it comes (sooner than 250 ms from this server), the pending write is made as the left chapter's
    # table of contents is taken down, just before the new page is shown.

    expect(page.locator("article h1")).to_contain_text(NEXT_TITLE)
    wait_blocks_mounted(page)
    assert page.url == site_url + NEXT
    assert page.evaluate("() => window.sameDocument === true"), "the click became a full page load"
    assert page_errors == []
