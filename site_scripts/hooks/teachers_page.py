"""MkDocs hook: fills the page "For teachers" (docs/teachers.md) from the lesson itself.

What it is: two kinds of marker, each alone on its line or inside a table cell, replaced in the
Markdown before it is rendered:
  [[solution NAME]]      the SOLUTION of site_scripts/tutor/exercises/NAME.py as a Python code block
                         (read by runnable_fence.exercise_parts, as the exercise pages read it),
                         so the answer key and the exercise's "Show the solution" have one source;
  [[minutes PAGE.md]]    an estimate of the minutes a class needs for docs/PAGE.md, from the page
                         itself: its prose (no code, display math or HTML tags) read at READING_SPEED words a minute, plus a fixed time per
                         runnable block, figure and exercise (the page states the same rule);
  [[exit-questions PAGE.md]]  that chapter's exit questions, each answer in a collapsed note ("Answer",
                         a <details> that needs no JavaScript and prints open), and its misconceptions,
                         from docs/teachers-questions.yml (QUESTIONS_FILE, kept out of the site; the tests
                         recompute every number in it);
  [[figures PAGE.md]]    how many figures docs/PAGE.md holds, in words: "one figure", "three figures";
  [[rule NAME]]          a number of the minutes' rule, so a page can state it (the home page does):
                         reading (READING_SPEED), block, figure, exercise (MINUTES_PER_...);
and, after the build, in the built page (the sizes are only known then):
  [[megabytes python]]   the files Python needs to start on a page (Pyodide, the start-up snapshot, the
                         wheels: PYTHON_FILES), in megabytes of 10^6 bytes with one decimal;
  [[megabytes offline]]  every file of the offline copy, as offline.py lists it.
A page that uses [[solution ...]] must name every exercise exactly once, so a new exercise cannot
be left out of the answer key; an unknown name stops the build with a message naming it.
What it is not: the page's prose, which is written by hand in docs/teachers.md, nor a check that
the solutions pass (tests/tutor/exercises/test_exercise_checks.py does that).
"""
import math
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from pymdownx.superfences import SuperFencesException

import offline  # MkDocs puts the hooks' folder on sys.path while it loads a hook
import runnable_fence
from docs_data import kept_out, read_yaml
from tutor_sources import EXERCISES

MARKER = re.compile(r"\[\[(?P<kind>solution|minutes|exit-questions|figures|rule) (?P<name>[^\]\s]+)\]\]")
SIZE_MARKER = re.compile(r"\[\[megabytes (?P<name>python|offline)\]\]")
QUESTIONS_FILE = "teachers-questions.yml"  # inside docs_dir
PYTHON_FILES = ("assets/vendor/pyodide/", "assets/snapshot/", "assets/wheels/")  # what a page's first run downloads besides the page
READING_SPEED = 120            # words of prose a minute, for text with formulas in it
MINUTES_PER_BLOCK = 2          # a runnable block that is not an exercise: predict, run, read the output
MINUTES_PER_FIGURE = 5
MINUTES_PER_EXERCISE = 10
RULE = {"reading": READING_SPEED, "block": MINUTES_PER_BLOCK, "figure": MINUTES_PER_FIGURE,
        "exercise": MINUTES_PER_EXERCISE}
FENCE = re.compile(r"^```(?P<info>[^\n]*)\n.*?^```\s*$", flags=re.M | re.S)
DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", flags=re.S)
HTML_TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
FIGURE = re.compile(r'data-widget="')
COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
ANSWER_NOTE = '??? note exit-answer "Answer"'  # a collapsed pymdownx.details note; class.css prints it open


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


def read_questions(docs_dir):
    """docs/teachers-questions.yml: {"setup": code, "chapters": {PAGE.md: {"exit": [...], "misconceptions": [...]}}}."""
    source = Path(docs_dir) / QUESTIONS_FILE
    document = read_yaml(source, lambda message: PluginError(f"teachers_page: {message}"))
    if not isinstance(document, dict) or not isinstance(document.get("chapters"), dict):
        raise PluginError(f"teachers_page: {source} must be a mapping with `chapters`")
    return document


def questions_markdown(entry):
    """One chapter's exit questions (a numbered list, each with its answer) and misconceptions (a list)."""
    lines = ["**Exit questions.**", ""]
    for number, item in enumerate(entry.get("exit", []), start=1):
        lines += [f"{number}. {item['question']}", "", f"    {ANSWER_NOTE}", "", f"        {item['answer']}", ""]
    if entry.get("misconceptions"):
        lines += ["", "**Misconceptions.**", ""]
        for item in entry["misconceptions"]:
            lines.append(f"- **{item['question']}:** {item['wrong']}. *What it means:* {item['means']}. "
                         f"*Respond:* {item['respond']}")
    return "\n".join(lines) + "\n"


def figures_text(markdown):
    """How many figures a chapter's Markdown holds, in words: "three figures"."""
    count = chapter_counts(markdown)["figures"]
    return f"{COUNT_WORDS[count] if count < len(COUNT_WORDS) else count} figure{'' if count == 1 else 's'}"


def on_files(files, config):
    return kept_out(files, QUESTIONS_FILE)


def on_page_markdown(markdown, page, config, files):
    found = [match["name"] for match in MARKER.finditer(markdown) if match["kind"] == "solution"]
    if found and sorted(found) != exercise_names():
        missing = sorted(set(exercise_names()) - set(found))
        twice = sorted({name for name in found if found.count(name) > 1})
        raise PluginError(f"teachers_page: {page.file.src_uri} must give every exercise's solution once; "
                          f"missing: {missing or 'none'}, twice: {twice or 'none'}")
    docs = Path(config["docs_dir"])

    questions = read_questions(docs)["chapters"] if "[[exit-questions " in markdown else {}

    def filled(match):
        if match["kind"] == "solution":
            return solution_block(match["name"])
        if match["kind"] == "exit-questions":
            if match["name"] not in questions:
                raise PluginError(f"teachers_page: [[exit-questions {match['name']}]]: {QUESTIONS_FILE} has no such chapter")
            return questions_markdown(questions[match["name"]])
        if match["kind"] == "rule":
            if match["name"] not in RULE:
                raise PluginError(f"teachers_page: [[rule {match['name']}]]: the rule's numbers are {', '.join(RULE)}")
            return str(RULE[match["name"]])
        chapter = docs / match["name"]
        if chapter.suffix != ".md" or not chapter.is_file():
            raise PluginError(f"teachers_page: [[{match['kind']} {match['name']}]] names no page of {docs}")
        if match["kind"] == "figures":
            return figures_text(chapter.read_text(encoding="utf-8"))
        return str(minutes(chapter.read_text(encoding="utf-8")))

    return MARKER.sub(filled, markdown)


def megabytes(site_dir, name):
    """The size of the files [[megabytes NAME]] stands for, as the page says it: "17.4"."""
    listed = offline.precache_list(site_dir)
    paths = [path for path in listed if name == "offline" or path.startswith(PYTHON_FILES)]
    return f"{sum((site_dir / path).stat().st_size for path in paths) / 1e6:.1f}"


@event_priority(-90)  # after every hook that writes files (snapshot.py and search_text.py at -50), before offline.py (-100)
def on_post_build(config):
    site_dir = Path(config["site_dir"])
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if SIZE_MARKER.search(text):
            page.write_text(SIZE_MARKER.sub(lambda match: megabytes(site_dir, match["name"]), text), encoding="utf-8")
