"""Tests of the four training figures' models under CPython: loss landscape, XOR surface, all 17
gradients, and the cost of a gradient.

What it is: each model driven as its controls drive it and compared with the engine's own
train_line and train_xor, with backward() (the central differences), with operation counts
read off the graph independently, and with the behaviour the chapter states (0.05 converges, 0.3
overshoots outward; 4 hidden neurons with seed 42 learn, 2 with seed 7 stall on a plateau).
What it is not: a test of the drawing (tests/site/test_figures.py does that in Chromium).
"""
import json
import math

import pytest
from tinygrad import MLP, Value, train_line, train_xor

from tutor.figures import gradient_cost, line_fit, loss_landscape, xor_gradients, xor_surface
from tutor.figures.graph_trace import values_in_order


def round_trip(state):
    """The state as the browser sends it back: through JSON."""
    return json.loads(json.dumps(state, allow_nan=False))


# ---- Loss landscape --------------------------------------------------------------------------

def test_landscape_is_the_line_fit_state_plus_a_grid_computed_once():
    state = loss_landscape.initial()
    fit = {key: value for key, value in line_fit.initial().items() if key != "description"}  # the landscape has its own
    assert {key: state[key] for key in fit} == fit
    ws, bs = loss_landscape.grid_axis(loss_landscape.W_RANGE), loss_landscape.grid_axis(loss_landscape.B_RANGE)
    assert len(state["grid"]) == len(bs) and all(len(row) == len(ws) for row in state["grid"])
    for row, col in ((0, 0), (7, 30), (40, 40)):
        assert state["grid"][row][col] == pytest.approx(line_fit.loss_at(ws[col], bs[row]))
    after = loss_landscape.step(round_trip(state), 1)
    assert "grid" not in after  # later states leave the grid out; the view keeps the first one
    assert "grid" not in loss_landscape.set_learning_rate(after, 0.1)


def level_crossings(grid, level, cell_pixels):
    """Where the level line of `level` crosses each edge between two neighbouring grid values, as d3-contour's
    linear interpolation places it: {(edge): pixels from its first end}. Edges run along rows and columns."""
    crossings = {}
    for direction, pixels in (("row", cell_pixels[0]), ("column", cell_pixels[1])):
        for i in range(len(grid)):
            for j in range(len(grid) - 1):
                a, b = (grid[i][j], grid[i][j + 1]) if direction == "row" else (grid[j][i], grid[j + 1][i])
                if (a >= level) != (b >= level):
                    crossings[(direction, i, j)] = (level - a) / (b - a) * pixels
    return crossings


def test_the_embedded_grid_is_rounded_without_moving_a_level_line():
    """Issue 31: the page embedded 112.14000000000001; the rounded grid draws the same level lines, to well
    under the 0.1 px the view writes (a landscape cell is 6.4 × 6 px: BOX 256 × 240 over 40 cells)."""
    state = loss_landscape.initial()
    ws, bs = loss_landscape.grid_axis(loss_landscape.W_RANGE), loss_landscape.grid_axis(loss_landscape.B_RANGE)
    exact = [[line_fit.mean_squared_error(Value(w), Value(b)).data for w in ws] for b in bs]
    assert any(len(repr(value)) > 12 for row in exact for value in row)  # float noise such as 112.14000000000001
    text = json.dumps(state["grid"])
    assert all(len(number.strip("-").replace(".", "").lstrip("0")) <= loss_landscape.GRID_DIGITS
               for number in text.replace("[", "").replace("]", "").split(", "))
    assert len(text) < 0.45 * len(json.dumps(exact))
    cell = (256 / (loss_landscape.GRID_SIZE - 1), 240 / (loss_landscape.GRID_SIZE - 1))
    crossed = 0
    for level in loss_landscape.LEVELS:
        drawn, true = level_crossings(state["grid"], level, cell), level_crossings(exact, level, cell)
        assert drawn.keys() == true.keys()  # the same edges crossed, for every level
        assert max((abs(drawn[edge] - true[edge]) for edge in true), default=0) < 0.01
        crossed += len(true)
    assert crossed > 500  # the ten levels that cross the plotted area


def test_the_line_figures_run_the_engines_gradient_step(monkeypatch):
    """Each step is one pass of train_line's loop: the loss, backward() and the engine's gradient_step (here
    replaced by one that records its call and moves the other way, as an edited engine might)."""
    import tinygrad
    calls = []

    def uphill(parameters, learning_rate):
        calls.append((len(parameters), learning_rate))
        for parameter in parameters:
            parameter.data = parameter.data + learning_rate * parameter.grad
    monkeypatch.setattr(line_fit, "gradient_step", uphill)
    state = line_fit.step(line_fit.initial())
    assert calls == [(2, 0.05)]
    w, b = Value(-1), Value(0)
    line_fit.mean_squared_error(w, b).backward()
    assert (state["w"], state["b"]) == (-1 + 0.05 * w.grad, 0 + 0.05 * b.grad)
    landscape = loss_landscape.initial()
    assert landscape["next_point"] == [-1 + 0.05 * w.grad, 0 + 0.05 * b.grad]  # the arrow shows the same step
    monkeypatch.undo()
    assert line_fit.gradient_step is tinygrad.gradient_step
    assert line_fit.step(line_fit.initial())["w"] == tinygrad.train_line(steps=1)[0]


@pytest.mark.parametrize("steps", [1, 100, 1000])
def test_landscape_steps_are_train_lines_steps(steps):
    state = loss_landscape.initial()
    while state["steps"] < steps:
        state = loss_landscape.step(round_trip(state), min(100, steps - state["steps"]))
    assert (state["w"], state["b"], state["history"][-1]) == train_line(steps=steps, learning_rate=0.05)
    assert state["path"][0] == [-1, 0] and state["path"][-1] == [state["w"], state["b"]]
    assert len(state["path"]) == steps + 1


def test_gradient_arrow_is_backward_at_the_current_point_and_leads_to_the_next_step():
    state = loss_landscape.step(loss_landscape.initial(), 3)
    w, b = Value(state["w"]), Value(state["b"])
    loss = sum((w * x + b - y) ** 2 for x, y in line_fit.POINTS) * (1 / 4)
    loss.backward()
    assert state["gradient"] == [w.grad, b.grad]
    after = loss_landscape.step(state, 1)
    assert state["next_point"] == [after["w"], after["b"]]


def distance_to_minimum(state):
    return math.hypot(state["w"] - 2, state["b"] - 1)


def test_learning_rate_point_zero_five_converges_to_the_minimum():
    state = loss_landscape.step(loss_landscape.initial(), 100)
    assert distance_to_minimum(state) < 0.02
    distances = [math.hypot(w - 2, b - 1) for w, b in state["path"]]
    assert all(later < earlier for earlier, later in zip(distances, distances[1:]))
    assert state["messages"] == [] and not state["outside"]


def test_learning_rate_point_three_overshoots_across_the_valley_further_each_time():
    state = loss_landscape.step(loss_landscape.set_learning_rate(loss_landscape.initial(), 0.3), 100)
    assert state["diverged_at"] is None and state["outside"]
    path = state["path"]
    distances = [math.hypot(w - 2, b - 1) for w, b in path]
    assert all(later > earlier for earlier, later in zip(distances[1:], distances[2:]))
    sides = [w - 2 > 0 for w, _ in path[1:]]  # every step lands on the other side of the minimum
    assert all(a != b for a, b in zip(sides, sides[1:]))
    assert any("left the plotted part" in message for message in state["messages"])


def test_start_point_chosen_by_the_reader_and_kept_by_reset():
    state = loss_landscape.set_start(loss_landscape.step(loss_landscape.initial(), 5), w=5, b=-2)
    assert (state["w"], state["b"], state["steps"], state["start"]) == (5, -2, 0, [5, -2])
    state = loss_landscape.set_start(state, b=4)  # one slider moves one coordinate
    assert state["start"] == [5, 4]
    stepped = loss_landscape.step(round_trip(state), 200)
    assert distance_to_minimum(stepped) < 0.01
    assert loss_landscape.reset(stepped)["start"] == [5, 4] and loss_landscape.reset(stepped)["steps"] == 0


@pytest.mark.parametrize("start", [{"w": 6.1}, {"w": -2.1}, {"b": 5.5}, {"b": -3.01}, {"w": math.nan}, {"w": "1"}])
def test_start_outside_the_landscape_is_refused_clearly(start):
    with pytest.raises(ValueError, match="Start [wb]"):
        loss_landscape.set_start(loss_landscape.initial(), **start)


# ---- XOR decision surface ----------------------------------------------------------------------

def test_xor_surface_trained_ten_times_100_steps_is_train_xor():
    state = xor_surface.initial()
    assert (state["seed"], state["hidden"], state["parameter_count_text"]) == (42, 4, "17")
    for _ in range(10):
        state = xor_surface.train_steps(round_trip(state))
    predictions, loss = train_xor(steps=1000, learning_rate=0.1)
    assert state["predictions"] == predictions and state["history"][-1] == loss
    assert state["steps"] == 1000 and len(state["history"]) == 1001
    assert "Learned" in state["messages"][0] and not state["plateau"]


def test_xor_surface_grid_is_the_networks_output_on_24_by_24_inputs():
    state = xor_surface.train_steps(xor_surface.initial())
    network = xor_surface.network_of(42, 4, state["parameters"])
    centres = xor_surface.cell_centres()
    assert len(state["grid"]) == 24 and all(len(row) == 24 for row in state["grid"])
    for row, col in ((0, 0), (5, 17), (23, 23)):
        assert state["grid"][row][col] == network([centres[col], centres[row]])[0].data
    assert centres[0] < 0 and centres[-1] > 1  # the square around all four points


def test_two_hidden_neurons_with_seed_seven_sit_on_a_plateau_through_step_1000():
    state = xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), 7), 2)
    assert state["parameter_count_text"] == "9"
    plateau_from = None
    for _ in range(10):
        state = xor_surface.train_steps(round_trip(state))
        if state["plateau"] and plateau_from is None:
            plateau_from = state["steps"]
    assert plateau_from is not None and plateau_from <= 800
    assert state["plateau"] and state["history"][-1] > 0.5
    assert state["history"][state["steps"] - 300] - state["history"][-1] < 0.005  # flat over the last 300 steps
    assert sum(abs(p) < 0.1 for p in state["predictions"]) == 2  # two answers stuck near 0
    assert any(message.startswith("Plateau") for message in state["messages"])


def test_an_output_of_exactly_zero_is_on_neither_side_of_zero():
    """The untrained network answers exactly 0 at (0, 0) (every bias starts at 0); its target is −1, so
    that input is not on the right side: prediction × target must be above 0."""
    state = xor_surface.initial()
    assert state["predictions"][0] == 0.0
    right = sum(prediction * target > 0 for prediction, (_, target) in zip(state["predictions"], xor_surface.XOR_TABLE))
    assert right == 2
    assert f"; {right} of the 4 inputs on the right side of 0" in state["description"]
    assert [xor_surface.right_side(p, t) for p, t in ((0.0, -1), (0.0, 1), (-0.2, -1), (0.3, 1), (0.3, -1))] == \
        [False, False, True, True, False]


@pytest.mark.parametrize("seed, hidden", [(42, 4), (7, 2)])
def test_hidden_outputs_are_the_engines_hidden_layer(seed, hidden):
    state = xor_surface.train_steps(xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), seed), hidden))
    network = xor_surface.network_of(seed, hidden, state["parameters"])
    engine = [[neuron(inputs).data for neuron in network.layers[0]] for inputs, _ in xor_surface.XOR_TABLE]
    assert [len(row) for row in state["hidden_outputs"]] == [hidden] * 4
    for row, expected in zip(state["hidden_outputs"], engine):
        assert row == pytest.approx(expected, abs=1e-12)


def test_only_the_stuck_seed_has_inputs_its_hidden_layer_cannot_tell_apart():
    """Seeds 0 to 11 with 2 hidden neurons, 1,000 steps: the figure finds two inputs with opposite targets
    at the same hidden point, from saturated neurons, for seed 7 alone, and for the lesson's network never."""
    found = {}
    for seed in range(12):
        state = xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), seed), 2)
        for _ in range(10):
            state = xor_surface.train_steps(state)
            if state["hidden_findings"]:
                found.setdefault(seed, state["steps"])
    assert list(found) == [7] and found[7] <= 300
    assert state["hidden_findings"] == [] and xor_surface.initial()["hidden_findings"] == []
    lesson = xor_surface.initial()
    for _ in range(10):
        lesson = xor_surface.train_steps(lesson)
        assert lesson["hidden_findings"] == [] and lesson["hidden_same_rows"] == []


def test_the_stuck_network_is_saturated_not_symmetric():
    state = xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), 7), 2)
    for _ in range(10):
        state = xor_surface.train_steps(state)
    [finding] = state["hidden_findings"]
    assert finding.startswith("The hidden neurons give (0, 1) and (1, 1) almost the same outputs")
    assert "targets are +1 and −1" in finding and "Every hidden neuron is saturated there" in finding
    assert state["hidden_same_rows"] == [1, 3]
    h1, h2 = zip(*state["hidden_outputs"])
    assert max(abs(a - b) for a, b in zip(h1, h2)) > 0.2  # the two neurons do different things: not symmetric


def test_two_hidden_neurons_that_compute_the_same_thing_are_named():
    network = MLP([2, 2, 1], seed=7)
    parameters = [p.data for p in network.parameters()]
    parameters[3:6] = parameters[0:3]  # hidden neuron 2 := hidden neuron 1
    state = xor_surface.train_steps({**xor_surface.set_hidden(xor_surface.set_seed(xor_surface.initial(), 7), 2),
                                     "parameters": parameters}, 1)
    assert "Hidden neurons 1 and 2 give the same output at every input" in " ".join(state["hidden_findings"])


def test_xor_surface_seed_and_hidden_neurons_start_a_new_network():
    state = xor_surface.set_seed(xor_surface.train_steps(xor_surface.initial()), 3)
    assert (state["seed"], state["steps"]) == (3, 0)
    network = MLP([2, 4, 1], seed=3)
    assert state["parameters"] == [p.data for p in network.parameters()]
    assert xor_surface.reset(xor_surface.train_steps(state))["parameters"] == state["parameters"]


@pytest.mark.parametrize("change", [("set_seed", 100), ("set_seed", -1), ("set_seed", 2.5),
                                    ("set_hidden", 0), ("set_hidden", 9), ("set_hidden", "4")])
def test_xor_surface_refuses_settings_beyond_its_sliders(change):
    function, value = change
    with pytest.raises(ValueError, match="Seed|Hidden neurons"):
        getattr(xor_surface, function)(xor_surface.initial(), value)


def test_xor_surface_stops_at_its_step_limit_with_a_message():
    state = xor_surface.initial()
    state = xor_surface.train_steps(state, xor_surface.MAX_STEPS)
    assert state["steps"] == xor_surface.MAX_STEPS and not state["can_train"]
    assert xor_surface.train_steps(state)["steps"] == xor_surface.MAX_STEPS
    assert any("press Reset" in message for message in state["messages"])


# ---- Gradients of all 17 parameters --------------------------------------------------------------

@pytest.mark.parametrize("trainings", [0, 1, 5])
def test_seventeen_bars_from_one_backward_match_central_differences(trainings):
    state = xor_gradients.initial()
    for _ in range(trainings):
        state = xor_gradients.train_steps(round_trip(state))
    network = MLP([2, 4, 1], seed=42)
    for _ in range(trainings):
        xor_surface.train(network, 100)
    loss = xor_surface.xor_loss(network)
    loss.backward()
    assert len(state["bars"]) == 17 == state["evaluations"] / 2
    assert [bar["backward"] for bar in state["bars"]] == [p.grad for p in network.parameters()]
    for bar in state["bars"]:
        assert abs(bar["finite"] - bar["backward"]) < 1e-6
    assert state["steps"] == 100 * trainings


def test_bars_are_grouped_by_neuron_in_parameter_order():
    groups = [bar["group"] for bar in xor_gradients.initial()["bars"]]
    assert groups == [f"hidden neuron {k}" for k in range(1, 5) for _ in range(3)] + ["output neuron"] * 5
    assert [bar["name"] for bar in xor_gradients.initial()["bars"]][-5:] == ["w₁", "w₂", "w₃", "w₄", "b"]


def test_central_differences_count_their_loss_evaluations():
    calls = []
    real = xor_surface.xor_loss
    try:
        xor_surface.xor_loss = lambda network: calls.append(1) or real(network)
        _, evaluations = xor_gradients.central_differences(MLP([2, 4, 1], seed=42))
    finally:
        xor_surface.xor_loss = real
    assert evaluations == len(calls) == 34


# ---- The cost of a gradient ----------------------------------------------------------------------

def counted_by_hand(n):
    """Operations of one tanh neuron with n − 1 inputs and its squared error: n − 1 products, n − 1
    sums, tanh, the subtraction and the square; edges: two per product (the engine makes the input a
    leaf), two per sum, one for tanh, two for the subtraction (0.5 becomes a leaf too), one for the
    square."""
    return {"forward": 2 * (n - 1) + 3, "backward": 4 * (n - 1) + 4}


def test_the_cost_sliders_steps_are_about_even_on_a_logarithmic_axis():
    """The slider was linear from 1 to 1,000 under a logarithmic axis: now each arrow key steps to the next of
    PARAMETER_STEPS, at most twice the one before, with 10 and 100 about a third and two thirds of the way."""
    steps = gradient_cost.PARAMETER_STEPS
    span = len(steps) - 1
    assert steps[0] == gradient_cost.PARAMETERS_RANGE["min"] and steps[-1] == gradient_cost.PARAMETERS_RANGE["max"]
    assert gradient_cost.DEFAULT_PARAMETERS in steps and steps == sorted(set(steps))
    assert all(1 < later / earlier <= 2 for earlier, later in zip(steps, steps[1:]))
    assert abs(steps.index(10) / span - 1 / 3) < 0.06 and abs(steps.index(100) / span - 2 / 3) < 0.02
    assert gradient_cost.initial()["parameter_steps"] == steps


@pytest.mark.parametrize("n", [1, 2, 17, 1000])
def test_operation_counts_walk_the_engines_graph(n):
    cost = gradient_cost.costs(n)
    expected = counted_by_hand(n)
    assert (cost["forward"], cost["backward"]) == (expected["forward"], expected["backward"])
    assert cost["reverse"] == cost["forward"] + cost["backward"]
    assert cost["finite"] == 2 * n * cost["forward"]
    loss, parameters = gradient_cost.loss_for(n)
    assert len(parameters) == n == len(MLP([n - 1, 1]).parameters())


def forward_mode_pass(loss, parameter):
    """One pass of forward mode over the engine's graph, as dual numbers would make it: every value gets the
    derivative of itself with respect to `parameter`, from its parents' along its edges. Returns
    (d loss / d parameter, operations: one per computed value plus one multiply-and-add per edge)."""
    tangent, operations = {}, 0
    for value in values_in_order(loss):
        if not value.edges:
            tangent[value] = 1.0 if value is parameter else 0.0
            continue
        operations += 1  # the value itself, as in the forward pass
        tangent[value] = 0.0
        for parent, local_derivative in value.edges:
            tangent[value] += local_derivative * tangent[parent]
            operations += 1
    return tangent[loss], operations


@pytest.mark.parametrize("n", [1, 2, 17, 60, 1000])
def test_forward_mode_is_one_pass_per_parameter_with_the_same_gradients(n):
    loss, parameters = gradient_cost.loss_for(n)
    loss.backward()
    passes = [forward_mode_pass(loss, parameter) for parameter in parameters]
    assert [derivative for derivative, _ in passes] == pytest.approx([p.grad for p in parameters], rel=1e-12, abs=1e-15)
    cost = gradient_cost.costs(n)
    assert sum(operations for _, operations in passes) == cost["forward_mode"] == n * cost["reverse"]
    state = gradient_cost.set_parameters(gradient_cost.initial(), n)
    assert state["forward_mode_text"] == f"{cost['forward_mode']:,}"
    assert (f"{n:,} pass{'es' if n > 1 else ''} × ({cost['forward']:,} + {cost['backward']:,}) = {cost['forward_mode']:,} operations"
            in state["messages"][2])
    if n == 1:
        assert "as many as reverse mode" in state["messages"][2]
    else:
        assert f"{n:,} times reverse mode" in state["messages"][2] and "for one loss and many parameters reverse mode wins" in state["messages"][2]


def test_with_one_input_and_many_outputs_forward_mode_wins():
    """The figure's other half of the sentence: one forward-mode pass gives the derivatives of every output with
    respect to the one input; reverse mode needs a backward pass from each output, each through the
    computation the outputs share."""
    x = Value(0.5)
    shared = x
    for _ in range(20):
        shared = (shared * 0.9 + 0.1).tanh()
    outputs = [shared * (k + 1) for k in range(10)]
    graph = {value for y in outputs for value in values_in_order(y)}
    forward = sum(1 for value in graph if value.edges)
    forward_mode = forward + sum(len(value.edges) for value in graph)  # one pass for all ten derivatives
    reverse_mode = forward + sum(len(value.edges) for y in outputs for value in values_in_order(y))  # ten backward passes
    assert forward_mode < reverse_mode / 5
    for y in outputs:  # and forward mode's derivatives are backward()'s, output by output
        y.backward()
        assert forward_mode_pass(y, x)[0] == pytest.approx(x.grad)


def test_the_graph_order_needs_no_topological_order_method():
    """An edited engine may leave topological_order() out (the site does not require it): the figure then
    walks the edges itself, and with the lesson's engine it takes the engine's own order."""
    class Lean:
        def __init__(self, *parents):
            self.edges = tuple((parent, 1.0) for parent in parents)
    a = Lean()
    b = Lean(a)
    c = Lean(a, b)
    assert gradient_cost.graph_order(c) == [a, b, c]
    v = Value(3)
    q = v * v + v
    assert gradient_cost.graph_order(q) == q.topological_order()


def test_counts_follow_edges_not_other_engine_internals():
    """Nodes reachable by edges, counted here on a graph with a shared value (a used twice)."""
    a = Value(3)
    q = a * a + a
    assert gradient_cost.graph_counts(values_in_order(q)) == (3, 2, 4)  # values a, a·a, q; two computed; 2 + 2 edges


def test_reverse_mode_wins_by_more_as_parameters_grow():
    state = gradient_cost.initial()
    ratios = [finite / reverse for (_, finite), (_, reverse) in zip(state["curve_finite"], state["curve_reverse"])]
    assert ratios[0] < 1 < ratios[1]  # one parameter: two forward passes cost less than a forward and a backward
    assert all(later > earlier for earlier, later in zip(ratios, ratios[1:]))
    at_1000 = gradient_cost.set_parameters(state, 1000)
    assert at_1000["ratio_text"] == "667" and at_1000["finite_text"] == "4,002,000"
    assert at_1000["forward_mode_text"] == "6,001,000"
    assert [size for size, _ in state["curve_forward"]] == gradient_cost.CURVE_SIZES
    assert all(forward >= reverse for (_, forward), (_, reverse) in zip(state["curve_forward"], state["curve_reverse"]))
    assert "curve_finite" not in at_1000
    assert "11.6 times as many" in state["messages"][1] and "11.6 times reverse mode" in state["description"]


def test_with_one_parameter_central_differences_are_said_to_cost_fewer_not_a_fraction_times_as_many():
    state = gradient_cost.set_parameters(gradient_cost.initial(), 1)
    cost = gradient_cost.costs(1)
    assert cost["finite"] < cost["reverse"]
    assert f"= {cost['finite']} operations, fewer than reverse mode's {cost['reverse']}: with a single parameter" in state["messages"][1]
    assert "times" not in state["messages"][1].split("operations, ")[1].split(".")[0]
    assert state["description"].endswith(f"finite differences {cost['finite']}, fewer than reverse mode's {cost['reverse']}.")
    assert state["messages"][0].endswith(f"{cost['reverse']} in all, for the one gradient.")  # not "for all 1 gradient"


@pytest.mark.parametrize("n", [0, 1001, 2.5, math.inf, "17"])
def test_cost_refuses_parameter_counts_beyond_the_slider(n):
    with pytest.raises(ValueError, match="Parameters"):
        gradient_cost.set_parameters(gradient_cost.initial(), n)


def test_pausing_the_cycle_collector_restores_it_even_after_an_error():
    import gc

    from tutor.figures.display import cycle_collector_paused
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with cycle_collector_paused():
            assert not gc.isenabled()
            raise ValueError("refused")
    assert gc.isenabled()
    gc.disable()
    try:
        with cycle_collector_paused():
            pass
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()
