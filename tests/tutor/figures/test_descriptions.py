"""test_descriptions.py: each figure's state says in its `description` the numbers its picture shows.

What it is: for every figure (and a graph show() draws), a state after a reader's first moves, and the texts of
that same state the view draws (values, gradients, steps, losses), each required in the description: the one
sentence screen readers get (figure.mjs's draw() puts it on the page; test_training_figures reads it there).
What it is not: the wording of the descriptions, or the numbers' arithmetic (the other model tests).
"""
import json
from pathlib import Path

import pytest
from tinygrad import Value

from tutor.figures import (backprop_by_hand, backprop_graph, expression_graph, gradient_cost, line_fit, loss_experiment,
                           loss_landscape, mystery_curve, neuron_by_hand, paths_add_up, secant_tangent, training_loop,
                           x_times_x, xor_gradients, xor_surface)
from tutor.figures.display import number_text


def round_trip(state):
    return json.loads(json.dumps(state, allow_nan=False))


def graph_numbers(graph):
    """Every box's value (and gradient, once reached), and how many edges the backward pass followed."""
    done = sum(edge["state"] == "done" for edge in graph["edges"])
    return [f"is {node['data_text']}" + ("" if node["grad_text"] is None else f" with gradient {node['grad_text']}")
            for node in graph["nodes"]] + ([f"{done} of {len(graph['edges'])} edges"] if graph["seeded"] else [])


def stepped(model, *calls):
    state = model.initial()
    for call in calls:
        state = getattr(model, call)(round_trip(state))
    return state


def filled_by_hand():
    """Backpropagate by hand with every box filled right, so the engine's graph is drawn below the reader's."""
    root, names = backprop_graph.build()
    root.backward()
    gradients = {symbol: value.grad for value, (symbol, _) in names.items()}
    state = backprop_by_hand.initial()
    while not state["finished"]:
        box = next(row["key"] for row in state["forms"][state["choice"]] if row["open"])
        state = backprop_by_hand.check_entry(round_trip(state), box, number_text(gradients[box]), gradients[box])
    return state


def filled_neuron():
    """A neuron by hand with its first two numbers (n, then t) filled right."""
    expected = neuron_by_hand.expected_numbers(neuron_by_hand.build())
    state = neuron_by_hand.initial()
    for box in ("n", "t"):
        state = neuron_by_hand.check_entry(round_trip(state), box, number_text(expected[box]), expected[box])
    return state


def shown_graph():
    a = Value(3.0)
    b = a * a + a
    return expression_graph.picture(b, {"a": a, "b": b})["figure"]["states"][-1]


FIGURES = {  # name: (a state after some moves, the texts of it the picture shows)
    "backprop_graph": (lambda: stepped(backprop_graph, "seed_gradient", "backpropagate_one_operation"),
                       lambda state: graph_numbers(state["graph"])),
    "paths_add_up": (lambda: stepped(paths_add_up, "seed_gradient", "backpropagate_one_operation"),
                     lambda state: graph_numbers(state["graph"])),
    "x_times_x": (lambda: stepped(x_times_x, "evaluate", "seed_output_gradient", "follow_next_operand"),
                  lambda state: graph_numbers(state["graph"])),
    "show()": (shown_graph, lambda state: graph_numbers(state["graph"])),
    "backprop_by_hand": (filled_by_hand, lambda state: graph_numbers(state["graph"]) + graph_numbers(state["engine_graph"])),
    "neuron_by_hand": (filled_neuron,
                       lambda state: [f"{name} = {text}" for name, text in state["inputs"]]
                       + [f"{row['label']} = {state['shown'][row['key']]}" for row in state["form"] if row["right"]]),
    "line_fit": (lambda: line_fit.step(line_fit.initial(), 3),
                 lambda state: [state[key] for key in ("steps_text", "learning_rate_text", "w_text", "b_text", "loss_text")]),
    "loss_landscape": (lambda: loss_landscape.step(round_trip(loss_landscape.initial()), 3),
                       lambda state: [state[key] for key in ("steps_text", "learning_rate_text", "start_w_text", "start_b_text",
                                                             "w_text", "b_text", "loss_text")]),
    "loss_experiment": (lambda: stepped(loss_experiment, "take_one_step"),
                        lambda state: [state["loss_names"][state["loss_kind"]]]
                        + [state[key] for key in ("w_text", "prediction_text", "loss_text", "weight_gradient_text")]),
    "mystery_curve": (lambda: mystery_curve.move_point(mystery_curve.initial(), 1.25),
                      lambda state: [state[key] for key in ("x_text", "value_text", "slope_text")]
                      + [f"{len(state['asked_points'])} points"]),
    "secant_tangent": (lambda: secant_tangent.change(secant_tangent.initial(), x=1.5),
                       lambda state: [state[key] for key in ("x_text", "h_text", "secant_slope_text", "tangent_slope_text",
                                                             "difference_text")]),
    "gradient_cost": (gradient_cost.initial,
                      lambda state: [state[key] for key in ("parameters_text", "reverse_text", "forward_mode_text", "finite_text")]),
    "training_loop": (lambda: stepped(training_loop, "next_pass"),
                      lambda state: [state["pass_text"]] + [line for box in state["boxes"] for line in box["lines"]]),
    "xor_gradients": (xor_gradients.initial,
                      lambda state: [state[key] for key in ("count_text", "steps_text", "loss_text", "largest_gap_text")]
                      + [max(state["bars"], key=lambda bar: abs(bar["backward"]))["backward_text"]]),
    "xor_surface": (lambda: stepped(xor_surface, "train_steps"),
                    lambda state: [f"seed {state['seed']}", f"{state['steps_text']} steps", state["loss_text"],
                                   *state["prediction_texts"]]),
}


@pytest.mark.parametrize("name", FIGURES)
def test_the_description_names_every_number_the_picture_shows(name):
    make_state, shown = FIGURES[name]
    state = make_state()
    missing = [text for text in shown(state) if text not in state["description"]]
    assert not missing, f"{name}'s description {state['description']!r} leaves out {missing}"


def test_every_figure_view_has_its_model_described_here():
    views = {path.stem for path in Path(backprop_graph.__file__).parent.glob("*.mjs")}
    assert views and views <= set(FIGURES)
