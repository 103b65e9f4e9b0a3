"""Tests of tutor.engine_edit (site_scripts/tutor/engine_edit.py) under CPython.

What it is: the check that decides whether a reader's edited tinygrad.py may become the site's
engine, and the install step the browser's worker runs at boot. The install tests lay out the same
files the browser unpacks (the tutor wheel's files from vendor.tutor_files() and tinygrad.py) in a
temporary site-packages folder, import the engine and a figure model from there first (as in an
interpreter restored from a memory snapshot), then install an edited engine and import again.
What it is not: a browser test (tests/site/test_edit_engine.py drives the page).
"""
import contextlib
import importlib
import io
import json
import sys
from pathlib import Path

import pytest

from tutor import engine_edit, session
from site_scripts.hooks import vendor

REPO = Path(__file__).resolve().parents[2]
ORIGINAL = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
FORGETFUL_BACKWARD = ORIGINAL.replace("parent.grad += grad * local_derivative",
                                      "parent.grad = grad * local_derivative")


def test_the_lesson_engine_passes_the_check():
    assert engine_edit.problems(ORIGINAL) == ""


def test_an_engine_that_forgets_paths_still_passes_the_check():
    assert FORGETFUL_BACKWARD != ORIGINAL
    assert engine_edit.problems(FORGETFUL_BACKWARD) == ""


def test_a_syntax_error_is_refused_with_its_line():
    problem = engine_edit.problems(ORIGINAL.replace("def backward(self):", "def backward(self:"))
    assert problem.startswith("Your engine has a syntax error")
    assert 'File "tinygrad.py (your edit)", line' in problem and "SyntaxError" in problem
    assert "def backward(self:" in problem  # the reader's line, not the installed engine's


def test_an_error_at_import_is_refused_with_the_engines_traceback():
    problem = engine_edit.problems(ORIGINAL + "\nraise RuntimeError('broken on purpose')\n")
    assert problem.startswith("Importing your engine failed")
    assert "RuntimeError: broken on purpose" in problem and 'File "tinygrad.py (your edit)"' in problem
    assert "engine_edit.py" not in problem


def test_exit_at_import_is_refused_not_obeyed():
    assert engine_edit.problems(ORIGINAL + "\nraise SystemExit(3)\n").startswith("Importing your engine failed")


def test_missing_names_are_listed():
    problem = engine_edit.problems(ORIGINAL.replace("def tanh(self):", "def hyperbolic_tangent(self):")
                                   .replace("def train_xor(", "def train_other("))
    assert "Value.tanh" in problem and "train_xor" in problem and "Value.backward" not in problem


def test_the_check_leaves_the_engine_in_use_alone():
    engine_before = sys.modules.get("tinygrad")
    engine_edit.problems(FORGETFUL_BACKWARD + "\nimport sys\nprint('imported', file=sys.stderr)\n")
    assert sys.modules.get("tinygrad") is engine_before


def test_the_page_gets_the_verdict_through_the_one_call_for_any_text():
    text = ORIGINAL.replace('"""A number that records', '"""Ein Wert — ünïcode, ‘quoted’ \\\\ that records', 1)
    assert text != ORIGINAL
    answer = json.loads(session.call("tutor.engine_edit", "check", json.dumps({"source": text})))
    assert answer == {"ok": True, "value": {"ok": True, "problem": ""}}
    broken = json.loads(session.call("tutor.engine_edit", "check", json.dumps({"source": "def ("})))
    assert broken["ok"] is True and broken["value"]["ok"] is False
    assert "syntax error" in broken["value"]["problem"]


@pytest.fixture
def site_packages(tmp_path, monkeypatch):
    """A folder laid out like the browser's site-packages, first on sys.path; sys.modules is put back."""
    for name, data in vendor.tutor_files().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    (tmp_path / "tinygrad.py").write_text(ORIGINAL, encoding="utf-8")
    saved = {name: module for name, module in sys.modules.items() if is_engine_or_tutor(name)}
    for name in saved:
        del sys.modules[name]
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield tmp_path
    for name in [name for name in sys.modules if is_engine_or_tutor(name)]:
        del sys.modules[name]
    sys.modules.update(saved)


def is_engine_or_tutor(name):
    return name == "tinygrad" or name == "tutor" or name.startswith("tutor.")


def a_gradient(tinygrad):
    a = tinygrad.Value(3)
    (a * a + a).backward()
    return a.grad


def test_install_replaces_an_engine_and_figure_models_already_imported(site_packages):
    session = importlib.import_module("tutor.session")
    paths_add_up = importlib.import_module("tutor.widgets.paths_add_up")
    assert a_gradient(importlib.import_module("tinygrad")) == 7
    installer = importlib.import_module("tutor.engine_edit")

    installer.install(FORGETFUL_BACKWARD)

    assert (site_packages / "tinygrad.py").read_text(encoding="utf-8") == FORGETFUL_BACKWARD
    assert a_gradient(importlib.import_module("tinygrad")) == 3
    assert importlib.import_module("tutor.session") is session  # the worker keeps its handle
    fresh_model = importlib.import_module("tutor.widgets.paths_add_up")
    assert fresh_model is not paths_add_up
    state = fresh_model.initial()
    state = fresh_model.seed_gradient(state)
    while state["can_step"]:
        state = fresh_model.backpropagate_one_operation(state)
    assert "= 7. But the engine's backward() gives a.grad = 3" in state["messages"][-1]


def test_figure_models_with_the_lesson_engine_agree_with_backward(site_packages):
    model = importlib.import_module("tutor.widgets.paths_add_up")
    state = model.seed_gradient(model.initial())
    while state["can_step"]:
        state = model.backpropagate_one_operation(state)
    assert state["messages"][-1].endswith("The engine's backward() gives the same a.grad.")


def test_install_on_a_fresh_interpreter_then_a_traceback_shows_the_edited_line(site_packages):
    broken_tanh = ORIGINAL.replace("result = math.tanh(self.data)", "result = math.tanh(self.data) / 0")
    importlib.import_module("tutor.engine_edit").install(broken_tanh)
    tinygrad = importlib.import_module("tinygrad")
    with pytest.raises(ZeroDivisionError) as raised:
        tinygrad.Value(1).tanh()
    assert "math.tanh(self.data) / 0" in "".join(raised.traceback[-1].statement.lines)
