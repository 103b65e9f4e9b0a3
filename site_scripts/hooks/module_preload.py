"""module_preload.py: the MkDocs hook that lets a page fetch the lesson's JavaScript modules all at once.

What it is: at build time it follows the static `import ... from "./..."` lines of the page's entry
modules (ENTRIES: runtime.mjs, which start-early.js imports to start Python, then main.mjs, which
mounts the blocks and figures) through every module they import, and hands the list, each module
once and in that order, to main.html as `config.extra.preload_modules`; main.html writes one
`<link rel="modulepreload">` per module into every page's head.
Why: without the links the browser meets runtime.mjs only when start-early.js runs after the content,
then each level of its imports one after another, the later ones only once Material's bundle has run;
main.mjs's four levels the same way. Measured on the 2-core test machine (benchmark's "navigation ->
the page creates Python's worker", cold visits, median of 6): the worker was created 781 ms after
navigation, with the runtime's modules preloaded 365 ms.
What it is not: a bundler (the modules stay separate files, as the browser and the tests load them)
nor a list to keep by hand: a module that gains or loses an import changes the links at the next build.
Dynamic `import()`s are left out (the editor and other parts loaded when needed).
"""
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

SCRIPTS = Path(__file__).resolve().parents[1]      # site_scripts/, copied to assets/lesson/ by vendor.py
LESSON = "assets/lesson/"
ENTRIES = ("assets/lesson/browser/runtime/runtime.mjs", "assets/lesson/browser/main.mjs")
STATIC_IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;'"]*?\bfrom\s*["'](\.\.?/[^"']+)["']""", re.MULTILINE)


def module_graph(entries=ENTRIES, scripts=SCRIPTS):
    """Site paths (like "assets/lesson/browser/main.mjs") of the entry modules and of every module
    they import statically, depth first: each module before the modules it imports, each once.
    A module outside assets/lesson/ (a vendored bundle, self-contained) is listed, not read."""
    order, seen = [], set()

    def visit(path):
        if path in seen:
            return
        seen.add(path)
        order.append(path)
        if not path.startswith(LESSON):
            return
        source = scripts / path.removeprefix(LESSON)
        if not source.is_file():
            raise PluginError(f"module_preload.py: {path} is imported but site_scripts/ has no such file")
        for target in STATIC_IMPORT.findall(source.read_text(encoding="utf-8")):
            visit(posixpath.normpath(posixpath.join(posixpath.dirname(path), target)))

    for entry in entries:
        visit(entry)
    return order


def on_config(config):
    config.extra["preload_modules"] = module_graph()
    return config
