"""lesson_pages.py: which pages of docs/ the tests treat as the learner's, read from mkdocs.yml.

What it is: CHAPTERS, the pages of the navigation a learner reads in order (the home page and every
chapter; not "For teachers"), and LEARNER_PAGES, every page written for learners: the chapters and the
pages outside the navigation that learners open ("Your work"), but not the teachers' pages ("For
teachers", "Class overview"). The word count (tests/article/test_word_count.py) counts LEARNER_PAGES; the
rule "at least two predictions in every chapter" (tests/article/test_predictions.py) takes CHAPTERS.
What it is not: MkDocs' own reading of mkdocs.yml (only the `nav:` list is read here, line by line).
"""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
TEACHERS_PAGES = ("teachers.md", "class-overview.md")
NAV_ENTRY = re.compile(r"^  - [^:]+: (?P<file>[\w-]+\.md)$")


def nav_pages():
    """The files of mkdocs.yml's `nav:` list, in order."""
    lines = (REPO / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("nav:") + 1
    pages = []
    for line in lines[start:]:
        entry = NAV_ENTRY.match(line)
        if not entry:
            break
        pages.append(entry["file"])
    return pages


CHAPTERS = [DOCS / name for name in nav_pages() if name not in TEACHERS_PAGES]
LEARNER_PAGES = sorted(path for path in DOCS.glob("*.md") if path.name not in TEACHERS_PAGES)
