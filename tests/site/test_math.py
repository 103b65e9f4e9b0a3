"""test_math.py: the lesson's formulas are finished when the page arrives, with or without JavaScript.

What it is: Chromium tests of the math that site_scripts/hooks/formulas.py typesets at build time. With
JavaScript switched off, on screen and in print, the chapter with the most fractions shows no TeX
source, KaTeX's fonts load from the site, and each fraction is laid out as one (its numerator above
the fraction bar, its denominator below it: the generated stylesheet that replaces KaTeX's style
attributes is what places them). With JavaScript on, no KaTeX script is requested. Every KaTeX font a page
with formulas makes Chromium fetch is in the offline copy, which leaves out the fonts no formula uses (issue #38).
What it is not: a check of the markup itself (tests/article/test_build.py) or of the policy
(test_security.py).
"""
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers import UI_TIMEOUT_MS, open_lesson

RAW_TEX = re.compile(r"\\[()\[\]]|\\[a-zA-Z]{2,}")   # \( \) \[ \] or a TeX command such as \frac


def chapter_with_most_fractions(built_site):
    counts = {html_file: html_file.read_text(encoding="utf-8").count('class="mfrac"')
              for html_file in Path(built_site).rglob("index.html")}
    html_file = max(counts, key=counts.get)
    assert counts[html_file] > 0, "no page has a fraction"
    relative = html_file.parent.relative_to(built_site).as_posix()
    return "" if relative == "." else f"{relative}/"


def assert_fractions_laid_out(page):
    """Every display fraction: some part of it lies wholly above its bar, some part wholly below."""
    bars = page.locator("article .katex-display .mfrac .frac-line")
    assert bars.count() > 0
    for index in range(bars.count()):
        fraction = page.locator("article .katex-display .mfrac").nth(index)
        bar = fraction.locator(".frac-line").first.bounding_box()
        parts = [part.bounding_box() for part in fraction.locator(".vlist > span > .mord").all()]
        assert any(part["y"] + part["height"] <= bar["y"] + 0.5 for part in parts), f"fraction {index}: nothing above the bar"
        assert any(part["y"] >= bar["y"] + bar["height"] - 0.5 for part in parts), f"fraction {index}: nothing below the bar"


@pytest.fixture
def context_options():
    return {"service_workers": "block", "java_script_enabled": False}


@pytest.mark.parametrize("media", ["screen", "print"])
def test_math_is_typeset_with_javascript_off(page, site_url, built_site, requests_made, media):
    page.emulate_media(media=media)
    page.goto(site_url + chapter_with_most_fractions(built_site))
    page.wait_for_load_state("load")
    article = page.locator("article")
    text = article.inner_text()
    assert not RAW_TEX.findall(text), f"raw TeX shown: {RAW_TEX.findall(text)[:5]}"
    formula = article.locator(".katex-display").first
    expect(formula).to_be_visible()
    expect(formula.locator(".katex-html")).to_be_visible()
    mathml = formula.locator(".katex-mathml").bounding_box()
    assert mathml["height"] <= 1 and mathml["width"] <= 1, "KaTeX's CSS did not hide the MathML copy"
    assert_fractions_laid_out(page)
    assert any(url.endswith(".woff2") and "/assets/vendor/katex/fonts/KaTeX_" in url for url in requests_made)


def test_no_katex_script_is_loaded(browser, site_url, built_site):
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    requested = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    try:
        open_lesson(page, site_url, chapter_with_most_fractions(built_site))
        page.wait_for_load_state("networkidle")
        assert_fractions_laid_out(page)
        scripts = [url for url in requested if re.search(r"katex[^/]*\.m?js$|/math/[^/]*\.m?js$", url)]
        assert scripts == []
        assert any("/assets/math/formulas.css" in url for url in requested)
    finally:
        context.close()


def test_every_font_a_page_draws_formulas_in_is_in_the_offline_copy(page, site_url, built_site, requests_made):
    from site_scripts.hooks import offline
    listed = {site_url + path for path in offline.precache_list(built_site)}
    pages = sorted(html_file.parent.relative_to(built_site).as_posix() for html_file in Path(built_site).rglob("index.html")
                   if 'class="katex"' in html_file.read_text(encoding="utf-8"))
    assert len(pages) > 5
    for path in pages:
        page.goto(site_url + ("" if path == "." else f"{path}/"))
        page.wait_for_load_state("load")  # the fonts the page's layout asked for are in by then
    fonts = {url for url in requests_made if url.endswith(".woff2")}
    assert fonts, "no font was fetched"
    assert fonts <= listed, f"fetched but not in the offline copy: {sorted(fonts - listed)}"
