"""Tests of the three graph figures' models (x_times_x, backprop_graph, paths_add_up) under CPython.

What it is: each figure is driven through its functions the way its buttons call them, and the
numbers it would show are checked against issue #5 and against the engine's own backward().
What it is not: a test of the drawing (tests/site/test_figures.py does that in Chromium).
"""
import json

import pytest
from tinygrad import Value

from tutor.figures import backprop_graph, graph_trace, paths_add_up, x_times_x
from tutor.figures.display import number_text


def node(state, symbol):
    return next(item for item in state["graph"]["nodes"] if item["symbol"] == symbol)


def run_to_the_end(model):
    state = model.seed_gradient(model.initial())
    states = [state]
    while state["can_step"]:
        state = model.backpropagate_one_operation(state)
        states.append(state)
    return states


def test_x_times_x_traces_both_operands_of_the_multiplication():
    state = x_times_x.initial()
    assert [n["symbol"] for n in state["graph"]["nodes"]] == ["x"] and not state["can_seed"]
    state = x_times_x.evaluate(state)
    assert node(state, "q")["data_text"] == "25"
    assert [edge["local_text"] for edge in state["graph"]["edges"]] == ["5", "5"]
    state = x_times_x.seed_output_gradient(state)
    assert "dq/dq = 1" in " ".join(state["messages"])
    assert node(state, "q")["grad_text"] == "1" and node(state, "x")["grad_text"] is None
    state = x_times_x.follow_next_operand(state)
    assert node(state, "x")["grad_text"] == "5" and state["can_follow"]
    assert state["graph"]["edges"][0]["contribution_text"] == "5"
    state = x_times_x.follow_next_operand(state)
    assert node(state, "x")["grad_text"] == "10" and node(state, "x")["contributions"] == ["5", "5"]
    assert not state["can_follow"]
    assert "dq/dx = 10" in " ".join(state["messages"])


def test_x_times_x_refuses_steps_out_of_order():
    with pytest.raises(ValueError, match="Evaluate x × x first"):
        x_times_x.seed_output_gradient(x_times_x.initial())
    with pytest.raises(ValueError, match="Seed the output gradient first"):
        x_times_x.follow_next_operand(x_times_x.evaluate(x_times_x.initial()))
    with pytest.raises(ValueError, match="state must be the dictionary this figure returned last"):
        backprop_graph.backpropagate_one_operation({"graph": None})


def test_backprop_graph_has_one_box_per_engine_value_and_its_real_edges():
    state = backprop_graph.initial()
    loss, _ = backprop_graph.build()
    assert len(state["graph"]["nodes"]) == len(loss.topological_order()) == 8
    assert len(state["graph"]["edges"]) == sum(len(value.edges) for value in loss.topological_order()) == 7
    assert node(state, "L")["data_text"] == "9"
    assert all(n["grad_text"] is None for n in state["graph"]["nodes"])


def test_backprop_graph_steps_one_operation_at_a_time_to_the_gradients():
    states = run_to_the_end(backprop_graph)
    assert "dL/dL = 1" in states[0]["messages"][0]
    assert len(states) - 1 == 4  # four operations: square, subtraction, addition, multiplication
    assert node(states[1], "e")["grad_text"] == "−6" and node(states[1], "w")["grad_text"] is None
    final = states[-1]
    shown = {n["symbol"]: n["grad_text"] for n in final["graph"]["nodes"]}
    assert shown == {"w": "−12", "b": "−6", "x": "−6", "y": "6", "w·x": "−6", "ŷ": "−6", "e": "−6", "L": "1"}
    with pytest.raises(ValueError, match="complete"):
        backprop_graph.backpropagate_one_operation(final)


def test_backprop_graph_ends_with_the_gradients_of_the_engines_backward():
    loss, names = backprop_graph.build()
    loss.backward()
    expected = {names[value][0]: value.grad for value in loss.topological_order()}
    final = run_to_the_end(backprop_graph)[-1]
    for item in final["graph"]["nodes"]:
        assert item["grad_text"] == number_text(expected[item["symbol"]])


def test_paths_add_up_shows_three_contributions_adding_to_seven():
    final = run_to_the_end(paths_add_up)[-1]
    a = node(final, "a")
    assert sorted(a["contributions"]) == ["1", "3", "3"] and a["grad_text"] == "7"
    assert "1 + 3 + 3 = 7" in final["messages"][-1]
    value = Value(3)
    q = value * value + value
    q.backward()
    assert number_text(value.grad) == a["grad_text"]


@pytest.mark.parametrize("model", [x_times_x, backprop_graph, paths_add_up])
def test_graph_states_survive_a_json_round_trip(model):
    state = json.loads(json.dumps(model.initial()))
    if model is x_times_x:
        state = x_times_x.follow_next_operand(x_times_x.seed_output_gradient(x_times_x.evaluate(state)))
    else:
        state = model.backpropagate_one_operation(model.seed_gradient(state))
    assert json.loads(json.dumps(state)) == state


def test_trace_rejects_an_impossible_step_count():
    loss, names = backprop_graph.build()
    with pytest.raises(ValueError, match="edges_done"):
        graph_trace.trace(loss, names, seeded=True, edges_done=99)


def test_the_value_passing_its_gradient_and_its_edges_are_marked_active():
    state = backprop_graph.seed_gradient(backprop_graph.initial())

    def active(graph):
        return ([node["symbol"] for node in graph["nodes"] if node["is_active"]],
                [(graph["nodes"][e["parent"]]["symbol"], graph["nodes"][e["child"]]["symbol"])
                 for e in graph["edges"] if e["active"]])

    assert active(state["graph"]) == (["L"], [])  # seeded: the root, no edge followed yet
    state = backprop_graph.backpropagate_one_operation(state)
    assert active(state["graph"]) == (["L"], [("e", "L")])
    state = backprop_graph.backpropagate_one_operation(state)
    assert active(state["graph"]) == (["e"], [("ŷ", "e"), ("y", "e")])
    assert active(backprop_graph.initial()["graph"]) == ([], [])
