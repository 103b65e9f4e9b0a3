"""The lesson's notation claims (issue #15), read from the chapters' Markdown.

What it is: checks that keep fixed notation from coming back. Display math holds no `+=`; where the
chain-rule product 2e · … is evaluated, the error e = −3 is substituted visibly; ∂, the power rule
and the chain rule are each stated, in words and in symbols, in the first chapter that uses them
and nowhere else; "contributions add" is derived in "Backpropagation through a graph" by naming the
uses of a as a₁, a₂, a₃; a chapter that says "lecture" links the lecture itself.
What it is not: a check of the numbers (test_numbers.py) or of how KaTeX renders the math
(tests/site).
"""
import re

import pytest

from lesson_pages import REPO, nav_pages

DOCS = REPO / "docs"
CHAPTERS = [name for name in nav_pages() if name != "index.md"]  # the home page only lists them
DISPLAY = re.compile(r"\$\$(.*?)\$\$", flags=re.S)
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)
LECTURE = "https://www.youtube.com/watch?v=VMj-3S1tku0"
# The chapters rewritten for issue #15; the lecture check covers these (other pages: their owners).
RETOLD = ["derivatives.md", "loss-and-gradient.md", "backpropagation.md"]


def prose(name):
    """A chapter's Markdown without its code fences (code may use += and any words)."""
    return FENCE.sub("", (DOCS / name).read_text(encoding="utf-8"))


def paragraphs(text):
    return [part for part in re.split(r"\n\s*\n", text) if part.strip()]


@pytest.mark.parametrize("name", CHAPTERS)
def test_display_math_holds_no_compound_assignment(name):
    for display in DISPLAY.findall(prose(name)):
        assert "+=" not in display and r"\mathrel{+}" not in display, f"{name}: {display.strip()}"


def test_the_error_is_substituted_where_its_chain_product_is_evaluated():
    evaluated = [display for name in CHAPTERS for display in DISPLAY.findall(prose(name))
                 if "2e" in display and "{{" in display]  # a product with 2e that ends in a number
    assert len(evaluated) >= 1, "the bias's gradient 2e · 1 · 1 is no longer shown"
    for display in evaluated:
        assert "2 \\cdot ({{ start_error }})" in display, display.strip()


def first_chapter_using(pattern):
    """(chapter, text, index) of the first occurrence of `pattern` in the chapters' prose, in nav order."""
    for name in CHAPTERS:
        text = prose(name)
        found = re.search(pattern, text, flags=re.I)
        if found:
            return name, text, found.start()
    raise AssertionError(f"no chapter uses {pattern!r}")


def test_partial_derivative_symbol_is_explained_where_first_used():
    name, text, index = first_chapter_using(r"\\partial")
    paragraph_start = text.rfind("\n\n", 0, index)
    explanation = " ".join(text[text.rfind("\n\n", 0, paragraph_start) + 2:index].split())  # this paragraph and the one before
    assert "partial derivative" in explanation and "curly" in explanation, name


@pytest.mark.parametrize("rule, symbols", [
    ("power rule", r"\frac{d}{dx}\, x^n = {{ power_rule_general }}"),
    ("chain rule", r"\frac{dq}{dx} = \frac{dq}{du} \cdot \frac{du}{dx}"),
])
def test_rule_is_stated_in_words_and_symbols_once_where_first_used(rule, symbols):
    name, text, index = first_chapter_using(rule)
    definitions = [(chapter, part) for chapter in CHAPTERS for part in paragraphs(prose(chapter))
                   if f"**{rule}**" in part.lower()]
    assert len(definitions) == 1, f"{rule} is stated {len(definitions)} times"
    chapter, definition = definitions[0]
    assert chapter == name, f"{rule} is first used in {name} but stated in {chapter}"
    before = text[:text.find(definition)]
    for mention in re.finditer(rule, before, flags=re.I):  # only a pointer to the statement may come first
        assert before[mention.end():mention.end() + 20].startswith(" (stated below"), \
            f"{name}: {rule} is used before it is stated: {before[mention.start() - 60:mention.end()]!r}"
    following = paragraphs(text[text.find(definition):])
    assert len(definition.split()) >= 15, f"{rule}: say the rule in words"
    assert symbols in following[1], f"{rule}: the display after the words shows the rule in symbols"


def test_contributions_add_is_derived_from_renamed_uses():
    text = prose("backpropagation.md")
    section = text[text.index("## When paths meet"):]
    derivation = section[:section.index('<div data-widget="paths_add_up">')]
    assert "q = a_1 \\cdot a_2 + a_3" in derivation
    assert "\\frac{\\partial q}{\\partial a_1} + \\frac{\\partial q}{\\partial a_2} + \\frac{\\partial q}{\\partial a_3}" \
        in derivation, "the sum of the renamed uses' derivatives is what adds the contributions"


@pytest.mark.parametrize("name", RETOLD)
def test_a_chapter_that_says_lecture_links_the_lecture(name):
    for part in paragraphs(prose(name)):
        if re.search(r"\blecture\b", part, flags=re.I):
            assert LECTURE in part, f"{name}: {part[:80]!r}"
