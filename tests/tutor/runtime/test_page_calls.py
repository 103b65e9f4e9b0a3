"""Tests of tutor.runtime.page_calls, the page's one way to call the lesson's Python (runtime.call), in CPython.

What it is: the explicit lists (a module's PAGE_CALLS, nothing else: not a helper, not an imported
name such as a model's Value, not a module without the list); every figure model's list names its own
functions, "initial" first, and every function its view asks for; the value, and every way a call can
fail as an error value with a kind (not-allowed, bad-arguments, exception, stopped, not-json), never an
exception out of call(); what the function prints is kept from the page's console and returned: its
first lines and how many it printed (a flood is only counted).
What it is not: the dispatcher's checks of a request (test_contract.py) nor the worker (tests/site).
"""
import ast
import json
import math
import re
import sys
import types

import pytest

from tinygrad import Value
from tutor.runtime import page_calls, stopping
from tutor_sources import FIGURE_MODELS, figure_names


def test_a_figure_model_answers_its_state():
    answer = page_calls.call("tutor.figures.x_times_x", "initial", {})
    assert answer["ok"] is True and answer["error"] is None and isinstance(answer["value"], dict)
    json.dumps(answer, allow_nan=False)


@pytest.mark.parametrize("module, function", [
    ("tutor.engine_edit", "install"),          # a module the page may call, but not this function
    ("tutor.runtime.dispatcher", "dispatcher"),  # no PAGE_CALLS at all
    ("tutor.figures.line_fit", "Value"),       # a name the model imported
    ("tutor.figures.gradient_cost", "random"),  # a module the model imported
    ("tutor.figures.display", "number_text"),  # a helper module of the figures
    ("tutor.figures.line_fit", "descend"),     # a helper of the model itself
    ("tutor.figures.x_times_x", "_private"),
    ("tutor.figures.x_times_x", "PAGE_CALLS"),
    ("tutor.figures.no_such_figure", "initial"),
    ("tutor.widgets.backprop_graph", "build"),  # the folder of old
    ("os", "system"),
    (None, "initial"),
    ("tutor.figures.x_times_x", None),
])
def test_only_what_a_module_lists_in_page_calls_can_be_called(module, function):
    answer = page_calls.call(module, function, {})
    assert answer["ok"] is False and answer["value"] is None
    assert answer["error"]["kind"] == "not-allowed" and answer["error"]["message"].startswith("call:")


def own_functions(path):
    """The names a model's file defines itself (def, or an assignment), without those it imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined, imported = set(), set()
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined.add(statement.name)
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                defined.update(name.id for name in names if isinstance(name, ast.Name))
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            imported.update((alias.asname or alias.name).partition(".")[0] for alias in statement.names)
    return defined - imported


@pytest.mark.parametrize("name", figure_names())
def test_every_figure_model_lists_its_own_functions_and_every_one_its_view_asks_for(name):
    model = __import__(f"tutor.figures.{name}", fromlist=["PAGE_CALLS"])
    path = FIGURE_MODELS / f"{name}.py"
    assert isinstance(model.PAGE_CALLS, tuple) and model.PAGE_CALLS[0] == "initial"  # figure.mjs asks for it
    assert set(model.PAGE_CALLS) <= own_functions(path), "PAGE_CALLS names only functions the model defines"
    assert all(callable(getattr(model, function)) for function in model.PAGE_CALLS)
    view = (FIGURE_MODELS / f"{name}.mjs").read_text(encoding="utf-8")
    asked = {word for word in re.findall(r'"([a-z_][a-z0-9_]*)"', view) if word in own_functions(path)}
    assert asked <= set(model.PAGE_CALLS), f"the view asks for {sorted(asked - set(model.PAGE_CALLS))}"


def test_the_exercises_and_the_engine_check_list_one_function_each():
    import tutor.engine_edit
    import tutor.exercises
    assert tutor.exercises.PAGE_CALLS == ("results",) and tutor.engine_edit.PAGE_CALLS == ("check",)


def test_what_the_function_raises_comes_back_as_an_exception_with_python_s_type_message_and_traceback():
    answer = page_calls.call("tutor.figures.line_fit", "reset", {"learning_rate": "fast"})
    error = answer["error"]
    assert answer["ok"] is False and error["kind"] == "exception" and error["type"] == "ValueError"
    assert "fast" in error["message"] and error["traceback"].endswith(f"ValueError: {error['message']}\n")
    assert "line_fit.py" in error["traceback"] and "page_calls.py" not in error["traceback"]


def test_arguments_that_do_not_fit_are_refused_before_the_call():
    answer = page_calls.call("tutor.figures.line_fit", "initial", {"unexpected": 1})
    assert answer["error"]["kind"] == "bad-arguments" and "unexpected" in answer["error"]["message"]
    assert page_calls.call("tutor.figures.line_fit", "step", {})["error"]["kind"] == "bad-arguments"


@pytest.fixture
def test_model(monkeypatch):
    """A model of the tutor package made for the test, whose functions misbehave as a model could."""
    model = types.ModuleType("tutor.figures.misbehaving")
    model.PAGE_CALLS = ("a_value", "not_a_number", "a_set", "talkative", "interrupted", "its_own_interrupt", "exits",
                        "flood")
    model.a_value = lambda: Value(2)
    model.not_a_number = lambda: {"x": math.nan}
    model.a_set = lambda: {1, 2}

    def talkative():
        print("a model's print")
        print("and its warning", file=sys.stderr)
        return 1

    def interrupted():
        raise stopping.StopPressed  # as Python's handler of the Stop button's interrupt does

    def its_own_interrupt():  # an edited engine's, or an exercise's function's
        raise KeyboardInterrupt("mine")

    def exits():
        raise SystemExit(2)

    def flood():  # an engine whose Value.__init__ prints, trained for a while
        for number in range(100_000):
            print(f"made value {number}")
        print("and no line break", end="")
        return 3

    model.talkative, model.interrupted, model.exits, model.flood = talkative, interrupted, exits, flood
    model.its_own_interrupt = its_own_interrupt
    monkeypatch.setitem(sys.modules, model.__name__, model)
    return model.__name__


@pytest.mark.parametrize("function", ["a_value", "not_a_number", "a_set"])
def test_a_value_the_page_cannot_receive_is_a_not_json_error(test_model, function):
    answer = page_calls.call(test_model, function, {})
    assert answer["ok"] is False and answer["error"]["kind"] == "not-json"
    assert f"{test_model}.{function}()" in answer["error"]["message"]
    json.dumps(answer, allow_nan=False)


def test_what_a_function_prints_is_kept_from_the_console_and_returned(test_model, capsys):
    answer = page_calls.call(test_model, "talkative", {})
    assert answer == {"ok": True, "value": 1, "error": None, "printed": "a model's print\nand its warning\n",
                      "printedLines": 2}
    assert capsys.readouterr() == ("", "")


def test_a_flood_of_prints_is_counted_and_only_its_first_lines_kept(test_model, capsys):
    answer = page_calls.call(test_model, "flood", {})
    assert answer["printedLines"] == 100_001  # the last line has no line break
    assert answer["printed"] == "".join(f"made value {number}\n" for number in range(page_calls.PRINTED_LINES))
    assert capsys.readouterr() == ("", "")


def test_stop_and_exit_in_a_call_are_error_values_too(test_model):
    assert page_calls.call(test_model, "interrupted", {})["error"]["kind"] == "stopped"
    own = page_calls.call(test_model, "its_own_interrupt", {})["error"]
    assert own["kind"] == "exception" and own["type"] == "KeyboardInterrupt" and own["message"] == "mine"
    exited = page_calls.call(test_model, "exits", {})["error"]
    assert exited["kind"] == "exception" and exited["type"] == "SystemExit"


def test_a_page_namespace_is_passed_as_the_namespace_argument():
    answer = page_calls.call("tutor.exercises", "results", {"name": "faster_line"}, namespace={"fast_rate": 0.2})
    assert answer["ok"] is True and answer["value"][0]["passed"] is True
