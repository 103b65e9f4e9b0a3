"""The lesson's checked predictions, answered by the engine and judged by the page's own judge.

What it is: checks of docs/predictions.yml (through site_scripts/hooks/prediction_answers.py, which the
build uses) and of the built pages: every answer, value and slip is computed with engine/tinygrad.py
and no slip can be mistaken for the answer; the page's judge (site_scripts/browser/predictions/judge.mjs,
run under Node) calls every answer right, every slip value that slip, another number "otherwise",
and every wrong choice wrong; the page's one reader of typed numbers (browser/ui/numbers.mjs, which the
figures' number fields use too) reads bad input (text, empty, 1e309, 2,5, 1/4) as a plain sentence; a
prediction about a block gets, from the page's own blocks run in page order under CPython with the
browser's session, exactly its answer at the name it observes (tutor.predictions.observed, through
tutor.runtime.page_calls.call as the page calls it); each prediction sits on one learner page, at least two on
every learner page and 25 in all; with JavaScript off the built page holds the question and the
answer in a <details>; the search index holds the questions but no answer, reason or feedback; and a
chapter's notebook holds each question with its answer in a collapsed note.
What it is not: the page in a browser (tests/site/test_predictions_in_browser.py).
"""
import asyncio
import html.parser
import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from lesson_pages import CHAPTERS, TEACHERS_PAGES
from own_thread import in_own_thread
from prediction_answers import answered, notebook_text

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
JUDGE = REPO / "site_scripts" / "browser" / "predictions" / "judge.mjs"
NUMBERS = REPO / "site_scripts" / "browser" / "ui" / "numbers.mjs"  # readNumber: predictions and figures read with it
PREDICTIONS = answered(DOCS)
PLACEHOLDER = re.compile(r'<div data-prediction="(?P<id>[^"]*)"></div>')
PAGE = "predictions-test"


def placements():
    """{id: page file name} of every placeholder, and the ids placed more than once."""
    found, twice = {}, []
    for path in sorted(DOCS.glob("*.md")):
        for match in PLACEHOLDER.finditer(path.read_text(encoding="utf-8")):
            if match["id"] in found:
                twice.append(match["id"])
            found[match["id"]] = path.name
    return found, twice


def run_judge(script):
    """Run `script` (an ES module body that may use readNumber, judgeNumber, judgeChoice and print JSON
    with console.log) under Node; what it printed, parsed."""
    source = (f"import {{ judgeNumber, judgeChoice }} from {json.dumps(JUDGE.as_uri())};\n"
              f"import {{ readNumber }} from {json.dumps(NUMBERS.as_uri())};\n{script}")
    ran = subprocess.run(["node", "--input-type=module", "-e", source], capture_output=True, text=True, check=True)
    return json.loads(ran.stdout)


def test_every_prediction_is_answered_by_the_engine_and_no_slip_looks_like_the_answer():
    assert PREDICTIONS
    for identifier, prediction in PREDICTIONS.items():
        assert prediction["question"] and prediction["reason"], identifier
        if prediction["kind"] == "number":
            for slip in prediction["slips"]:
                assert slip["says"], identifier
                assert all(abs(value - prediction["answer"]) > 2 * prediction["tolerance"] for value in slip["values"])
        else:
            keys = [choice["key"] for choice in prediction["choices"]]
            assert prediction["answer"] in keys and len(keys) >= 2, identifier
            assert all(choice["says"] for choice in prediction["choices"] if choice["key"] != prediction["answer"])


def test_the_pages_judge_gives_every_answer_and_slip_its_verdict():
    numbers = {identifier: prediction for identifier, prediction in PREDICTIONS.items() if prediction["kind"] == "number"}
    # Something no slip is: further from the answer than every slip and a step beyond.
    others = {identifier: prediction["answer"] + 1 + max([abs(v - prediction["answer"]) for s in prediction["slips"]
                                                           for v in s["values"]] or [0])
              for identifier, prediction in numbers.items()}
    verdicts = run_judge(f"""
const predictions = {json.dumps(numbers)};
const others = {json.dumps(others)};
const verdicts = {{}};
for (const [id, p] of Object.entries(predictions)) {{
  const slips = p.slips.map((slip) => slip.values);
  verdicts[id] = {{
    answer: judgeNumber(readNumber(p.shown).value, p, slips),
    slips: p.slips.map((slip) => slip.values.map((value) => judgeNumber(value, p, slips))),
    other: judgeNumber(others[id], p, slips),
  }};
}}
console.log(JSON.stringify(verdicts));""")
    for identifier, verdict in verdicts.items():
        assert verdict["answer"] == {"correct": True, "slip": -1}, identifier  # as the page writes it, too
        for index, found in enumerate(verdict["slips"]):
            assert found == [{"correct": False, "slip": index}] * len(found), (identifier, index)
        assert verdict["other"] == {"correct": False, "slip": -1}, identifier
    choices = {identifier: prediction for identifier, prediction in PREDICTIONS.items() if prediction["kind"] == "choice"}
    chosen = run_judge(f"""
const predictions = {json.dumps(choices)};
console.log(JSON.stringify(Object.fromEntries(Object.entries(predictions).map(([id, p]) =>
  [id, p.choices.map((choice) => judgeChoice(choice.key, p).correct)]))));""")
    for identifier, correct in chosen.items():
        assert correct == [choice["key"] == PREDICTIONS[identifier]["answer"] for choice in PREDICTIONS[identifier]["choices"]]


def test_a_sum_of_two_paths_of_a_times_a_plus_a_is_named_for_what_it_counted():
    """q = a * a + a at a = 3 has three paths to a: 3 and 3 through a * a, 1 through the sum. 4 = 3 + 1 is two of
    them, a * a counted once; 1 or 3 is one path; 6 leaves out the + a path."""
    from tinygrad import Value
    a = Value(3)
    q = a * a + a
    q.backward()
    shares = sorted(node.grad * local for node in q.topological_order() for parent, local in node.edges if parent is a)
    assert shares == [1, 3, 3] and a.grad == 7
    for identifier in ("paths-total", "own-backward"):
        says = {value: slip["says"] for slip in PREDICTIONS[identifier]["slips"] for value in slip["values"]}
        assert says[shares[0] + shares[1]].startswith("You counted `a * a` once"), identifier
        assert f"each passes back {shares[1]:g}" in says[shares[0] + shares[1]], identifier
        assert says[shares[0]] == says[shares[1]] and says[shares[0]].startswith("One "), identifier
        assert "forgot the `+ a`" in says[shares[1] + shares[2]], identifier


def test_the_mystery_curves_reason_says_where_it_rises_and_falls_as_its_slope_does():
    """The reason of `mystery-turns` names, in order, whether f rises or falls on each stretch between its
    turns, as the sign of the engine's slope there says (f'(−3) > 0: it rises first), and the turns' x."""
    from tutor.figures import mystery_curve
    low, high = mystery_curve.X_RANGE["min"], mystery_curve.X_RANGE["max"]
    xs = [low + (high - low) * i / 6000 for i in range(6001)]
    slopes = [mystery_curve.value_and_slope(x)[1] for x in xs]
    turns = [(a + b) / 2 for a, b, sa, sb in zip(xs, xs[1:], slopes, slopes[1:]) if (sa > 0) != (sb > 0)]
    edges = [low, *turns, high]
    directions = ["rises" if mystery_curve.value_and_slope((a + b) / 2)[1] > 0 else "falls"
                  for a, b in zip(edges, edges[1:])]
    reason = PREDICTIONS["mystery-turns"]["reason"]
    assert re.findall(r"\b(rises|falls)\b", reason) == directions
    assert directions[0] == "rises" and len(turns) == PREDICTIONS["mystery-turns"]["answer"]
    for turn in turns:
        assert f"{turn:.2f}".replace("-", "\u2212") in reason


def test_forward_mode_is_taught_before_a_prediction_asks_about_it():
    """The review found `forward-mode-cost` asked before the section that teaches forward mode."""
    text = (DOCS / "checking.md").read_text(encoding="utf-8")
    taught = text.index("## Forward mode beside reverse mode")
    assert taught < text.index('<div data-prediction="forward-mode-cost">')
    assert taught < text.index('<div data-widget="gradient_cost">')  # the figure draws forward mode too
    assert "forward mode" not in text[:taught].lower()


NOT_A_NUMBER = "is not a number. Type digits, such as −6 or 0.5."
INFINITE = "is infinite for a float (the largest is about 1.8 × 10³⁰⁸); no number here is anywhere near that big."
# What a reader may type into a prediction's field or a figure's number field, and what the page's one reader
# (readNumber) makes of it: the number, or the whole sentence it shows. `what` names the field.
READINGS = [
    ("7", 7), (" -2.5 ", -2.5), (" 12 ", 12), ("+3", 3), (".5", 0.5), ("1e-5", 1e-5), ("1e3", 1000), ("1E3", 1000),
    ("1e-7", 1e-7), ("0.000001", 1e-6), ("-0", 0), ("9" * 40, 1e40), ("-6.0000001", -6.0000001),
    # the minus sign the figures write, and the dashes a reader copies from a page
    ("\u22126", -6), ("\u20126", -6), ("\u20136", -6), ("\u20146", -6), ("\ufe636", -6), ("\uff0d6", -6),
    ("", "Type a number for your answer first."), ("   ", "Type a number for your answer first."),
    (("", "the gradient of e"), "Type a number for the gradient of e first."),
    ((" ", "local derivative 1 − t²"), "Type a number for local derivative 1 − t² first."),
    ("9" * 41, "That is too long for a number (41 characters): type a few digits, such as −6 or 0.25."),
    ("2,5", "Write the decimal point as a point: 2.5 rather than 2,5."),
    ("\u22120,25", "Write the decimal point as a point: −0.25 rather than −0,25."),
    (",5", "Write the decimal point as a point: .5 rather than ,5."),
    ("3/4", "Type 3/4 as a decimal, 0.75."), ("1/4", "Type 1/4 as a decimal, 0.25."),
    ("1/3", "Type 1/3 as a decimal, 0.333333."), ("-1/8", "Type -1/8 as a decimal, −0.125."),
    ("2.5/0.5", "Type 2.5/0.5 as a decimal, 5."), ("1/3000000", "Type 1/3000000 as a decimal, 3.33333 × 10⁻⁷."),
    ("123456789/1", "Type 123456789/1 as a decimal, 1.23457 × 10⁸."), ("1/0", f"“1/0” {NOT_A_NUMBER}"),
    ("seven", f"“seven” {NOT_A_NUMBER}"), ("abc", f"“abc” {NOT_A_NUMBER}"), ("7 apples", f"“7 apples” {NOT_A_NUMBER}"),
    ("1 2", f"“1 2” {NOT_A_NUMBER}"), ("0x10", f"“0x10” {NOT_A_NUMBER}"), ("\u2212", f"“−” {NOT_A_NUMBER}"),
    # digits 0-9 only, and no Python or JavaScript spellings of special floats
    ("NaN", f"“NaN” {NOT_A_NUMBER}"), ("nan", f"“nan” {NOT_A_NUMBER}"), ("Infinity", f"“Infinity” {NOT_A_NUMBER}"),
    ("-inf", f"“-inf” {NOT_A_NUMBER}"), ("1_000", f"“1_000” {NOT_A_NUMBER}"), ("\uff13", f"“\uff13” {NOT_A_NUMBER}"),
    ("\u0663", f"“\u0663” {NOT_A_NUMBER}"), ("1\uff0e5", f"“1\uff0e5” {NOT_A_NUMBER}"),
    ("1e309", f"“1e309” {INFINITE}"), ("-1e400", f"“-1e400” {INFINITE}"),
]


@pytest.fixture(scope="module")
def readings():
    """{typed: what readNumber returned}, for every entry of READINGS, from one run of Node."""
    calls = [typed if isinstance(typed, tuple) else (typed, "your answer") for typed, _ in READINGS]
    found = run_judge(f"console.log(JSON.stringify({json.dumps(calls)}.map(([text, what]) => readNumber(text, what))));")
    return dict(zip([typed for typed, _ in READINGS], found))


@pytest.mark.parametrize("typed, read", READINGS)
def test_the_page_reads_typed_numbers_and_says_why_something_is_not_one(readings, typed, read):
    """One reader for a prediction's answer and a figure's number field (numbers.mjs's readNumber, before Python
    starts): a number, or one plain sentence."""
    if isinstance(read, str):
        assert readings[typed] == {"ok": False, "message": read}
    else:
        assert readings[typed] == {"ok": True, "value": read}


class PageParts(html.parser.HTMLParser):
    """A built page's predictions and runnable blocks in page order: ("prediction", id) or
    ("block", source, exercise name or None, title)."""

    def __init__(self):
        super().__init__()
        self.parts = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "div" and "prediction" in classes:
            self.parts.append(("prediction", attributes["data-prediction"]))
        elif tag == "div" and "runnable" in classes:
            self.parts.append(("block", attributes.get("data-source", ""), attributes.get("data-exercise"),
                               attributes.get("data-title", "")))


def page_parts(site, page_file):
    parser = PageParts()
    folder = "" if page_file == "index.md" else Path(page_file).stem + "/"
    parser.feed((site / folder / "index.html").read_text(encoding="utf-8"))
    return parser.parts


def observed_after_blocks(parts, solutions):
    """{prediction id: what tutor.predictions.observed finds once the block after the prediction ran}: the
    page's blocks run in order in one namespace, as the page runs them (exercises as their solution when
    `solutions`)."""
    from tutor.runtime import page_calls, runner

    async def run_all():
        found, waiting, fresh = {}, [], True
        for part in parts:
            if part[0] == "prediction":
                if PREDICTIONS[part[1]]["observe"]:
                    waiting.append(part[1])
                continue
            _, source, exercise, _ = part
            if exercise and solutions:
                source = __import__(f"tutor.exercises.{exercise}", fromlist=["SOLUTION"]).SOLUTION
            await runner.run(PAGE, source, lambda stream, text: None, filename="<block>", fresh=fresh)
            fresh = False
            for identifier in waiting:
                found[identifier] = page_calls.call("tutor.predictions", "observed",
                                                    {"path": PREDICTIONS[identifier]["observe"]}, runner.namespaces[PAGE])
            waiting = []
        assert not waiting, f"{waiting}: no block after these predictions"
        return found

    return in_own_thread(asyncio.run, run_all())


def test_each_block_computes_what_its_prediction_answers(site):
    where, _ = placements()
    pages = sorted({page for identifier, page in where.items() if PREDICTIONS[identifier]["observe"]})
    assert pages
    for page_file in pages:
        found = observed_after_blocks(page_parts(site, page_file), solutions=page_file == "build-your-own.md")
        for identifier, answer in found.items():
            assert answer["ok"], (identifier, answer)
            assert abs(answer["value"]["value"] - PREDICTIONS[identifier]["answer"]) <= PREDICTIONS[identifier]["tolerance"], (
                identifier, answer["value"], PREDICTIONS[identifier]["answer"])


def test_each_prediction_is_on_one_learner_page_at_least_two_on_each_and_25_in_all():
    where, twice = placements()
    assert twice == []
    assert set(where) == set(PREDICTIONS), "every prediction is placed, and no placeholder lacks one"
    assert not set(TEACHERS_PAGES) & set(where.values())
    per_page = {path.name: list(where.values()).count(path.name) for path in CHAPTERS}
    assert len(per_page) >= 10 and min(per_page.values()) >= 2, per_page  # the home page and every chapter
    assert sum(per_page.values()) >= 25


def test_without_javascript_the_page_holds_the_question_and_the_answer_in_details(site):
    where, _ = placements()
    for identifier, page_file in where.items():
        folder = "" if page_file == "index.md" else Path(page_file).stem + "/"
        page = (site / folder / "index.html").read_text(encoding="utf-8")
        start = page.index(f'data-prediction="{identifier}"')
        piece = page[start:page.index('<div class="prediction__data"', start)]
        assert "<strong>Prediction:</strong>" in piece and f'id="prediction-{identifier}"' in piece
        details = re.search(r"<details class=\"prediction__answer\"[^>]*><summary>Answer</summary><p><strong>(.*?)\.</strong>",
                            piece)
        assert details, identifier
        assert re.sub("<[^>]+>", "", details[1]) == re.sub("`", "", PREDICTIONS[identifier]["shown"]), identifier


def words(text):
    """A text as the search index holds it, roughly: no markup, single spaces."""
    return " ".join(re.sub(r"<[^>]+>|[`*]", "", text).split())


def test_the_search_index_holds_the_questions_but_no_answers(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = " ".join(entry["text"] for entry in index["docs"])
    for identifier, prediction in PREDICTIONS.items():
        assert words(prediction["question"])[:40] in words(text), identifier
        assert words(prediction["reason"]) not in words(text), identifier
        for slip in prediction["slips"]:
            assert words(slip["says"]) not in words(text), identifier


def test_a_chapters_notebook_holds_each_question_with_its_answer_in_a_collapsed_note(site):
    where, _ = placements()
    for identifier, page_file in where.items():
        chapter = Path(page_file).stem
        with zipfile.ZipFile(site / "notebooks" / f"{chapter}.zip") as archive:
            notebook = json.loads(archive.read(f"{chapter}.ipynb"))
        markdown = "\n".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
        assert notebook_text(PREDICTIONS[identifier]) in markdown, identifier
        assert f'data-prediction="{identifier}"' not in markdown
