"""notebooks.py: the MkDocs hook that offers every chapter with runnable blocks as a Jupyter notebook.

What it is: for each page with ```runnable fences it builds a notebook (nbformat 4.5 JSON, written
with the standard library) from the page's Markdown exactly as the site renders it: after the other
hooks have filled the `{{ name }}` numbers (this hook runs late on purpose) and with the engine
excerpts (`--8<-- "engine/tinygrad.py:SECTION"`) included by pymdownx.snippets with the site's own
settings. Runnable blocks become code cells in page order; the prose, its $math$ and the engine
excerpts (as Python code in Markdown) become Markdown cells (a collapsible Material note as its bold
title and its text); a figure placeholder becomes a note that
links to the interactive figure on the site, a prediction placeholder its question with the answer
in a collapsed <details> (as computed for this build by the hook predictions.py), and relative
links point at the site too. After the
build, notebooks/<chapter>.zip holds <chapter>.ipynb and tinygrad.py (engine/tinygrad.py unchanged),
and the page gets a relative "Download this chapter as a Jupyter notebook" link under its title.
A chapter whose blocks call show(value) (on the site it draws a Value's graph under the block) gets
a code cell defining show() before the first such block: there it prints the same one-line summary,
with the summary's functions copied from the figure's model (site_scripts/tutor/figures/expression_graph.py
and the graph walk it uses from graph_trace.py).
A block that imports micropip (Pyodide's installer, which installs micrograd from the site) cannot run in
Jupyter: it becomes a Markdown cell showing its code, with the pip command that does the same there.
What it is not: a runner. The notebook is shipped without outputs; tests/article/test_notebooks.py
validates it with nbformat and executes it with the zip's tinygrad.py.
"""
import ast
import json
import posixpath
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import markdown
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url
from prediction_answers import PLACEHOLDER as PREDICTION_PLACEHOLDER, notebook_text, this_build as predictions
import registry_wheels
from reproducible_zip import write_zip  # MkDocs puts the hooks' folder on sys.path while it loads a hook
from tutor_sources import FIGURE_MODELS, module_constants  # MkDocs puts the hooks' folder on sys.path while it loads a hook

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "engine" / "tinygrad.py"
SHOW_FUNCTIONS = {  # model file -> its functions the notebook's show() needs (only the engine's Value)
    FIGURE_MODELS / "graph_trace.py": ("values_in_order",),
    FIGURE_MODELS / "expression_graph.py": ("counted", "variable_name", "graph_title", "summary"),
}
SHOW_CELL_HEADING = "# show(value) draws the graph of a Value on the lesson's website."
SHOW_DEFINITION = SHOW_CELL_HEADING + """
# In a notebook it prints the size of that graph, as the website does above its drawing.
from tinygrad import Value


{functions}


def show(value):
    if not isinstance(value, Value):
        raise TypeError(f"show() draws the graph of a Value, for example show(loss); it got {{value!r}}")
    print(summary(value, globals()))"""
BROWSER_INSTALL = re.compile(r"^\s*(?:import|from)\s+micropip\b", flags=re.M)  # a block that needs Pyodide's micropip
BROWSER_INSTALL_NOTE = ("In the browser, this block installs micrograd with micropip. In Jupyter, run "
                        f"`pip install micrograd=={registry_wheels.PINS['micrograd'][0]}` once instead, and then the code "
                        "below without its first two lines.")
SHOW_CALL = re.compile(r"\bshow\(")
NOTEBOOK_FOLDER = "notebooks"                        # in the built site
LINK_TEXT = "Download this chapter as a Jupyter notebook"

FENCE_OPENING = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
RUNNABLE_INFO = re.compile(r"^\s*runnable\b")
TITLE_OPTION = re.compile(r'\btitle="(?P<title>[^"]*)"')
FIGURE_PLACEHOLDER = re.compile(r'<div[^>]*\sdata-widget="(?P<name>\w+)"[^>]*>\s*</div>')
MARKDOWN_LINK = re.compile(r"(?P<start>\]\()(?P<target>[^)\s]+)")
HTML_LINK = re.compile(r'(?P<start>\s(?:href|src)=")(?P<target>[^"]+)')
HEADING = re.compile(r"^# \S")
MATERIAL_NOTE = re.compile(r'^(?:\?\?\?\+?|!!!) +(?P<kind>\w+)(?: +[\w-]+)*(?: +"(?P<title>[^"]*)")? *\n'
                           r"(?P<body>(?:(?: {4}.*)?\n)*)", re.M)

notebooks = {}        # chapter name -> notebook JSON text, collected while the pages render
snippet_reader = {}   # "markdown": a Markdown instance with pymdownx.snippets set up like the site's


def on_config(config):
    notebooks.clear()
    snippet_reader.clear()
    if "pymdownx.snippets" in config["markdown_extensions"]:
        snippet_reader["markdown"] = markdown.Markdown(
            extensions=["pymdownx.snippets"],
            extension_configs={"pymdownx.snippets": config["mdx_configs"].get("pymdownx.snippets", {})})
    if not config["site_url"]:
        raise PluginError("notebooks.py: mkdocs.yml needs a site_url; the notebooks link to the site's "
                          "figures")


@event_priority(-50)  # after the hooks that rewrite the Markdown (lesson_numbers fills the numbers)
def on_page_markdown(text, page, config, files):
    cells = notebook_cells(text, page, config, files)
    if not any(cell["cell_type"] == "code" for cell in cells):
        return text
    chapter = chapter_name(page)
    notebooks[chapter] = notebook_json(cells)
    href = get_relative_url(f"{NOTEBOOK_FOLDER}/{chapter}.zip", page.url)
    link = (f'<p class="notebook-download"><a href="{href}" download="{chapter}.zip">{LINK_TEXT}</a>'
            f" (a zip with the notebook and <code>tinygrad.py</code>)</p>")
    return with_line_after_title(text, link)


def on_post_build(config, **kwargs):
    folder = Path(config["site_dir"]) / NOTEBOOK_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for chapter, notebook in notebooks.items():
        write_zip(folder / f"{chapter}.zip", [(f"{chapter}.ipynb", notebook.encode("utf-8")),
                                               ("tinygrad.py", ENGINE.read_bytes())])


def chapter_name(page):
    """"checking" for checking.md: names the zip and the notebook in it."""
    return posixpath.splitext(page.file.src_uri)[0].replace("/", "-")


# ---- From the page's Markdown to cells ---------------------------------------------------------

def notebook_cells(text, page, config, files):
    """Markdown and code cells, in page order: prose between runnable blocks, each block as code."""
    page_url = urljoin(config["site_url"], page.url)
    cells, prose, figures_seen = [], [], {}

    def end_prose(caption=""):
        source = "\n\n".join(part for part in ("\n".join(prose).strip("\n"), caption) if part)
        if source:
            cells.append({"cell_type": "markdown", "source": source})
        prose.clear()

    introduction = (f"The chapter \u201c{page.title}\u201d of *{config['site_name']}* as a notebook "
                    f"([the chapter on the website]({page_url})). Run the cells from top to bottom, with "
                    "`tinygrad.py`, which comes in the same zip, in the same folder as this notebook.")
    cells.append({"cell_type": "markdown", "source": introduction})
    show_defined = False
    for kind, lines, info in blocks_of(unfolded_notes(with_snippets_included(text))):
        if kind == "runnable":
            title = TITLE_OPTION.search(info)
            end_prose(caption=f"**{title['title']}**" if title else "")
            code = "\n".join(lines)
            if BROWSER_INSTALL.search(code):
                prose.extend([BROWSER_INSTALL_NOTE, "", "```python", *lines, "```"])
                end_prose()
                continue
            if SHOW_CALL.search(code) and not show_defined:
                cells.append({"cell_type": "code", "source": show_definition()})
                show_defined = True
            cells.append({"cell_type": "code", "source": code})
        elif kind == "fence":
            prose.extend(lines)
        else:
            prose.extend(prose_for_notebook(line, page, config["site_url"], files, figures_seen)
                         for line in lines)
    end_prose()
    return cells


def unfolded_notes(text):
    """Material notes (`??? note "Title"`, `??? note go-deeper "Title"`, `!!! note`) as plain Markdown, which notebooks can show:
    the title in bold, then the note's text without its indentation."""
    return MATERIAL_NOTE.sub(lambda note: f"**{note['title'] or note['kind'].capitalize()}**\n\n"
                             + re.sub(r"^ {4}", "", note["body"], flags=re.M), text)


def show_definition():
    """The source of the code cell that defines show() for a notebook (see SHOW_DEFINITION)."""
    copied = []
    for model, names in SHOW_FUNCTIONS.items():
        source = model.read_text(encoding="utf-8")
        functions = {node.name: ast.get_source_segment(source, node)
                     for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}
        missing = [name for name in names if name not in functions]
        if missing:
            raise PluginError(f"notebooks.py: {model} no longer defines {', '.join(missing)}")
        copied += [functions[name] for name in names]
    return SHOW_DEFINITION.format(functions="\n\n\n".join(copied))


def with_snippets_included(text):
    """The Markdown with `--8<--` includes replaced by their text, as pymdownx.snippets does for the site."""
    reader = snippet_reader.get("markdown")
    return "\n".join(reader.preprocessors["snippet"].run(text.split("\n"))) if reader else text


def blocks_of(text):
    """Yield ("runnable", code lines, fence info), ("fence", lines with the fences, info) or
    ("prose", [line], "") in order. Only prose is rewritten, so code is never touched."""
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        opening = FENCE_OPENING.match(lines[number])
        if not opening:
            yield "prose", [lines[number]], ""
            number += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        end = next((n for n in range(number + 1, len(lines)) if closing.match(lines[n])), len(lines))
        if RUNNABLE_INFO.match(opening["info"]):
            yield "runnable", [line[indent:] for line in lines[number + 1:end]], opening["info"]
        else:
            yield "fence", lines[number:end + 1], opening["info"]
        number = end + 1


def prose_for_notebook(line, page, site_url, files, figures_seen):
    """One line of prose, with figure placeholders turned into notes and relative links made absolute."""
    page_url = urljoin(site_url, page.url)

    def figure_note(match):
        name = match["name"]
        figures_seen[name] = figures_seen.get(name, 0) + 1
        anchor = f"figure-{name}" + (f"-{figures_seen[name]}" if figures_seen[name] > 1 else "")
        return (f"> **Figure: {figure_title(name)}.** This figure is interactive on the website: "
                f"[open it there]({page_url}#{anchor}).")

    def markdown_target(match):
        return match["start"] + site_address_of_document_link(match["target"], page, site_url, files)

    def html_target(match):
        target = match["target"]
        return match["start"] + (target if is_absolute(target) else urljoin(page_url, target))

    def prediction_note(match):
        if match["id"] not in predictions:
            raise PluginError(f"notebooks.py: {page.file.src_uri} asks for a prediction {match['id']!r} "
                              "that this build did not compute")
        return notebook_text(predictions[match["id"]])

    line = PREDICTION_PLACEHOLDER.sub(prediction_note, FIGURE_PLACEHOLDER.sub(figure_note, line))
    return HTML_LINK.sub(html_target, MARKDOWN_LINK.sub(markdown_target, line))


def is_absolute(target):
    parts = urlsplit(target)
    return bool(parts.scheme) or target.startswith("/")


def site_address_of_document_link(target, page, site_url, files):
    """A Markdown link as MkDocs resolves it (relative to the source file), as a full site address."""
    if is_absolute(target):
        return target
    path, _, fragment = target.partition("#")
    linked = page.file if not path else files.get_file_from_path(
        posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), path)))
    if linked is None:
        return target
    return urljoin(site_url, linked.url) + (f"#{fragment}" if fragment else "")


def figure_title(name):
    """The TITLE a figure's model declares (site_scripts/tutor/figures/<name>.py), read without importing it."""
    model = FIGURE_MODELS / f"{name}.py"
    try:
        constants = module_constants(model)
    except OSError:
        raise PluginError(f"notebooks.py: no figure model {model} for data-widget=\"{name}\"") from None
    if "TITLE" not in constants:
        raise PluginError(f"notebooks.py: {model} defines no TITLE")
    return constants["TITLE"]


def with_line_after_title(text, line):
    """`text` with an HTML `line` as its own block after the page's `# ` title, or first if it has none."""
    lines = text.split("\n")
    first = next((n for n, current in enumerate(lines) if current.strip()), 0)
    after = first + 1 if HEADING.match(lines[first]) else 0
    return "\n".join(lines[:after] + ["", line, ""] + lines[after:])


# ---- Notebook JSON -------------------------------------------------------------------------------

def notebook_json(cells):
    """An nbformat 4.5 notebook: a Python 3 kernel, ids on every cell, code cells without outputs."""
    for number, cell in enumerate(cells, start=1):
        cell["id"] = f"cell-{number}"
        cell["metadata"] = {}
        cell["source"] = cell["source"].splitlines(keepends=True)
        if cell["cell_type"] == "code":
            cell.update(execution_count=None, outputs=[])
    notebook = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
