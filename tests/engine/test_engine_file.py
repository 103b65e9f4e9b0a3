"""test_engine_file.py: engine/tinygrad.py as a file: standard library only, sections for the lesson.

What it is: checks on the source text that others rely on. A student downloads the one file, so it
may import only the standard library; the lesson quotes it with pymdownx.snippets by section name, and
a missing or misspelled marker would quietly quote nothing, so every section the pages use must
open and close exactly once, in reading order.

What it is not: a behaviour test. Plain functions and asserts only: this module also runs inside
Pyodide (where it reads the very file that was loaded there).
"""
import ast
import re
import sys
from pathlib import Path

import tinygrad

ENGINE = Path(tinygrad.__file__)
SECTIONS = ["value", "operators", "backward", "freeing", "mlp", "train_line", "train_xor", "demo"]
# Sections inside those, which the steps of "Build your own engine" copy (tests/tutor/exercises/test_own_engine_checks.py)
INNER_SECTIONS = {"backward": ["backward_walk", "topological_order"], "train_line": ["gradient_step"]}


def test_engine_imports_only_the_standard_library():
    tree = ast.parse(ENGINE.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported, "no imports found: the check itself is broken"
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)


def test_every_quoted_section_opens_and_closes_once_in_order():
    markers = re.findall(r"^\s*# --8<-- \[(start|end):(\w+)\]\s*$", ENGINE.read_text(encoding="utf-8"), re.M)
    inner = {name for names in INNER_SECTIONS.values() for name in names}
    expected = [(kind, name) for name in SECTIONS for kind in ("start", "end")]
    assert [marker for marker in markers if marker[1] not in inner] == expected, markers
    for outer, names in INNER_SECTIONS.items():
        inside = markers[markers.index(("start", outer)) + 1:markers.index(("end", outer))]
        assert inside == [(kind, name) for name in names for kind in ("start", "end")], (outer, inside)
