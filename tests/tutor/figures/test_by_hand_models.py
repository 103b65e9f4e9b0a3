"""Tests of the two figures in which the reader does the arithmetic (issue #28): "Backpropagate by hand"
and "A neuron by hand", under CPython.

What it is: every expected number is computed here with the engine (backward() on the same graph, the
neuron's data and grads), and every feedback branch of both models is reached with an entry computed
from the engine's numbers for that slip (one path of three, the local derivative left out, the other
operand's derivative, the sign, t² instead of 1 − t², ...). An entry is sent as the page sends it, its text
and the number the page read from it; a wrong one keeps every entry before it and is shown back as typed; a
reader who rounds and carries their own numbers on through the neuron (n = 0.69 to the end) is right at every
field, and "close" says only what is true of the entry; a state goes through JSON as the page sends it; the
view calls only what PAGE_CALLS names.
What it is not: a test of the pages (tests/site/test_by_hand.py drives them in Chromium) or of reading typed
text (the page's readNumber, tests/article/test_predictions.py).
"""
import json
import math
import re
from pathlib import Path

import pytest
from tinygrad import Value

from tutor.figures import backprop_by_hand, backprop_graph, neuron_by_hand
from tutor.figures.display import number_text

VIEWS = Path(backprop_by_hand.__file__).parent


def round_trip(state):
    return json.loads(json.dumps(state, allow_nan=False))


def check(model, state, box, text):
    """model.check_entry as the page calls it: with the state through JSON, the text as typed and the number
    the page read from it (these texts are plain decimals, with either minus sign)."""
    return model.check_entry(round_trip(state), box, text, float(text.replace("−", "-")))


def engine_gradients(build):
    root, names = build()
    root.backward()
    return {symbol: value.grad for value, (symbol, _) in names.items()}


# ---- Backpropagate by hand -------------------------------------------------------------------------

def fill(state, entries, model=backprop_by_hand):
    """Check each (box, text) in turn, the way the page sends them; the last state."""
    for box, text in entries:
        state = check(model, state, box, text)
    return state


def right_up_to(symbol, choice="loss"):
    """The state with every box before `symbol` filled in rightly (from the engine's backward())."""
    build = backprop_by_hand.GRAPHS[choice][1]
    gradients = engine_gradients(build)
    state = backprop_by_hand.initial() if choice == "loss" else backprop_by_hand.choose_graph(backprop_by_hand.initial(), choice)
    for box in backprop_by_hand.Graph(choice).boxes:
        if box["key"] == symbol:
            return state
        state = check(backprop_by_hand, state, box["key"], number_text(gradients[box["key"]]))
    return state


def test_the_boxes_open_from_the_output_back_one_at_a_time():
    state = backprop_by_hand.initial()
    form = state["forms"]["loss"]
    assert [row["key"] for row in form] == ["L", "e", "ŷ", "y", "w·x", "b", "w", "x"]
    assert [row["label"] for row in form][:2] == ["Gradient of L", "Gradient of e"]
    assert [row["open"] for row in form] == [True] + [False] * 7
    assert [row["key"] for row in state["forms"]["paths"]] == ["q", "a·a", "a"]
    assert state["right_text"] == "0 of 8" and not state["finished"] and state["engine_graph"] is None
    assert all(node["grad_text"] is None for node in state["graph"]["nodes"])
    assert [node["symbol"] for node in state["graph"]["nodes"] if node["is_active"]] == ["L"]


@pytest.mark.parametrize("choice", ["loss", "paths"])
def test_right_entries_are_the_engines_gradients_and_backward_fills_the_same_graph(choice):
    gradients = engine_gradients(backprop_by_hand.GRAPHS[choice][1])
    state = right_up_to(None, choice)
    assert state["finished"] and state["right_text"] == f"{len(gradients)} of {len(gradients)}"
    shown = {node["symbol"]: node["grad_text"] for node in state["graph"]["nodes"]}
    assert shown == {symbol: number_text(gradient) for symbol, gradient in gradients.items()}
    assert {node["symbol"]: node["grad_text"] for node in state["engine_graph"]["nodes"]} == shown
    assert f"agrees with all {len(gradients)} of your gradients" in state["messages"][-1]
    assert [row["right"] for row in state["forms"][choice]] == [True] * len(gradients)


def test_a_right_entry_shows_how_the_chain_rule_builds_it_and_names_the_next_box():
    gradients = engine_gradients(backprop_graph.build)
    state = fill(right_up_to("w"), [("w", number_text(gradients["w"]))])
    assert state["messages"] == [f"Right: the gradient of w is {number_text(gradients['w·x'])} × 2 = {number_text(gradients['w'])}.",
                                 "Next: the gradient of x."]
    done = [edge for edge in state["graph"]["edges"] if edge["state"] == "done"]
    assert {edge["contribution_text"] for edge in done} >= {number_text(gradients["w"])}
    assert fill(right_up_to("a", "paths"), [("a", "7")])["messages"][0] == "Right: the gradient of a is 1 × 1 + 1 × 3 + 1 × 3 = 7."


def slip_message(symbol, number, choice="loss"):
    state = fill(right_up_to(symbol, choice), [(symbol, number_text(number))])
    assert state["warning"] and state["forms"][choice][[b["key"] for b in state["forms"][choice]].index(symbol)]["invalid"]
    return state["messages"][0]


def test_each_slip_in_the_loss_graph_names_the_rule_it_missed():
    g = engine_gradients(backprop_graph.build)
    values = {"e": -3}  # the error's value, e = ŷ − y = 2 − 5
    assert slip_message("L", 0).startswith("Not 0. The backward pass starts at L itself")
    # e = ... gets dL/dL times its local derivative 2e: without it, the seed passes on as it is
    assert "the local derivative is missing" in slip_message("e", g["L"])
    assert "That is the value of e, not its gradient" in slip_message("e", values["e"])
    assert "That is the local derivative alone" in slip_message("ŷ", 1)  # ŷ's edge into e carries × 1
    assert "the sign is not" in slip_message("y", -g["y"])
    assert "the local derivative is missing" in slip_message("w", g["w·x"])
    # x's edge into w·x carries w = 1; multiplying by the number on w's edge (x = 2) gives −12
    assert slip_message("x", g["w·x"] * 2) == ("That used × 2, the number on w's edge. The edge from x carries × 1 "
                                               "(the other operand, w = 1).")
    assert slip_message("w", g["w·x"] * 1) != slip_message("x", g["w·x"] * 2)  # × 1 on w is the local derivative left out
    assert slip_message("x", 5).startswith("Not 5. Each edge into x hands back the gradient of its result")


def test_a_wrong_entry_is_quoted_as_typed_not_rounded():
    """−6.0000001 was answered "Not −6." (six significant digits): a wrong entry is quoted with every digit it has."""
    state = fill(right_up_to("e"), [("e", "-6.0000001")])
    assert state["warning"] and state["messages"][0].startswith("Not −6.0000001.")
    assert fill(right_up_to("x"), [("x", "5")])["messages"][0].startswith("Not 5.")
    assert check(neuron_by_hand, neuron_by_hand.initial(), "n", "5.0000001")["messages"][0].startswith("Not 5.0000001.")


def test_each_field_repeats_the_numbers_on_its_boxs_edges():
    """On a phone the graph is far above the last fields: each field says what the graph writes on the edges out
    of its box, read from the engine's edges."""
    hints = {row["key"]: row["hint"] for row in backprop_by_hand.initial()["forms"]["loss"]}
    assert hints == {"L": "the output: start here", "e": "its edge to L: × −6", "ŷ": "its edge to e: × 1",
                     "y": "its edge to e: × −1", "w·x": "its edge to ŷ: × 1", "b": "its edge to ŷ: × 1",
                     "w": "its edge to w·x: × 2", "x": "its edge to w·x: × 1"}
    graph = backprop_by_hand.Graph("loss")
    for value, hint in zip(graph.filling, hints.values()):
        for child, _, local in graph.uses[value]:
            assert f"to {graph.symbol[child]}: " in hint and f"× {number_text(local)}" in hint
    paths = {row["key"]: row["hint"] for row in backprop_by_hand.initial()["forms"]["paths"]}
    assert paths["a"] == "its edges to q: × 1; to a·a: × 3, × 3"


def test_in_a_times_a_plus_a_every_partial_sum_of_the_three_paths_is_named():
    value = Value(3)
    q = value * value + value
    q.backward()
    through_product, through_sum = value.data, 1  # each operand of a·a hands back a = 3; the sum hands back 1
    assert value.grad == 2 * through_product + through_sum == 7
    assert "2 of the 3 paths into a: the one through q (1) is missing" in slip_message("a", 2 * through_product, "paths")
    assert ("1 of the 3 paths into a: the one through a·a's left operand (3) and the one through a·a's right operand (3) "
            "are missing") in slip_message("a", through_sum, "paths")
    assert "1 of the 3 paths into a" in slip_message("a", through_product, "paths")
    assert "2 of the 3 paths into a" in slip_message("a", through_product + through_sum, "paths")
    assert "the sign is not" in slip_message("a", -value.grad, "paths")
    assert slip_message("a", 2, "paths").startswith("Not 2. Each edge into a hands back")


def test_a_wrong_entry_keeps_what_was_entered_and_is_shown_back_as_typed():
    state = right_up_to("ŷ")
    before = state["entries"]["loss"]
    for text in ["2.50", "−3", "1e2"]:
        state = fill(state, [("ŷ", text)])
        assert state["warning"] and {key: state["entries"]["loss"][key] for key in before} == before
        assert state["entries"]["loss"]["ŷ"] == {"text": text, "number": float(text.replace("−", "-"))}
        assert state["forms"]["loss"][2]["text"] == text and state["forms"]["loss"][2]["invalid"]
        assert state["right_text"] == "2 of 8"


def test_the_model_takes_numbers_only_the_page_reads_text():
    """Text that is not a number gets its sentence in the page (readNumber) and never reaches the model: an
    entry without a finite number, or without its text, is a programming error."""
    for model, box in ((backprop_by_hand, "L"), (neuron_by_hand, "n")):
        state = model.initial()
        for number in (None, "1", True, float("inf"), float("nan")):
            with pytest.raises(ValueError, match="the entry's number must be a (finite )?number"):
                model.check_entry(state, box, "1", number)
        with pytest.raises(ValueError, match="the entry's text must be the text of the field"):
            model.check_entry(state, box, 1, 1)
        forged = round_trip(state)
        forged["entries"] = {"loss": {"L": "1"}, "paths": {}} if model is backprop_by_hand else {"n": "1"}
        with pytest.raises(ValueError, match="must map each field to the text typed into it and its number"):
            model.check_entry(forged, box, "1", 1)


def test_only_the_open_box_can_be_checked_and_locked_entries_are_dropped():
    state = backprop_by_hand.initial()
    with pytest.raises(ValueError, match="not the open one: fill in Gradient of L first"):
        backprop_by_hand.check_entry(state, "e", "-6", -6)
    with pytest.raises(ValueError, match="no field 'z'"):
        backprop_by_hand.check_entry(state, "z", "1", 1)
    forged = round_trip(state)
    forged["entries"]["loss"] = {"L": {"text": "5", "number": 5}, "e": {"text": "-6", "number": -6}}  # e is locked while L is wrong
    assert backprop_by_hand.check_entry(forged, "L", "5", 5)["entries"]["loss"] == {"L": {"text": "5", "number": 5}}
    forged["entries"]["loss"] = {"nonsense": {"text": "1", "number": 1}}
    with pytest.raises(ValueError, match="does not have: nonsense"):
        backprop_by_hand.check_entry(forged, "L", "1", 1)
    with pytest.raises(ValueError, match="graph must be one of"):
        backprop_by_hand.choose_graph(state, "other")


def test_switching_graphs_and_starting_again_keep_the_other_graphs_entries():
    state = right_up_to("w·x")
    state = backprop_by_hand.choose_graph(round_trip(state), "paths")
    state = fill(state, [("q", "1")])
    state = backprop_by_hand.choose_graph(round_trip(state), "loss")
    assert state["right_text"] == "4 of 8" and state["messages"] == ["Next: the gradient of w·x."]
    state = backprop_by_hand.start_again(round_trip(state))
    assert state["entries"] == {"loss": {}, "paths": {"q": {"text": "1", "number": 1}}} and state["right_text"] == "0 of 8"


def test_an_engine_whose_backward_differs_is_named_box_by_box():
    graph = backprop_by_hand.Graph("paths")
    lossy = {"q": 1.0, "a·a": 1.0, "a": 3.0}  # an engine with = instead of += keeps one path of a
    assert backprop_by_hand.comparison(graph, lossy) == (
        "Every box is filled. The engine's backward() filled the same graph (drawn above) but differs in 1 box: a (3 instead "
        "of 7). The engine in use does not follow the chain rule there.")


# ---- A neuron by hand ----------------------------------------------------------------------------

def engine_neuron():
    """The neuron the chapter describes, built and differentiated by the engine here."""
    w1, w2, b = Value(-1), Value(1), Value(math.log(2) - 1)
    n = w1 * 2 + w2 * 3 + b
    t = n.tanh()
    t.backward()
    return {"n": n.data, "t": t.data, "local": 1 - t.data ** 2, "w1": w1.grad, "w2": w2.grad, "b": b.grad}


def test_the_neurons_numbers_are_readable_and_the_engines():
    numbers = engine_neuron()
    for key in ("t", "local", "w1", "w2", "b"):  # everything after the activation has two decimals or fewer
        assert numbers[key] == pytest.approx(round(numbers[key], 2), abs=1e-12), key
    assert (round(numbers["t"], 2), round(numbers["local"], 2)) == (0.6, 0.64)
    assert numbers["n"] == pytest.approx(math.log(2))
    expected = neuron_by_hand.expected_numbers(neuron_by_hand.build())
    assert expected == pytest.approx(numbers)
    state = neuron_by_hand.initial()
    assert [row["key"] for row in state["form"]] == ["n", "t", "local", "w1", "w2", "b"]
    # the chapter calls n the weighted sum and never defines "activation"
    assert state["form"][0]["label"] == "Weighted sum n = w₁x₁ + w₂x₂ + b"
    assert state["inputs"] == [["x₁", "2"], ["x₂", "3"], ["w₁", "−1"], ["w₂", "1"], ["b", number_text(math.log(2) - 1)]]


def neuron_up_to(key):
    numbers = engine_neuron()
    state = neuron_by_hand.initial()
    for row in neuron_by_hand.FIELDS:
        if row[0] == key:
            return state
        state = check(neuron_by_hand, state, row[0], number_text(numbers[row[0]]))
    return state


def neuron_slip(key, number):
    state = check(neuron_by_hand, neuron_up_to(key), key, number_text(number))
    assert state["warning"]
    return state["messages"][0]


def test_every_slip_of_the_neuron_is_named():
    v = engine_neuron()
    products = -1 * 2 + 1 * 3
    assert neuron_slip("n", products).startswith("That is w₁·x₁ + w₂·x₂ without the bias")
    assert neuron_slip("n", v["n"] - 3).startswith("One of the two products is missing")
    assert neuron_slip("n", v["n"] + 0.01) == ("Close, but 0.703147 is off by more than rounding explains. Work it out "
                                               "again from the inputs: n = w₁·x₁ + w₂·x₂ + b.")
    assert neuron_slip("n", 5).startswith("Not 5. Multiply each input by its weight")
    assert neuron_slip("t", v["n"]).startswith("That is n itself")
    assert neuron_slip("t", 0.1).startswith("Not 0.1. t = tanh(n) = tanh(0.693147)")
    assert neuron_slip("local", v["t"] ** 2).startswith("That is t².")
    assert neuron_slip("local", 1 - v["t"]).startswith("Square t first")
    assert neuron_slip("local", 1 - v["n"] ** 2).startswith("Use t, the output of tanh, not n")
    assert neuron_slip("local", 0.9).startswith("Not 0.9. tanh's local derivative comes from its output")
    assert neuron_slip("w1", v["local"]).startswith("That is how much t moves when n moves. n moves by x₁ = 2")
    assert neuron_slip("w1", v["local"] * -1).startswith("That multiplies by the weight")
    assert neuron_slip("w1", 2).startswith("That leaves tanh out")
    assert neuron_slip("w1", v["t"] * 2).startswith("That multiplies by t.")
    assert neuron_slip("w1", 7).startswith("Not 7. Chain the two local derivatives")
    assert neuron_slip("w1", -v["w1"]) == "The sign is lost: 1 − t² = 0.64 times x₁ = 2 is 1.28."
    assert neuron_slip("w2", -v["w2"]) == "The sign is lost: 1 − t² = 0.64 times x₂ = 3 is 1.92."
    assert neuron_slip("b", -v["b"]) == "The sign is lost: 1 − t² = 0.64 times the sum's 1 is 0.64."
    assert neuron_slip("w1", v["w2"]).startswith("That multiplies by x₂ = 3, the other input. w₁ multiplies x₁")  # inputs swapped
    assert neuron_slip("w2", v["w1"]).startswith("That multiplies by x₁ = 2, the other input. w₂ multiplies x₂")
    assert neuron_slip("w2", v["local"]).startswith("That is how much t moves when n moves. n moves by x₂ = 3")
    assert neuron_slip("b", 1).startswith("That leaves tanh out")
    assert neuron_slip("b", v["t"]).startswith("That multiplies by t.")
    assert neuron_slip("b", 3).startswith("Not 3. b enters n with local derivative 1")


def test_two_decimals_are_right_and_the_engine_column_comes_at_the_end():
    numbers = engine_neuron()
    state = check(neuron_by_hand, neuron_by_hand.initial(), "n", "0.69")  # ln 2 to two decimals
    assert state["messages"][0].startswith("Right: n = (−1)·2 + 1·3 + (−0.306853) = 0.693147")
    assert state["engine"] is None and state["open"] == "t"
    state = neuron_up_to(None)
    assert state["finished"] and state["engine"] == {key: number_text(value) for key, value in numbers.items()}
    assert state["messages"][-1].endswith("the same numbers as yours, to two decimals.")
    assert state["shown"]["w2"] == "1.92" and state["right_text"] == "6 of 6"


def tanh_of(number):
    return Value(number).tanh().data


# What a reader computes in each field from their own number in the field before it (n from the inputs).
READERS_STEPS = [("n", None), ("t", ("n", tanh_of)), ("local", ("t", lambda t: 1 - t * t)),
                 ("w1", ("local", lambda local: local * 2)), ("w2", ("local", lambda local: local * 3)),
                 ("b", ("local", lambda local: local))]


def carried_entries(n_text, decimals, from_typed):
    """The texts a reader types who starts from n = `n_text` and carries their own numbers on: each field
    from the number before it, rounded to `decimals[i]` decimals, working from what they typed before
    (`from_typed`) or from the full number their calculator still holds."""
    typed, held, texts = {"n": float(n_text)}, {"n": float(n_text)}, [("n", n_text)]
    for (key, (source, step)), places in zip(READERS_STEPS[1:], decimals):
        held[key] = step(typed[source] if from_typed else held[source])
        texts.append((key, f"{held[key]:.{places}f}"))
        typed[key] = float(texts[-1][1])
    return texts


def test_a_reader_who_carries_n_0_69_to_the_end_is_right_at_every_field():
    """The case that was refused: n = 0.69, then t = 0.5980, 1 − t² = 0.6424, ∂t/∂w₁ = 1.2848, and ∂t/∂w₂ =
    1.9273 (three times 1 − tanh(0.69)², carried in the calculator), which is 0.0073 from the exact 1.92."""
    entries = carried_entries("0.69", [4] * 5, from_typed=True)
    assert entries[:4] == [("n", "0.69"), ("t", "0.5980"), ("local", "0.6424"), ("w1", "1.2848")]
    carried_w2 = f"{3 * (1 - tanh_of(0.69) ** 2):.4f}"
    assert carried_w2 == "1.9273" and abs(float(carried_w2) - engine_neuron()["w2"]) > 0.005
    entries[4] = ("w2", carried_w2)
    state = neuron_by_hand.initial()
    for box, text in entries:
        state = check(neuron_by_hand, state, box, text)
        assert not state["warning"] and state["messages"][0].startswith("Right"), (box, text, state["messages"])
    assert state["finished"] and state["right_text"] == "6 of 6"
    state = fill(neuron_by_hand.initial(), entries[:4], neuron_by_hand)
    said = check(neuron_by_hand, state, "w2", carried_w2)["messages"][0]
    assert said == ("Right: (1 − t²) · x₂ = 0.64 · 3 = 1.92. Your 1.9273 is what your own 1 − t² = 0.6424 gives: "
                    "rounding carried on.")


def test_rounding_is_allowed_once_not_on_top_of_the_rounding_before():
    """n = 0.69 gives t = tanh(0.69) = 0.598, which is 0.60 to two decimals: 0.59 is not what the reader's own
    n gives (it was taken once as right by rounding n = 0.69 to anything from 0.685 and then again t)."""
    assert f"{tanh_of(0.69):.3f}" == "0.598" and abs(0.59 - tanh_of(0.69)) > neuron_by_hand.ROUNDING
    state = check(neuron_by_hand, neuron_by_hand.initial(), "n", "0.69")
    said = check(neuron_by_hand, state, "t", "0.59")
    assert said["warning"] and said["open"] == "t"
    assert said["messages"][0] == "Close, but 0.59 is off by more than rounding explains. Work it out again from your n = 0.69."
    for text in ("0.60", "0.598", "0.5980", "0.6"):
        assert not check(neuron_by_hand, state, "t", text)["warning"], text
    # 1 − t² from the reader's t = 0.60 is 0.64, from their calculator's 0.598 it is 0.6424: both are right,
    # 0.6424 + 0.0075 (two roundings stacked) is not.
    state = check(neuron_by_hand, state, "t", "0.60")
    for text, right in (("0.64", True), ("0.6424", True), ("0.645", True), ("0.6499", False)):
        assert check(neuron_by_hand, state, "local", text)["warning"] is not right, text


def test_the_last_message_names_where_the_readers_numbers_differ_from_the_engines():
    entries = carried_entries("0.69", [4] * 5, from_typed=True)
    entries[4] = ("w2", f"{3 * (1 - tanh_of(0.69) ** 2):.4f}")
    state = fill(neuron_by_hand.initial(), entries, neuron_by_hand)
    assert state["finished"] and "the same numbers." not in state["messages"][-1]
    apart = [f"{name} (your {text}, the engine's {number_text(engine_neuron()[key])})"
             for (key, text), name in zip(entries, ["n", "t", "1 − t²", "the gradient of w₁", "the gradient of w₂",
                                                    "the gradient of b"])
             if abs(float(text) - engine_neuron()[key]) > neuron_by_hand.ROUNDING]
    assert apart == ["the gradient of w₂ (your 1.9273, the engine's 1.92)"]
    assert state["messages"][-1].endswith("the same numbers as yours, to two decimals, except " + apart[0]
                                          + ": there the rounding you carried on from field to field added up to more than 0.005.")


@pytest.mark.parametrize("n_text", ["0.69", "0.693", "0.6931", "0.693147"])
@pytest.mark.parametrize("from_typed", [True, False])
def test_every_honest_rounding_carried_on_is_right(n_text, from_typed):
    """Any number of decimals from two up, at each field, from what was typed or from the calculator."""
    for decimals in [(2,) * 5, (3,) * 5, (4,) * 5, (6,) * 5, (2, 4, 2, 4, 2), (4, 2, 4, 2, 4), (2, 2, 4, 4, 6)]:
        state = neuron_by_hand.initial()
        for box, text in carried_entries(n_text, decimals, from_typed):
            state = check(neuron_by_hand, state, box, text)
            assert not state["warning"], (n_text, decimals, box, text, state["messages"])
        assert state["finished"]


def test_close_says_only_what_is_true_of_the_entry():
    """An entry rounding cannot explain is sent back to the reader's own number before it; the advice to keep
    two decimals goes only to an entry with fewer."""
    state = fill(neuron_by_hand.initial(), carried_entries("0.69", [4] * 5, from_typed=True)[:4], neuron_by_hand)
    exact = engine_neuron()
    near = f"{exact['w2'] + 0.03:.4f}"
    said = check(neuron_by_hand, state, "w2", near)["messages"][0]
    assert said == (f"Close, but {near.rstrip('0')} is off by more than rounding explains. Work it out again from your "
                    "1 − t² = 0.6424.")
    said = check(neuron_by_hand, state, "w2", "1.9")["messages"][0]
    assert said.endswith("Work it out again from your 1 − t² = 0.6424, and keep at least two decimals.")
    # A slip is named from the reader's own numbers too: t · x₂ with their t = 0.598 is 1.794, not 1.8.
    said = check(neuron_by_hand, state, "w2", f"{0.598 * 3:.4f}")["messages"][0]
    assert said == "That multiplies by t. The local derivative of tanh is 1 − t², not t."


def test_a_wrong_neuron_entry_keeps_every_entry_and_starting_again_clears_them():
    state = neuron_up_to("local")
    for text in ["0.9", "−0.64", "0.640000"]:
        state = check(neuron_by_hand, state, "local", text)
        assert state["warning"] != (text == "0.640000") and state["right_text"] == ("3 of 6" if text == "0.640000" else "2 of 6")
    assert {key: entry["text"] for key, entry in state["entries"].items()} == {"n": "0.693147", "t": "0.6", "local": "0.640000"}
    assert state["form"][2]["text"] == "0.640000"  # as typed, not as the model writes 0.64
    assert neuron_by_hand.start_again(state)["entries"] == {}


# ---- The page's calls --------------------------------------------------------------------------

@pytest.mark.parametrize("model", [backprop_by_hand, neuron_by_hand])
def test_the_view_calls_exactly_the_functions_page_calls_names(model):
    view = (VIEWS / f"{Path(model.__file__).stem}.mjs").read_text(encoding="utf-8")
    called = {name for name in re.findall(r'"([a-z_]+)"', view) if callable(getattr(model, name, None))}
    assert called | {"initial"} == set(model.PAGE_CALLS)
    assert all(callable(getattr(model, name)) for name in model.PAGE_CALLS)
