"""test_predictions_observed.py: tutor.predictions.observed reads what a block computed, and only that.

What it is: CPython tests of the function the page calls (through tutor.runtime.page_calls.call, with the page's
namespace) after a reader's run of the block a checked prediction is about: a number or a Value's
attribute comes back as it is, a list or tuple as how many items it holds, and anything else (a
missing name or attribute, text, a Value itself, infinity, a path that is not a plain dotted name)
is a ValueError in plain words.
What it is not: the check of the reader's answer (the page's judge.mjs, tests/article/test_predictions.py).
"""

import pytest

from tinygrad import Value
from tutor.runtime import page_calls
from tutor.predictions import observed


def namespace():
    x = Value(5)
    y = x * x
    y.backward()
    return {"x": x, "y": y, "count": 3, "name": "three", "big": float("inf")}


@pytest.mark.parametrize("path, found, label", [("x.grad", 10.0, "x.grad"), ("y.data", 25.0, "y.data"),
                                               ("y.edges", 2, "len(y.edges)"), ("count", 3, "count")])
def test_a_number_or_how_many_items_labelled_as_what_was_counted(path, found, label):
    """A list is counted, and labelled so: "The block computed len(network.layers) = 2", not "network.layers = 2"."""
    assert observed(path, namespace()) == {"value": found, "label": label}


@pytest.mark.parametrize("path, message", [
    ("z", "the page's blocks define no 'z'"),
    ("x.gradient", "x has no 'gradient'"),
    ("y.edges.first", "y.edges has no 'first'"),
    ("name", "name is 'three', not a number"),
    ("x", "not a number"),
    ("big", "not a number"),
    ("x.__class__", "is not a name such as x.grad"),
    ("x.grad + 1", "is not a name such as x.grad"),
    ("", "is not a name such as x.grad"),
])
def test_anything_else_is_said_in_plain_words(path, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        observed(path, namespace())


def test_the_page_may_call_it_with_its_namespace():
    answer = page_calls.call("tutor.predictions", "observed", {"path": "x.grad"}, namespace())
    assert answer == {"ok": True, "value": {"value": 10.0, "label": "x.grad"}, "error": None, "printed": "",
                      "printedLines": 0}
    refused = page_calls.call("tutor.predictions", "PATH", {}, namespace())
    assert refused["error"]["kind"] == "not-allowed"
