"""test_palette.py: the light/dark switch works where the browser refuses storage (issue #39, item 7).

What it is: a Chromium test in a context whose localStorage throws a SecurityError on access, as with
cookies and site data blocked: the header still offers the switch, it changes the colour scheme both
ways, and no script of the page (Material's included) throws.
What it is not: the lesson's own storage when refused (test_saved_edits.py, test_exercises.py), or the
colours themselves (test_accessibility.py).
"""
from playwright.sync_api import expect

from helpers import REFUSED_STORAGE, open_lesson


def test_the_light_dark_switch_works_when_storage_is_refused(page, site_url, page_errors):
    page.add_init_script(REFUSED_STORAGE)
    open_lesson(page, site_url, "")
    scheme = page.locator("body")
    expect(scheme).to_have_attribute("data-md-color-scheme", "default")
    page.get_by_title("Switch to dark mode").click()
    expect(scheme).to_have_attribute("data-md-color-scheme", "slate")
    page.get_by_title("Switch to light mode").click()
    expect(scheme).to_have_attribute("data-md-color-scheme", "default")
    assert page_errors == []
