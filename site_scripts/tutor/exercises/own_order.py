"""Exercise (chapter "Build your own engine", step 4): the topological order, with a list as the stack.

What it is: the hints and solution of the block with exercise="own_order" in docs/build-your-own.md;
its checks are step 4 of tutor.build_own.
What it is not: the starter code, which lives in the chapter's Markdown.
"""
from ..build_own import check_step
from ..engine_sections import from_engine

HINTS = [
    "Each entry of the stack is a pair (value, parents_done). Take one off with `node, parents_done = stack.pop()`.",
    "The first time a value comes off (`parents_done` is False and it is not in `seen`): add it to `seen`, put "
    "it back as `(node, True)`, then push `(parent, False)` for every `parent, _ in node.edges`.",
    "When it comes off with `parents_done` True, all its parents are already in `order` (they were pushed after "
    "it, so they came off first): `order.append(node)`.",
]

SOLUTION = from_engine('''\
--8<-- "engine/tinygrad.py:topological_order"


Value.topological_order = topological_order

if __name__ == "__main__":
    a = Value(2.0)
    b = a * a
    c = b + a
    print([node.data for node in c.topological_order()])
''')


def check(namespace):
    return check_step(namespace, 4)
