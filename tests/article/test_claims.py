"""Claims of the prose that were wrong once (issue #28, "Claims still wrong"), computed or checked here.

What it is: checks on the built pages and the chapters' Markdown. The stack walk of "Building the
engine" takes `a` off the stack once per edge that points at it plus once flagged, as the block "The
stack, step by step" prints under CPython and the prediction stack-count answers; on the engine
assembled from the solutions of "Build your own engine", exactly the blocks that chapter names print
something else than on the lesson's engine (every page's blocks run under CPython with each engine);
and the sentences that stated the old, wrong claims do not come back. The numbers of the other claims
are entries of docs/numbers.yml (Experiment 1's line and XOR network: forgetful_*) or predictions
(positive-input), which test_numbers.py and test_predictions.py compute.
What it is not: the engine's own tests (tests/engine) or the pages in a browser (tests/site).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import cpython_outputs
from prediction_answers import answered
from test_predictions import page_parts

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
OWN_ENGINE_TESTS = REPO / "tests" / "tutor" / "exercises"
# Where the chapter "Build your own engine" says an engine built from its steps prints something else.
DIFFERING_ON_OWN_ENGINE = {("engine", "Edges, constants and leaves"), ("complete-engine", "Run the whole file")}
GONE = {  # chapter -> wording of an old claim that was wrong
    "engine.md": ["comes off the stack twice", "and comes off as often"],
    "build-your-own.md": ["comes off the stack twice", "from an empty class", "are already in the order",
                          "parents in `order` already"],
    "teachers.md": ["comes off the stack twice", "No chapter links here"],
    "index.md": ["check after chapter 2", "show up twice", "applies each operation's derivative rule", "keeps working offline in their browser"],
    "derivatives.md": ["applies each operation's own small derivative rule", "and each one's local rule",
                       "read it as a tiny change of $f$ divided by the tiny", "Guess, drag", "reads the product"],
    "checking.md": ["applied from the loss back", "Which line would you expect it to follow?"],
    "backpropagation.md": ["The one positive gradient is the target's", "changes exactly as much as $L$ does",
                           "Both figures draw"],
    "training.md": ["what do the stuck inputs have in common?"],
    "edit-engine.md": ["all but one of those contributions are lost"],
}


def blocks_of(site, page):
    """(title, source) of every runnable block of the built page of `page` ("engine"), in page order."""
    return [(part[3], part[1]) for part in page_parts(site, f"{page}.md") if part[0] == "block"]


@pytest.mark.parametrize("chapter, wording", [(chapter, wording) for chapter, old in GONE.items() for wording in old])
def test_an_old_wrong_claim_does_not_come_back(chapter, wording):
    assert wording not in (DOCS / chapter).read_text(encoding="utf-8")


def test_a_value_comes_off_the_stack_once_per_edge_into_it_and_once_flagged(site):
    blocks = blocks_of(site, "engine")
    titles = [title for title, _ in blocks]
    stack_block = titles.index("The stack, step by step")
    ok, printed = cpython_outputs([source for _, source in blocks])[stack_block]
    assert ok
    taken_off = [line for line in printed.splitlines() if line.startswith(("a:", "a again"))]
    prediction = answered(DOCS)["stack-count"]
    assert len(taken_off) == prediction["answer"] == 4
    assert "a: back on the stack" in taken_off[0] and sum("joins the order" in line for line in taken_off) == 1
    assert "twice" not in (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8").split("def topological_order")[1][:600]


def test_the_forward_mode_block_prints_the_engines_derivatives(site):
    """"Forward mode with dual numbers" (checking.md), run under CPython as the build runs it for the lesson's
    output: each forward pass prints the derivative the engine's backward() gives for the same input, and the
    block's own reverse-mode line prints those too."""
    from tinygrad import Value
    blocks = blocks_of(site, "checking")
    titles = [title for title, _ in blocks]
    ok, printed = cpython_outputs([source for _, source in blocks])[titles.index("Forward mode with dual numbers")]
    assert ok, printed
    lines = dict(line.split(": ", 1) for line in printed.splitlines())
    a, b = Value(3.0), Value(-2.0)
    (a * b + a).backward()  # q = a * b + a, as the block and the prose after it have it
    assert float(lines["forward, seeding a"]) == a.grad and float(lines["forward, seeding b"]) == b.grad
    assert [float(number) for number in lines["reverse, one backward()"].split()] == [a.grad, b.grad]
    assert (a.grad, b.grad) == (-1.0, 3.0)  # two different numbers: a pass seeding the wrong input would show


def test_with_the_wrong_tanh_rule_the_block_prints_x_0_before_it_stops(site, tmp_path):
    """The prediction wrong-tanh-at-zero asks about x = 0; with Experiment 2's wrong rule the block "tanh against
    a central difference" must print that row (agreeing) before it stops at the first x where the rule is wrong."""
    engine = (REPO / "engine" / "tinygrad.py").read_text(encoding="utf-8")
    assert engine.count("1.0 - result * result") == 1
    (tmp_path / "tinygrad.py").write_text(engine.replace("1.0 - result * result", "1.0 + result * result"),
                                          encoding="utf-8")
    blocks = blocks_of(site, "edit-engine")
    titles = [title for title, _ in blocks]
    pages = {"edit-engine": [[f"<{title}>", source] for title, source in blocks]}
    printed = printed_with(tmp_path, pages)["edit-engine"][titles.index("tanh against a central difference")]
    rows = [line for line in printed.splitlines() if line.startswith("x = ")]
    assert rows and rows[0].startswith("x =   0.0: backward() 1.000000, central difference 1.000000"), printed
    assert len(rows) == 2 and "the engine's tanh derivative is wrong at x = " + rows[1].split(":")[0][4:].strip() in printed
    assert answered(DOCS)["wrong-tanh-at-zero"]["answer"] == "agrees"


RUN_PAGES = """
import json, sys
sys.path[:0] = [sys.argv[1]]                       # the engine to run: its folder comes first
sys.path += [sys.argv[2] + "/site_scripts", sys.argv[2] + "/engine"]
sys.path.insert(1, sys.argv[2] + "/site_scripts/hooks")
import block_outputs
pages = json.load(sys.stdin)
json.dump({page: [block_outputs.page_outputs(blocks)] for page, blocks in pages.items()}, sys.stdout)
"""


def printed_with(engine_folder, pages):
    """{page: [what each block prints]} with the tinygrad.py of `engine_folder`, in a CPython of its own."""
    ran = subprocess.run([sys.executable, "-c", RUN_PAGES, str(engine_folder), str(REPO)], input=json.dumps(pages),
                         capture_output=True, text=True, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    return {page: ["".join(text for stream, text in output["pieces"] if stream != "graph") for output in outputs[0]]
            for page, outputs in json.loads(ran.stdout).items()}


def test_on_an_engine_built_from_the_steps_exactly_the_blocks_the_chapter_names_print_otherwise(site, tmp_path):
    sys.path.insert(0, str(OWN_ENGINE_TESTS))
    try:
        from test_own_engine_checks import solved_file
    finally:
        sys.path.remove(str(OWN_ENGINE_TESTS))
    (tmp_path / "tinygrad.py").write_text(solved_file(), encoding="utf-8")
    pages = {}
    for page in sorted(path.stem for path in DOCS.glob("*.md") if path.stem not in ("teachers", "build-your-own")):
        blocks = blocks_of(site, page)
        if blocks:
            pages[page] = [[f"<{title}>", source] for title, source in blocks]
    lesson, own = printed_with(REPO / "engine", pages), printed_with(tmp_path, pages)
    differing = {(page, pages[page][number][0][1:-1]) for page in pages
                 for number, (ours, theirs) in enumerate(zip(lesson[page], own[page])) if ours != theirs}
    assert differing == DIFFERING_ON_OWN_ENGINE
    chapter = " ".join((DOCS / "build-your-own.md").read_text(encoding="utf-8").split())
    for page, title in DIFFERING_ON_OWN_ENGINE:
        assert f'[{ {"engine": "Building the engine", "complete-engine": "The complete engine"}[page] }]({page}.md)' in chapter
        assert f'"{title}"' in chapter
