"""test_by_hand.py: the figures of issue #28 in which the reader does the arithmetic, in Chromium.

What it is: "Backpropagate by hand" and "A neuron by hand", found by their titles and filled in like a
reader: each number field by its label ("Gradient of e"), Enter or the Check button, the message read
back. Wrong entries get the sentence the model computes for that slip, bad input (text, an empty field,
1e309, "2,5") a plain message from the page, without asking Python, that loses nothing already entered,
and right ones open the next field and take the focus there; a reader who carries their own rounded
numbers on through the neuron is right at every field. Every expected number comes from the engine run
here under CPython.
What it is not: the models' branches in depth (tests/tutor/figures/test_by_hand_models.py).
"""
import math

from playwright.sync_api import expect
from tinygrad import Value

from test_figures import button, cpython_model, messages, open_figure, readout


def field(figure, label):
    return figure.get_by_role("textbox", name=label, exact=True)


def enter(figure, label, text, by_button=False):
    """Type `text` into the field `label` and submit it (Enter, or the field's Check button); the messages."""
    field(figure, label).fill(text)
    if by_button:
        figure.get_by_role("button", name=f"Check: {label}", exact=True).click()
    else:
        field(figure, label).press("Enter")
    return messages(figure)


def focused_label(page):
    return page.evaluate("() => document.activeElement.labels?.[0]?.textContent ?? null")


def engine_gradients(build):
    """{symbol: gradient} from the engine's own backward() on the graph the figure draws."""
    root, names = build()
    root.backward()
    return {symbol: value.grad for value, (symbol, _) in names.items()}


def number(value):
    return cpython_model("display").number_text(value)


def test_backprop_by_hand_checks_each_box_and_explains_slips(page, site_url, built_site, clean_run):
    model = cpython_model("backprop_by_hand")
    expected = engine_gradients(cpython_model("backprop_graph").build)
    order = [box["key"] for box in model.Graph("loss").boxes]
    assert order == ["L", "e", "ŷ", "y", "w·x", "b", "w", "x"]
    figure = open_figure(page, site_url, built_site, "backprop_by_hand")
    expect(figure.get_by_role("textbox")).to_have_count(len(order))  # the other graph's fields are hidden
    expect(field(figure, "Gradient of L")).to_be_enabled()
    for symbol in order[1:]:
        expect(field(figure, f"Gradient of {symbol}")).to_be_disabled()

    # Bad input: a plain message from the page itself (the figure never asks Python: it is never busy), never a
    # traceback; the text stays in the field.
    figure.evaluate("""(element) => { element.busySince = [];
      new MutationObserver(() => element.busySince.push(element.getAttribute("aria-busy")))
        .observe(element, { attributes: true, attributeFilter: ["aria-busy"] }); }""")
    assert "“abc” is not a number" in enter(figure, "Gradient of L", "abc")
    assert figure.evaluate("(element) => element.busySince") == []
    expect(field(figure, "Gradient of L")).to_have_value("abc")
    expect(field(figure, "Gradient of L")).to_have_attribute("aria-invalid", "true")
    assert "Traceback" not in messages(figure) and "Error" not in messages(figure)
    assert "dL/dL = 1" in enter(figure, "Gradient of L", "0")
    assert "Right: dL/dL = 1" in enter(figure, "Gradient of L", number(expected["L"]), by_button=True)
    expect(field(figure, "Gradient of e")).to_be_enabled()
    assert focused_label(page) == "Gradient of e"  # the focus moved on to the field that opened

    assert "Type a number for the gradient of e first." in enter(figure, "Gradient of e", "")
    assert "infinite for a float" in enter(figure, "Gradient of e", "1e309")
    assert "2.5 rather than 2,5" in enter(figure, "Gradient of e", "2,5")
    expect(field(figure, "Gradient of e")).to_have_value("2,5")
    expect(field(figure, "Gradient of L")).to_have_value(number(expected["L"]))  # nothing entered is lost
    assert readout(figure, "Boxes right") == "1 of 8"
    assert "the local derivative is missing" in enter(figure, "Gradient of e", number(expected["L"]))

    for symbol in order[1:]:
        if symbol == "w":  # the gradient of w·x passed on without its × x
            assert "the local derivative is missing" in enter(figure, "Gradient of w", number(expected["w·x"]))
        if symbol == "y":
            assert "the sign is not" in enter(figure, "Gradient of y", number(-expected["y"]))
        assert "Right" in enter(figure, f"Gradient of {symbol}", number(expected[symbol]))
    assert readout(figure, "Boxes right") == "8 of 8"
    assert "agrees with all 8 of your gradients" in messages(figure)
    graphs = figure.locator(".figure__picture svg")
    expect(graphs).to_have_count(2)  # yours, and the same graph filled by backward()
    assert "backward() filled the same graph (drawn above)" in messages(figure)
    engine_graph, said = graphs.nth(1).bounding_box(), figure.locator(".figure__messages").bounding_box()
    assert engine_graph["y"] + engine_graph["height"] <= said["y"]  # where the message says it is
    for symbol, gradient in expected.items():
        for index in (0, 1):
            shown = graphs.nth(index).locator(f'[data-node="{symbol}"] [data-field="grad"]').text_content()
            assert shown == f"grad {number(gradient)}"
    for symbol in order:
        expect(field(figure, f"Gradient of {symbol}")).to_have_value(number(expected[symbol]))

    # The graph where paths meet: a wrong sum names the missing path; the first graph keeps its entries.
    figure.get_by_role("radio", name="q = a·a + a").check()
    expect(field(figure, "Gradient of q")).to_be_enabled()
    expect(field(figure, "Gradient of w")).to_be_hidden()
    paths = engine_gradients(cpython_model("paths_add_up").build)
    enter(figure, "Gradient of q", number(paths["q"]))
    enter(figure, "Gradient of a·a", number(paths["a·a"]))
    missing = enter(figure, "Gradient of a", number(paths["a"] - 1))  # only the two paths through a·a
    assert "2 of the 3 paths into a: the one through q (1) is missing" in missing
    assert "Right" in enter(figure, "Gradient of a", number(paths["a"]))
    figure.get_by_role("radio", name="L = (w·x + b − y)²").check()
    assert readout(figure, "Boxes right") == "8 of 8"
    button(figure, "Start again").click()
    assert readout(figure, "Boxes right") == "0 of 8"
    expect(field(figure, "Gradient of L")).to_have_value("")
    field(figure, "Gradient of L").fill("−")  # typed, not checked yet: another answer from Python keeps it
    figure.get_by_role("radio", name="q = a·a + a").check()
    figure.get_by_role("radio", name="L = (w·x + b − y)²").check()
    assert readout(figure, "Boxes right") == "0 of 8"
    expect(field(figure, "Gradient of L")).to_have_value("−")


def test_neuron_by_hand_checks_the_table_field_by_field_then_shows_the_engines_numbers(page, site_url, built_site, clean_run):
    w1, w2, b = Value(-1), Value(1), Value(math.log(2) - 1)  # the neuron of the chapter, by the engine
    n = w1 * 2 + w2 * 3 + b
    t = n.tanh()
    t.backward()
    expected = {"Weighted sum n = w₁x₁ + w₂x₂ + b": n.data, "Output t = tanh(n)": t.data, "Local derivative 1 − t²": 1 - t.data ** 2,
                "Gradient of w₁": w1.grad, "Gradient of w₂": w2.grad, "Gradient of b": b.grad}
    figure = open_figure(page, site_url, built_site, "neuron_by_hand")
    expect(figure.get_by_role("textbox")).to_have_count(6)
    lefts = {round(box["x"]) for box in (field.bounding_box() for field in figure.get_by_role("textbox").all())}
    assert len(lefts) == 1, lefts  # the six fields in one column, the first too (its label is the longest)
    expect(field(figure, "Output t = tanh(n)")).to_be_disabled()
    assert "without the bias" in enter(figure, "Weighted sum n = w₁x₁ + w₂x₂ + b", number(n.data - b.data))
    assert "2.5 rather than 2,5" in enter(figure, "Weighted sum n = w₁x₁ + w₂x₂ + b", "2,5")
    assert "Right" in enter(figure, "Weighted sum n = w₁x₁ + w₂x₂ + b", f"{n.data:.2f}")  # two decimals are enough
    assert focused_label(page) == "Output t = tanh(n)"
    assert "That is n itself" in enter(figure, "Output t = tanh(n)", number(n.data))
    # From here the reader carries their own n = 0.69 on, to four decimals (issue 28's review): t = tanh(0.69),
    # 1 − t² from that t, each gradient from that 1 − t²; every one is right, though ∂t/∂w₂ is 0.007 off 1.92.
    own_t = f"{Value(float(f'{n.data:.2f}')).tanh().data:.4f}"
    own_local = f"{1 - float(own_t) ** 2:.4f}"
    carried = {"Output t = tanh(n)": own_t, "Local derivative 1 − t²": own_local,
               "Gradient of w₁": f"{float(own_local) * 2:.4f}", "Gradient of w₂": f"{float(own_local) * 3:.4f}",
               "Gradient of b": own_local}
    assert abs(float(carried["Gradient of w₂"]) - w2.grad) > 0.005
    assert "Right" in enter(figure, "Output t = tanh(n)", own_t, by_button=True)
    assert "That is t²" in enter(figure, "Local derivative 1 − t²", number(t.data ** 2))
    assert "Type a number for local derivative 1 − t² first." in enter(figure, "Local derivative 1 − t²", " ")
    expect(field(figure, "Weighted sum n = w₁x₁ + w₂x₂ + b")).to_have_value(f"{n.data:.2f}")  # nothing entered is lost
    labels = list(expected)
    for label in labels[2:]:
        if label == "Gradient of w₁":
            assert "multiply by x₁" in enter(figure, label, number(1 - t.data ** 2))
        assert "Right" in enter(figure, label, carried[label]), label
    assert readout(figure, "Fields right") == "6 of 6"
    assert f"except the gradient of w₂ (your {carried['Gradient of w₂']}, the engine's {number(w2.grad)})" in messages(figure)
    notes = figure.locator(".figure__number-note").all_text_contents()
    assert notes == [f"engine: {number(value)}" for value in expected.values()]  # side by side with the fields
    grads = figure.locator(".figure__neuron-grad--known").all_text_contents()
    assert sorted(grads) == sorted([f"grad {number(w1.grad)}", f"grad {number(w2.grad)}", f"grad {number(b.grad)}",
                                    f"1 − t² = {number(1 - t.data ** 2)}"])
    button(figure, "Start again").click()
    assert readout(figure, "Fields right") == "0 of 6"
    expect(field(figure, "Weighted sum n = w₁x₁ + w₂x₂ + b")).to_have_value("")
