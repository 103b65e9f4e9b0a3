"""Model of the figure "XOR decision surface": what a small network answers over the whole input square.

What it is: the engine's MLP([2, hidden, 1], seed) trained on the four XOR examples by the loop of
the lesson's train_xor (mean squared error, backward(), gradient_step with learning rate 0.1),
100 steps per call. The state holds the network's parameters as floats (the next call rebuilds the
network from them), the loss before every step, the four predictions, the network's output on a
24 × 24 grid of inputs and the hidden neurons' outputs at the four inputs, each computed by the
engine's forward pass. With 4 hidden neurons and seed 42 (the lesson's network) it learns; with 2
hidden neurons and seed 7 (the exercise's network) the loss stops falling well above zero: a plateau,
which the state names. The hidden outputs say why (hidden_diagnosis): two inputs whose targets differ
get almost the same hidden outputs, from saturated neurons (tanh near ±1, where 1 − t² is small), or two
hidden neurons compute the same thing; the state names what it finds, with its numbers.
Of the engine it uses only MLP(sizes, seed)(inputs), parameters() (layer by layer, neuron by neuron,
weights then bias), tanh, backward() and gradient_step.
What it is not: the view (xor_surface.mjs colours the grid and plots the loss). xor_gradients.py
uses the same network and training step.
"""
import math

from tinygrad import MLP, gradient_step

from .display import checked_number, cycle_collector_paused, number_text, state_field
from .line_fit import history_range

TITLE = "XOR decision surface"
PAGE_CALLS = ("initial", "train_steps", "reset", "set_seed", "set_hidden")
XOR_TABLE = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
LEARNING_RATE = 0.1
STEPS_PER_CALL = 100
MAX_STEPS = 5000
SEED_RANGE = {"min": 0, "max": 99, "step": 1}
HIDDEN_RANGE = {"min": 1, "max": 8, "step": 1}
DEFAULT_SEED, DEFAULT_HIDDEN = 42, 4
GRID_SIZE = 24
INPUT_RANGE = [-0.25, 1.25]  # the input square [0, 1]², with a margin around the four points
PLATEAU_WINDOW = 200  # steps over which a loss that barely moves counts as a plateau
PLATEAU_CHANGE = 0.01  # ... barely: by less than this fraction
LEARNED_LOSS = 0.01
SAME_HIDDEN = 0.05  # hidden outputs that differ by at most this, at every hidden neuron, count as the same
SATURATED = 0.95  # a hidden output at least this far from 0 sits where tanh is flat: 1 − t² ≤ 0.0975


def xor_loss(network):
    return sum((network(inputs)[0] - target) ** 2 for inputs, target in XOR_TABLE) * (1 / 4)


def network_of(seed, hidden, parameters=None):
    """MLP([2, hidden, 1], seed), with its parameters set to `parameters` (floats) if given."""
    network = MLP([2, hidden, 1], seed=seed)
    if parameters is not None:
        if not isinstance(parameters, list) or len(parameters) != len(network.parameters()):
            raise ValueError(f"state['parameters'] must hold the {len(network.parameters())} numbers this figure returned")
        for parameter, data in zip(network.parameters(), parameters):
            parameter.data = checked_number("a parameter", data)
    return network


def train(network, steps):
    """`steps` steps of train_xor's loop; returns the loss before each step."""
    losses = []
    for _ in range(steps):
        loss = xor_loss(network)
        losses.append(loss.data)
        loss.backward()
        gradient_step(network.parameters(), LEARNING_RATE)
    return losses


def cell_centres():
    low, high = INPUT_RANGE
    return [low + (high - low) * (index + 0.5) / GRID_SIZE for index in range(GRID_SIZE)]


def output_grid(network):
    """The network's output at every cell centre: rows of constant x₂ (lowest first), x₁ along a row."""
    centres = cell_centres()
    return [[network([x1, x2])[0].data for x1 in centres] for x2 in centres]


def hidden_outputs(network, hidden):
    """The hidden neurons' outputs at each of the four inputs: [[h₁, h₂, ...] per input]. The hidden layer is
    rebuilt as a network of its own, MLP([2, hidden]) (one layer, so without tanh: the weighted sums), from
    the first 3 × hidden parameters of `network`, whose parameters() lists them first; then tanh."""
    layer = MLP([2, hidden], seed=0)
    for parameter, trained in zip(layer.parameters(), network.parameters()):
        parameter.data = trained.data
    return [[total.tanh().data for total in layer(inputs)] for inputs, _ in XOR_TABLE]


def right_side(prediction, target):
    """Whether `prediction` lies on the side of 0 where `target` is: their product is above 0, so an output of
    exactly 0 is on neither side (the untrained network answers 0 at (0, 0), whose target is −1)."""
    return prediction * target > 0


def signed(target):
    return number_text(target) if target < 0 else f"+{number_text(target)}"


def input_text(inputs):
    return f"({inputs[0]}, {inputs[1]})"


def same_hidden_pairs(hidden):
    """The pairs (i, j) of inputs with different targets whose hidden outputs differ by at most SAME_HIDDEN."""
    return [(i, j) for i in range(4) for j in range(i + 1, 4) if XOR_TABLE[i][1] != XOR_TABLE[j][1]
            and max(abs(a - b) for a, b in zip(hidden[i], hidden[j])) <= SAME_HIDDEN]


def hidden_diagnosis(hidden, predictions):
    """What the hidden outputs show, in sentences: inputs with different targets that the hidden layer
    maps to the same point (and whether saturated neurons do it), and hidden neurons that agree everywhere."""
    sentences = []
    for i, j in same_hidden_pairs(hidden):
        gap = max(abs(a - b) for a, b in zip(hidden[i], hidden[j]))
        (first, target_i), (second, target_j) = XOR_TABLE[i], XOR_TABLE[j]
        share = ((predictions[i] - target_i) ** 2 + (predictions[j] - target_j) ** 2) / 4
        sentence = (f"The hidden neurons give {input_text(first)} and {input_text(second)} almost the same outputs "
                    f"(they differ by at most {number_text(gap, 2)}), but their targets are {signed(target_i)} and "
                    f"{signed(target_j)}: the output layer cannot tell them apart and answers "
                    f"{number_text(predictions[i], 2)} and {number_text(predictions[j], 2)}, so their two errors alone "
                    f"make {number_text(share, 3)} of the loss.")
        both = hidden[i] + hidden[j]
        if all(abs(h) >= SATURATED for h in both):
            smallest = min(abs(h) for h in both)
            sentence += (f" Every hidden neuron is saturated there (|t| ≥ {number_text(math.floor(smallest * 100) / 100, 2)}, "
                         f"so 1 − t² ≤ {number_text(math.ceil((1 - smallest ** 2) * 100) / 100, 2)}): tanh is flat, and "
                         "the gradient that would pull the two apart is small.")
        sentences.append(sentence)
    neurons = len(hidden[0])
    for a in range(neurons):
        for b in range(a + 1, neurons):
            if all(abs(row[a] - row[b]) <= SAME_HIDDEN for row in hidden):
                sentences.append(f"Hidden neurons {a + 1} and {b + 1} give the same output at every input: "
                                 "they do one neuron's work between them.")
    return sentences


def checked_settings(seed, hidden):
    seed = checked_number("Seed", seed, SEED_RANGE["min"], SEED_RANGE["max"])
    hidden = checked_number("Hidden neurons", hidden, HIDDEN_RANGE["min"], HIDDEN_RANGE["max"])
    if seed != int(seed) or hidden != int(hidden):
        raise ValueError("Seed and Hidden neurons must be whole numbers")
    return int(seed), int(hidden)


def plateau(history):
    """True when the loss is still high and moved by less than PLATEAU_CHANGE over the last PLATEAU_WINDOW steps."""
    if len(history) <= PLATEAU_WINDOW or history[-1] < LEARNED_LOSS:
        return False
    earlier = history[-1 - PLATEAU_WINDOW]
    return earlier - history[-1] < PLATEAU_CHANGE * earlier


def new_state(seed, hidden, network, history):
    """Everything the view draws. `history` holds the loss before each step taken, then the loss now."""
    predictions = [network(inputs)[0].data for inputs, _ in XOR_TABLE]
    hidden_values = hidden_outputs(network, hidden)
    steps = len(history) - 1
    loss = history[-1]
    messages = []
    if plateau(history):
        messages.append(f"Plateau: over the last {PLATEAU_WINDOW} steps the loss fell by less than "
                        f"{PLATEAU_CHANGE:.0%}, and it is still {number_text(loss, 3)}.")
    elif loss < LEARNED_LOSS:
        messages.append("Learned: every prediction is close to its target.")
    findings = hidden_diagnosis(hidden_values, predictions) if steps else []
    messages += findings
    if steps >= MAX_STEPS:
        messages.append(f"This figure stops at {MAX_STEPS} steps: press Reset to start again.")
    correct = sum(right_side(prediction, target) for prediction, (_, target) in zip(predictions, XOR_TABLE))
    return {
        "seed": seed,
        "hidden": hidden,
        "seed_range": SEED_RANGE,
        "hidden_range": HIDDEN_RANGE,
        "parameters": [parameter.data for parameter in network.parameters()],
        "parameter_count_text": str(len(network.parameters())),
        "history": history,
        "steps": steps,
        "steps_text": str(steps),
        "loss_text": number_text(loss),
        "can_train": steps < MAX_STEPS,
        "plateau": plateau(history),
        "points": [[*inputs, target] for inputs, target in XOR_TABLE],
        "predictions": predictions,
        "prediction_texts": [number_text(prediction, 3) for prediction in predictions],
        "grid": output_grid(network),
        "hidden_outputs": hidden_values,
        "hidden_texts": [[number_text(h, 2) for h in row] for row in hidden_values],
        "hidden_findings": findings,
        "hidden_same_rows": sorted({row for pair in same_hidden_pairs(hidden_values) for row in pair}) if steps else [],
        "input_range": INPUT_RANGE,
        "history_range": history_range(history),
        "messages": messages,
        "description": (f"XOR network with {hidden} hidden neuron{'s' if hidden != 1 else ''}, seed {seed}, after "
                        f"{steps} steps: loss {number_text(loss)}; {correct} of the 4 inputs on the right side of 0 "
                        f"(outputs {', '.join(number_text(p, 3) for p in predictions)})."),
    }


def fresh(seed, hidden):
    network = network_of(seed, hidden)
    return new_state(seed, hidden, network, [xor_loss(network).data])


def initial():
    return fresh(DEFAULT_SEED, DEFAULT_HIDDEN)


def unpacked(state):
    """(seed, hidden, network, history) of a state this figure returned."""
    seed, hidden = checked_settings(state_field(state, "seed"), state_field(state, "hidden"))
    history = state_field(state, "history")
    if not isinstance(history, list) or not history:
        raise ValueError("state['history'] must be the non-empty list of losses this figure returned")
    return seed, hidden, network_of(seed, hidden, state_field(state, "parameters")), list(history)


def train_steps(state, count=STEPS_PER_CALL):
    """The state after `count` more training steps (at most up to MAX_STEPS in all)."""
    if type(count) is not int or not 1 <= count <= MAX_STEPS:
        raise ValueError(f"count must be a whole number from 1 to {MAX_STEPS}, not {count!r}")
    with cycle_collector_paused():
        seed, hidden, network, history = unpacked(state)
        count = min(count, MAX_STEPS - (len(history) - 1))
        if count > 0:
            history = history[:-1] + train(network, count) + [xor_loss(network).data]
        return new_state(seed, hidden, network, history)


def reset(state):
    seed, hidden = checked_settings(state_field(state, "seed"), state_field(state, "hidden"))
    return fresh(seed, hidden)


def set_seed(state, seed):
    return fresh(*checked_settings(seed, state_field(state, "hidden")))


def set_hidden(state, hidden):
    return fresh(*checked_settings(state_field(state, "seed"), hidden))
