"""Every chapter with runnable blocks downloads as a Jupyter notebook that runs on its own.

What it is: checks on the shared build of the site (conftest.py): each page with runnable blocks
links, by a relative URL, to notebooks/<chapter>.zip; the zip holds <chapter>.ipynb and a
tinygrad.py byte-identical to engine/tinygrad.py; the notebook is valid nbformat 4.5; its code
cells are the page's blocks in page order and its Markdown cells carry the prose with the numbers
filled in, the engine excerpts included and each figure replaced by a link to it on the site.
Then the notebook is executed natively, like a Jupyter kernel would: its code cells in order in one
namespace, in a separate Python whose only engine is the zip's tinygrad.py, and each cell must
print what the page's block prints when CPython runs the page (tests/site/helpers.py). A chapter
whose blocks call show() has one more code cell, before the first such block, defining show().
What it is not: a browser test, and not a test of the blocks' output itself (test_article_blocks.py).
"""
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import nbformat
import pytest

from helpers import cpython_outputs, runnable_sources
from site_scripts.hooks import lesson_numbers, notebooks

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
ENGINE = REPO / "engine" / "tinygrad.py"
CHAPTERS = sorted(path.stem for path in DOCS.glob("*.md"))
LINK_TEXT = "Download this chapter as a Jupyter notebook"
DOWNLOAD_LINK = re.compile(rf'<a [^>]*href="(?P<href>[^"]*)"[^>]*>{LINK_TEXT}</a>')
SNIPPET_INCLUDE = re.compile(r'^--8<-- "engine/tinygrad\.py(?::(?P<section>\w+))?"$', flags=re.M)
SECTION_MARKER = re.compile(r"#\s*--8<-- \[(start|end):\w+\]")
FIGURE = re.compile(r'data-widget="(?P<name>\w+)"')



# Runs a notebook the way a Jupyter kernel does, with plain CPython: the code cells in order in one
# namespace, the folder of the notebook importable, a cell's final expression shown by its repr.
# Writes {"outputs": [text per code cell], "engine": the file `import tinygrad` finds there}.
NOTEBOOK_RUNNER = """
import ast, contextlib, importlib.util, io, json, sys
notebook_path, report_path = sys.argv[1:]
with open(notebook_path, encoding="utf-8") as notebook_file:
    notebook = json.load(notebook_file)
namespace = {"__name__": "__main__"}
outputs = []
for number, cell in enumerate(notebook["cells"]):
    if cell["cell_type"] != "code":
        continue
    name = f"<cell {number}>"
    tree = ast.parse("".join(cell["source"]), name)
    shown = tree.body[-1:] if tree.body and isinstance(tree.body[-1], ast.Expr) else []
    body = ast.Module(tree.body[:len(tree.body) - len(shown)], type_ignores=[])
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
        exec(compile(body, name, "exec"), namespace)
        if shown:
            exec(compile(ast.Interactive(shown), name, "single"), namespace)
    outputs.append(captured.getvalue())
engine = importlib.util.find_spec("tinygrad").origin
with open(report_path, "w", encoding="utf-8") as report:
    json.dump({"outputs": outputs, "engine": engine}, report)
"""


def is_show_definition(cell):
    return cell.cell_type == "code" and cell.source.startswith(notebooks.SHOW_CELL_HEADING)


def page_address(site_address, chapter):
    return urljoin(site_address, "" if chapter == "index" else f"{chapter}/")


def built_page(site, chapter):
    return site / ("index.html" if chapter == "index" else f"{chapter}/index.html")


def notebook_zip(site, chapter):
    return site / "notebooks" / f"{chapter}.zip"


def read_notebook(site, chapter):
    with zipfile.ZipFile(notebook_zip(site, chapter)) as bundle:
        return nbformat.reads(bundle.read(f"{chapter}.ipynb").decode("utf-8"), as_version=nbformat.NO_CONVERT)


def markdown_of(notebook):
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def engine_section(section):
    """The engine's lines between the markers of `section` (the whole file for None), markers left out."""
    lines = ENGINE.read_text(encoding="utf-8").splitlines()
    if section is not None:
        start = next(n for n, line in enumerate(lines) if f"[start:{section}]" in line)
        end = next(n for n, line in enumerate(lines) if f"[end:{section}]" in line)
        lines = lines[start + 1:end]
    return "\n".join(line for line in lines if not SECTION_MARKER.search(line))


def run_notebook(site, chapter, folder):
    """Unpack the chapter's zip into `folder` and execute the notebook there, with no access to the
    repository's engine; return the runner's report."""
    with zipfile.ZipFile(notebook_zip(site, chapter)) as bundle:
        bundle.extractall(folder)
    report = folder / "report.json"
    # -E: no PYTHONPATH can lead to engine/; the notebook's folder is importable, as in Jupyter.
    command = [sys.executable, "-E", "-B", "-c", NOTEBOOK_RUNNER, f"{chapter}.ipynb", str(report)]
    result = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, f"{chapter}.ipynb failed when run top to bottom:\n{result.stderr}"
    return json.loads(report.read_text(encoding="utf-8"))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_with_blocks_links_its_notebook(site, chapter):
    page = built_page(site, chapter).read_text(encoding="utf-8")
    links = DOWNLOAD_LINK.findall(page)
    if not runnable_sources(built_page(site, chapter)):
        assert links == [] and not notebook_zip(site, chapter).exists(), "nothing to run, nothing to download"
        return
    assert len(links) == 1, f"expected one '{LINK_TEXT}' link"
    href = links[0]
    assert not urlsplit(href).scheme and not href.startswith("/"), f"{href} is not a relative URL"
    for base in ("http://127.0.0.1:8000/", "https://someone.github.io/some-repo/"):  # also under a sub-path
        target = urljoin(page_address(base, chapter), href)
        assert target == urljoin(base, f"notebooks/{chapter}.zip")
    assert notebook_zip(site, chapter).is_file()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_notebook_is_valid_and_holds_the_page(site, site_address, chapter):
    sources = runnable_sources(built_page(site, chapter))
    if not sources:
        pytest.skip("no runnable blocks on this page, so no notebook")
    with zipfile.ZipFile(notebook_zip(site, chapter)) as bundle:
        assert sorted(bundle.namelist()) == sorted([f"{chapter}.ipynb", "tinygrad.py"])
        assert bundle.read("tinygrad.py") == ENGINE.read_bytes()
    notebook = read_notebook(site, chapter)
    nbformat.validate(notebook)
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5)
    assert notebook.metadata.kernelspec.name == "python3"

    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    block_cells = [cell for cell in code_cells if not is_show_definition(cell)]
    in_jupyter = [source for source in sources if not notebooks.BROWSER_INSTALL.search(source)]
    assert [cell.source for cell in block_cells] == in_jupyter, "code cells differ from the page's blocks"
    for source in sources:
        if notebooks.BROWSER_INSTALL.search(source):  # micropip runs only in the browser: shown, with pip's command
            assert f"{notebooks.BROWSER_INSTALL_NOTE}\n\n```python\n{source}\n```" in markdown_of(notebook)
    first_show = next((number for number, source in enumerate(in_jupyter) if notebooks.SHOW_CALL.search(source)), None)
    show_definitions = [number for number, cell in enumerate(code_cells) if is_show_definition(cell)]
    assert show_definitions == ([] if first_show is None else [first_show]), "show() defined once, before its first use"
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code_cells)

    prose = markdown_of(notebook)
    assert not lesson_numbers.PLACEHOLDER.search(prose), "a {{ name }} number was left unfilled"
    assert "data-widget" not in prose, "a figure placeholder was left in"
    docs_source = (DOCS / f"{chapter}.md").read_text(encoding="utf-8")
    for include in SNIPPET_INCLUDE.finditer(docs_source):
        assert include[0] not in prose
        assert f"```python\n{engine_section(include['section'])}\n" in prose, f"{include[0]} not included"
    page = built_page(site, chapter).read_text(encoding="utf-8")
    for figure in FIGURE.finditer(docs_source):
        link = f"]({page_address(site_address, chapter)}#figure-{figure['name']})"
        assert link in prose, f"no link to the figure {figure['name']} on the site"
        assert f'id="figure-{figure["name"]}"' in page, "the figure's link points at no anchor of the page"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_notebook_runs_with_its_engine_and_prints_what_the_page_prints(site, chapter, tmp_path):
    sources = runnable_sources(built_page(site, chapter))
    if not sources:
        pytest.skip("no runnable blocks on this page, so no notebook")
    report = run_notebook(site, chapter, tmp_path)
    page_results = cpython_outputs(sources)
    assert all(ok for ok, _ in page_results), "the page's own blocks fail in CPython"
    code_cells = [cell for cell in read_notebook(site, chapter).cells if cell.cell_type == "code"]
    assert all(output == "" for output, cell in zip(report["outputs"], code_cells) if is_show_definition(cell))
    block_outputs = [output for output, cell in zip(report["outputs"], code_cells) if not is_show_definition(cell)]
    assert block_outputs == [output for (_, output), source in zip(page_results, sources)
                             if not notebooks.BROWSER_INSTALL.search(source)]
    assert Path(report["engine"]).resolve() == (tmp_path / "tinygrad.py").resolve()


def test_checking_notebook_prints_the_hand_computed_numbers(site, tmp_path):
    """The loss and both gradients the lesson works out by hand (9.0, -12.0, -6.0), from numbers.yml."""
    numbers = lesson_numbers.read_numbers_file(DOCS)["numbers"]
    expected = {str(float(numbers[name]["text"])) for name in ("start_loss", "w_grad", "b_grad")}
    printed = run_notebook(site, "checking", tmp_path)["outputs"][0].split()
    assert expected <= set(printed), f"checking.ipynb's first cell printed {printed}"
