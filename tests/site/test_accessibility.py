"""test_accessibility.py: axe-core on every page in light and dark mode, and keyboard-only use.

What it is: axe-core (node_modules/axe-core, the npm package) scans every built page, in Material's
light ("default") and dark ("slate") scheme (one page load, the header's switch between the two scans),
once the blocks are mounted, the figures drawn and the math typeset, and again on a page whose blocks
have printed output and an error and whose figures have been used; no serious or critical violation
may remain. Then a reader with only a keyboard goes
through each page with blocks or figures by Tab: every control of every block and figure is reached,
shows a visible focus outline, and works (Enter runs a block, End moves a slider). Output regions are
polite live regions (role log / aria-live polite), so screen readers announce them without interrupting
(checked on the axe scan's visit of each page).

What it is not: a fix list. The colour fixes live in site_scripts/browser/theme/contrast.css and the views.
axe is injected with page.evaluate: code evaluated through the browser's DevTools protocol is not
subject to the page's Content-Security-Policy (an added <script> tag would be refused), so the
policy stays on during the scan.
"""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, REPO, UI_TIMEOUT_MS, block, run_block, set_code, wait_blocks_mounted

AXE_SOURCE = (REPO / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
SCHEMES = {"light": "default", "dark": "slate"}  # Playwright's colour scheme -> Material's palette scheme
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.filter((violation) => ["serious", "critical"].includes(violation.impact))
    .map((violation) => `${violation.id} (${violation.impact}): ` + violation.nodes.slice(0, 3)
      .map((node) => `${node.target.join(" ")}: ${node.failureSummary.replace(/\\s+/g, " ")}`).join(" | "));
}"""
FOCUS_REPORT = """() => {
  const focused = document.activeElement;
  const part = focused.closest(".runnable, .figure, .engine-editor");  // the last: page "Edit the engine"
  const editor = focused.closest(".runnable__editor");  // CodeMirror's content: its frame shows the focus
  const outlined = editor ?? focused;
  const style = getComputedStyle(outlined);
  const code = editor ?? focused.closest(".runnable pre");
  return {
    inside: part !== null,
    inEditor: editor !== null,
    codeOf: code && part.matches(".runnable") ? part.getAttribute("aria-label") : null,
    name: `${focused.tagName} ${focused.getAttribute("aria-label") || focused.labels?.[0]?.textContent || focused.textContent.trim().slice(0, 40)}`,
    control: focused.dataset.keyboardControl ?? null,
    inContent: focused.closest(".md-content") !== null,
    outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0,
  };
}"""
STILL_PRESENT = """() => [...document.querySelectorAll("[data-keyboard-control]")].map((control) => control.dataset.keyboardControl)"""
BLOCK_NAMES = """() => [...document.querySelectorAll(".runnable")].map((element) => element.getAttribute("aria-label"))"""
MARK_CONTROLS = """() => {
  const controls = [...document.querySelectorAll(
    ".runnable button:not([disabled]), .runnable pre[tabindex], .figure button:not([disabled]), .figure input:not([disabled])")];
  const names = {};  // marker -> name; the radios of one group share a marker (Tab enters the group once)
  controls.forEach((control, index) => {
    const marker = control.type === "radio" ? `radios ${control.name}` : String(index);
    control.dataset.keyboardControl = marker;
    names[marker] ??= `${control.tagName} ${control.getAttribute("aria-label") || control.labels?.[0]?.textContent || control.textContent.trim().slice(0, 40)}`;
  });
  return names;
}"""


def built_pages(built_site):
    """{path relative to the site's base URL: HTML} for every built page ("" is the home page)."""
    pages = {}
    for html_file in sorted(Path(built_site).rglob("*.html")):
        relative = html_file.relative_to(built_site).as_posix()
        if relative.startswith("assets/packages/"):  # the package index micropip reads: links, not a page
            continue
        path = relative[:-len("index.html")] if relative.endswith("index.html") else relative
        pages[path] = html_file.read_text(encoding="utf-8")
    return pages


def pages_with_parts(built_site):
    """Paths of the pages that hold runnable blocks or figures."""
    return [path for path, html in built_pages(built_site).items()
            if 'class="runnable"' in html or "data-widget=" in html]


def wait_page_drawn(page):
    """Blocks mounted, every figure drawn from its starting state, math typeset."""
    wait_blocks_mounted(page)
    page.wait_for_function("""() => [...document.querySelectorAll("[data-widget]")]
        .every((figure) => figure.querySelector(".figure__picture svg"))
      && (document.querySelector(".arithmatex") === null || document.querySelector(".katex") !== null)""",
                           timeout=UI_TIMEOUT_MS)


def serious_violations(page):
    page.evaluate(AXE_SOURCE)
    return page.evaluate(RUN_AXE)


SWITCH_TO = {"default": "Switch to light mode", "slate": "Switch to dark mode"}  # the header's switch, by its title
# Material's colour transitions jump to their end state: what a reader sees a moment later, without the wait.
ANIMATIONS_ENDED = "() => document.getAnimations().forEach((animation) => animation.finish())"


@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_material_follows_the_browsers_colour_scheme(browser, site_url, scheme):
    context = browser.new_context(service_workers="block", color_scheme=scheme)
    context.set_default_timeout(UI_TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(site_url)
        expect(page.locator("body")).to_have_attribute("data-md-color-scheme", SCHEMES[scheme])
    finally:
        context.close()


def violations_in_both_schemes(page):
    """{palette: axe's serious violations} for the page as shown, then after the header's switch to the other
    scheme (Material keeps that choice for the next page)."""
    found = {page.locator("body").get_attribute("data-md-color-scheme"): serious_violations(page)}
    found[switch_scheme(page)] = serious_violations(page)
    return found


def switch_scheme(page):
    """Press the header's switch to the other scheme, as a reader does; return that scheme once shown."""
    body = page.locator("body")
    other = next(palette for palette in SCHEMES.values() if palette != body.get_attribute("data-md-color-scheme"))
    page.get_by_title(SWITCH_TO[other]).click()
    expect(body).to_have_attribute("data-md-color-scheme", other)
    page.evaluate(ANIMATIONS_ENDED)
    return other


def test_axe_finds_no_serious_violation_on_any_page_in_either_scheme_and_output_is_polite(page, site_url, built_site):
    """Every page in both schemes; on the same visit, each block's output and each figure's messages are polite
    live regions (role log / aria-live polite): screen readers announce them without interrupting."""
    found, impolite = {}, {}
    for path in built_pages(built_site):
        page.goto(site_url + path)
        wait_page_drawn(page)
        impolite[path] = not_polite(page)
        for palette, problems in violations_in_both_schemes(page).items():
            found[f"{path or 'home'} ({palette})"] = problems
    # A page with Python at work: output, a traceback in red, a revealed curve, a traced graph.
    page.goto(site_url + "derivatives/")
    wait_page_drawn(page)
    set_code(block(page, 1), "print('some output')\nraise ValueError('an error, shown in red')\n")
    assert "ValueError" in run_block(block(page, 1))
    page.get_by_role("button", name="Reveal full curve").click()
    page.get_by_role("button", name="Evaluate x × x").click()
    expect(page.get_by_role("button", name="Seed output gradient")).to_have_attribute("aria-disabled", "false",
                                                                                       timeout=PYTHON_TIMEOUT_MS)
    for palette, problems in violations_in_both_schemes(page).items():
        found[f"derivatives with Python at work ({palette})"] = problems
    assert len(found) == 2 * (len(built_pages(built_site)) + 1)  # every page in both schemes
    assert {path: problems for path, problems in found.items() if problems} == {}
    assert {path: problems for path, problems in impolite.items() if problems} == {}


def not_polite(page):
    """The outputs of the page's blocks and the message lines of its figures that are not polite live regions."""
    return page.evaluate("""() => [
        ...[...document.querySelectorAll(".runnable")].map((block) => [block, block.querySelector('[role="log"]')]),
        ...[...document.querySelectorAll("[data-widget]")].map((figure) => [figure, figure.querySelector(".figure__messages")]),
      ].filter(([, region]) => region?.getAttribute("aria-live") !== "polite")
       .map(([part]) => part.getAttribute("aria-label") ?? part.dataset.widget)""")


def test_every_block_and_figure_works_by_keyboard_with_visible_focus(browser, site_url, built_site):
    """Every page in reading order, following the footer's "next" link (instant navigation keeps
    one Python for the whole visit)."""
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    page = context.new_page()
    checked = []
    try:
        page.goto(site_url)
        while True:
            wait_page_drawn(page)
            if page.locator(".runnable, [data-widget]").count():
                check_keyboard_use(page)
                checked.append(page.url.split("#")[0])  # navigation.tracking adds the section
            next_page = page.locator(".md-footer__link--next")
            if next_page.count() == 0:
                break
            title = page.title()
            next_page.click()
            page.wait_for_function("title => document.title !== title", arg=title)
    finally:
        context.close()
    assert sorted(checked) == sorted(site_url + path for path in pages_with_parts(built_site))


def check_keyboard_use(page):
    """Tab reaches every control of the page's blocks and figures with a visible outline; Enter
    runs a block, End moves a slider, arrow keys change a radio choice."""
    where = page.url
    for summary in page.locator("article details.go-deeper > summary").all():  # a "Go deeper" box opens with Enter
        if summary.locator("xpath=..").get_attribute("open") is None:
            summary.focus()
            page.keyboard.press("Enter")
            expect(summary.locator("xpath=..")).to_have_attribute("open", "")
    if page.locator(".runnable").count():    # Enter on the first Run button runs the block
        focus_by_tab(page, "Run")
        page.keyboard.press("Enter")
        expect(block(page, 1)).to_have_attribute("data-runs", "1", timeout=PYTHON_TIMEOUT_MS)
        assert block(page, 1).get_by_role("log").text_content().strip()
    figures = page.locator("[data-widget]")
    for index in range(figures.count()):      # once Python is ready, the figures' controls are enabled
        figures.nth(index).scroll_into_view_if_needed()
        expect(figures.nth(index).locator("button, input").first).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
    expected = page.evaluate(MARK_CONTROLS)
    reached, code_reached, unmarked = walk_by_tab(page)
    assert unmarked == [], f"{where}: focus without a visible outline on {unmarked}"
    # A block's static code (and Material's copy button in it) makes way for the editor when focused.
    missed = sorted({expected[marker] for marker in page.evaluate(STILL_PRESENT) if marker not in reached})
    assert missed == [], f"{where}: Tab never reached {missed}"
    assert code_reached == set(page.evaluate(BLOCK_NAMES)), f"{where}: the code of a block is not reachable"
    slider = page.locator("[data-widget] input[type=range]").first
    if slider.count():
        slider.focus()
        page.keyboard.press("End")
        expect(slider).to_have_value(slider.get_attribute("max"))
        expect(slider.locator("xpath=ancestor::*[@data-widget]")).to_have_attribute("aria-busy", "false",
                                                                                  timeout=PYTHON_TIMEOUT_MS)
    radios = page.locator("[data-widget] input[type=radio]")
    if radios.count() > 1:
        radios.first.focus()
        page.keyboard.press("ArrowDown")
        expect(radios.nth(1)).to_be_checked()


def start_at_title(page):
    """Make the page's title the point where Tab starts (a click on text moves that point there)."""
    page.locator(".md-content h1").first.click()


def focus_by_tab(page, name, limit=200):
    """Press Tab from the page's title until the focused element is the button called `name`."""
    start_at_title(page)
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.textContent.trim()") == name:
            return
        if page.evaluate("() => document.activeElement.closest('.cm-content') !== null"):
            page.keyboard.press("Escape")  # the editor keeps Tab for indenting until Escape
    pytest.fail(f"Tab never reached a button named {name!r}")


def walk_by_tab(page, limit=300):
    """Tab through the article once, from its title; return (marked controls reached, blocks whose code was reached,
    names of elements focused without a visible outline)."""
    start_at_title(page)
    reached, code_reached, unmarked = set(), set(), []
    for _ in range(limit):
        page.keyboard.press("Tab")
        report = page.evaluate(FOCUS_REPORT)
        if report["inside"] and not report["outline"]:
            unmarked.append(report["name"])
        if report["control"] is not None:
            reached.add(report["control"])
        if report["codeOf"] is not None:
            code_reached.add(report["codeOf"])
        if report["inEditor"]:
            page.keyboard.press("Escape")
        if not report["inContent"]:  # past the article's last stop
            break
    return reached, code_reached, unmarked


# The contrast of a button's text on what is behind it, as WCAG computes it, once its transitions ended: the
# text's colour (with its alpha) over the button's background, itself over the first opaque background of its
# ancestors.
BUTTON_CONTRAST = """(button) => {
  button.getAnimations().forEach((animation) => animation.finish());  // Material's colour transitions, at their end
  const rgba = (text) => { const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number); return [r, g, b, a]; };
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const layers = [];
  for (let element = button; element; element = element.parentElement) {
    const colour = rgba(getComputedStyle(element).backgroundColor);
    if (colour[3] > 0) layers.push(colour);
    if (colour[3] === 1) break;
  }
  let behind = [255, 255, 255];
  for (const layer of layers.reverse()) behind = over(layer, behind);
  const text = over(rgba(getComputedStyle(button).color), behind);
  const luminance = (colour) => { const [r, g, b] = colour.map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [high, low] = [luminance(text), luminance(behind)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}"""
BUTTONS = ".md-content .md-button:not([disabled]):not([aria-disabled='true'])"


def test_every_lesson_button_is_readable_under_the_pointer_and_focused_in_either_scheme(page, site_url):
    """"Check answer" tapped on a phone stayed orange with the link's blue text (2.47:1): every button of the
    lesson's pages, under the pointer and focused, keeps text at 4.5:1 or more on its background, in the
    scheme a page opens in and after the header's switch to the other."""
    low, schemes = {}, set()
    for path in ("", "derivatives/", "your-work/", "class-overview/", "edit-engine/"):
        page.goto(site_url + path)
        wait_page_drawn(page)
        if page.locator("[data-widget] button").count():  # a figure's buttons are enabled once Python is ready
            page.locator("[data-widget] button").first.scroll_into_view_if_needed()
            expect(page.locator("[data-widget] button").first).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
        for switched in (False, True):
            if switched:
                switch_scheme(page)
            palette = page.locator("body").get_attribute("data-md-color-scheme")
            schemes.add((path, palette))
            buttons = page.locator(BUTTONS)
            assert buttons.count() >= 1, path
            for index in range(buttons.count()):
                button = buttons.nth(index)
                if not button.is_visible():
                    continue
                name = f"{path or 'home'} ({palette}): {button.inner_text().strip()[:30]}"
                button.hover()
                hovered = button.evaluate(BUTTON_CONTRAST)
                button.focus()
                page.mouse.move(0, 0)
                focused = button.evaluate(BUTTON_CONTRAST)
                button.evaluate("button => button.blur()")
                if min(hovered, focused) < 4.5:
                    low[name] = (round(hovered, 2), round(focused, 2))
    assert len(schemes) == 10  # five pages, each in both schemes
    assert low == {}
