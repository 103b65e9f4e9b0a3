"""test_named_paths.py: every repository path named in the root's documents and in a file's header exists.

What it is: the Markdown documents at the repository's root (README.md, ARCHITECTURE.md,
CONTRIBUTING.md, DECISIONS.md) and the header of every file of the project (a Python module's
docstring, the leading comment of a JavaScript, CSS, HTML or shell file) name files and folders of the repository;
when code moves, those names go stale. This test finds the names and checks each one:
- a path from the repository's root (`site_scripts/...`, `tests/...`, `docs/...`, `engine/...`,
  `.github/...`), or from site_scripts/ (`tutor/...`, `browser/...`, `hooks/...`, `overrides/...`,
  `server/...`), must exist; a `<placeholder>`, an upper-case NAME or `*` in it stands for any name,
  and at least one file must match;
- a Markdown link of a root document to a file of the repository (`[CONTRIBUTING.md](CONTRIBUTING.md)`)
  must lead to one;
- a file name alone (`page-runs.mjs`, `guards.py`, `start-early.js`, `engine-edit.css`,
  `package.json`) must be the name of some file of the repository, unless it names a file of the
  built site or of a package (BUILT_OR_OUTSIDE).
What it is not: a check of what the text says about those files, nor of links in the lesson's pages.
"""
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT_FOLDERS = ("tutor/", "browser/", "hooks/", "overrides/", "server/")  # named from site_scripts/
ROOTED = re.compile(r"(?<![\w./<>@-])((?:site_scripts|tests|docs|engine|\.github|tutor|browser|hooks|overrides|server)/[\w./<>*-]*)")
BARE = re.compile(r"(?<![\w./<>-])([\w-]+\.(?:py|mjs|js|css|json))\b")
# Files the headers name that are not in the repository: the built site's (the build writes lesson.json
# wheels.json and packages.json), npm packages', Python's own; and a name that only looks like a file's (Node.js).
BUILT_OR_OUTSIDE = {"pyodide.mjs", "pyodide.asm.mjs", "editor.mjs", "contours.mjs", "__main__.py", "setup.py",
                    "conftest.py", "lesson.json", "wheels.json", "packages.json", "Node.js"}
HEADER_SUFFIXES = {".py", ".mjs", ".js", ".css", ".html", ".sh"}


def repository_files():
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=REPO,
                            capture_output=True, text=True, check=True).stdout.split()
    return [REPO / name for name in listed if (REPO / name).is_file()]


FILES = repository_files()
NAMES = {path.name for path in FILES}


def header(path):
    """The file's opening text: a Python module's docstring, else its leading comment lines."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        match = re.match(r'\s*(?:#.*\n)*\s*(?:"""(.*?)"""|\'\'\'(.*?)\'\'\')', text, re.S)
        return (match[1] or match[2] or "") if match else ""
    if path.suffix == ".html":
        match = re.match(r"\s*(?:\{#(.*?)#\}|<!--(.*?)-->)", text, re.S)
        return (match[1] or match[2] or "") if match else ""
    if path.suffix == ".css":
        match = re.match(r"\s*/\*(.*?)\*/", text, re.S)
        return match[1] if match else ""
    lines = []
    for line in text.splitlines():
        if line.startswith(("//", "#", " *", "/*")):
            lines.append(line)
        elif lines or line.strip():
            break
    return "\n".join(lines)


def named_paths(text):
    """The rooted paths and the bare file names `text` names."""
    rooted = {match.rstrip(".,:;") for match in ROOTED.findall(text)}
    bare = {name for name in BARE.findall(ROOTED.sub(" ", text)) if not re.fullmatch(r"[A-Z][A-Z_]*\.\w+", name)}
    return rooted, bare


def linked_paths(text):
    """The repository files a Markdown text links to (not the web, not an anchor of the same page)."""
    return {target for target in re.findall(r"\]\(([^)\s#]+)[^)]*\)", text) if "://" not in target}


def exists(path):
    """Whether the rooted `path` names something in the repository (placeholders and * match any name)."""
    bases = [REPO] if not path.startswith(SCRIPT_FOLDERS) else [REPO / "site_scripts"]
    pattern = re.sub(r"<[^>]*>|\b[A-Z][A-Z_]*\b(?=\.|/|$)", "*", path).rstrip("/")
    if "*" in pattern:
        return any(any(base.glob(pattern)) for base in bases)
    return any((base / pattern).exists() for base in bases)


DOCUMENTS = ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "DECISIONS.md")  # read whole
SOURCES = [*(REPO / name for name in DOCUMENTS), *[path for path in FILES if path.suffix in HEADER_SUFFIXES
                                                   and "node_modules" not in path.parts]]


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: str(path.relative_to(REPO)))
def test_every_path_a_header_names_exists(source):
    text = source.read_text(encoding="utf-8") if source.name in DOCUMENTS else header(source)
    rooted, bare = named_paths(text)
    missing = sorted(path for path in rooted if not exists(path))
    if source.name in DOCUMENTS:
        missing += sorted(target for target in linked_paths(text) if not (source.parent / target).exists())
    unknown = sorted(name for name in bare if name not in NAMES and name not in BUILT_OR_OUTSIDE)
    assert missing == [] and unknown == [], f"{source.relative_to(REPO)} names {missing + unknown}"


def test_the_test_finds_what_a_stale_header_names():
    rooted, bare = named_paths("The runner (site_scripts/tutor/session.py, see guards.py and gone.mjs) and "
                               "tutor/figures/<figure>.mjs; overrides/main.html, overrides/gone.html, "
                               "server/serve.py and server/gone.py; old.js, old.css, old.json, start-early.js, "
                               "engine-edit.css and package.json.")
    assert sorted(path for path in rooted if not exists(path)) == ["overrides/gone.html", "server/gone.py",
                                                                   "site_scripts/tutor/session.py"]
    assert sorted(name for name in bare if name not in NAMES) == ["gone.mjs", "old.css", "old.js", "old.json"]
    assert linked_paths("See [the notes](ARCHITECTURE.md#stop), [gone](GONE.md), [Pyodide](https://pyodide.org/) "
                        "and [below](#two-commands).") == {"ARCHITECTURE.md", "GONE.md"}
