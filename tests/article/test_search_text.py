"""test_search_text.py: search previews show a formula as text, not as its TeX.

What it is: checks of the built search index (every formula of every chapter replaced by readable text,
which a reader can search for) and of site_scripts/hooks/search_text.py on the forms that need care:
fractions, KaTeX's \\dfrac and \\tfrac, HTML escaping, and a formula that cannot be read.
What it is not: a test of the search box in a browser (test_search.py) or of the typeset formulas on the
pages (test_build.py).
"""
import json
import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from site_scripts.hooks import search_text

DOCS = Path(__file__).resolve().parents[2] / "docs"
ARITHMATEX_WRAPPERS = re.compile(r"\\\(|\\\)|\\\[|\\\]")


@pytest.fixture(scope="module")
def index(site):
    return json.loads((site / search_text.INDEX).read_text(encoding="utf-8"))


def convert(tex):
    return search_text.formula_text(tex, *search_text.converter())


def test_no_entry_of_the_index_holds_a_formulas_tex(index):
    assert index["docs"], "the build wrote a search index"
    left = [(entry["location"], match.group()) for entry in index["docs"]
            for field in ("title", "text") for match in ARITHMATEX_WRAPPERS.finditer(entry[field])]
    assert left == []


def test_the_chapters_formulas_read_as_text_in_the_index(index):
    texts = " ".join(entry["text"] for entry in index["docs"])
    chapters = " ".join(path.read_text(encoding="utf-8") for path in DOCS.glob("*.md"))
    # Formulas the chapters write, and the text a reader would type into the search box for them.
    for source, shown in [(r"\frac{\partial L}{\partial w}", "∂L/∂w"), (r"\hat y", "ŷ"), (r"\nabla L", "∇L")]:
        assert source in chapters, source
        assert convert(source) == shown
        assert shown in texts, shown


@pytest.mark.parametrize("tex, text", [
    (r"\frac{L(w + h) - L(w - h)}{2h}", "(L(w + h) - L(w - h))/2h"),  # a numerator of several terms keeps its parentheses
    (r"\dfrac{df}{dx}", "df/dx"),
    (r"\tfrac{1}{4}", "1/4"),                                           # not "14"
    (r" L = (\hat y - y)^2. ", "L = (ŷ - y)^2."),
    ("a &lt; b", "a &lt; b"),                                           # the index holds HTML: unescaped, converted, escaped again
    (r"y = x \cdot x", "y = x · x"),                                    # pylatexenc alone: "x ·x"
    (r"\hat y \to e \to L", "ŷ → e → L"),                              # pylatexenc alone: "ŷ →e →L"
    (r"a\approx b", "a ≈ b"),
])
def test_a_formula_becomes_this_text(tex, text):
    assert convert(tex) == text


def test_a_formula_that_cannot_be_read_stops_the_build_naming_page_and_formula():
    with pytest.raises(PluginError, match=r"checking/.*\\\\frac\{a"):
        search_text.readable(r"before \(\frac{a\) after", "checking/", *search_text.converter())
