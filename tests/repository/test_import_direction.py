"""test_import_direction.py: the JavaScript imports between site_scripts/tutor/ and site_scripts/browser/ run one way.

What it is: the static imports (`import ... from "x"`, `import "x"`, `export ... from "x"`) of every
.mjs and .js file under site_scripts/tutor/ and site_scripts/browser/, read from the source and
resolved as the browser resolves them (the built site mirrors both folders under assets/lesson/).
The figures' views (site_scripts/tutor/figures/*.mjs) import from browser/ only
browser/figures/svg.mjs, which imports nothing of tutor/ however far its own imports go; no file of
browser/ imports a file of tutor/, so the two folders never import each other in a cycle. The
views reach the page the other way only by name: browser/figures/figures.mjs loads them with a
dynamic import() of a URL (ARCHITECTURE.md, "Where things are").
What it is not: a bundler's resolution (a specifier that is not relative, or that leaves site_scripts/,
such as the vendored d3 under assets/vendor/, is not followed), nor a check of dynamic imports.
"""
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "site_scripts"
TUTOR, BROWSER = SCRIPTS / "tutor", SCRIPTS / "browser"
SVG = BROWSER / "figures" / "svg.mjs"
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
# At the start of a line: `import "x"`, or an import or export whose `from "x"` follows its names
# (which may span lines, but hold no quote, semicolon or bracket of a function body).
STATIC_IMPORT = re.compile(r"""^\s*(?:import\s*["']([^"']+)["']|(?:import|export)\b[^"'`;()]*?\bfrom\s*["']([^"']+)["'])""",
                           re.M)


def scripts():
    return sorted(path for folder in (TUTOR, BROWSER) for path in folder.rglob("*") if path.suffix in (".mjs", ".js"))


def specifiers(source):
    """The specifiers of the static imports of JavaScript `source`, in order."""
    code = LINE_COMMENT.sub("", BLOCK_COMMENT.sub("", source))
    return [side_effect or named for side_effect, named in STATIC_IMPORT.findall(code)]


def imports(path):
    """The files of site_scripts/ that the script `path` imports statically (relative specifiers only)."""
    found = []
    for specifier in specifiers(path.read_text(encoding="utf-8")):
        if specifier.startswith(("./", "../")):
            target = (path.parent / specifier).resolve()
            if target.is_relative_to(SCRIPTS):
                assert target.is_file(), f"{path.relative_to(REPO)} imports {specifier}, which does not exist"
                found.append(target)
    return found


GRAPH = {path: imports(path) for path in scripts()}


def reached_from(start):
    """Every script `start` imports, directly or through others."""
    seen, stack = set(), [start]
    while stack:
        for target in GRAPH.get(stack.pop(), []):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def folder_of(path):
    return "tutor" if path.is_relative_to(TUTOR) else "browser"


def test_the_imports_are_found():
    """The reading itself: known imports of a view and of the figures' loader, one spanning lines."""
    assert specifiers('import {\n  a,\n  b,\n} from "./x.mjs";\nexport { c } from "../y.mjs";\nimport "./z.js";\n'
                      '// import { d } from "./comment.mjs";\nexport function f() { return "./no.mjs"; }\n') \
        == ["./x.mjs", "../y.mjs", "./z.js"]
    assert SVG in GRAPH[TUTOR / "figures" / "line_fit.mjs"]
    assert {BROWSER / "figures" / "figure.mjs", BROWSER / "runtime" / "runtime.mjs"} <= set(GRAPH[BROWSER / "figures" / "figures.mjs"])
    assert len([path for path in GRAPH if path.is_relative_to(TUTOR / "figures")]) >= 13


def test_the_views_import_only_svg_mjs_from_browser():
    views = [path for path in GRAPH if path.is_relative_to(TUTOR / "figures")]
    outside = {str(view.relative_to(SCRIPTS)): [str(target.relative_to(SCRIPTS)) for target in GRAPH[view]
                                               if folder_of(target) == "browser" and target != SVG]
               for view in views}
    assert {view: targets for view, targets in outside.items() if targets} == {}


def test_svg_mjs_imports_nothing_of_tutor():
    assert [str(path.relative_to(SCRIPTS)) for path in reached_from(SVG) if folder_of(path) == "tutor"] == []


def test_no_cycle_between_tutor_and_browser():
    edges = {(folder_of(source), folder_of(target)) for source, targets in GRAPH.items() for target in targets}
    browser_to_tutor = sorted(f"{source.relative_to(SCRIPTS)} -> {target.relative_to(SCRIPTS)}"
                              for source, targets in GRAPH.items() for target in targets
                              if folder_of(source) == "browser" and folder_of(target) == "tutor")
    assert not (("tutor", "browser") in edges and browser_to_tutor), (
        "site_scripts/browser/ imports site_scripts/tutor/, which imports browser/: " + ", ".join(browser_to_tutor))
