"""Exercise (chapter "Build your own engine", step 7): a neuron, a network, and the loop that trains XOR.

What it is: the hints and solution of the block with exercise="own_network" in docs/build-your-own.md;
its checks are step 7 of tutor.build_own. The starter gives the parts that draw random numbers
(they must draw them in the lesson's order, so that the reader's network starts from the lesson's
weights and ends at the lesson's numbers); the reader writes the neuron's sum and the loop's body.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step
from ..engine_sections import from_engine

HINTS = [
    "In `Neuron.__call__`, start from the bias and add each weight times its input: "
    "`activation = sum((w * x for w, x in zip(self.weights, inputs)), self.bias)`.",
    "Then `return activation.tanh() if self.nonlinear else activation`.",
    "In the loop, three lines: the loss, `sum((network(inputs)[0] - target) ** 2 for inputs, target in xor_table) "
    "* (1 / 4)`; then `loss.backward()`; then `gradient_step(network.parameters(), learning_rate)`.",
]

SOLUTION = from_engine('''\
--8<-- "engine/tinygrad.py:mlp"


--8<-- "engine/tinygrad.py:gradient_step"


--8<-- "engine/tinygrad.py:train_xor"


if __name__ == "__main__":
    predictions, loss = train_xor()
    print("xor predictions:", [round(p, 4) for p in predictions], f"loss = {loss:.2e}")
''')


def check(namespace):
    return check_step(namespace, 7)
