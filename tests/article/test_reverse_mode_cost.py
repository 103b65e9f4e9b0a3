"""Why the backward pass is cheap (issue #35): the block "Every path against one backward pass" counts right.

What it is: the block of "Backpropagation through a graph", run with the page's other blocks under CPython
as the build runs it, must print for n diamonds 2ⁿ paths, 2ⁿ · 2n multiplications when every path's
product is added up (each path crosses two edges per diamond), 6n for backward() (one per edge: two
into each sum, two into each product), and the same gradient both ways, which the engine says is 5ⁿ.
What it is not: the page in a browser (tests/site/test_article_blocks.py runs every block in Pyodide).
"""
from tinygrad import Value

from helpers import cpython_outputs
from test_claims import blocks_of

TITLE = "Every path against one backward pass"


def test_the_paths_grow_as_two_to_the_n_and_backward_as_the_edges(site):
    blocks = blocks_of(site, "backpropagation")
    titles = [title for title, _ in blocks]
    ok, printed = cpython_outputs([source for _, source in blocks])[titles.index(TITLE)]
    assert ok, printed
    rows = [line.split() for line in printed.splitlines()[1:]]
    assert [int(row[0]) for row in rows] == [1, 2, 4, 8, 12]
    for n, paths, by_paths, by_backward, same in rows:
        n, paths, by_paths, by_backward = int(n), int(paths), int(by_paths), int(by_backward)
        assert (paths, by_paths, by_backward, same) == (2 ** n, 2 ** n * 2 * n, 6 * n, "True"), n
    assert int(rows[-1][2]) > 1000 * int(rows[-1][3])  # twelve diamonds: the sum over paths costs over 1,000 times more


def test_the_diamonds_gradient_is_five_to_the_n():
    x = Value(1.0)
    v = x
    for _ in range(12):
        v = v * 2 + v * 3
    v.backward()
    assert x.grad == 5 ** 12
