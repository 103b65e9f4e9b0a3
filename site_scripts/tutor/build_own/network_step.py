"""network_step.py: the checks of step 7 of "Build your own engine": a neuron and a network that learns XOR.

What it is: the reader's Neuron (a weighted sum plus a bias, through tanh, or linear; tried with a
bias of 0.3, as a bias of 0 would not show one left out), the MLP's
answer and its 17 parameters, and train_xor() fitting XOR.
What it is not: the engine's operations (value_steps.py, graph_steps.py).
"""
import math
import random

from ..exercises import NotYet, close, defined
from .reading import attempt, data_of

BIAS = 0.3  # the bias a_neuron gives the reader's neuron


def a_neuron(namespace):
    """a Neuron computes tanh(w·x + b), or w·x + b when it is linear"""
    Neuron = defined(namespace, "Neuron", "a class")
    inputs = [1.0, -2.0, 0.5]
    for nonlinear in (True, False):
        neuron = attempt("Neuron(3, random.Random(1))", lambda: Neuron(3, random.Random(1), nonlinear=nonlinear),
                         "make a neuron with 3 weights")
        data_of(neuron.bias, "the bias")
        neuron.bias.data = BIAS  # a bias starts at 0: another one shows whether the neuron adds it
        weights = [data_of(w, "a weight") for w in neuron.weights]
        without_bias = sum(w * x for w, x in zip(weights, inputs))
        weighted = without_bias + BIAS
        expected = math.tanh(weighted) if nonlinear else weighted
        out = attempt("neuron([1.0, -2.0, 0.5])", lambda: neuron(inputs), "give a Value")
        found = data_of(out, "neuron([1.0, -2.0, 0.5])")
        if close(found, expected):
            continue
        kind = "a neuron with nonlinear=True" if nonlinear else "a neuron with nonlinear=False"
        guess = ""
        if close(found, math.tanh(without_bias) if nonlinear else without_bias):
            guess = (f" With its bias set to {BIAS}, the neuron gives what it gives without it: the bias is left out. "
                     "Start the sum from the bias: sum((w * x for w, x in zip(self.weights, inputs)), self.bias).")
        elif nonlinear and close(found, weighted):
            guess = " That is the weighted sum without tanh: pass it through .tanh() when self.nonlinear."
        elif not nonlinear and close(found, math.tanh(weighted)):
            guess = " A linear neuron (nonlinear=False) must not apply tanh."
        raise NotYet(f"For {kind}, neuron([1.0, -2.0, 0.5]) holds {found!r}, expected {expected!r}.{guess}")


def network_shape(namespace):
    """MLP([2, 4, 1]) answers one Value and has 17 parameters"""
    MLP = defined(namespace, "MLP", "a class")
    network = attempt("MLP([2, 4, 1], seed=42)", lambda: MLP([2, 4, 1], seed=42), "build the network")
    answer = attempt("network([1, 0])", lambda: network([1, 0]), "give a list with one Value")
    if not (isinstance(answer, list) and len(answer) == 1 and hasattr(answer[0], "data")):
        raise NotYet(f"network([1, 0]) returned {answer!r}, expected a list holding one Value.")
    count = len(attempt("network.parameters()", network.parameters, "list the weights and biases"))
    if count != 17:
        raise NotYet(f"network.parameters() lists {count} values, expected 17 (4 neurons with 2 weights and a bias, "
                     "then 1 neuron with 4 weights and a bias).")


def trains_xor(namespace):
    """train_xor() fits XOR: its predictions round to [-1.0, 1.0, 1.0, -1.0]"""
    train_xor = defined(namespace, "train_xor", "a function")
    MLP = defined(namespace, "MLP", "a class")
    untrained = MLP([2, 4, 1], seed=42)
    before = [round(untrained(inputs)[0].data, 4) for inputs in ((0, 0), (0, 1), (1, 0), (1, 1))]
    result = attempt("train_xor()", train_xor, "train the network and return (predictions, loss)")
    try:
        predictions, loss = result
        rounded = [round(float(p), 4) for p in predictions]
    except (TypeError, ValueError):
        raise NotYet(f"train_xor() returned {result!r}, expected (predictions, loss).") from None
    if rounded == [-1.0, 1.0, 1.0, -1.0]:
        return
    if rounded == before:
        raise NotYet(f"After train_xor() the predictions are {rounded}, the same as before training, expected "
                     "[-1.0, 1.0, 1.0, -1.0]: each step must call loss.backward() and then "
                     "gradient_step(network.parameters(), learning_rate).")
    raise NotYet(f"After train_xor() the predictions are {rounded}, expected [-1.0, 1.0, 1.0, -1.0]. Is the loss "
                 "the sum of the squared errors of all four rows, computed anew in every step?")
