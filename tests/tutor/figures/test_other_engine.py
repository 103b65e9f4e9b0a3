"""Every figure with an engine written another way: micrograd-style layers, other attribute names (issue 28).

What it is: the figures may use only what the engine check of "Edit the engine" (tutor/engine_edit.py)
asks of an edited engine: a Value's operations, data, grad and edges, backward(), MLP(sizes, seed)(inputs)
and parameters() (layer by layer, neuron by neuron, weights then bias), gradient_step. Here the lesson's
engine has its network rewritten in micrograd's style (a Layer object holding `neurons`, each a Unit
holding `w` and `b`; no Neuron; the MLP keeping its layers under another name): it draws the same random numbers in the same
order, so every figure must give exactly the states it gives with the lesson's engine, through initial()
and the calls its controls make.
What it is not: a test of the engine check (tests/tutor/test_engine_edit.py).
"""
import importlib
import json
import sys
import types
from pathlib import Path

import pytest

from tutor_sources import figure_names

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "tinygrad.py"

# micrograd's Neuron under another name: the engine check does not ask for one
MICROGRAD_STYLE_NETWORK = '''
class Unit:
    def __init__(self, nin, rng, nonlin=True):
        self.w = [Value(rng.uniform(-1.0, 1.0)) for _ in range(nin)]
        self.b = Value(0)
        self.nonlin = nonlin

    def __call__(self, x):
        act = sum((wi * xi for wi, xi in zip(self.w, x)), self.b)
        return act.tanh() if self.nonlin else act

    def parameters(self):
        return self.w + [self.b]


class Layer:
    def __init__(self, nin, nout, rng, **kwargs):
        self.neurons = [Unit(nin, rng, **kwargs) for _ in range(nout)]

    def __call__(self, x):
        return [n(x) for n in self.neurons]

    def parameters(self):
        return [p for n in self.neurons for p in n.parameters()]


class MLP:
    def __init__(self, sz, seed=42):
        rng = random.Random(seed)
        self.stack = [Layer(sz[i], sz[i + 1], rng, nonlin=i != len(sz) - 2) for i in range(len(sz) - 1)]

    def __call__(self, x):
        x = [Value.wrap(xi) for xi in x]
        for layer in self.stack:
            x = layer(x)
        return x

    def parameters(self):
        return [p for layer in self.stack for p in layer.parameters()]
'''

# What each figure's controls call after initial(): (function, keyword arguments besides the state).
CALLS = {
    "backprop_by_hand": [("check_entry", {"box": "L", "text": "1", "number": 1}), ("check_entry", {"box": "e", "text": "1", "number": 1}),
                         ("choose_graph", {"choice": "paths"})],
    "backprop_graph": [("seed_gradient", {}), ("backpropagate_one_operation", {})],
    "gradient_cost": [("set_parameters", {"parameters": 50})],
    "line_fit": [("step", {"count": 10}), ("set_learning_rate", {"learning_rate": 0.3}), ("step", {"count": 5})],
    "loss_experiment": [("choose_loss", {"loss_kind": "absolute"}), ("take_one_step", {})],
    "loss_landscape": [("step", {"count": 5}), ("set_start", {"w": 3})],
    "mystery_curve": [("move_point", {"x": 1.5}), ("reveal_full_curve", {})],
    "neuron_by_hand": [("check_entry", {"box": "n", "text": "0.69", "number": 0.69}), ("check_entry", {"box": "t", "text": "0.5", "number": 0.5})],
    "paths_add_up": [("seed_gradient", {}), ("backpropagate_one_operation", {}), ("backpropagate_one_operation", {})],
    "secant_tangent": [("change", {"x": 2, "h_index": 1})],
    "training_loop": [("next_pass", {}), ("next_pass", {}), ("reset", {})],
    "x_times_x": [("evaluate", {}), ("seed_output_gradient", {}), ("follow_next_operand", {})],
    "xor_gradients": [("train_steps", {})],
    "xor_surface": [("train_steps", {}), ("set_hidden", {"hidden": 2}), ("set_seed", {"seed": 7}), ("train_steps", {})],
}


def micrograd_style_engine_text():
    text = ENGINE.read_text(encoding="utf-8")
    start, end = text.index("# --8<-- [start:mlp]"), text.index("# --8<-- [end:mlp]")
    return text[:start] + MICROGRAD_STYLE_NETWORK + text[end:]


def engine_module(text):
    module = types.ModuleType("tinygrad")
    exec(compile(text, "tinygrad.py (a test's engine)", "exec"), module.__dict__)
    return module


def figure_states(engine):
    """{figure: [its state after initial() and after each of its CALLS]}, every figure model imported afresh
    with `engine` as tinygrad; the modules imported before are put back afterwards."""

    def ours(name):
        return name == "tinygrad" or name == "tutor.figures" or name.startswith("tutor.figures.")

    saved = {name: module for name, module in sys.modules.items() if ours(name)}
    for name in saved:
        del sys.modules[name]
    sys.modules["tinygrad"] = engine
    try:
        states = {}
        for name, calls in CALLS.items():
            model = importlib.import_module(f"tutor.figures.{name}")
            state = json.loads(json.dumps(model.initial(), allow_nan=False))
            states[name] = [state]
            for function, kwargs in calls:
                state = json.loads(json.dumps(getattr(model, function)(state=state, **kwargs), allow_nan=False))
                states[name].append(state)
        return states
    finally:
        for name in [name for name in sys.modules if ours(name)]:
            del sys.modules[name]
        sys.modules.update(saved)


@pytest.fixture(scope="module")
def lesson_states():
    return figure_states(engine_module(ENGINE.read_text(encoding="utf-8")))


def test_every_figure_is_exercised():
    assert set(CALLS) == set(figure_names())


def test_the_rewritten_network_has_none_of_the_lessons_names():
    engine = engine_module(micrograd_style_engine_text())
    network = engine.MLP([2, 4, 1], seed=42)
    assert not hasattr(network, "layers") and not hasattr(engine, "Neuron")
    assert not hasattr(network.stack[0].neurons[0], "weights")
    lesson = engine_module(ENGINE.read_text(encoding="utf-8")).MLP([2, 4, 1], seed=42)
    assert [p.data for p in network.parameters()] == [p.data for p in lesson.parameters()]


def test_every_figure_gives_the_same_states_with_a_micrograd_style_network(lesson_states):
    other = figure_states(engine_module(micrograd_style_engine_text()))
    for name in CALLS:
        assert other[name] == lesson_states[name], f"figure {name} differs with the other engine"
