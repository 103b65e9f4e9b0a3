"""figures.py: the MkDocs hook that fills each figure placeholder with its title and starting state.

What it is: a chapter holds `<div data-widget="NAME"></div>`. At build time this hook has every
figure model's TITLE and `initial()` computed under CPython (starting_states, in a fresh CPython:
fresh_python.py) and rewrites the placeholder into a labelled group carrying the state as
JSON in `data-initial`, a visible title and a status line. The page therefore shows each figure
at once, before Python starts in the browser, with no inline script.
What it is not: the figures' behaviour (the views site_scripts/tutor/figures/*.mjs and the frame in
site_scripts/browser/figures/) or their numbers (the models).
"""
import html
import importlib
import json
import re

from fresh_python import FreshPythonError, in_fresh_python  # MkDocs puts the hooks' folder on sys.path
from mkdocs.exceptions import PluginError
from tutor_sources import figure_names

FIGURE_NAMES = figure_names()  # the models in site_scripts/tutor/figures/ that declare a TITLE
PLACEHOLDER = re.compile(r'<div(?P<before>[^>]*?)\sdata-widget="(?P<name>[^"]*)"(?P<after>[^>]*)>\s*</div>')
STATUS = "Showing the starting state. The figure becomes interactive when Python is ready (it needs JavaScript)."

figures = {}  # name -> {"title", "initial"}, computed once per build


def on_pre_build(config):
    figures.clear()
    try:
        figures.update(in_fresh_python("figures", "starting_states", FIGURE_NAMES))
    except FreshPythonError as problem:
        raise PluginError(f"figures.py: a figure model failed to compute its starting state:\n{problem}") from None


def starting_states(names):
    """{name: {"title", "initial"}} for the figure models `names` (tutor.figures.<name>)."""
    states = {}
    for name in names:
        model = importlib.import_module(f"tutor.figures.{name}")
        states[name] = {"title": model.TITLE, "initial": model.initial()}
    return states


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
