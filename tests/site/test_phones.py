"""test_phones.py: the lesson on a phone: Chromium with a 375 × 740 touch viewport (issue #19).

What it is: one touch context (Playwright's viewport, has_touch and is_mobile) per module; one visit of
every lesson page (`tour`) for the first three checks:
  - no page scrolls sideways (the document is no wider than the screen);
  - every figure fits its column, and so does every block, whose code scrolls inside the block;
  - every tap target (buttons, form controls, the header's and navigation's links and labels) is at
    least 24 × 24 CSS pixels, the WCAG 2.2 target size (links inside a sentence are exempt, as the
    criterion allows);
  - every figure works by touch: a tap on its first control changes what Python shows (the figures of one
    chapter share its tab);
  - a computation graph's text is drawn at 11 px or more (the graph scrolls sideways inside its figure),
    and "Backpropagate by hand" repeats under each field the numbers on its box's edges.

What it is not: a test of iOS Safari (test_webkit.py drives Safari's engine on the desktop) or of
the phone layout's looks.
"""
import re

import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, UI_TIMEOUT_MS, wait_blocks_mounted
from test_figures import TITLES, cpython_model, figure_page
from test_hosting import lesson_pages

PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 2, "service_workers": "block"}
MINIMUM_TARGET_PX = 24
TOLERANCE_PX = 0.5  # sub-pixel rounding of layout

# Everything a finger may need to hit, and is shown: controls of the page, not links inside prose.
TARGETS = """() => {
  const shown = (element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && !element.closest("[hidden], [inert]");
  };
  const inProse = (element) => element.matches("a") && element.closest("p, li, td, dd, figcaption, .admonition")
    && !element.closest("nav, .md-nav, .md-header, .md-footer, .md-tabs")
    || element.matches(".md-copyright a");  // "Made with Material for MkDocs": a link in a sentence
  const selectors = "button, input:not([type=hidden]), select, summary, [role=button], [role=tab], [role=slider], "
    + "[role=radio], [role=checkbox], a[href], label[for]";
  return [...document.querySelectorAll(selectors)]
    .filter((element) => shown(element) && !inProse(element) && !element.closest(".md-sidebar, .md-search"))
    .map((element) => {
      const box = element.getBoundingClientRect();
      const name = (element.getAttribute("aria-label") || element.textContent || element.name || element.type || "").trim();
      return { name: `${element.tagName.toLowerCase()} "${name.slice(0, 40)}"`, width: box.width, height: box.height };
    });
}"""

# Figures and blocks that stick out of the article's column, and blocks whose long code does not scroll.
OVERFLOW = """() => {
  const column = document.querySelector(".md-content__inner").getBoundingClientRect();
  const outside = (element) => {
    const box = element.getBoundingClientRect();
    return box.left < column.left - 0.5 || box.right > column.right + 0.5;
  };
  const problems = [];
  for (const figure of document.querySelectorAll("[data-widget]")) {
    if (outside(figure)) problems.push(`figure ${figure.dataset.widget} is wider than its column`);
    for (const part of figure.querySelectorAll("svg, canvas, input, button, table, .figure__scroll")) {
      if (part.getClientRects().length === 0) continue;  // not rendered (a hidden set of fields): takes no room
      if (part.parentElement.closest(".figure__scroll")) continue;  // inside a frame that scrolls sideways: that frame counts
      if (outside(part)) problems.push(`figure ${figure.dataset.widget}: a ${part.tagName.toLowerCase()} sticks out`);
    }
    if (figure.scrollWidth > figure.clientWidth + 1) problems.push(`figure ${figure.dataset.widget} overflows inside`);
  }
  for (const [index, block] of [...document.querySelectorAll("div.runnable")].entries()) {
    if (outside(block)) problems.push(`block ${index + 1} is wider than its column`);
    for (const code of block.querySelectorAll("pre, pre > code, .cm-scroller")) {
      const scrolls = ["auto", "scroll"].includes(getComputedStyle(code).overflowX);
      if (code.scrollWidth > code.clientWidth + 1 && !scrolls) problems.push(`block ${index + 1}: long code does not scroll`);
      if (outside(code)) problems.push(`block ${index + 1}: its code is wider than the block`);
    }
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def phone(browser):
    """One phone-sized touch context for the module; each test opens its own pages in it."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(UI_TIMEOUT_MS)
    yield context
    context.close()


@pytest.fixture
def phone_page(phone, page_errors):
    tab = phone.new_page()
    tab.on("pageerror", lambda error: page_errors.append(str(error)))
    yield tab
    tab.close()


def open_phone_page(tab, site_url, path):
    tab.goto(site_url + path)
    wait_blocks_mounted(tab)


@pytest.fixture(scope="module")
def tour(phone, site_url, built_site):
    """One visit of every lesson page on the phone: {path: what the checks below read there}. The tap targets
    and the widest code are read as the page opens; then a tap on the first block's code mounts its editor,
    whose scroller the column check takes in too."""
    seen, tab = {}, phone.new_page()
    try:
        for path in lesson_pages(built_site):
            open_phone_page(tab, site_url, path)
            targets = tab.evaluate(TARGETS)
            widest = tab.evaluate("() => Math.max(0, ...[...document.querySelectorAll('div.runnable pre > code')]"
                                  ".map(c => c.scrollWidth - c.clientWidth))")
            if tab.locator("div.runnable").count():
                tab.locator("div.runnable pre").first.tap()
                tab.locator("div.runnable .cm-scroller").first.wait_for()
            width = tab.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            problems = ([f"the page is {width[0]} px wide on a {width[1]} px screen"] if width[0] > width[1] else [])
            seen[path or "home"] = {"targets": targets, "widest": widest, "problems": problems + tab.evaluate(OVERFLOW)}
    finally:
        tab.close()
    return seen


def test_no_page_scrolls_sideways_and_every_figure_and_block_fits_its_column(tour):
    assert {path: page["problems"] for path, page in tour.items() if page["problems"]} == {}


def test_some_code_is_wider_than_a_phone_and_scrolls_inside_its_block(tour):
    """The check above is not empty: at least one block's code is wider than its block, and it scrolls."""
    assert max(page["widest"] for page in tour.values()) > 50


def test_every_tap_target_is_at_least_24_by_24_pixels(tour):
    small = {}
    for path, page in tour.items():
        assert page["targets"], f"{path}: no tap targets found: the check would pass on an empty page"
        too_small = sorted({f"{t['name']} {t['width']:.0f}×{t['height']:.0f}" for t in page["targets"]
                            if min(t["width"], t["height"]) < MINIMUM_TARGET_PX - TOLERANCE_PX})
        if too_small:
            small[path] = too_small
    assert small == {}


@pytest.fixture(scope="module")
def chapter_tabs(phone):
    """{path: (tab, its uncaught errors)}: one tab per chapter, shared by the figures of that chapter."""
    tabs = {}
    yield tabs
    for tab, _ in tabs.values():
        tab.close()


@pytest.mark.parametrize("name", sorted(TITLES))
def test_every_figure_works_by_touch(phone, chapter_tabs, site_url, built_site, name):
    path = figure_page(built_site, name)
    if path not in chapter_tabs:
        tab, errors = phone.new_page(), []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        open_phone_page(tab, site_url, path)
        chapter_tabs[path] = (tab, errors)
    phone_page, page_errors = chapter_tabs[path]
    figure = phone_page.get_by_role("group", name=TITLES[name], exact=True)
    figure.scroll_into_view_if_needed()  # Python starts when a figure nears the view
    figure.locator("button, input").first.wait_for()  # its controls are mounted: the choice below counts them
    # A control that changes something: a radio not chosen yet, a button other than Reset, else a slider.
    radios = figure.locator("input[type=radio]:not(:checked)")
    buttons = figure.locator("button").filter(has_not_text=re.compile(r"^\s*Reset\s*$"))
    control = (radios if radios.count() else buttons if buttons.count() else figure.locator("input[type=range]")).first
    control.wait_for()
    phone_page.wait_for_function("element => !element.disabled && element.getAttribute('aria-disabled') !== 'true'",
                                 arg=control.element_handle(), timeout=PYTHON_TIMEOUT_MS)
    before = figure.inner_html()
    box = control.bounding_box()
    control.tap(position={"x": box["width"] * 0.9, "y": box["height"] / 2})  # a slider's tap moves its thumb there
    phone_page.wait_for_function("([element, before]) => element.getAttribute('aria-busy') === 'false'"
                                 " && element.innerHTML !== before", arg=[figure.element_handle(), before],
                                 timeout=PYTHON_TIMEOUT_MS)
    assert page_errors == []


# Each text of the drawings in a figure: its size on the screen (its font size times the drawing's scale).
TEXT_SIZES = """(figure) => [...figure.querySelectorAll(".figure__picture svg")].filter((svg) => svg.getClientRects().length)
  .flatMap((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll("text")].map((text) => ({ text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale }));
  })"""
READABLE_PX = 11


@pytest.mark.parametrize("name", ["backprop_by_hand", "backprop_graph", "paths_add_up", "x_times_x"])
def test_a_computation_graphs_text_is_readable_on_a_phone(phone_page, site_url, built_site, name):
    """The graph of L = (w·x + b − y)² scaled to a phone's column drew its text at 4 px: a graph keeps a size at
    which every text is 11 px or more, and scrolls sideways inside the figure (the page does not: see above)."""
    open_phone_page(phone_page, site_url, figure_page(built_site, name))
    figure = phone_page.get_by_role("group", name=TITLES[name], exact=True)
    figure.scroll_into_view_if_needed()
    sizes = figure.evaluate(TEXT_SIZES)
    assert sizes, "no text drawn"
    small = sorted({f"{size['text']} ({size['px']:.1f} px)" for size in sizes if size["px"] < READABLE_PX - 0.05})
    assert small == []
    frame = figure.locator(".figure__scroll").first  # wider than the column: it scrolls, inside the figure
    assert frame.evaluate("frame => frame.scrollWidth <= frame.clientWidth || getComputedStyle(frame).overflowX === 'auto'")


SHOWN_IN_ITS_FRAME = """(box) => {
  const frame = box.closest(".figure__scroll").getBoundingClientRect(), shown = box.getBoundingClientRect();
  return shown.left >= frame.left - 0.5 && shown.right <= frame.right + 0.5;
}"""


def test_a_graph_on_a_phone_opens_where_the_backward_pass_starts_and_stays_there(phone_page, site_url, built_site):
    """The graph of L is wider than a phone: it opens scrolled to L, the box the reader fills first, and a
    filled box does not send it back to the far left."""
    open_phone_page(phone_page, site_url, figure_page(built_site, "backprop_by_hand"))
    figure = phone_page.get_by_role("group", name=TITLES["backprop_by_hand"], exact=True)
    figure.scroll_into_view_if_needed()
    graph_l = figure.locator('.figure__scroll [data-node="L"]').first
    frame = figure.locator(".figure__scroll").first
    assert frame.evaluate("frame => frame.scrollWidth > frame.clientWidth")  # it does scroll on a phone
    assert graph_l.evaluate(SHOWN_IN_ITS_FRAME)
    figure.get_by_role("textbox", name="Gradient of L", exact=True).fill("1")
    figure.get_by_role("textbox", name="Gradient of L", exact=True).press("Enter")
    expect(figure.get_by_role("textbox", name="Gradient of e", exact=True)).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    assert figure.locator('.figure__scroll [data-node="L"]').first.evaluate(SHOWN_IN_ITS_FRAME)


def test_backprop_by_hand_says_beside_each_field_the_numbers_on_its_boxs_edges(phone_page, site_url, built_site):
    """On a phone the last fields are far below the graph: each field is described by what the graph writes on
    its box's edges, shown right above it."""
    model = cpython_model("backprop_by_hand")
    open_phone_page(phone_page, site_url, figure_page(built_site, "backprop_by_hand"))
    figure = phone_page.get_by_role("group", name=TITLES["backprop_by_hand"], exact=True)
    for box in model.Graph("loss").boxes:
        field = figure.get_by_role("textbox", name=box["label"], exact=True)
        described = field.evaluate("field => document.getElementById(field.getAttribute('aria-describedby'))?.textContent")
        assert described == box["hint"], box["key"]
        gap = field.evaluate("field => field.getBoundingClientRect().top - document.getElementById("
                             "field.getAttribute('aria-describedby')).getBoundingClientRect().bottom")
        assert 0 <= gap < 40, box["key"]  # just above its field


def test_a_tapped_button_stays_readable(phone_page, site_url, built_site):
    """A tap leaves "Check answer" focused (and hovered) on a phone: its text must still read at 4.5:1."""
    from test_accessibility import BUTTON_CONTRAST
    open_phone_page(phone_page, site_url, "")
    group = phone_page.locator(".prediction", has=phone_page.locator("input[type=text]")).first
    group.scroll_into_view_if_needed()
    group.get_by_role("textbox", name="Your answer").fill("10")
    check = group.get_by_role("button", name="Check answer")
    check.tap()
    assert check.evaluate("button => button.matches(':focus') || button.matches(':hover')")
    assert check.evaluate(BUTTON_CONTRAST) >= 4.5


def test_the_loop_figure_stacks_its_boxes_on_a_phone_and_keeps_its_text_readable(phone_page, site_url, built_site):
    """The recap of training (issue #35) draws its four boxes two a row, which a phone's column would shrink to
    9 px text: there they stand in one column, every text 11 px or more, inside the column."""
    open_phone_page(phone_page, site_url, figure_page(built_site, "training_loop"))
    figure = phone_page.get_by_role("group", name=TITLES["training_loop"], exact=True)
    figure.scroll_into_view_if_needed()
    expect(figure.locator(".figure__node")).to_have_count(4, timeout=PYTHON_TIMEOUT_MS)
    sizes = figure.evaluate(TEXT_SIZES)
    assert sizes, "no text drawn"
    assert sorted({f"{size['text']} ({size['px']:.1f} px)" for size in sizes if size["px"] < READABLE_PX - 0.05}) == []
    assert figure.locator("svg.figure__drawing").evaluate(
        "(svg) => svg.getBoundingClientRect().width <= svg.closest('.figure__picture').clientWidth + 0.5")
