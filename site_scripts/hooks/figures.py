"""figures.py: the MkDocs hook that fills each figure placeholder with its title and starting state.

What it is: a chapter holds `<div data-widget="NAME"></div>`. At build time this hook has every
figure model's `initial()` computed under CPython (figure_states.py, in a child process, so each
build sees the current models and engine) and rewrites the placeholder into a labelled group carrying the state as
JSON in `data-initial`, a visible title and a status line. The page therefore shows each figure
at once, before Python starts in the browser, with no inline script.
What it is not: the figures' behaviour (the views site_scripts/tutor/figures/*.mjs and the frame in
site_scripts/browser/figures/) or their numbers (the models).
"""
import html
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from mkdocs.exceptions import PluginError
from tutor_sources import figure_names  # MkDocs puts the hooks' folder on sys.path while it loads a hook

REPO = Path(__file__).resolve().parents[2]
FIGURE_STATES = Path(__file__).with_name("figure_states.py")
FIGURE_NAMES = figure_names()  # the models in site_scripts/tutor/figures/ that declare a TITLE
PLACEHOLDER = re.compile(r'<div(?P<before>[^>]*?)\sdata-widget="(?P<name>[^"]*)"(?P<after>[^>]*)>\s*</div>')
STATUS = "Showing the starting state. The figure becomes interactive when Python is ready (it needs JavaScript)."

figures = {}  # name -> {"title", "initial"}, computed once per build


def on_pre_build(config):
    figures.clear()
    figures.update(initial_states())


def initial_states():
    """Title and initial() of every model, computed by a fresh CPython with the repository's engine."""
    with tempfile.TemporaryDirectory() as folder:
        answer = Path(folder) / "states.json"
        result = subprocess.run([sys.executable, "-B", str(FIGURE_STATES), str(answer), *FIGURE_NAMES],
                                cwd=REPO, capture_output=True, text=True)
        if result.returncode != 0:
            raise PluginError(f"figures.py: a figure model failed to compute its starting state:\n{result.stderr}")
        return json.loads(answer.read_text(encoding="utf-8"))


def on_page_content(content, page, config, files):
    used = {}

    def filled(match):
        name = match["name"]
        if name not in figures:
            raise PluginError(f"figures.py: {page.file.src_uri} asks for a figure named {name!r}; "
                              f"the figures are {', '.join(FIGURE_NAMES)}")
        used[name] = used.get(name, 0) + 1
        title_id = f"figure-{name}" + (f"-{used[name]}" if used[name] > 1 else "")
        state = html.escape(json.dumps(figures[name]["initial"], ensure_ascii=False), quote=True)
        return (f'<div{match["before"]} class="figure" data-widget="{name}"{match["after"]} role="group" '
                f'aria-labelledby="{title_id}" data-initial="{state}">'
                f'<p class="figure__title" id="{title_id}">{html.escape(figures[name]["title"])}</p>'
                f'<p class="figure__status">{STATUS}</p></div>')

    return PLACEHOLDER.sub(filled, content)
