"""figure_states.py: every figure's title and starting state, computed by the figure models themselves.

What it is: `starting_states(names)` imports each figure model tutor.figures.<name> (with
engine/tinygrad.py importable as `tinygrad`, as block_outputs.py does) and answers
{name: {"title": TITLE, "initial": initial()}}. Run as a script, `python3 figure_states.py <file>
<name>...` writes that as JSON into <file>: figures.py runs it once per build in a process of its
own, so every build (also under `mkdocs serve`) sees the current models and engine, and nothing a
model prints can mix with the answer.
What it is not: the placeholders' HTML (figures.py) or the models (site_scripts/tutor/figures/).
"""
import importlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for folder in (REPO / "site_scripts", REPO / "engine"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def starting_states(names):
    """{name: {"title", "initial"}} for the figure models `names`."""
    states = {}
    for name in names:
        model = importlib.import_module(f"tutor.figures.{name}")
        states[name] = {"title": model.TITLE, "initial": model.initial()}
    return states


def main(target, names):
    states = json.dumps(starting_states(names), allow_nan=False)
    Path(target).write_text(states, encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
