"""engine_sections.py: solutions that are the lesson's engine's own code, quoted from it so they cannot drift.

What it is: from_engine(template) replaces each line `--8<-- "engine/tinygrad.py:NAME"` of `template` by
the lines between `# --8<-- [start:NAME]` and `# --8<-- [end:NAME]` of engine/tinygrad.py (nested
markers left out), dedented, as pymdownx.snippets quotes them in the chapters. The build and the tests
read these solutions from the repository; the browser has no engine/ folder beside this package (the
page shows the solution the build wrote), and from_engine answers "" there.
What it is not: the engine (which the reader may have replaced in the browser) or its check.
"""
import re
import textwrap
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine" / "tinygrad.py"
QUOTE = re.compile(r'^--8<-- "engine/tinygrad\.py:(?P<name>\w+)"$', re.M)
MARKER = re.compile(r"^\s*# --8<-- \[(?P<end>start|end):(?P<name>\w+)\]$")


def section(engine, name):
    """The lines of section `name` of the engine's text, dedented, without the markers inside it."""
    lines, inside = [], False
    for line in engine.splitlines(keepends=True):
        marker = MARKER.match(line)
        if marker and marker["name"] == name:
            inside = marker["end"] == "start"
        elif inside and not marker:
            lines.append(line)
    if not lines:
        raise ValueError(f"engine/tinygrad.py has no section {name!r}")
    return textwrap.dedent("".join(lines)).rstrip("\n")


def from_engine(template):
    """`template` with the engine's sections quoted (see above); "" where the repository's engine is not."""
    if not ENGINE.is_file():
        return ""
    engine = ENGINE.read_text(encoding="utf-8")
    return QUOTE.sub(lambda match: section(engine, match["name"]), template)
