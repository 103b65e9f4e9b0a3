"""Exercise (chapter "Build your own engine", step 5): backward(), which clears, seeds and accumulates.

What it is: the hints and solution of the block with exercise="own_backward" in docs/build-your-own.md;
its checks are step 5 of tutor.build_own.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step
from ..engine_sections import from_engine

HINTS = [
    "Three parts, in this order: set `node.grad = 0.0` for every node of `order`; set `self.grad = 1.0`; "
    "then walk `reversed(order)`.",
    "For each node of the walk, pass its gradient to each parent: "
    "`for parent, derivative in node.edges:` (each edge holds a parent and the local derivative).",
    "Add, do not overwrite: `parent.grad += node.grad * derivative`. In `a * a` both edges point at `a`, "
    "and both contributions count.",
]

SOLUTION = from_engine('''\
--8<-- "engine/tinygrad.py:backward_walk"


Value.backward = backward

if __name__ == "__main__":
    a = Value(3.0)
    q = a * a + a
    q.backward()
    print("a.grad =", a.grad)  # 2·3 + 1 = 7
''')


def check(namespace):
    return check_step(namespace, 5)
