"""The lesson's pages build cleanly and come out complete.

What it is: one `mkdocs build --strict` of the real configuration into a temporary folder (through
the browser tests' own build helper), then checks on the generated HTML: every chapter of the nav
exists, no `{{ name }}` placeholder, snippet marker or data file the hooks read (numbers.yml,
predictions.yml, teachers-questions.yml) leaked into the site, a data file that cannot be read is
named by its hook (also through the build's fresh CPython, which keeps prints out of its answers),
python fences only include engine/tinygrad.py (never retyped code), the complete-engine page shows
the whole file, the download link reaches a byte-identical tinygrad.py, the numbers hook refuses a
name it does not know, every formula arrives typeset by KaTeX (no raw TeX outside code, no style
attribute, no KaTeX script) and a formula KaTeX refuses stops the build.
What it is not: a browser test (tests/site/test_article_blocks.py runs the blocks) or a check of the
numbers' values (test_numbers.py).
"""
import html
import html.parser
import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
from mkdocs.exceptions import PluginError

from lesson_pages import nav_pages, not_in_nav
from site_scripts.hooks import formulas, fresh_python, lesson_numbers, prediction_answers, teachers_page

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine" / "tinygrad.py"


def html_path(site, markdown_name):
    stem = markdown_name.removesuffix(".md")
    return site / ("index.html" if stem == "index" else f"{stem}/index.html")


def test_every_docs_page_is_in_the_nav():
    on_disk = sorted(path.name for path in (REPO / "docs").glob("*.md"))
    assert sorted(nav_pages() + not_in_nav()) == on_disk


@pytest.mark.parametrize("markdown_name", nav_pages())
def test_page_is_complete(site, markdown_name):
    page = html_path(site, markdown_name).read_text(encoding="utf-8")
    assert not lesson_numbers.PLACEHOLDER.search(page), "a {{ name }} placeholder was not filled"
    assert "--8<--" not in page, "a snippet was not included"
    assert "<h1" in page


def test_the_data_files_the_hooks_read_stay_out_of_the_site(site):
    data_files = (lesson_numbers.NUMBERS_FILE, prediction_answers.PREDICTIONS_FILE, teachers_page.QUESTIONS_FILE)
    for name in data_files:
        assert (REPO / "docs" / name).exists() and not (site / name).exists(), name


def test_a_data_file_that_cannot_be_read_is_named_by_the_hook_that_reads_it(tmp_path):
    (tmp_path / lesson_numbers.NUMBERS_FILE).write_text("numbers: [unclosed", encoding="utf-8")
    with pytest.raises(PluginError, match=r"^lesson_numbers: cannot read .*numbers\.yml: "):
        lesson_numbers.read_numbers_file(tmp_path)
    with pytest.raises(PluginError, match=r"^teachers_page: cannot read .*teachers-questions\.yml: .*No such file"):
        teachers_page.read_questions(tmp_path)
    with pytest.raises(prediction_answers.PredictionError, match=r"^cannot read .*predictions\.yml: "):
        prediction_answers.read(tmp_path)


def test_the_builds_fresh_python_answers_apart_from_what_it_prints_and_names_a_failure(tmp_path):
    """fresh_python.py computes the figures' states, the blocks' outputs and the predictions' answers."""
    assert fresh_python.in_fresh_python("builtins", "print", "printed") is None  # printed to stderr, not the answer
    with pytest.raises(prediction_answers.PredictionError, match=r"^cannot read .*predictions\.yml: "):
        prediction_answers.answered_in_child(tmp_path)


PYTHON_FENCE = re.compile(r"^```python\n(.*?)^```", flags=re.S | re.M)
ENGINE_SNIPPET = re.compile(r'--8<-- "engine/tinygrad\.py(:\w+)?"')
SNIPPET_MARKER = re.compile(r"#\s*--8<-- \[(start|end):\w+\]")


def test_python_excerpts_only_include_the_engine():
    """Engine code is never retyped: a ```python fence holds one snippet line of engine/tinygrad.py."""
    for page in (REPO / "docs").glob("*.md"):
        for body in PYTHON_FENCE.findall(page.read_text(encoding="utf-8")):
            assert ENGINE_SNIPPET.fullmatch(body.strip()), f"{page.name}: retyped code in a python fence"


def test_complete_engine_page_shows_the_whole_file(site):
    engine = "\n".join(line for line in ENGINE.read_text(encoding="utf-8").splitlines()
                       if not SNIPPET_MARKER.search(line))
    page_html = html_path(site, "complete-engine.md").read_text(encoding="utf-8")
    page = html.unescape(re.sub(r"<[^>]+>", "", page_html))
    assert engine in page


def test_download_link_serves_the_engine(site):
    page_url = "http://site.test/complete-engine/"
    page = html_path(site, "complete-engine.md").read_text(encoding="utf-8")
    links = re.findall(r'<a [^>]*href="([^"]*tinygrad\.py)"[^>]*download', page)
    assert links, "no download link to tinygrad.py"
    for link in links:
        target = urljoin(page_url, link).removeprefix("http://site.test/")
        assert (site / target).read_bytes() == ENGINE.read_bytes()


def test_unknown_placeholder_fails_the_build():
    lesson_numbers.on_config({"docs_dir": str(REPO / "docs")})
    page = SimpleNamespace(file=SimpleNamespace(src_uri="example.md"))
    with pytest.raises(PluginError, match="no_such_number"):
        lesson_numbers.on_page_markdown("It is {{ no_such_number }}.", page, None, None)
    known = lesson_numbers.on_page_markdown("It is {{ start_loss }}.", page, None, None)
    start_loss = lesson_numbers.read_numbers_file(REPO / "docs")["numbers"]["start_loss"]["text"]
    assert known == f"It is {start_loss}."


# ---- Math typeset at build time (site_scripts/hooks/formulas.py) ----------------------------

FORMULA_START = re.compile(r'<(span|div) class="arithmatex">(.{0,40})', re.S)   # KaTeX's markup nests spans
RAW_MATH = re.compile(r"\\[()\[\]]|\$\$|\\[a-zA-Z]+")   # \( \) \[ \] $$ or a TeX command such as \frac
FORMULA_CLASS = re.compile(r'class="[^"]*\b(formula-[0-9a-f]+)\b')
STYLESHEET_RULE = re.compile(r"^\.(formula-[0-9a-f]+)\{[^}]+!important\}$", re.M)
FORMULAS_IN_MARKDOWN = re.compile(r"\$[^$\s]")


class ReadableText(html.parser.HTMLParser):
    """The text a reader sees in a page's article: without code, scripts, or the MathML copy of each
    formula (hidden by KaTeX's CSS, its TeX annotation kept for screen readers and copying)."""

    SKIPPED = {"script", "style", "pre", "code", "math"}

    def __init__(self):
        super().__init__()
        self.depth_skipped = 0
        self.in_article = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self.in_article += 1
        if tag in self.SKIPPED:
            self.depth_skipped += 1

    def handle_endtag(self, tag):
        if tag in self.SKIPPED:
            self.depth_skipped -= 1
        if tag == "article":
            self.in_article -= 1

    def handle_data(self, data):
        if self.in_article and not self.depth_skipped:
            self.parts.append(data)


def readable_text(page_html):
    parser = ReadableText()
    parser.feed(page_html)
    return "".join(parser.parts)


@pytest.mark.parametrize("markdown_name", nav_pages())
def test_every_formula_arrives_typeset(site, markdown_name):
    """Each formula is KaTeX markup in the built page, with its TeX kept only in the MathML annotation;
    the article shows no raw delimiter or TeX command outside code, and no KaTeX script is loaded."""
    page = html_path(site, markdown_name).read_text(encoding="utf-8")
    markdown = (REPO / "docs" / markdown_name).read_text(encoding="utf-8")
    formulas = FORMULA_START.findall(page)
    if FORMULAS_IN_MARKDOWN.search(PYTHON_FENCE.sub("", markdown)):
        assert formulas, "the Markdown has $math$ but the page has no formula"
    for tag, start in formulas:
        assert start.startswith('<span class="katex-display">' if tag == "div" else '<span class="katex">'), start
    assert page.count('<span class="katex-html" aria-hidden="true">') == len(formulas)
    assert page.count('<annotation encoding="application/x-tex">') == len(formulas)
    raw = RAW_MATH.findall(readable_text(page))
    assert not raw, f"raw TeX on the page: {raw[:5]}"
    assert "katex.mjs" not in page and "math.mjs" not in page


def test_formulas_carry_no_style_attribute_and_every_class_has_its_rule(site):
    stylesheet = (site / "assets" / "math" / "formulas.css").read_text(encoding="utf-8")
    defined = set(STYLESHEET_RULE.findall(stylesheet))
    used = set()
    for markdown_name in nav_pages():
        page = html_path(site, markdown_name).read_text(encoding="utf-8")
        assert 'href="' in page and "assets/math/formulas.css" in page, f"{markdown_name}: formulas.css is not linked"
        assert not re.search(r"<[^>]+\sstyle=", page), f"{markdown_name}: a style attribute"
        used |= set(FORMULA_CLASS.findall(page))
    assert used, "no formula needed a box position: KaTeX's markup changed?"
    assert used <= defined, f"classes without a rule: {sorted(used - defined)[:5]}"
    assert not (site / "assets" / "vendor" / "katex" / "katex.mjs").exists(), "KaTeX's script is still shipped"
    assert sorted(path.name for path in (site / "assets" / "vendor" / "katex" / "fonts").glob("KaTeX_Main-*.woff2"))


def test_a_formula_katex_refuses_stops_the_build_naming_page_and_formula():
    formulas.on_config({})
    page = SimpleNamespace(file=SimpleNamespace(src_uri="broken-chapter.md"))
    formulas.on_page_content('<p><span class="arithmatex">\\(x^2\\)</span> and '
                             '<span class="arithmatex">\\(\\frac{1}{\\)</span></p>', page, None, None)
    with pytest.raises(PluginError, match=r"broken-chapter\.md") as refused:
        formulas.on_env(None, {}, None)
    assert "\\frac{1}{" in str(refused.value) and "x^2" not in str(refused.value)
    formulas.on_config({})
    formulas.on_page_content('<div class="arithmatex">\\[a &lt; b\\]</div>', page, None, None)
    formulas.on_env(None, {}, None)
    typeset = formulas.on_post_page('<div class="arithmatex">\\[a &lt; b\\]</div>', page, {})
    assert typeset.startswith('<div class="arithmatex"><span class="katex-display">') and "&lt;" in typeset
