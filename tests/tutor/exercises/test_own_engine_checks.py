"""test_own_engine_checks.py: the chapter "Build your own engine" in CPython: its checks' words, and the joined engine.

What it is: a wrong local derivative that only the random expressions catch is caught there; the
reader's file, the chapter's blocks joined in page order as the page's "Use my engine" and
"Download my engine" join them (here with every step solved), passes the site's engine check
(tutor.engine_edit.check), reproduces engine/tinygrad.py's training numbers exactly, runs as
`python3 tinygrad.py`, and trains XOR to the lesson's predictions inside Pyodide too.
What it is not: the table of typical mistakes and their messages (test_mistakes.py), the
starter/solution test every exercise gets (test_exercise_checks.py) or the browser test of the
chapter (tests/site/test_build_own.py).
"""
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

import lesson_numbers  # site_scripts/hooks/lesson_numbers.py: the one reading of docs/numbers.yml
from test_exercise_checks import EXERCISE_OPTION, FENCE  # one way to read the chapter's fences
from tutor import engine_edit
from tutor.build_own import check_step

REPO = Path(__file__).resolve().parents[3]
CHAPTER = REPO / "docs" / "build-your-own.md"
STEPS = ["own_value", "own_operators", "own_power_tanh", "own_order", "own_backward", "own_divide_exp",
         "own_network"]
NUMBERS = lesson_numbers.read_numbers_file(REPO / "docs")["numbers"]
XOR_PREDICTIONS = json.loads(NUMBERS["xor_predictions"]["text"])


def solution(step):
    return importlib.import_module(f"tutor.exercises.{STEPS[step - 1]}").SOLUTION


def chapter_blocks():
    """[(exercise name or None, code)] of the chapter's runnable blocks, in page order."""
    found = []
    for fence in FENCE.finditer(CHAPTER.read_text(encoding="utf-8")):
        option = EXERCISE_OPTION.search(fence["info"])
        found.append((option and option["name"], fence["code"]))
    return found


def joined_file(codes):
    """The reader's tinygrad.py as the page joins it (build-own.mjs joined()): every block, in order."""
    return "".join(["\n\n\n".join(code.rstrip() for code in codes), "\n"])


def solved_file():
    return joined_file([solution(STEPS.index(name) + 1) if name else code for name, code in chapter_blocks()])


def namespace_with(step, changed=None):
    """The page's namespace after steps 1..step ran with their solutions; `changed` maps a step number to the
    reader's (mistaken) code for it."""
    namespace = {"__name__": "not the main program"}  # the steps' examples stay quiet
    for number in range(1, step + 1):
        exec(compile((changed or {}).get(number, solution(number)), f"<step {number}>", "exec"), namespace)
    return namespace


def failures(step, changed):
    return [f"{result['check']}: {result['message']}" for result in check_step(namespace_with(step, changed), step)
            if not result["passed"]]


def mistake(step, old, new):
    code = solution(step)
    assert old in code, f"step {step}'s solution has no {old!r}"
    return code.replace(old, new)


def test_random_expressions_catch_a_wrong_derivative_the_named_checks_do_not_try():
    """A derivative that is right at the named checks' points but wrong elsewhere is caught by the random graphs."""
    wrong = mistake(3, "((self, 1 - result ** 2),)",
                    "((self, 1 - result ** 2 if abs(self.data) in (0.5, 1.2) else 1.0),)")
    found = failures(3, {3: wrong})
    assert len(found) == 1 and found[0].startswith("random expressions with ** and tanh"), found
    assert "but nudging" in found[0]


# The parts of the steps' solutions that are the lesson's engine, by the sections the site quotes (engine/tinygrad.py).
ENGINE_SECTIONS = {"own_order": ["topological_order"], "own_backward": ["backward_walk"],
                   "own_network": ["mlp", "gradient_step", "train_xor"]}


def engine_section(name):
    """A section of engine/tinygrad.py as pymdownx.snippets includes it (markers dropped), dedented to the left."""
    reader = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={
        "pymdownx.snippets": {"base_path": [str(REPO)], "check_paths": True, "dedent_subsections": True}})
    return "\n".join(reader.preprocessors["snippet"].run([f'--8<-- "engine/tinygrad.py:{name}"']))


@pytest.mark.parametrize("step", ENGINE_SECTIONS)
def test_the_solutions_are_the_lessons_engine_as_the_site_quotes_it(step):
    """A step whose solution is a part of the engine copies it exactly, so solution and engine cannot drift apart."""
    for section in ENGINE_SECTIONS[step]:
        text = engine_section(section)
        assert text.count("\n") >= 3 and "--8<--" not in text, text
        assert text in solution(STEPS.index(step) + 1), f"{step}: its solution differs from the engine's {section}"


def test_the_chapter_is_the_steps_in_order_then_the_lessons_train_line():
    names = [name for name, _ in chapter_blocks()]
    assert names == [*STEPS, None]
    assert "def train_line(" in chapter_blocks()[-1][1]


def test_the_solved_file_passes_the_sites_engine_check():
    assert engine_edit.check(solved_file()) == {"ok": True, "problem": "", "note": ""}


def test_the_starters_joined_are_not_mistaken_for_a_finished_engine():
    """With no step done, the file still imports (so a draft can be checked), but it does not train."""
    starters = joined_file([code for _, code in chapter_blocks()])
    namespace = {"__name__": "tinygrad"}
    exec(compile(starters, "tinygrad.py", "exec"), namespace)
    predictions, _ = namespace["train_xor"](steps=3)
    assert [round(p, 4) for p in predictions] != XOR_PREDICTIONS


def test_the_solved_file_reproduces_the_lessons_engine_and_runs_as_a_program(tmp_path):
    path = tmp_path / "tinygrad.py"
    path.write_text(solved_file(), encoding="utf-8")
    theirs = {"__name__": "tinygrad"}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), theirs)
    lesson = importlib.import_module("tinygrad")
    assert Path(lesson.__file__).resolve() == REPO / "engine" / "tinygrad.py"

    predictions, loss = theirs["train_xor"]()
    assert [round(p, 4) for p in predictions] == XOR_PREDICTIONS
    lesson_predictions, lesson_loss = lesson.train_xor()
    assert predictions == pytest.approx(lesson_predictions, rel=1e-12)
    assert loss == pytest.approx(lesson_loss, abs=1e-26)  # both are rounding noise: the fit is exact
    assert theirs["train_line"]() == pytest.approx(lesson.train_line(), rel=1e-9, abs=1e-12)
    assert len(theirs["MLP"]([2, 4, 1]).parameters()) == int(NUMBERS["mlp_parameters"]["text"])

    ran = subprocess.run([sys.executable, "tinygrad.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert f"xor predictions: {XOR_PREDICTIONS}" in ran.stdout
    assert "a.grad = 7.0" in ran.stdout  # step 5's example: 2·3 + 1


@pytest.mark.skipif(shutil.which("node") is None or not (REPO / "node_modules" / "pyodide").is_dir(),
                    reason="needs Node and node_modules/pyodide")
def test_the_solved_file_trains_xor_in_pyodide_too():
    ran = subprocess.run(["node", "tests/pyodide/run_in_pyodide.mjs", "tests/pyodide/run_joined_engine.py",
                          "site_scripts/tutor/engine_edit.py", solved_file()],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "engine check: ok" in ran.stdout, ran.stdout
    assert f"xor predictions: {XOR_PREDICTIONS}" in ran.stdout, ran.stdout
    assert "pyodide runtime alive after the script: yes" in ran.stdout
