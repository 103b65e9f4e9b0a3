"""Terms before use (issue #35): on the core path, a technical term is defined where it first appears.

What it is: TERMS, the technical words the core path's chapters (after the home page, which only lists
what is to come) use, in Markdown. Read in order, chapter by chapter, with each prediction's question
where the page asks it, the first use of a term must be its definition, which the chapters mark by
writing the term in *emphasis* (or **bold**) in that sentence. Headings, code, math, link texts and
"Go deeper" boxes are left out: a heading names what comes, the rest is not the sentence a reader
meets first (a box that uses a term before the core path defines it is checked too, see below).
What it is not: a check of the definitions' wording, nor of figures' own texts (their terms are
defined in the prose before the figure, which this test does see).
"""
import re

import pytest

from lesson_pages import CORE_PATH
from prediction_answers import answered

PREDICTIONS = answered(CORE_PATH[0].parent)
PLACEHOLDER = re.compile(r'<div data-prediction="(?P<id>[^"]*)"></div>')
LEFT_OUT = [re.compile(pattern, flags=re.M) for pattern in (
    r"^ *```[^\n]*\n(?:.*\n)*? *```$",  # code blocks
    r"^ *#+ .*$",                       # headings
    r"\$\$(?:.*\n)*?.*\$\$", r"\$[^$\n]+\$",  # math
    r"`[^`\n]+`",                       # code
    r"\[[^\]]*\]\([^)]*\)",             # links (a chapter's title names what is to come)
    r"<[^>]+>",                         # HTML tags
)]
# term -> the pattern of its uses (case-insensitive, whole words)
TERMS = {
    "derivative": r"derivatives?",
    "secant": r"secants?",
    "finite difference": r"finite differences?",
    "tangent": r"tangents?",
    "power rule": r"power rule",
    "autodiff": r"autodiff|automatic differentiation",
    "backpropagation": r"backpropagation",
    "reverse mode": r"reverse mode",
    "partial derivative": r"partial derivatives?",
    "local derivative": r"local derivatives?",
    "chain rule": r"chain rule",
    "seed": r"seed(?:s|ed|ing)?",
    "loss": r"loss(?:es)?",
    "squared error": r"squared error",
    "gradient": r"gradients?",
    "gradient descent": r"gradient descent",
    "learning rate": r"learning rates?",
    "optimizer": r"optimizers?",
    "subgradient": r"subgradients?",
    "computation graph": r"computation graphs?|graph of boxes",
    "edge": r"edges?",
    "topological order": r"topological order",
    "affine": r"affine",
    "neuron": r"neurons?",
    "saturated": r"saturated",
}


def core_text():
    """The core path's chapters (not the home page) as one text, in order, predictions' questions in place."""
    chapters = []
    for path in CORE_PATH[1:]:
        markdown = path.read_text(encoding="utf-8")
        markdown = PLACEHOLDER.sub(lambda match: "\n\n" + PREDICTIONS[match["id"]]["question"] + "\n\n", markdown)
        chapters.append(markdown)
    return "\n\n".join(chapters)


def outside_boxes(text):
    """The text without its "Go deeper" boxes (a `??? note` line and the indented lines under it)."""
    return re.sub(r"^\?\?\? .*\n(?:(?: {4}.*)?\n)*", "\n", text, flags=re.M)


def prose(text):
    """`text` without what LEFT_OUT names, each paragraph on one line (a term may span a line break)."""
    for pattern in LEFT_OUT:
        text = pattern.sub(" ", text)
    return re.sub(r"(?<!\n)\n(?!\n)", " ", text)


def first_use(text, pattern):
    """The sentence around the first use of `pattern` in `text`, and whether that use is emphasized."""
    found = re.search(rf"(?<![\w-])(?:{pattern})(?![\w-])", text, flags=re.I)
    if not found:
        return None
    start = max(text.rfind(". ", 0, found.start()), text.rfind("\n\n", 0, found.start()))
    start = 0 if start < 0 else start + 2
    end = min(position for position in (text.find(". ", found.end()), text.find("\n\n", found.end()), len(text))
              if position >= 0)
    emphasized = re.search(rf"\*{{1,2}}(?:[^*\n]*\s)?(?:{pattern})[^*\n]*\*{{1,2}}", text[start:end], flags=re.I)
    return " ".join(text[start:end].split()), bool(emphasized)


@pytest.mark.parametrize("term", TERMS)
def test_a_term_is_defined_where_it_first_appears(term):
    use = first_use(prose(outside_boxes(core_text())), TERMS[term])
    assert use, f"the core path never uses {term!r}: take it out of TERMS"
    sentence, defined = use
    assert defined, f"{term!r} is first used without being defined (written in *emphasis*): {sentence!r}"


def test_the_check_sees_a_use_before_the_definition():
    text = prose("The loss goes down.\n\nThe *loss* is a number.\n\n## A *gradient*\n\n`gradient` $g$")
    assert first_use(text, TERMS["loss"]) == ("The loss goes down.", False)
    assert first_use(text, TERMS["gradient"]) is None


def test_the_neuron_tables_gradient_fields_say_of_what():
    """"Gradient of w₁" in "A neuron by hand" (of what?): the prose before the figure says it is ∂t/∂w₁."""
    from tutor_sources import FIGURE_MODELS, module_constants
    labels = dict(module_constants(FIGURE_MODELS / "neuron_by_hand.py")["FIELDS"])
    training = (CORE_PATH[0].parent / "training.md").read_text(encoding="utf-8")
    before = training[:training.index('<div data-widget="neuron_by_hand">')].split("\n\n")[-2]
    assert f'"{labels["w1"]}" means $\\partial t / \\partial w_1$' in before, before
