"""The page "For teachers" (docs/teachers.md) and the home page's list of chapters.

What it is: checks on the built site (the shared `site` build of conftest.py) and on the Markdown:
the teachers page lists every exercise with the very SOLUTION of its module, filled in by
site_scripts/hooks/teachers_page.py, and names every figure and exercise of each chapter in that
chapter's section; its time estimates follow the rule it states; the numbers its answer key gives
for the hand-calculation exercises come out of running their solutions (the training numbers are
computed in tests/tutor/exercises/test_exercise_hints.py); no chapter sends learners there; the home
page links every chapter; the site's search leaves the page out; and wherever a page says "lecture"
it links the lecture.
What it is not: a browser test, or a test of the solutions' checks (tests/tutor/exercises/).
"""
import contextlib
import html
import importlib
import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from site_scripts.hooks import teachers_page
from test_build import html_path, nav_entries, nav_pages
from tutor_sources import FIGURE_MODELS, module_constants

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
TEACHERS = DOCS / "teachers.md"
LECTURE = "https://www.youtube.com/watch?v=VMj-3S1tku0"
EXERCISE_FENCE = re.compile(r'^```runnable title="(?P<title>[^"]+)" exercise="(?P<name>[^"]+)"', flags=re.M)
FIGURE = re.compile(r'data-widget="(?P<name>[^"]+)"')
CHAPTER_SECTION = re.compile(r"^### (?P<heading>.+)$", flags=re.M)


def page_text(site, markdown_name):
    """The visible text of a built page's article."""
    page = html_path(site, markdown_name).read_text(encoding="utf-8")
    article = page[page.index("<article"):page.index("</article>")]
    return html.unescape(re.sub(r"<[^>]+>", "", article))


def squashed(text):
    return " ".join(text.split())


def chapters():
    """The nav's pages without the home page and the teachers page, in order."""
    return [name for name in nav_pages() if name not in ("index.md", "teachers.md")]


def figure_title(name):
    return module_constants(FIGURE_MODELS / f"{name}.py")["TITLE"]


def teachers_sections():
    """{chapter file named in a ### heading's links: that section's Markdown}."""
    text = TEACHERS.read_text(encoding="utf-8")
    text = text[:text.index("## Two lesson plans")]
    headings = list(CHAPTER_SECTION.finditer(text))
    sections = {}
    for heading, following in zip(headings, [*headings[1:], None]):
        body = text[heading.end():following.start() if following else len(text)]
        for chapter in chapters():
            title = dict((page, title) for title, page in nav_entries())[chapter]
            if title in heading["heading"]:
                sections[chapter] = body
    return sections


def test_teachers_page_is_the_last_entry_of_the_nav():
    assert nav_pages()[-1] == "teachers.md"


def test_every_exercise_is_in_the_answer_key_with_its_solution(site):
    text = page_text(site, "teachers.md")
    assert "[[" not in text, "a marker of the teachers page was not filled"
    names = teachers_page.exercise_names()
    assert len(names) >= 6
    for name in names:
        solution = importlib.import_module(f"tutor.exercises.{name}").SOLUTION
        assert squashed(solution) in squashed(text), f"the solution of {name} is not on the page"
    answer_key = text[text.index("Answer key"):text.index("Hosting the lesson")]
    for chapter in DOCS.glob("*.md"):
        for fence in EXERCISE_FENCE.finditer(chapter.read_text(encoding="utf-8")):
            assert fence["title"] in answer_key, f"{fence['title']} has no heading in the answer key"


def test_each_chapter_section_names_its_figures_and_exercises():
    sections = teachers_sections()
    for chapter in chapters():
        markdown = (DOCS / chapter).read_text(encoding="utf-8")
        named = [figure_title(match["name"]) for match in FIGURE.finditer(markdown)]
        named += [match["title"] for match in EXERCISE_FENCE.finditer(markdown)]
        if named:
            assert chapter in sections, f"the teachers page has no section for {chapter}"
            for title in named:
                assert f'"{title}"' in squashed(sections[chapter]), f"{chapter}: {title!r} is not named"


def test_minutes_follow_the_rule_the_page_states(site):
    stated = squashed(TEACHERS.read_text(encoding="utf-8"))
    assert f"read at {teachers_page.READING_SPEED} words a minute" in stated
    assert f"plus {teachers_page.MINUTES_PER_BLOCK} minutes for each runnable block" in stated
    assert f"{teachers_page.MINUTES_PER_FIGURE} minutes for each figure" in stated
    assert f"{teachers_page.MINUTES_PER_EXERCISE} minutes for each exercise" in stated
    sample = ('Some words here.\n\n```runnable title="A"\nprint(1)\n```\n\n<div data-widget="line_fit"></div>\n\n'
              '```runnable title="B" exercise="relu"\nx = 1\n```\n\n$$\nx^2 + y\n$$\n')
    assert teachers_page.chapter_counts(sample) == {"words": 3, "blocks": 1, "figures": 1, "exercises": 1}
    assert teachers_page.minutes(sample) == 20  # 3/120 + 2 + 5 + 10 = 17.03, rounded up to 20
    text = page_text(site, "teachers.md")
    rows = dict(re.findall(r"^(.+)\n(\d+)$", "\n".join(line.strip() for line in text.splitlines() if line.strip()),
                           flags=re.M))
    for title, page in nav_entries():
        if page != "teachers.md":
            expected = teachers_page.minutes((DOCS / page).read_text(encoding="utf-8"))
            assert rows.get(title) == str(expected), f"{title}: {rows.get(title)} minutes, expected {expected}"


def test_the_hook_refuses_an_answer_key_without_every_exercise():
    config = {"docs_dir": str(DOCS)}
    page = SimpleNamespace(file=SimpleNamespace(src_uri="teachers.md"))
    with pytest.raises(PluginError, match=r"missing: \[.*'xor_seed'"):
        teachers_page.on_page_markdown("[[solution relu]]\n", page, config, None)
    with pytest.raises(PluginError, match="no module"):
        teachers_page.solution_block("no_such_exercise")
    with pytest.raises(PluginError, match="names no page"):
        teachers_page.on_page_markdown("[[minutes nowhere.md]]", page, config, None)
    names = teachers_page.exercise_names()
    every = "".join(f"[[solution {name}]]\n" for name in names)
    filled = teachers_page.on_page_markdown(every, page, config, None)
    assert filled.count("```python\n") == len(names)


def run(code):
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "<solution>", "exec"), namespace)  # noqa: S102  the lesson's own solutions
    return namespace


def test_answer_key_numbers_come_from_the_solutions():
    key = squashed(TEACHERS.read_text(encoding="utf-8"))
    cube = run(importlib.import_module("tutor.exercises.cube_by_hand").SOLUTION)
    assert f"which is ${cube['x_grad']:g}$ at $x = {cube['x']:g}$" in key
    by_hand = run(importlib.import_module("tutor.exercises.gradient_by_hand").SOLUTION)
    error = by_hand["prediction"] - by_hand["y"]
    assert (f"At $x = {by_hand['x']:g}$, $y = {by_hand['y']:g}$, $w = {by_hand['w']:g}$, $b = {by_hand['b']:g}$ "
            f"the error is ${error:g}$, so the gradients are ${by_hand['w_grad']:g}$ and ${by_hand['b_grad']:g}$") in key
    assert by_hand["w_after"] > by_hand["w"] and by_hand["b_after"] > by_hand["b"]
    assert by_hand["loss_after"] < by_hand["loss"], "the step lowers the loss"


def test_search_does_not_lead_to_the_teachers_page(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["docs"] and not [entry for entry in index["docs"] if entry["location"].startswith("teachers/")]


def test_no_chapter_sends_learners_to_the_teachers_page():
    for chapter in chapters():
        assert "teachers.md" not in (DOCS / chapter).read_text(encoding="utf-8"), chapter


def test_home_page_links_every_chapter(site):
    home = html_path(site, "index.md").read_text(encoding="utf-8")
    listed = home[home.index('id="what-you-will-build"'):home.index('id="how-to-use-the-runnable-blocks"')]
    for chapter in chapters():
        assert f'href="{chapter.removesuffix(".md")}/"' in listed, f"the home page does not list {chapter}"


def test_every_mention_of_a_lecture_links_it():
    for page in DOCS.glob("*.md"):
        for paragraph in page.read_text(encoding="utf-8").split("\n\n"):
            if re.search(r"\blecture\b", paragraph, flags=re.I):
                assert LECTURE in paragraph, f"{page.name}: a paragraph says 'lecture' without linking it"


def test_the_lesson_plans_fit_the_times_they_state():
    """One lesson of an hour (its steps say how many minutes each); two lessons of about two hours each,
    by the page's own estimates of the chapters they cover."""
    text = squashed(TEACHERS.read_text(encoding="utf-8"))
    assert "The first plan fits one hour." in text and "about two hours of the estimates" in text
    one_lesson = text[text.index("**One lesson"):text.index("**Two lessons")]
    words = {"Five": 5, "Ten": 10, "Fifteen": 15, "Twenty": 20}
    assert sum(words[word] for word in re.findall(r"\b(Five|Ten|Fifteen|Twenty) minutes:", one_lesson)) == 60

    def chapter_minutes(page, up_to=None):
        markdown = (DOCS / page).read_text(encoding="utf-8")
        return teachers_page.minutes(markdown[:markdown.index(up_to)] if up_to else markdown)

    first = sum(chapter_minutes(page) for page in ("derivatives.md", "loss-and-gradient.md", "backpropagation.md"))
    second = (chapter_minutes("engine.md") + chapter_minutes("checking.md")
              + chapter_minutes("training.md", up_to="## The same engine, now a neural network"))
    assert 90 <= first <= 130 and 90 <= second <= 130, (first, second)
