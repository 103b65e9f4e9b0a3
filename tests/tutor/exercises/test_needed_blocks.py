"""test_needed_blocks.py: the class overview's re-check runs only the blocks an exercise's checks need, and the verdicts stay.

What it is: CPython tests of site_scripts/tutor/needed_blocks.py. For every chapter with exercises, its blocks up to
the last exercise run as recheck.mjs runs them, once all and once only those plan() keeps, with every exercise
the solution, then the starter: each exercise's check results are the same both ways. plan() leaves out a
lesson block nothing reads, but keeps one whose names the learner's code reads, one a learner edited, one that
changes more than its own names, and every block before code that reads its namespace some other way; a name
the code sets before it reads it (in the same run of statements) is not read from before.
What it is not: the browser's part (tests/site/test_class_overview.py) or the checks themselves (test_exercise_checks.py).
"""
import contextlib
import io

import pytest

from test_exercise_checks import DOCS, EXERCISE_OPTION, FENCE, NUMBERS, module
from site_scripts.hooks import lesson_numbers
from tutor import exercises, needed_blocks


def chapters():
    """{chapter file: [(lesson code, exercise name or None), ...] up to its last exercise}, for chapters with one."""
    found = {}
    for chapter in sorted(DOCS.glob("*.md")):
        blocks = []
        for fence in FENCE.finditer(chapter.read_text(encoding="utf-8")):
            option = EXERCISE_OPTION.search(fence["info"])
            code = lesson_numbers.PLACEHOLDER.sub(lambda match: NUMBERS[match[1]], fence["code"])
            blocks.append((code, option and option["name"]))
        last = max((number for number, (_, name) in enumerate(blocks, 1) if name), default=0)
        if last:
            found[chapter.name] = blocks[:last]
    return found


CHAPTERS = chapters()


def verdicts(blocks, codes, numbers):
    """{exercise: its check results} with only the blocks `numbers` run, in order, in one namespace."""
    namespace, found = {"__name__": "__main__"}, {}
    for number in numbers:
        (_, name), code = blocks[number - 1], codes[number - 1]
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, f"<block {number}>", "exec"), namespace)
        if name:
            found[name] = exercises.results(name, namespace, code)
    return found


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
@pytest.mark.parametrize("kind", ["solution", "starter"])
def test_the_blocks_left_out_change_no_verdict(chapter, kind):
    blocks = CHAPTERS[chapter]
    codes = [module(name).SOLUTION if name and kind == "solution" else code for code, name in blocks]
    kept = needed_blocks.plan({chapter: [{"code": code, "lesson": lesson, "exercise": name}
                                         for code, (lesson, name) in zip(codes, blocks)]})[chapter]
    assert kept == sorted(set(kept)) and all(number in kept for number, (_, name) in enumerate(blocks, 1) if name)
    assert verdicts(blocks, codes, kept) == verdicts(blocks, codes, range(1, len(blocks) + 1))


def test_some_lesson_blocks_are_left_out():
    left_out = {chapter: len(blocks) - len(needed_blocks.plan({chapter: [
        {"code": code, "lesson": code, "exercise": name} for code, name in blocks]})[chapter])
        for chapter, blocks in CHAPTERS.items()}
    assert left_out["training.md"] >= 2, left_out  # train_line's and train_xor's runs, which the exercises never read


LESSON = [("ready = 4\nprint(ready)\n", None), ("unused = [1, 2]\n", None), ("x = 0.0\n", "cube_by_hand")]


def plan(*codes):
    """plan() of LESSON's chapter where the learner's code for each block is `codes` (None: the lesson's)."""
    return needed_blocks.plan({"c/": [{"code": code or lesson, "lesson": lesson, "exercise": exercise}
                                      for code, (lesson, exercise) in zip(codes, LESSON)]})["c/"]


@pytest.mark.parametrize(("codes", "kept"), [
    ((None, None, "x = 6\n"), [3]),                                      # reads nothing of the blocks before
    ((None, None, "x = ready + 2\n"), [1, 3]),                           # reads `ready`
    ((None, None, "x = len(unused) * 3\n"), [2, 3]),
    ((None, "unused = [ready]\n", "x = 6\n"), [1, 2, 3]),                # an edited block runs, and what it reads
    ((None, None, "x = globals()['ready'] + 2\n"), [1, 2, 3]),           # reads its namespace some other way
    ((None, None, "import sys\nx = sys._getframe().f_globals['ready']\n"), [1, 2, 3]),
    ((None, None, "x = (\n"), [1, 2, 3]),                                # cannot be parsed
    (("ready = 4\nq = 1\n", "unused = 2\n", "x = 1\n"), [1, 2, 3]),      # both edited: they run
    (("q = 4\n", None, "x = q\n"), [1, 3]),
    ((None, None, "for i in range(2):\n    ready = i\n    x = ready\n"), [3]),  # reads only what it set just before
    ((None, None, "if x:\n    ready = 1\nx = ready\n"), [1, 3]),          # set only on one branch
    ((None, None, "x = [ready for ready in (1, 2)][0]\n"), [3]),
])
def test_a_block_is_left_out_only_when_nothing_reads_what_it_defines(codes, kept):
    assert plan(*codes) == kept


@pytest.mark.parametrize("lesson", ["import math\nmath.tau = 1\n", "numbers = {}\nnumbers['a'] = 1\nother[0] = 1\n",
                                    "def f():\n    global g\n    g = 1\nf()\n", "from math import *\n", "x = 1\ndel x\n"])
def test_a_block_that_changes_more_than_its_own_names_always_runs(lesson):
    chapter = [{"code": lesson, "lesson": lesson, "exercise": None}, {"code": "x = 1\n", "lesson": "x = 0\n", "exercise": "cube_by_hand"}]
    assert needed_blocks.plan({"c/": chapter}) == {"c/": [1, 2]}
