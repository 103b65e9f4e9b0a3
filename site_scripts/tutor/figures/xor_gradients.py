"""Model of the figure "Gradients of all 17 parameters": one backward() against 34 loss evaluations.

What it is: the lesson's XOR network, MLP([2, 4, 1], seed=42), after the steps the reader has
trained (xor_surface.py's training step). At the current parameters one backward() of the loss
gives all 17 gradients; central differences, (L(p + h) − L(p − h)) / 2h for each parameter in
turn, give the same 17 numbers from 2 × 17 = 34 more evaluations of the loss (counted as they run).
The parameters are grouped by neuron, in the order network.parameters() lists them: layer by layer,
neuron by neuron, each neuron's weights then its bias. The names follow from the sizes [2, 4, 1] alone,
so the figure reads nothing of the network but parameters() (an edited engine may name its layers and
weights as it likes).
What it is not: the view (xor_gradients.mjs draws the pairs of bars).
"""
from . import xor_surface
from .display import cycle_collector_paused, number_text, state_field

TITLE = "Gradients of all 17 parameters"
PAGE_CALLS = ("initial", "train_steps", "reset")
SEED, HIDDEN = 42, 4
SIZES = [2, HIDDEN, 1]
H = 1e-5  # central differences: error about h² × the third derivative, far below 1e-6 here
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def parameter_names(sizes=SIZES):
    """(group, name) for every parameter of MLP(sizes), in parameters() order: ("hidden neuron 1", "w₁")."""
    names = []
    last = len(sizes) - 2
    for layer_index, (inputs, neurons) in enumerate(zip(sizes, sizes[1:])):
        for neuron_index in range(neurons):
            group = "output neuron" if layer_index == last else f"hidden neuron {neuron_index + 1}"
            names += [(group, f"w{str(k + 1).translate(SUBSCRIPTS)}") for k in range(inputs)]
            names.append((group, "b"))
    return names


def central_differences(network):
    """dL/dp for every parameter p by central differences, and how many loss evaluations that took."""
    gradients, evaluations = [], 0
    for parameter in network.parameters():
        kept = parameter.data
        parameter.data = kept + H
        above = xor_surface.xor_loss(network).data
        parameter.data = kept - H
        below = xor_surface.xor_loss(network).data
        parameter.data = kept
        evaluations += 2
        gradients.append((above - below) / (2 * H))
    return gradients, evaluations


def new_state(network, steps):
    loss = xor_surface.xor_loss(network)
    loss.backward()
    backward = [parameter.grad for parameter in network.parameters()]
    differences, evaluations = central_differences(network)
    largest_gap = max(abs(a - b) for a, b in zip(backward, differences))
    bars = [{"group": group, "name": name, "backward": g, "finite": f,
             "backward_text": number_text(g, 4), "finite_text": number_text(f, 4)}
            for (group, name), g, f in zip(parameter_names(), backward, differences)]
    extent = max([abs(g) for g in backward] + [abs(f) for f in differences] + [1e-12])
    count = len(bars)
    return {
        "parameters": [parameter.data for parameter in network.parameters()],
        "steps": steps,
        "steps_text": str(steps),
        "loss_text": number_text(loss.data),
        "bars": bars,
        "bar_range": [-extent * 1.1, extent * 1.1],
        "count_text": str(count),
        "evaluations": evaluations,
        "evaluations_text": str(evaluations),
        "largest_gap_text": number_text(largest_gap, 2),
        "messages": [f"One backward() gave all {count} gradients. Central differences needed {evaluations} more "
                     f"evaluations of the loss; the largest disagreement is {number_text(largest_gap, 2)}."],
        "description": (f"Bar chart of the {count} gradients after {steps} training steps, loss {number_text(loss.data)}: "
                        f"backward() and central differences agree within {number_text(largest_gap, 2)}; the largest "
                        f"gradient in size is {number_text(max(backward, key=abs), 4)}."),
    }


def initial():
    return new_state(xor_surface.network_of(SEED, HIDDEN), 0)


def train_steps(state):
    """The state after 100 more training steps of the lesson's loop."""
    network = xor_surface.network_of(SEED, HIDDEN, state_field(state, "parameters"))
    steps = state_field(state, "steps")
    if type(steps) is not int or steps < 0:
        raise ValueError("state['steps'] must be the step count this figure returned")
    with cycle_collector_paused():
        xor_surface.train(network, xor_surface.STEPS_PER_CALL)
        return new_state(network, steps + xor_surface.STEPS_PER_CALL)


def reset(state):
    return initial()
