"""test_figure_geometry.py: every figure's text lies inside its drawing, clear of other text and of a plot's frame
(a legend outside it), and a graph's edge labels stay clear of its boxes, at 1280 × 900 and on a 375 × 740 phone
(issue #36).

What it is: one page load per chapter with figures and per size. The graphs are first operated to the end as a
reader would (seeded and backpropagated, every "Backpropagate by hand" field filled in right, the Graph chapter's
block run with `(a * b).tanh() + a`), so that every edge label shows both its lines. Then every figure is
measured from the drawn SVG itself (getBoundingClientRect of each <text> and box), not by eye.
What it is not: a test of the numbers drawn (test_figures.py, test_show.py) or of the layout on random graphs
(tests/tutor/figures/test_graph_layout.py).
"""
import pytest
from playwright.sync_api import expect

from helpers import PYTHON_TIMEOUT_MS, block_titled, run_block, set_code, settled, wait_python_ready
from test_figures import TITLES, cpython_model

SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 375, "height": 740}}
CHAPTERS = ["derivatives", "loss-and-gradient", "backpropagation", "checking", "training"]
SHOWN_EXPRESSION = "(a * b).tanh() + a"

# What is wrong with the drawings of one figure: a text (ignoring its 4 px halo) that leaves its <svg>, runs into
# another text (a legend, a tick, an edge label) or crosses a plot's frame, a legend inside a frame (among the
# curves: the cost figure's ran into the frame), or, in a graph, an edge label's text over a box. Hidden drawings
# (size 0) are skipped.
FAULTS = """(figure) => {
  const faults = [];
  const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
  const within = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  const named = (text) => JSON.stringify(text.textContent);
  for (const svg of figure.querySelectorAll("svg.figure__drawing")) {
    const drawing = svg.getBoundingClientRect();
    if (!drawing.width) continue;
    const texts = [...svg.querySelectorAll("text")].map((text) => [text, text.getBoundingClientRect()]).filter(([, shown]) => shown.width);
    const frames = [...svg.querySelectorAll(".figure__frame")].map((frame) => frame.getBoundingClientRect());
    texts.forEach(([text, shown], index) => {
      if (!within(shown, drawing)) faults.push(`${named(text)} leaves its drawing`);
      for (const [other, place] of texts.slice(0, index)) if (!apart(shown, place)) faults.push(`${named(text)} overlaps ${named(other)}`);
      for (const frame of frames) {
        if (!apart(shown, frame) && (!within(shown, frame) || text.matches(".figure__legend"))) faults.push(`${named(text)} runs into a plot's frame`);
      }
    });
    const boxes = [...svg.querySelectorAll(".figure__node")].map((node) => [node.dataset.node, node.querySelector("rect").getBoundingClientRect()]);
    const labels = [...svg.querySelectorAll(".figure__edge-label text")].map((text) => [text, text.getBoundingClientRect()]);
    for (const [text, shown] of labels) {
      for (const [symbol, box] of boxes) if (!apart(shown, box)) faults.push(`${named(text)} overlaps the box of ${symbol}`);
    }
  }
  return faults;
}"""

TITLE = """(figure) => figure.getAttribute("aria-label")
  ?? document.getElementById(figure.getAttribute("aria-labelledby") ?? "")?.textContent.trim()"""


def figure(page, name):
    return page.get_by_role("group", name=TITLES[name], exact=True)


def click_until_done(part, *labels):
    """Press each button in turn, the last one until it is disabled, waiting for each answer."""
    for label in labels:
        button = part.get_by_role("button", name=label, exact=True)
        while button.get_attribute("aria-disabled") != "true":
            button.click()
            settled(part)
            if label != labels[-1]:
                break


def fill_by_hand(part):
    """Every field of "Backpropagate by hand" (its first graph) filled in right, in the order they open."""
    model = cpython_model("backprop_by_hand")
    for box in model.Graph(model.DEFAULT_GRAPH).boxes:
        field = part.get_by_role("textbox", name=box["label"], exact=True)
        expect(field).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
        field.fill(model.exact_text(box["expected"]))
        field.press("Enter")
        settled(part)
    expect(part.get_by_text("The same graph, filled by the engine's backward()")).to_be_visible(timeout=PYTHON_TIMEOUT_MS)


def operate_the_graphs(page):
    """Bring every graph of the page to the end of its backward pass."""
    wait_python_ready(page)
    if figure(page, "x_times_x").count():
        click_until_done(figure(page, "x_times_x"), "Evaluate x × x", "Seed output gradient", "Follow next operand")
    for name in ("backprop_graph", "paths_add_up"):
        if figure(page, name).count():
            click_until_done(figure(page, name), "Seed gradient", "Backpropagate one operation")
    if figure(page, "backprop_by_hand").count():
        fill_by_hand(figure(page, "backprop_by_hand"))
        block = block_titled(page, "Draw your own graph")
        set_code(block, f"from tinygrad import Value\n\na = Value(3.0)\nb = Value(-2.0)\nq = {SHOWN_EXPRESSION}\nshow(q)\n")
        run_block(block)
        shown = block.get_by_role("group", name="Graph of q", exact=True)
        click_until_done(shown, "Seed gradient", "Backpropagate one operation")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_figures_text_stays_in_its_drawing_and_clear_of_the_graphs_boxes(browser, site_url, chapter, size):
    context = browser.new_context(viewport=SIZES[size], service_workers="block")
    try:
        page = context.new_page()
        page.goto(f"{site_url}{chapter}/")
        figures = page.locator(".figure[role=group]")
        expect(figures.first).to_be_attached()
        if chapter in ("derivatives", "backpropagation"):
            page.locator("[data-widget]").first.scroll_into_view_if_needed()  # Python starts when a figure nears the view
            operate_the_graphs(page)
        faults = {figures.nth(index).evaluate(TITLE): found for index in range(figures.count())
                  if (found := figures.nth(index).evaluate(FAULTS))}
        assert faults == {}
    finally:
        context.close()


# Whether the reader sees `element`: nothing (Material's header, a sticky picture) covers its middle, which lies
# in the window and, in a graph that scrolls sideways, in the visible part of its frame.
SEEN = """(element) => {
  const shown = element.getBoundingClientRect();
  const [x, y] = [(shown.left + shown.right) / 2, (shown.top + shown.bottom) / 2];
  const frame = element.closest(".figure__scroll")?.getBoundingClientRect();
  if (frame && (x < frame.left || x > frame.right)) return false;
  return y > 0 && y < innerHeight && x > 0 && x < innerWidth && element.contains(document.elementFromPoint(x, y));
}"""
NEURON_ANSWERS = {"Weighted sum n = w₁x₁ + w₂x₂ + b": "0.6931", "Output t = tanh(n)": "0.6", "Local derivative 1 − t²": "0.64",
                  "Gradient of w₁": "1.28", "Gradient of w₂": "1.92", "Gradient of b": "0.64"}


def fields_and_pictures(part, answers, about):
    """Tap each field in turn, as a reader filling it; then whether the field and `about()`, the part of the
    picture it is about, are seen together; then type the right answer."""
    seen = []
    for label, answer in answers.items():
        field = part.get_by_role("textbox", name=label, exact=True)
        expect(field).to_be_enabled(timeout=PYTHON_TIMEOUT_MS)
        field.click()
        seen.append((label, field.evaluate(SEEN), about().evaluate(SEEN)))
        field.fill(answer)
        field.press("Enter")
        settled(part)
    return seen


def test_on_a_phone_the_field_being_filled_and_what_it_is_about_are_on_screen_together(browser, site_url):
    """A phone shows about 700 px: "Backpropagate by hand" lists its eight fields under the graph, "A neuron by hand"
    its six under the neuron. While a field is filled, the picture stays in view and the graph shows the box the
    field asks for (scrolled sideways to it)."""
    context = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True, service_workers="block")
    try:
        page = context.new_page()
        page.goto(f"{site_url}backpropagation/")
        by_hand = figure(page, "backprop_by_hand")
        by_hand.scroll_into_view_if_needed()
        wait_python_ready(page)
        model = cpython_model("backprop_by_hand")
        answers = {box["label"]: model.exact_text(box["expected"]) for box in model.Graph(model.DEFAULT_GRAPH).boxes}
        seen = fields_and_pictures(by_hand, answers, lambda: by_hand.locator(".figure__node--active").first)
        assert seen == [(label, True, True) for label in answers]
        page.goto(f"{site_url}training/")
        neuron = figure(page, "neuron_by_hand")
        neuron.scroll_into_view_if_needed()
        wait_python_ready(page)
        seen = fields_and_pictures(neuron, NEURON_ANSWERS, lambda: neuron.locator("svg.figure__drawing"))
        assert seen == [(label, True, True) for label in NEURON_ANSWERS]
    finally:
        context.close()
