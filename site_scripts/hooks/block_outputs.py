"""block_outputs.py: what each runnable block prints, computed under CPython by the browser's own runner.

What it is: `page_outputs(blocks)` runs a page's blocks ([(filename, source), ...]) in order in one
fresh namespace with tutor.runtime.runner, the module that runs them in the reader's browser, here
with engine/tinygrad.py importable as `tinygrad`, and returns for each block
{"ok": bool, "pieces": [[stream, text], ...]} (streams stdout, stderr, note, and graph: the graph
show() draws, {title, states}); `pages_outputs` does so for {"<page>": [[filename, source], ...], ...}:
runnable_fence.py has it computed once per build in a fresh CPython (fresh_python.py).
A block's `await micropip.install("micrograd")` installs the same pinned wheel the site serves
(registry_wheels.py): micropip runs only in Pyodide, so here a module of that name puts the wheel on sys.path.
What it is not: a sandbox (the lesson's code is trusted) nor Pyodide (tests/site/test_article_blocks.py
checks that Pyodide prints the same).
"""
import asyncio
import sys
import types

import registry_wheels  # this file's folder (fresh_python.py runs from it; the tests put it on sys.path)
from tutor.runtime import runner  # site_scripts/ is on sys.path (fresh_python.py, the tests)

PAGE = "build"   # the runner's name for the namespace; a fresh one for every page


def page_outputs(blocks):
    """Run `blocks` ([(filename, source), ...]) in order in one fresh namespace; their outputs."""
    sys.modules.setdefault("micropip", build_micropip())
    async def run_all():
        outputs = []
        for number, (filename, source) in enumerate(blocks):
            pieces = []
            result = await runner.run(PAGE, source, lambda stream, text: append(pieces, stream, text),
                                      lambda graph: pieces.append(["graph", graph]), filename=filename,
                                      fresh=number == 0)
            outputs.append({"ok": result["ok"], "pieces": pieces})
        return outputs
    return asyncio.run(run_all())


def build_micropip():
    """A module `micropip` whose `await install(name)` makes the pinned wheel `name` importable (pure Python,
    imported from the zip), as micropip does in the browser from the site's index."""
    async def install(name):
        if name not in registry_wheels.PINS:
            raise ValueError(f"Can't find a pure Python 3 wheel for '{name}': the site serves only "
                             f"{', '.join(registry_wheels.PINS)}")
        path = str(registry_wheels.wheel_path(name))
        if path not in sys.path:
            sys.path.append(path)
    module = types.ModuleType("micropip", "The build's stand-in for micropip (site_scripts/hooks/block_outputs.py).")
    module.install = install
    return module


def append(pieces, stream, text):
    """Add `text` to the output, joined to the last piece when it comes from the same stream."""
    if pieces and pieces[-1][0] == stream:
        pieces[-1][1] += text
    else:
        pieces.append([stream, text])


def pages_outputs(pages):
    """{page: page_outputs(blocks)} for every page of `pages`."""
    return {page: page_outputs(blocks) for page, blocks in pages.items()}
