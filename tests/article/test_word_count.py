"""The learner-facing prose stays at most 16,000 words (issue #28), and the core path's at most 5,000 (issue #35).

What it is: two counts, each defined here and nowhere else.
1. The core path's prose, on the built site: the words a reader sees on the core path's pages
   (tests/lesson_pages.py's CORE_PATH) without opening anything. A word is a run of non-space
   characters with a letter or digit in it, in the text of the page's <article>, leaving out code
   (<pre>, <code>, <kbd>), math, figures, runnable blocks with their outputs, hidden elements and every
   closed <details> (the predictions' answers and the "Go deeper" boxes), summary included.
2. WORDS are whitespace-separated tokens, as
`wc -w` counts them, of:
- the Markdown source of every learner's page in docs/ (tests/lesson_pages.py: all but the teachers'
  pages, "For teachers" and "Class overview"), as written:
  prose, math, code blocks and placeholders all count, numbers as their `{{ name }}` placeholder;
- plus, for each prediction placed on those pages, its question, the labels of its choices and its
  reason, as docs/predictions.yml gives them with their computed values filled in (what a reader reads
  with every answer shown). The feedback for a wrong answer is not counted: a reader sees at most one.
Run `python tests/article/test_word_count.py [built site]` to print the counts per page and in all.
What it is not: the teachers' page's reading-time estimate (site_scripts/hooks/teachers_page.py counts
prose without code for that).
"""
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from lesson_pages import CHAPTERS, CORE_PATH, LEARNER_PAGES

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
LIMIT = 16_000
CORE_LIMIT = 5_000
PLACEHOLDER = re.compile(r'<div data-prediction="(?P<id>[^"]*)"></div>')


# ---- 1. The core path, as built -------------------------------------------------------------------

LEFT_OUT_TAGS = {"pre", "code", "kbd", "script", "style", "svg", "math", "figure", "template"}
LEFT_OUT_CLASSES = {"runnable", "exercise-data", "arithmatex", "katex", "headerlink", "prediction__data"}
EMPTY_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
SHOWN_WORD = re.compile(r"\S*[^\W_]\S*")


class ShownProse(HTMLParser):
    """The words of a built page's <article> a reader sees without opening anything."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open = []       # for each open element inside the article: whether it is left out
        self.words = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in EMPTY_TAGS or not (self.open or tag == "article"):
            return
        classes = set((attrs.get("class") or "").split())
        self.open.append((tag, bool(tag in LEFT_OUT_TAGS or classes & LEFT_OUT_CLASSES or "hidden" in attrs
                                    or "data-widget" in attrs or (tag == "details" and "open" not in attrs))))

    def handle_endtag(self, tag):
        while self.open and tag not in EMPTY_TAGS:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.open and not any(left_out for _, left_out in self.open):
            self.words += SHOWN_WORD.findall(data)


def shown_words(html_text):
    parser = ShownProse()
    parser.feed(html_text)
    return parser.words


def built_page(site, path):
    return site / ("index.html" if path.stem == "index" else f"{path.stem}/index.html")


def core_counts(site):
    return {path.name: len(shown_words(built_page(site, path).read_text(encoding="utf-8"))) for path in CORE_PATH}


def test_the_core_path_shows_at_most_5000_words(site):
    per_page = core_counts(site)
    assert sum(per_page.values()) <= CORE_LIMIT, per_page


def test_the_home_page_names_the_core_path_and_each_chapters_minutes(site):
    """The home page lists CORE_PATH's chapters in order, then the other chapters as optional, each with the
    minutes teachers_page.py computes from the page, and states that rule's numbers."""
    from site_scripts.hooks import teachers_page
    home = built_page(site, DOCS / "index.md").read_text(encoding="utf-8")
    listed = home[home.index('id="what-you-will-build"'):home.index('id="how-to-use-the-runnable-blocks"')]
    core, optional = listed.split("Optional chapters")
    linked = re.compile(r'href="(?P<page>[a-z-]+)/">.*?\((?P<minutes>\d+) minutes\)', flags=re.S)
    core_listed = [(match["page"], int(match["minutes"])) for match in linked.finditer(core)]
    optional_listed = [(match["page"], int(match["minutes"])) for match in linked.finditer(optional)]
    assert [page for page, _ in core_listed] == [path.stem for path in CORE_PATH[1:]]
    chapters = [path.stem for path in CHAPTERS[1:]]
    assert sorted(page for page, _ in optional_listed) == sorted(set(chapters) - set(page for page, _ in core_listed))
    for page, minutes in core_listed + optional_listed:
        assert minutes == teachers_page.minutes((DOCS / f"{page}.md").read_text(encoding="utf-8")), page
    stated = " ".join(re.sub(r"<[^>]+>", " ", listed).split())
    assert (f"at {teachers_page.READING_SPEED} words a minute, plus {teachers_page.MINUTES_PER_BLOCK} minutes per "
            f"runnable block, {teachers_page.MINUTES_PER_FIGURE} per figure and {teachers_page.MINUTES_PER_EXERCISE} "
            "per exercise") in stated


def test_the_count_leaves_out_what_a_reader_does_not_see_unopened():
    page = ('<p>outside</p><article><h1>A title</h1><p>One <em>two</em> <code>x.grad</code> 3.5</p>'
            '<details><summary>Go deeper: more</summary><p>hidden words</p></details>'
            '<details open><summary>Open</summary><p>shown</p></details><div class="runnable"><p>code</p></div>'
            '<div class="arithmatex">x^2</div><div data-widget="secant"><p>figure</p></div><br>'
            '<p hidden>no</p><pre>print()</pre><p>last</p></article><p>after</p>')
    assert shown_words(page) == ["A", "title", "One", "two", "3.5", "Open", "shown", "last"]


# ---- 2. All learner pages, as written ------------------------------------------------------------

def page_words(path, predictions):
    """The words of one page: its Markdown, plus the question, choices and reason of its predictions."""
    markdown = path.read_text(encoding="utf-8")
    count = len(markdown.split())
    for match in PLACEHOLDER.finditer(markdown):
        prediction = predictions[match["id"]]
        shown = [prediction["question"], prediction["reason"], *(choice["label"] for choice in prediction["choices"])]
        count += sum(len(text.split()) for text in shown)
    return count


def counts():
    from prediction_answers import answered
    predictions = answered(DOCS)
    return {path.name: page_words(path, predictions) for path in LEARNER_PAGES}


def test_the_learner_facing_prose_is_at_most_16000_words():
    per_page = counts()
    assert len(per_page) >= 10, "the home page and the nine chapters"
    assert sum(per_page.values()) <= LIMIT, per_page


if __name__ == "__main__":
    if len(sys.argv) > 1:
        core = core_counts(Path(sys.argv[1]))
        for name, words in core.items():
            print(f"{words:6d}  {name} (core path, as built)")
        print(f"{sum(core.values()):6d}  on the core path (limit {CORE_LIMIT:,})")
    sys.path[:0] = [str(REPO / "engine"), str(REPO / "site_scripts"), str(REPO / "site_scripts" / "hooks")]
    per_page = counts()
    for name, words in per_page.items():
        print(f"{words:6d}  {name}")
    print(f"{sum(per_page.values()):6d}  in all (limit {LIMIT:,})")
