"""MkDocs hook: writes the lesson's numbers and derivative formulas into its pages.

What it is: the chapters write `{{ name }}` wherever they state a number or formula about the
engine; this hook replaces each placeholder with the `text` of that entry in docs/numbers.yml, fails
the build on a name that file does not define, and keeps numbers.yml itself out of the built site.
What it is not: the check that the numbers are right. tests/article/test_numbers.py recomputes every
entry with the engine; this hook only copies text, so a page and its test read the same source.
"""
import re
from pathlib import Path

from docs_data import kept_out, read_yaml  # the hooks' folder is on sys.path
from mkdocs.exceptions import PluginError

NUMBERS_FILE = "numbers.yml"  # inside docs_dir
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*\}\}")

texts_by_name = {}


def read_numbers_file(docs_dir):
    """numbers.yml as parsed YAML (`setup`, `numbers`, `formulas`), checked for the shape the hook needs."""
    source = Path(docs_dir) / NUMBERS_FILE
    document = read_yaml(source, lambda message: PluginError(f"lesson_numbers: {message}"))
    if not isinstance(document, dict):
        raise PluginError(f"lesson_numbers: {source} must be a mapping with `numbers` and `formulas`")
    seen = set()
    for group in ("numbers", "formulas"):
        document[group] = document.get(group) or {}
        for name, entry in document[group].items():
            if name in seen:
                raise PluginError(f"lesson_numbers: {name!r} is defined twice in {source}")
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
                raise PluginError(f"lesson_numbers: {name!r} in {source} needs a quoted `text`")
            seen.add(name)
    return document


def texts_of(document):
    """{name: text} for every number and formula."""
    return {name: entry["text"]
            for group in ("numbers", "formulas") for name, entry in document[group].items()}


def on_config(config):
    texts_by_name.clear()
    texts_by_name.update(texts_of(read_numbers_file(config["docs_dir"])))


def on_files(files, config):
    return kept_out(files, NUMBERS_FILE)


def on_page_markdown(markdown, page, config, files):
    def text_of(match):
        name = match.group(1)
        if name not in texts_by_name:
            raise PluginError(
                f"lesson_numbers: {page.file.src_uri} uses {{{{ {name} }}}}, "
                f"which docs/{NUMBERS_FILE} does not define"
            )
        return texts_by_name[name]

    return PLACEHOLDER.sub(text_of, markdown)
