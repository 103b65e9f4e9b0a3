"""The lesson's pages build cleanly and come out complete.

What it is: one `mkdocs build --strict` of the real configuration into a temporary folder (through
the browser tests' own build helper), then checks on the generated HTML: every chapter of the nav
exists, no `{{ name }}` placeholder, snippet marker or numbers.yml leaked into the site, python
fences only include engine/tinygrad.py (never retyped code), the complete-engine page shows the whole
file, the download link reaches a byte-identical tinygrad.py, and the numbers hook refuses a name it
does not know.
What it is not: a browser test (tests/site/test_article_blocks.py runs the blocks) or a check of the
numbers' values (test_numbers.py).
"""
import html
import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urljoin

import pytest
import yaml
from mkdocs.exceptions import PluginError

from site_scripts.hooks import lesson_numbers

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine" / "tinygrad.py"




def nav_entries():
    """(title, Markdown file) of each entry of mkdocs.yml's nav, in order (the !ENV tag read as None)."""
    loader = type("NavLoader", (yaml.SafeLoader,), {})
    loader.add_constructor("!ENV", lambda loader, node: None)
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)  # noqa: S506
    return [next(iter(entry.items())) for entry in config["nav"]]


def nav_pages():
    """The Markdown files listed in mkdocs.yml's nav, in order."""
    return [page for _, page in nav_entries()]


def html_path(site, markdown_name):
    stem = markdown_name.removesuffix(".md")
    return site / ("index.html" if stem == "index" else f"{stem}/index.html")


def test_every_docs_page_is_in_the_nav():
    on_disk = sorted(path.name for path in (REPO / "docs").glob("*.md"))
    assert sorted(nav_pages()) == on_disk


@pytest.mark.parametrize("markdown_name", nav_pages())
def test_page_is_complete(site, markdown_name):
    page = html_path(site, markdown_name).read_text(encoding="utf-8")
    assert not lesson_numbers.PLACEHOLDER.search(page), "a {{ name }} placeholder was not filled"
    assert "--8<--" not in page, "a snippet was not included"
    assert "<h1" in page


def test_numbers_file_stays_out_of_the_site(site):
    assert not (site / lesson_numbers.NUMBERS_FILE).exists()


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
