"""lesson_pages.py: mkdocs.yml's navigation as the tests read it, and which pages of docs/ are the learner's.

What it is: the tests' one reading of mkdocs.yml (`mkdocs_config()`, its !ENV tags read as None) and
of its navigation: `nav_entries()` ((title, file) in order), `nav_pages()` (the files) and
`not_in_nav()` (the pages left out of the navigation on purpose); and from them CHAPTERS, the pages of
the navigation a learner reads in order (the home page and every chapter; not "For teachers"), and
LEARNER_PAGES, every page written for learners: the chapters and the pages outside the navigation
that learners open ("Your work"), but not the teachers' pages ("For teachers", "Class overview"). The
word count (tests/article/test_word_count.py) counts LEARNER_PAGES; the rule "at least two
predictions in every chapter" (tests/article/test_predictions.py) takes CHAPTERS; the build's tests
(tests/article/test_build.py, test_teachers.py, test_notation.py) take the navigation.
What it is not: MkDocs' own reading of mkdocs.yml (no plugin or theme is loaded here).
"""
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
TEACHERS_PAGES = ("teachers.md", "class-overview.md")


def mkdocs_config():
    """mkdocs.yml as YAML, the !ENV tag read as None."""
    loader = type("NavLoader", (yaml.SafeLoader,), {})
    loader.add_constructor("!ENV", lambda loader, node: None)
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)


def nav_entries():
    """(title, Markdown file) of each entry of mkdocs.yml's nav, in order."""
    return [next(iter(entry.items())) for entry in mkdocs_config()["nav"]]


def nav_pages():
    """The Markdown files listed in mkdocs.yml's nav, in order."""
    return [page for _, page in nav_entries()]


def not_in_nav():
    """The pages mkdocs.yml's `not_in_nav` leaves out of the nav on purpose ("Your work", "Class overview")."""
    return [line.strip().lstrip("/") for line in mkdocs_config().get("not_in_nav", "").splitlines() if line.strip()]


CHAPTERS = [DOCS / name for name in nav_pages() if name not in TEACHERS_PAGES]
LEARNER_PAGES = sorted(path for path in DOCS.glob("*.md") if path.name not in TEACHERS_PAGES)
# The core path the home page names (issue #35): what a first-time reader reads in order; the other chapters are optional.
CORE_PATH = [DOCS / name for name in ("index.md", "derivatives.md", "loss-and-gradient.md", "backpropagation.md",
                                      "engine.md", "training.md")]
