"""The page "For teachers" (docs/teachers.md) and the home page's list of chapters.

What it is: checks on the built site (the shared `site` build of conftest.py) and on the Markdown:
the teachers page lists every exercise with the very SOLUTION of its module, filled in by
site_scripts/hooks/teachers_page.py, and names every figure and exercise of each chapter in that
chapter's section; its time estimates follow the rule it states; the numbers its answer key gives
for the hand-calculation exercises come out of running their solutions (the training numbers are
computed in tests/tutor/exercises/test_exercise_hints.py); its list of what Firefox and WebKit go
through names only rows of the scenario table (tests/site/scenarios.py) and every row it knows a
name for; no chapter sends learners there; the home
page links every chapter; the site's search leaves the page out; and wherever a page says "lecture"
it links the lecture.
What it is not: a browser test, or a test of the solutions' checks (tests/tutor/exercises/).
"""
import ast
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

from lesson_pages import nav_entries, nav_pages
from site_scripts.hooks import teachers_page
from test_build import html_path
from test_numbers import decimals
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
    text = text[:text.index("## Lesson plans")]
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
        exec(compile(code, "<solution>", "exec"), namespace)
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


PLANS = {"**45 minutes": [45], "**90 minutes": [90], "**Two lessons of 90 minutes": [90, 90]}
PLAN_STEP = re.compile(r"^\s*\d+\. (\d+) minutes: (.*)$", flags=re.M)


def plan_lessons(heading):
    """The lessons of the plan under `heading` (its Markdown up to the next plan): [[(minutes, text), ...], ...]."""
    text = TEACHERS.read_text(encoding="utf-8")
    plan = text[text.index(heading):]
    plan = plan[:plan.index("\n**", 3)]
    lessons = re.split(r"^- \*Lesson ", plan, flags=re.M)[1:] or [plan]
    return [[(int(minutes), step) for minutes, step in PLAN_STEP.findall(lesson)] for lesson in lessons]


def test_the_lesson_plans_add_up_to_45_90_and_two_times_90_minutes():
    """"Lesson 1, the ideas" added up to about 110 minutes by the page's own table (issue #38): each plan's steps sum
    to its length, and a step that takes a chapter "in full" gives it at least the table's estimate."""
    for heading, lengths in PLANS.items():
        lessons = plan_lessons(heading)
        assert [sum(minutes for minutes, _ in steps) for steps in lessons] == lengths, heading
        for minutes, step in (step for steps in lessons for step in steps):
            for page in re.findall(r"\]\(([\w-]+\.md)\) in full", step):
                assert minutes >= teachers_page.minutes((DOCS / page).read_text(encoding="utf-8")), (heading, step)
            if "home page in full" in step:
                assert minutes >= teachers_page.minutes((DOCS / "index.md").read_text(encoding="utf-8")), step
    core = [page for page in re.findall(r"\]\(([\w-]+\.md)\)", (DOCS / "index.md").read_text(encoding="utf-8")
                                        .split("**Optional chapters**")[0])]
    taught = {page for steps in plan_lessons("**Two lessons of 90 minutes") for _, step in steps
              for page in re.findall(r"\]\(([\w-]+\.md)\)", step) if "homework" not in step}
    assert set(core) <= taught, f"the two lessons leave out chapters of the core path: {set(core) - taught}"


# ---- Exit questions, misconceptions, the build-your-own plan, devices (issue #29) ------------------

QUESTIONS = teachers_page.read_questions(DOCS)
NUMBER_TOKEN = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


@pytest.fixture(scope="module")
def questions_namespace():
    """docs/numbers.yml's `setup` (the lesson's helpers), then teachers-questions.yml's own."""
    from test_numbers import DOCUMENT
    namespace = {}
    exec(DOCUMENT["setup"], namespace)
    exec(QUESTIONS.get("setup", ""), namespace)
    return namespace


def question_entries():
    """(chapter, kind, index, entry) of every exit question and misconception."""
    return [(chapter, kind, index, entry) for chapter, groups in QUESTIONS["chapters"].items()
            for kind in ("exit", "misconceptions") for index, entry in enumerate(groups.get(kind, []))]


def test_every_chapter_section_has_exit_questions_and_misconceptions(site):
    markdown = TEACHERS.read_text(encoding="utf-8")
    marked = re.findall(r"\[\[exit-questions ([^\]]+)\]\]", markdown)
    assert sorted(marked) == sorted(QUESTIONS["chapters"])
    sections = teachers_sections()
    for chapter in chapters():
        if chapter in sections and chapter != "complete-engine.md":  # shares its section with Edit the engine
            assert f"[[exit-questions {chapter}]]" in sections[chapter], chapter
    for chapter, groups in QUESTIONS["chapters"].items():
        assert 3 <= len(groups["exit"]) <= 5, chapter
        assert groups.get("misconceptions"), chapter
    page = SimpleNamespace(file=SimpleNamespace(src_uri="teachers.md"))
    filled = teachers_page.on_page_markdown(markdown, page, {"docs_dir": str(DOCS)}, None)
    for chapter, groups in QUESTIONS["chapters"].items():
        assert teachers_page.questions_markdown(groups) in filled, chapter
    text = page_text(site, "teachers.md")
    assert text.count("Exit questions.") == text.count("Misconceptions.") == len(QUESTIONS["chapters"])


@pytest.mark.parametrize("chapter,kind,index,entry", question_entries(),
                         ids=[f"{chapter}-{kind}-{index}" for chapter, kind, index, _ in question_entries()])
def test_every_number_of_an_exit_question_or_misconception_is_computed(chapter, kind, index, entry, questions_namespace):
    fields = ["answer"] if kind == "exit" else ["wrong", "means", "respond"]
    stated = " ".join(entry[field] for field in fields)
    listed = entry.get("numbers", [])
    for number in listed:
        assert number["text"] in stated or number["text"] in entry["question"], f"{number['text']} is not in the text"
        assert ("engine" in number) != ("check" in number), number
        try:
            shown = ast.literal_eval(number["text"])
        except (ValueError, SyntaxError):
            shown = number["text"]
        if "engine" in number:
            value = eval(number["engine"], dict(questions_namespace))
            assert round(value, decimals(number["text"])) == shown, f"{number['text']}: the engine gives {value!r}"
        else:
            assert eval(number["check"], dict(questions_namespace, shown=shown)), number["check"]
    covered = {token for number in listed for token in NUMBER_TOKEN.findall(number["text"])}
    covered |= set(NUMBER_TOKEN.findall(entry["question"]))
    uncovered = [token for token in NUMBER_TOKEN.findall(stated) if token not in covered]
    assert not uncovered, f"numbers stated but not computed: {uncovered}"


def test_exit_answers_are_in_collapsed_notes_that_need_no_javascript(site):
    """Projected, the page showed each answer right under its question: each answer is in its own closed
    <details> (pymdownx.details: no JavaScript), printed open by class.css."""
    page = html_path(site, "teachers.md").read_text(encoding="utf-8")
    notes = re.findall(r'<details class="note exit-answer"( open)?>\s*<summary>Answer</summary>(.*?)</details>', page, re.S)
    exits = [item for groups in QUESTIONS["chapters"].values() for item in groups["exit"]]
    assert len(notes) == len(exits) and not any(opened for opened, _ in notes)
    for (_, body), item in zip(notes, exits):
        words = re.findall(r"[A-Za-z]{4,}", re.sub(r"\$[^$]*\$|`[^`]*`", " ", item["answer"]))
        shown = html.unescape(re.sub(r"<[^>]+>", " ", body))
        assert all(word in shown for word in words), item["answer"]
    css = (REPO / "site_scripts" / "browser" / "class" / "class.css").read_text(encoding="utf-8")
    assert re.search(r"@media print \{\s*\.md-typeset details\.exit-answer::details-content \{[^}]*display: block", css)


def test_the_one_lesson_plan_counts_the_figures_of_the_chapter_it_names(site):
    """"both figures" stayed when the backpropagation chapter got its third: the count comes from the chapter."""
    words = teachers_page.COUNT_WORDS
    text = squashed(page_text(site, "teachers.md"))
    step = text[text.index("20 minutes: Backpropagation through a graph"):][:120]
    count = (DOCS / "backpropagation.md").read_text(encoding="utf-8").count('data-widget="')
    assert count == 3 and f"its {words[count]} figures," in step


def test_the_teachers_page_names_values_as_the_chapters_do():
    """`c = a * a + a` on the teachers' page, `q = a * a + a` in every chapter: the same expression keeps its name."""
    used = set()
    for path in DOCS.glob("*.md"):
        if path.name not in ("teachers.md",):
            used |= set(re.findall(r"\b(\w+) = a \* a \+ a\b", path.read_text(encoding="utf-8")))
    assert used == {"q"}
    for path in (TEACHERS, DOCS / "teachers-questions.yml"):
        assert set(re.findall(r"\b(\w+) = a \* a \+ a\b", path.read_text(encoding="utf-8"))) <= used, path.name
        assert "`c`" not in path.read_text(encoding="utf-8") and "c.data" not in path.read_text(encoding="utf-8")


def test_the_build_your_own_plan_fits_its_lessons_and_exceeds_the_estimate():
    text = squashed(TEACHERS.read_text(encoding="utf-8"))
    plan = text[text.index("**Build your own engine (two lessons"):text.index("**A learner stuck at step 4.**")]
    assert f"counts {teachers_page.MINUTES_PER_EXERCISE} minutes an exercise" in plan
    words = {"Five": 5, "Ten": 10, "Fifteen": 15, "Twenty": 20}
    first, second = plan[plan.index("*Lesson A.*"):plan.index("*Lesson B.*")], plan[plan.index("*Lesson B.*"):]
    minutes = [sum(words[word] for word in re.findall(r"\b(Five|Ten|Fifteen|Twenty) minutes:", lesson))
               for lesson in (first, second)]
    assert minutes == [60, 60], "each lesson of the plan is an hour"
    estimate = teachers_page.minutes((DOCS / "build-your-own.md").read_text(encoding="utf-8"))
    assert sum(minutes) > estimate, "beginners get more than the page's estimate"
    for step in range(1, 8):
        assert f"step {step}" in plan, f"the plan leaves out step {step}"


def test_the_download_sizes_are_the_builds(site):
    from site_scripts.hooks import offline
    text = squashed(page_text(site, "teachers.md"))
    files = offline.precache_list(site)
    python = sum((site / path).stat().st_size for path in files if path.startswith(teachers_page.PYTHON_FILES))
    everything = sum((site / path).stat().st_size for path in files)
    assert f"lesson's engine, {python / 1e6:.1f} MB, besides the page itself" in text
    assert f"{everything / 1e6:.1f} MB in all, once per device" in text
    assert 10e6 < python < everything, (python, everything)
    for prefix in teachers_page.PYTHON_FILES:
        assert any(path.startswith(prefix) for path in files), f"nothing of {prefix} is in the offline copy"


def test_the_sizes_leave_out_the_worker_copy_that_the_offline_hook_removes_after_them(tmp_path):
    """teachers_page.py measures the offline copy before offline.py (priority -90, then -100), which
    removes the copy of the unfilled service worker: counted, it made the page say 0.1 MB more than the
    build holds whenever the total came within 10 KB below a round tenth."""
    (tmp_path / "index.html").write_bytes(b"x" * 1_000_000)
    unfilled = tmp_path / "assets" / "lesson" / "browser" / "offline" / "service-worker.js"  # site_scripts/browser/'s copy
    unfilled.parent.mkdir(parents=True)
    unfilled.write_bytes(b"y" * 60_000)
    assert teachers_page.megabytes(tmp_path, "offline") == "1.0"


def test_the_browsers_and_phones_named_are_the_tested_ones():
    text = squashed(TEACHERS.read_text(encoding="utf-8"))
    phones = (REPO / "tests" / "site" / "test_phones.py").read_text(encoding="utf-8")
    size = re.search(r'"viewport": \{"width": (\d+), "height": (\d+)\}', phones)
    target = re.search(r"MINIMUM_TARGET_PX = (\d+)", phones)[1]
    assert f"touch screen of {size[1]} × {size[2]} pixels" in text
    assert f"at least {target} × {target} pixels" in text
    for module in ("test_firefox.py", "test_webkit.py", "test_phones.py"):
        assert (REPO / "tests" / "site" / module).is_file(), module


SCENARIO_TABLE = REPO / "tests" / "site" / "scenarios.py"
# What the item "Browsers" calls each scenario Firefox and WebKit go through (tests/site/scenarios.py).
# A scenario without an entry may be left out of the list, which says "among them"; every entry's must be in it.
SCENARIO_WORDS = {
    "serviceWorkerTakesControl": "the offline copy", "offline": "the offline copy", "untrustedCode": "the offline copy",
    "snapshotBoot": "blocks from both starts", "plainBoot": "blocks from both starts",
    "figure": "a figure", "stopIsolated": "Stop", "stopNotIsolated": "Stop", "savedEdit": "a saved edit",
    "engine": "an edited engine", "everyPage": "every page of the lesson",
    "classOverview": "the class overview reading work files", "prediction": "a checked prediction",
    "damagedWasm": "a damaged download", "redeploy": "a new version of the lesson",
    "redeployServiceWorker": "a new version of the lesson",
}


def scenario_names():
    """The names of the rows of SCENARIOS in tests/site/scenarios.py, read from its source (not imported:
    it needs the browser tests' helpers)."""
    tree = ast.parse(SCENARIO_TABLE.read_text(encoding="utf-8"))
    table = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(getattr(target, "id", None) == "SCENARIOS" for target in node.targets))
    return [row.args[0].value for row in table.elts]


def listed_scenarios(text):
    """The items of the "Browsers" item's list of what Firefox and WebKit go through."""
    listed = re.search(r"through a learner's main scenarios, among them: (.*?)\. ", squashed(text))[1]
    return [re.sub(r"^and ", "", item) for item in listed.split(", ")]


def test_the_browsers_item_lists_the_scenarios_firefox_and_webkit_go_through():
    names = scenario_names()
    assert {"everyPage", "classOverview", "offline"} <= set(names), names
    assert set(names) <= set(SCENARIO_WORDS), f"give these rows their words on the page: {set(names) - set(SCENARIO_WORDS)}"
    tested = {SCENARIO_WORDS[name] for name in names}
    listed = listed_scenarios(TEACHERS.read_text(encoding="utf-8"))
    assert set(listed) <= tested, f"the page lists {set(listed) - tested}, which no scenario goes through"
    assert tested <= set(listed), f"the page's list leaves out {tested - set(listed)}"


def test_the_class_overview_is_linked_from_the_teachers_page_only(site):
    teachers = html_path(site, "teachers.md").read_text(encoding="utf-8")
    assert 'href="../class-overview/"' in teachers
    for chapter in chapters():
        assert "class-overview" not in (DOCS / chapter).read_text(encoding="utf-8"), chapter
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert not [entry for entry in index["docs"] if entry["location"].startswith("class-overview/")]
    assert not (site / teachers_page.QUESTIONS_FILE).exists()


def test_each_exercise_has_one_name_the_chapters_heading_and_block_title():
    """The chapters said "fewer steps" where the block and the teachers' page said "a faster fit" (issue #38): the
    heading "Exercise: ..." above an exercise block is its block's title (build-your-own's headings name the step:
    "Step 1: ..."), and the teachers' page names exercises only so."""
    titles = set()
    for chapter in DOCS.glob("*.md"):
        markdown = chapter.read_text(encoding="utf-8")
        for fence in EXERCISE_FENCE.finditer(markdown):
            heading = re.findall(r"^#+ (.+)$", markdown[:fence.start()], flags=re.M)[-1]
            assert heading == fence["title"] or not heading.startswith("Exercise:"), (
                f"{chapter.name}: the heading {heading!r} names {fence['title']!r} otherwise")
            titles.add(fence["title"])
    named = set(re.findall(r"Exercise: [^\"\n*]+?(?=\"|\n|$)", TEACHERS.read_text(encoding="utf-8"), flags=re.M))
    assert named and named <= titles, f"the teachers' page names these otherwise: {named - titles}"


def test_what_the_page_says_of_solutions_off_and_the_answer_key_is_true(site):
    """The page said learners meet the answer key "only if they go looking", and that ?solutions=off turns the
    solutions off, while every exercise's page ships its solution (issue #38): it says what holds."""
    text = squashed(page_text(site, "teachers.md"))
    assert "only if they go looking" not in text and "the answer key is one click from every page" in text
    assert "It hides nothing: the solutions are still in every page's HTML" in text
    relu = importlib.import_module("tutor.exercises.relu").SOLUTION
    assert html.escape(relu.strip().splitlines()[0], quote=True) in html_path(site, "engine.md").read_text(encoding="utf-8")
    assert 'says "switched back on"' in text and "can be forged" in text and "never the file's, which is code too" in text
