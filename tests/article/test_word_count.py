"""The learner-facing prose stays at most 16,000 words (issue #28: "shorter where it repeats").

What it is: one count, defined here and nowhere else. WORDS are whitespace-separated tokens, as
`wc -w` counts them, of:
- the Markdown source of every learner's page in docs/ (tests/lesson_pages.py: all but the teachers'
  pages, "For teachers" and "Class overview"), as written:
  prose, math, code blocks and placeholders all count, numbers as their `{{ name }}` placeholder;
- plus, for each prediction placed on those pages, its question, the labels of its choices and its
  reason, as docs/predictions.yml gives them with their computed values filled in (what a reader reads
  with every answer shown). The feedback for a wrong answer is not counted: a reader sees at most one.
Run `python tests/article/test_word_count.py` to print the count per page and in all.
What it is not: the teachers' page's reading-time estimate (site_scripts/hooks/teachers_page.py counts
prose without code for that).
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, when run as a script
from lesson_pages import LEARNER_PAGES

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
LIMIT = 16_000
PLACEHOLDER = re.compile(r'<div data-prediction="(?P<id>[^"]*)"></div>')


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
    sys.path[:0] = [str(REPO / "engine"), str(REPO / "site_scripts"), str(REPO / "site_scripts" / "hooks")]
    per_page = counts()
    for name, words in per_page.items():
        print(f"{words:6d}  {name}")
    print(f"{sum(per_page.values()):6d}  in all (limit {LIMIT:,})")
