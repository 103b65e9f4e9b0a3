"""test_documents.py: the README stays a five-minute read, and the teachers' hosting section stays true.

What it is: README.md is at most 8,000 characters (issue #40: what the site is, the two commands, what
they need, where to read more; the rest lives in ARCHITECTURE.md, CONTRIBUTING.md, DECISIONS.md and the
teachers' page); and every command-line option the teachers' page's hosting section names is one the
classroom server offers, as `serve.py --help` lists them when the test runs.
What it is not: a check of the paths the documents name (test_named_paths.py) or of the rest of the
teachers' page (tests/article/test_teachers.py).
"""
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README_LIMIT = 8_000  # characters
HOSTING_HEADING = "## Hosting the lesson"


def test_the_readme_is_at_most_eight_thousand_characters():
    length = len((REPO / "README.md").read_text(encoding="utf-8"))
    assert length <= README_LIMIT, f"README.md has {length:,} characters; move detail to the other documents"


def hosting_section():
    text = (REPO / "docs" / "teachers.md").read_text(encoding="utf-8")
    section = text[text.index(HOSTING_HEADING):]
    following = re.search(r"^## ", section[len(HOSTING_HEADING):], flags=re.M)
    return section[:len(HOSTING_HEADING) + following.start()] if following else section


def test_the_teachers_hosting_section_names_only_options_the_classroom_server_has():
    named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", hosting_section()))
    server_help = subprocess.run([sys.executable, str(REPO / "site_scripts" / "server" / "serve.py"), "--help"],
                                 capture_output=True, text=True, check=True, timeout=60).stdout
    offered = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", server_help))
    assert named, "the hosting section names no option of serve.py"
    assert named <= offered, f"the teachers' page names {sorted(named - offered)}, which serve.py --help lacks"
