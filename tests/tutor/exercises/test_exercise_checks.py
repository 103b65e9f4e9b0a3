"""test_exercise_checks.py: every exercise's hidden checks pass on its solution and fail on its starter code.

What it is: CPython tests of site_scripts/tutor/exercises/. The starter code is read from the chapter's
Markdown (the ```runnable fence with exercise="<name>", lesson numbers filled in as the build does),
so a changed starter is tested as it is. Each exercise runs in a namespace where the chapter's
earlier blocks ran first, as on the page. On the starter at least one check must fail, each failure
with a message that says what was expected (not a crash of the checker or of the starter); on the
SOLUTION every check must pass. Also: report() prints one JSON line, the build hook reads HINTS and
SOLUTION, and it stops the build for an exercise that has no module.
What it is not: a browser test (tests/site/test_exercises.py presses the buttons).
"""
import contextlib
import importlib
import inspect
import io
import re
from pathlib import Path

import pytest
from pymdownx.superfences import SuperFencesException

from site_scripts.hooks import lesson_numbers, runnable_fence
from tinygrad import train_line
from tutor import exercises
from tutor.runtime import page_calls, runner

REPO = Path(__file__).resolve().parents[3]
DOCS = REPO / "docs"
EXERCISES = REPO / "site_scripts" / "tutor" / "exercises"
FENCE = re.compile(r'^```runnable(?P<info>[^\n]*)\n(?P<code>.*?)^```\s*$', flags=re.M | re.S)
EXERCISE_OPTION = re.compile(r'\bexercise="(?P<name>[^"]+)"')
NAMES = sorted(path.stem for path in EXERCISES.glob("*.py") if path.stem != "__init__")
NUMBERS = lesson_numbers.texts_of(lesson_numbers.read_numbers_file(DOCS))


def chapter_blocks():
    """{exercise name: (chapter, [(source, exercise name or None) of the blocks before it], its starter code)}."""
    found = {}
    for chapter in sorted(DOCS.glob("*.md")):
        sources = []
        for fence in FENCE.finditer(chapter.read_text(encoding="utf-8")):
            code = lesson_numbers.PLACEHOLDER.sub(lambda match: NUMBERS[match[1]], fence["code"])
            option = EXERCISE_OPTION.search(fence["info"])
            if option:
                assert option["name"] not in found, f"exercise {option['name']} appears twice"
                found[option["name"]] = (chapter.name, list(sources), code)
            sources.append((code, option and option["name"]))
    return found


BLOCKS = chapter_blocks()


def module(name):
    return importlib.import_module(f"tutor.exercises.{name}")


def namespace_after(name, exercise_code, earlier_solved=False):
    """The page's namespace after its earlier blocks and then `exercise_code` ran, output dropped; with
    `earlier_solved`, the earlier exercises run their solutions (a reader who solved them)."""
    namespace = {"__name__": "__main__"}
    earlier = [module(exercise).SOLUTION if earlier_solved and exercise else code
               for code, exercise in BLOCKS[name][1]]
    with contextlib.redirect_stdout(io.StringIO()):
        for code in [*earlier, exercise_code]:
            exec(compile(code, f"<{name}>", "exec"), namespace)
    return namespace


def test_every_exercise_is_in_a_chapter_and_they_are_spread_out():
    assert NAMES and set(BLOCKS) == set(NAMES), "each module needs exactly one fence, and each fence a module"
    assert len(NAMES) >= 6
    assert len({chapter for chapter, _, _ in BLOCKS.values()}) >= 4


@pytest.mark.parametrize("name", NAMES)
def test_checks_fail_on_the_starter_with_a_message(name):
    starter = BLOCKS[name][2]
    results = exercises.results(name, namespace_after(name, starter), starter)
    failed = [result for result in results if not result["passed"]]
    assert results and failed, f"{name}: the starter code already passes every check"
    for result in failed:
        message = result["message"]
        if message.startswith(exercises.WAITING):  # it waits for a check that failed: no verdict of its own
            assert any(f"“{other['check']}”" in message for other in failed), message
            continue
        assert "expected" in message.lower() or "should" in message.lower(), message
        assert "Traceback" not in message and "Your code raised" not in message, message


@pytest.mark.parametrize("name", NAMES)
def test_checks_pass_on_the_solution(name):
    solution = module(name).SOLUTION
    results = exercises.results(name, namespace_after(name, solution, earlier_solved=True), solution)
    assert [result for result in results if not result["passed"]] == []
    assert all(result["check"] for result in results)


def shared_run(text, engine):
    """The most consecutive non-blank lines of `text` that `engine` also holds in a row (spaces aside)."""
    ours, theirs = ([line.strip() for line in each.splitlines() if line.strip()] for each in (text, engine))
    best, previous = 0, [0] * (len(theirs) + 1)
    for line in ours:
        current = [0] + [previous[index] + 1 if line == other else 0 for index, other in enumerate(theirs)]
        best, previous = max(best, *current), current
    return best


@pytest.mark.parametrize("name", NAMES)
def test_a_solution_quotes_the_engine_rather_than_copying_it(name):
    """A solution that is the engine's code (the chapter "Build your own engine") names the engine's `--8<--`
    sections (tutor/engine_sections.py), so it cannot drift from engine/tinygrad.py: no module copies it
    (test_own_engine_checks.py checks the quotes)."""
    engine = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
    assert shared_run((EXERCISES / f"{name}.py").read_text(encoding="utf-8"), engine) <= 5


@pytest.mark.parametrize("name", NAMES)
def test_solution_replaces_the_starter_and_hints_are_given(name):
    exercise = runnable_fence.exercise_parts(name)
    assert exercise["solution"] == module(name).SOLUTION != BLOCKS[name][2]
    assert len(exercise["hints"]) >= 2


def test_the_page_gets_the_results_through_the_one_call_with_its_namespace():
    """runtime.call("tutor.exercises", "results", {name}, {page}) as the worker makes it: the checks see
    the page's namespace, and an error of the reader's code becomes a message, not a traceback."""
    namespace = runner.fresh_namespace("exercise-test-page")
    namespace["relu"] = lambda value: 1 / 0  # a reader's relu that crashes
    answer = page_calls.call("tutor.exercises", "results", {"name": "relu"}, namespace=namespace)
    assert answer["ok"] is True
    assert [result["passed"] for result in answer["value"]] == [False] * 3
    assert answer["value"][0]["message"] == "Your code raised ZeroDivisionError: division by zero"
    unknown = page_calls.call("tutor.exercises", "results", {"name": "no_such"}, namespace=namespace)["error"]
    assert (unknown["kind"], unknown["type"], unknown["message"]) == (
        "exception", "ValueError", "there is no exercise named 'no_such'")


def test_missing_name_gets_a_message():
    results = module("faster_line").check({})
    assert results[0] == {"check": "fast_rate is a positive number", "passed": False,
                          "message": "Expected a number named `fast_rate`, but your code does not define it."}


def test_the_fence_refuses_an_exercise_without_a_module():
    with pytest.raises(SuperFencesException, match="no module"):
        runnable_fence.validate_runnable("", {"exercise": "no_such_exercise"}, {}, {}, None)
    with pytest.raises(SuperFencesException, match="name of a module"):
        runnable_fence.validate_runnable("", {"exercise": "../relu"}, {}, {}, None)


def test_fit_new_line_wants_the_loss_of_the_weights_it_prints():
    """The loss built inside the loop belongs to the weights before the last update: not accepted."""
    solution = module("fit_new_line").SOLUTION
    final_loss = "loss = mean_squared_error()                      # the loss of the slope and intercept printed below\n"
    assert solution.count(final_loss) == 1 and BLOCKS["fit_new_line"][2].count(final_loss) == 1
    code = solution.replace(final_loss, "")
    results = exercises.results("fit_new_line", namespace_after("fit_new_line", code), code)
    assert [result["passed"] for result in results] == [True, True, False, True]
    assert "it was built before the last update" in results[2]["message"]


@pytest.mark.parametrize("rate, says", [
    ("0.01", "Is the learning rate too small?"),      # slope 2.934 after 500 steps, from below
    ("0.24", "is the learning rate too large?"),      # from 0.24 on the steps overshoot more each time
    (None, "the loop never changed it"),               # no update at all
])
def test_fit_new_line_says_which_way_a_rate_misses(rate, says):
    fit = module("fit_new_line")
    update = f"gradient_step((slope, intercept), {fit.RATE})"
    assert fit.SOLUTION.count(update) == 1 and update in fit.HINTS[-1]
    assert fit.RATE == inspect.signature(train_line).parameters["learning_rate"].default
    code = fit.SOLUTION.replace(update, f"gradient_step((slope, intercept), {rate})" if rate else "pass")
    results = fit.check(namespace_after("fit_new_line", code))
    assert not results[0]["passed"] and says in results[0]["message"], results[0]["message"]


@pytest.mark.parametrize("check, target", [("fitted_slope", 3.0), ("fitted_intercept", -2.0)])
def test_fit_new_line_wants_each_parameter_within_a_tenth_of_a_percent(check, target):
    """As the chapter says: slope and intercept end within 0.1 % of 3 and -2."""
    fit = module("fit_new_line")
    name = check.removeprefix("fitted_")
    for off, passes in [(0.0009, True), (0.0011, False)]:
        namespace = {"slope": fit.engine().Value(3.0), "intercept": fit.engine().Value(-2.0)}
        namespace[name] = fit.engine().Value(target * (1 - off))
        if passes:
            getattr(fit, check)(namespace)
        else:
            with pytest.raises(fit.NotYet, match=r"within 0\.1 %"):
                getattr(fit, check)(namespace)
    assert r"within $0.1\,\%$ of $3$ and $-2$" in (DOCS / "training.md").read_text(encoding="utf-8")
