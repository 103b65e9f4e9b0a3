"""Tests of tutor.session.call, the page's one way to call the lesson's Python (runtime.call), in CPython.

What it is: the allow-list (figure models' public functions, an exercise's results, the engine check;
nothing else, e.g. not engine_edit.install), the structured answer and error, and the page namespace
passed to the functions that ask for it.
What it is not: the worker's side (tests/site run it in Chromium through the figures, exercises and
the engine editor).
"""
import json

import pytest

from tutor import session


def called(module, function, page=None, **arguments):
    return json.loads(session.call(module, function, json.dumps(arguments), page))


def test_a_figure_model_answers_its_state():
    answer = called("tutor.figures.x_times_x", "initial")
    assert answer["ok"] is True and isinstance(answer["value"], dict)


@pytest.mark.parametrize("module, function", [
    ("tutor.engine_edit", "install"),          # a module the page may call, but not this function
    ("tutor.session", "run"),                  # not a module the page may call
    ("os", "system"),
    ("tutor.figures.x_times_x", "_private"),
    ("tutor.figures.no_such_figure", "initial"),
    ("tutor.figures.x_times_x", "no_such_function"),
])
def test_only_the_allow_listed_functions_can_be_called(module, function):
    answer = called(module, function)
    assert answer["ok"] is False and answer["type"] == "ValueError"
    assert "call:" in answer["message"]


def test_what_the_function_raises_comes_back_as_a_structured_error_with_python_s_message():
    answer = called("tutor.figures.line_fit", "initial", unexpected=1)
    assert answer["ok"] is False and answer["type"] == "TypeError"
    assert "unexpected" in answer["message"]
    assert answer["traceback"].endswith(answer["message"] + "\n") and "session.py" not in answer["traceback"]


def test_a_page_namespace_is_passed_only_when_the_page_has_one():
    answer = called("tutor.exercises", "results", page="page-that-never-ran", name="relu")
    assert answer == {"ok": False, "type": "ValueError", "traceback": answer["traceback"],
                      "message": "call: no code block of this page has run yet, so it has no namespace"}
    session.fresh_namespace("page-that-ran")["fast_rate"] = 0.2
    answer = called("tutor.exercises", "results", page="page-that-ran", name="faster_line")
    assert answer["ok"] is True and answer["value"][0]["passed"] is True
