"""MkDocs hook: fills the page "For teachers" (docs/teachers.md) from the lesson itself.

What it is: two kinds of marker, each alone on its line or inside a table cell, replaced in the
Markdown before it is rendered:
  [[solution NAME]]      the SOLUTION of site_scripts/tutor/exercises/NAME.py as a Python code block
                         (read by runnable_fence.exercise_parts, as the exercise pages read it),
                         so the answer key and the exercise's "Show the solution" have one source;
  [[minutes PAGE.md]]    an estimate of the minutes a class needs for docs/PAGE.md, from the page
                         itself: its prose (no code, display math or HTML tags) read at READING_SPEED words a minute, plus a fixed time per
                         runnable block, figure and exercise (the page states the same rule).
A page that uses [[solution ...]] must name every exercise exactly once, so a new exercise cannot
be left out of the answer key; an unknown name stops the build with a message naming it.
What it is not: the page's prose, which is written by hand in docs/teachers.md, nor a check that
the solutions pass (tests/tutor/exercises/test_exercise_checks.py does that).
"""
import math
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

import runnable_fence  # MkDocs puts the hooks' folder on sys.path while it loads a hook
from tutor_sources import EXERCISES

MARKER = re.compile(r"\[\[(?P<kind>solution|minutes) (?P<name>[^\]\s]+)\]\]")
READING_SPEED = 120            # words of prose a minute, for text with formulas in it
MINUTES_PER_BLOCK = 2          # a runnable block that is not an exercise: predict, run, read the output
MINUTES_PER_FIGURE = 5
MINUTES_PER_EXERCISE = 10
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n.*?^```\s*$", flags=re.M | re.S)
DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", flags=re.S)
HTML_TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
FIGURE = re.compile(r'data-widget="')


def exercise_names():
    """Every exercise module's name, sorted."""
    return sorted(path.stem for path in EXERCISES.glob("[!_]*.py"))


def chapter_counts(markdown):
    """{"words", "blocks", "figures", "exercises"} of a chapter's Markdown source."""
    fences = [match["info"] for match in FENCE.finditer(markdown)]
    runnable = [info for info in fences if info.startswith("runnable")]
    exercises = sum("exercise=" in info for info in runnable)
    prose = HTML_TAG.sub(" ", DISPLAY_MATH.sub(" ", FENCE.sub(" ", markdown)))
    return {"words": len(WORD.findall(prose)), "blocks": len(runnable) - exercises,
            "figures": len(FIGURE.findall(markdown)), "exercises": exercises}


def minutes(markdown):
    """The estimate, rounded up to a multiple of 5 minutes."""
    counts = chapter_counts(markdown)
    total = (counts["words"] / READING_SPEED + counts["blocks"] * MINUTES_PER_BLOCK
             + counts["figures"] * MINUTES_PER_FIGURE + counts["exercises"] * MINUTES_PER_EXERCISE)
    return 5 * math.ceil(total / 5)


def solution_block(name):
    try:
        solution = runnable_fence.exercise_parts(name)["solution"]
    except SuperFencesException as problem:
        raise PluginError(f"teachers_page: [[solution {name}]]: {problem}") from None
    return f"```python\n{solution.rstrip()}\n```"


def on_page_markdown(markdown, page, config, files):
    found = [match["name"] for match in MARKER.finditer(markdown) if match["kind"] == "solution"]
    if found and sorted(found) != exercise_names():
        missing = sorted(set(exercise_names()) - set(found))
        twice = sorted({name for name in found if found.count(name) > 1})
        raise PluginError(f"teachers_page: {page.file.src_uri} must give every exercise's solution once; "
                          f"missing: {missing or 'none'}, twice: {twice or 'none'}")
    docs = Path(config["docs_dir"])

    def filled(match):
        if match["kind"] == "solution":
            return solution_block(match["name"])
        chapter = docs / match["name"]
        if chapter.suffix != ".md" or not chapter.is_file():
            raise PluginError(f"teachers_page: [[minutes {match['name']}]] names no page of {docs}")
        return str(minutes(chapter.read_text(encoding="utf-8")))

    return MARKER.sub(filled, markdown)
