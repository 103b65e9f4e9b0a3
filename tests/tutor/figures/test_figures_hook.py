"""Tests of site_scripts/hooks/figures.py: placeholders become labelled figures carrying their starting state.

What it is: the hook's functions called directly, without MkDocs building a site: the state it
embeds must be exactly what each model's initial() returns, and a misspelt figure name must
stop the build with a message naming the figures.
What it is not: a test of the figures in a browser (tests/site/test_figures.py).
"""
import html
import importlib.util
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.exceptions import PluginError

from tutor.figures import line_fit, x_times_x

REPO = Path(__file__).resolve().parents[3]
HOOK = REPO / "site_scripts" / "hooks" / "figures.py"


@pytest.fixture(scope="module")
def hook():
    spec = importlib.util.spec_from_file_location("figures_hook", HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.on_pre_build(config={})
    return module


def fake_page(name="chapter.md"):
    return SimpleNamespace(file=SimpleNamespace(src_uri=name))


def embedded_state(markup, name):
    match = re.search(rf'data-widget="{name}"[^>]*data-initial="([^"]*)"', markup)
    return json.loads(html.unescape(match[1]))


def test_placeholder_becomes_a_group_named_by_its_title_with_the_models_state(hook):
    markup = hook.on_page_content('<p>Before</p>\n<div data-widget="x_times_x"></div>', fake_page(), {}, None)
    assert '<div class="figure" data-widget="x_times_x"' in markup
    assert 'role="group" aria-labelledby="figure-x_times_x"' in markup
    assert f'<p class="figure__title" id="figure-x_times_x">{html.escape(x_times_x.TITLE)}</p>' in markup
    assert "becomes interactive when Python is ready" in markup
    assert embedded_state(markup, "x_times_x") == json.loads(json.dumps(x_times_x.initial()))
    assert embedded_state(markup, "x_times_x")["graph"]["nodes"][0]["data_text"] == "5"


def test_every_figure_gets_its_state_and_repeated_figures_get_distinct_ids(hook):
    page = "\n".join(f'<div data-widget="{name}"></div>' for name in hook.FIGURE_NAMES) + '\n<div data-widget="line_fit"></div>'
    markup = hook.on_page_content(page, fake_page(), {}, None)
    assert markup.count('class="figure"') == len(hook.FIGURE_NAMES) + 1
    assert 'id="figure-line_fit-2"' in markup
    assert embedded_state(markup, "line_fit") == json.loads(json.dumps(line_fit.initial()))


def test_unknown_figure_stops_the_build_with_the_known_names(hook):
    with pytest.raises(PluginError, match="lin_fit.*line_fit"):
        hook.on_page_content('<div data-widget="lin_fit"></div>', fake_page(), {}, None)


def test_the_figures_stylesheet_is_one_of_the_sites_stylesheets():
    """mkdocs.yml links the frame's stylesheet on every page (the hook no longer adds it)."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "  - assets/lesson/browser/figures/figures.css\n" in config
    assert (REPO / "site_scripts" / "browser" / "figures" / "figures.css").is_file()


def test_the_figures_are_the_models_that_declare_a_title_each_with_its_view_beside_it(hook):
    """One source for the figure names: the hook's list is the models' files, and every model has its view."""
    from tutor_sources import FIGURE_MODELS
    assert set(hook.FIGURE_NAMES) >= {"x_times_x", "mystery_curve", "secant_tangent", "loss_experiment",
                                      "backprop_graph", "paths_add_up", "line_fit"}
    assert "display" not in hook.FIGURE_NAMES and "graph_trace" not in hook.FIGURE_NAMES
    for name in hook.FIGURE_NAMES:
        assert (FIGURE_MODELS / f"{name}.mjs").is_file(), f"figure {name} has no view {name}.mjs"
    views = {path.stem for path in FIGURE_MODELS.glob("*.mjs")} - {"figure", "svg", "figures", "shown_graph"}
    assert views == set(hook.FIGURE_NAMES), "a view without a model (or a model without a TITLE)"
