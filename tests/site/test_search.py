"""test_search.py: Material's search works, and its index is downloaded and built only once the reader
opens search.

What it is: Chromium tests of site_scripts/browser/search/ (the stand-in search worker and the page
script that holds the index's download and tells the worker search was opened). While a reader only
reads and runs a block, neither the search index nor Material's search worker script (Lunr) is
fetched; opening search by its visible box loads both, and typing a word lists the chapters that
use it, with formulas in the previews as text. The keyboard shortcut and a ?q= link work as well.
What it is not: a test of Material's ranking or of the policy (test_security.py also searches).
"""
import re

from playwright.sync_api import expect

from helpers import block, open_lesson, run_block

MATERIAL_SEARCH_WORKER = re.compile(r"/assets/javascripts/workers/search\.[0-9a-f]+\.min\.js$")


def search_worker_requests(requests_made):
    return [url for url in requests_made if MATERIAL_SEARCH_WORKER.search(url)]


def index_requests(requests_made):
    return [url for url in requests_made if url.endswith("/search/search_index.json")]


def results(page):
    return page.locator("[data-md-component=search-result]")


def test_search_index_waits_for_the_reader_and_search_finds_backward(page, site_url, requests_made):
    open_lesson(page, site_url, "derivatives/")
    assert "Traceback" not in run_block(block(page, 1))
    page.wait_for_load_state("networkidle")
    assert search_worker_requests(requests_made) == [], "Material's search worker loaded before search was used"
    assert index_requests(requests_made) == [], "the search index was downloaded before search was used"
    expect(results(page)).to_contain_text("Initializing search")
    search = page.get_by_role("textbox", name="Search")
    search.click()
    search.press_sequentially("backward")
    found = results(page).get_by_role("link").filter(has_text=re.compile("backward", re.I))
    expect(found.first).to_be_visible()
    assert re.search(r"\d+ matching document", results(page).inner_text())
    assert len(search_worker_requests(requests_made)) == 1
    assert len(index_requests(requests_made)) == 1


def test_keyboard_shortcut_opens_a_working_search(page, site_url, requests_made):
    page.goto(site_url + "engine/")
    page.wait_for_load_state("networkidle")
    assert search_worker_requests(requests_made) == [] == index_requests(requests_made)
    page.keyboard.press("/")
    page.keyboard.type("gradient")
    expect(page.locator(".md-search-result__item").first).to_be_visible()


def test_a_search_link_shows_its_results(page, site_url):
    page.goto(site_url + "?q=backward")
    expect(page.locator(".md-search-result__item").first).to_be_visible()
    expect(page.get_by_role("textbox", name="Search")).to_have_value("backward")


def test_search_button_on_a_narrow_screen(page, site_url):
    page.set_viewport_size({"width": 600, "height": 800})
    page.goto(site_url)
    page.locator("label.md-header__button[for=__search]").click()   # Material's magnifier icon has no name
    search = page.get_by_role("textbox", name="Search")
    expect(search).to_be_focused()
    search.press_sequentially("backward")
    expect(page.locator(".md-search-result__item").first).to_be_visible()


def test_a_result_shows_its_formulas_as_text(page, site_url):
    """A chapter's preview reads like the page: "∂L/∂w", not the TeX "\\(\\frac{\\partial L}{\\partial w}\\)"."""
    page.goto(site_url + "?q=finite+differences")
    previews = page.locator(".md-search-result__item")
    expect(previews.filter(has_text="∂L/∂w").first).to_be_visible()
    shown = page.locator("[data-md-component=search-result]").inner_text()
    assert not re.search(r"\\[()\[\]]|\\frac|\\partial", shown), shown
