"""Exercise (chapter "Build your own engine", step 7): a neuron, a network, and the loop that trains XOR.

What it is: the hints and solution of the block with exercise="own_network" in docs/build-your-own.md;
its checks are step 7 of tutor.build_own. The starter gives the parts that draw random numbers
(they must draw them in the lesson's order, so that the reader's network starts from the lesson's
weights and ends at the lesson's numbers); the reader writes the neuron's sum and the loop's body.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step

HINTS = [
    "In `Neuron.__call__`, start from the bias and add each weight times its input: "
    "`activation = sum((w * x for w, x in zip(self.weights, inputs)), self.bias)`.",
    "Then `return activation.tanh() if self.nonlinear else activation`.",
    "In the loop, three lines: the loss, `sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_table) "
    "* (1 / 4)`; then `loss.backward()`; then `gradient_step(network.parameters(), learning_rate)`.",
]

SOLUTION = '''\
class Neuron:
    """Weighted sum of the inputs plus a bias, optionally passed through tanh."""

    def __init__(self, n_in, rng, nonlinear=True):
        self.weights = [Value(rng.uniform(-1.0, 1.0)) for _input in range(n_in)]
        self.bias = Value(0)
        self.nonlinear = nonlinear

    def __call__(self, inputs):
        activation = sum((weight * x for weight, x in zip(self.weights, inputs)), self.bias)
        return activation.tanh() if self.nonlinear else activation

    def parameters(self):
        return [*self.weights, self.bias]


class MLP:
    """Layers of neurons; every layer but the last uses tanh."""

    def __init__(self, sizes, seed=42):
        rng = random.Random(seed)
        last = len(sizes) - 2
        self.layers = [
            [Neuron(n_in, rng, nonlinear=index < last) for _ in range(n_out)]
            for index, (n_in, n_out) in enumerate(zip(sizes, sizes[1:]))
        ]

    def __call__(self, inputs):
        values = [Value.wrap(x) for x in inputs]  # leaves, shared by the first layer's neurons
        for layer in self.layers:
            values = [neuron(values) for neuron in layer]
        return values

    def parameters(self):
        return [p for layer in self.layers for neuron in layer for p in neuron.parameters()]


def gradient_step(parameters, learning_rate):
    """Move each parameter a little against its gradient: p <- p - learning_rate * dL/dp."""
    for parameter in parameters:
        parameter.data = parameter.data - learning_rate * parameter.grad


def train_xor(steps=1000, learning_rate=0.1):
    """Train a 2-4-1 network on XOR, with targets -1 (inputs equal) and +1 (inputs differ)."""
    xor_table = [((0, 0), -1), ((0, 1), 1), ((1, 0), 1), ((1, 1), -1)]
    network = MLP(sizes=[2, 4, 1], seed=42)
    for _ in range(steps):
        loss = sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_table) * (1 / 4)
        loss.backward()
        gradient_step(network.parameters(), learning_rate)
    predictions = [network(inputs)[0].data for inputs, _ in xor_table]
    loss_after = sum((p - target) ** 2 for p, (_, target) in zip(predictions, xor_table)) / 4
    return predictions, loss_after


if __name__ == "__main__":
    predictions, loss = train_xor()
    print("xor predictions:", [round(p, 4) for p in predictions], f"loss = {loss:.2e}")
'''


def check(namespace):
    return check_step(namespace, 7)
