"""test_theme_overrides.py: the theme overrides (site_scripts/overrides/) still fit the Material they override.

What it is: partials/palette.html is Material's own partial (the colour switch) with the header's link to
"Your work" before it, so the copy must equal the installed Material's file: a Material update that
changes the switch fails here rather than keeping an old one. main.html's one string replacement (Material's
search worker setting, pointed at the lesson's stand-in) stops the build when Material's template no
longer holds the string it replaces: main.html is rendered here over two small stand-ins for Material's base.html.
What it is not: the built site (tests/site/test_work.py follows the header's link, test_search.py searches).
"""
from pathlib import Path

import jinja2
import material
import pytest

REPO = Path(__file__).resolve().parents[2]
OVERRIDES = REPO / "site_scripts" / "overrides"
MATERIAL_TEMPLATES = Path(material.__file__).parent / "templates"
WORK_LINK = '<a href="{{ \'your-work/\' | url }}" class="md-header__button lesson-work-link">Your work</a>\n'


def template_text(path):
    """The template without its opening {#- ... -#} comment (Material's says the file is generated)."""
    text = path.read_text(encoding="utf-8")
    return text.split("-#}\n", 1)[1] if text.startswith("{#-") else text


def test_the_palette_partial_is_materials_own_after_the_link_to_your_work():
    ours = template_text(OVERRIDES / "partials" / "palette.html")
    assert ours.startswith(WORK_LINK)
    assert ours[len(WORK_LINK):] == template_text(MATERIAL_TEMPLATES / "partials" / "palette.html"), \
        "Material's partials/palette.html changed: copy it again under the link in overrides/partials/palette.html"


def rendered_main(material_config):
    """main.html rendered over a base.html whose config block holds `material_config`."""
    base = ("{% block extrahead %}{% endblock %}{% block config %}" + material_config
            + "{% endblock %}{% block scripts %}{% endblock %}")
    environment = jinja2.Environment(loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(OVERRIDES),
                                                                  jinja2.DictLoader({"base.html": base})]))
    environment.filters["url"] = lambda path: path
    return environment.get_template("main.html").render()


def test_main_points_materials_search_worker_at_the_stand_in():
    page = rendered_main('{"search": "assets/javascripts/workers/search.a7633da7.min.js"}')
    assert '{"search": "assets/lesson/browser/search/search-worker.js#search.a7633da7.min.js"}' in page


def test_a_material_without_the_search_worker_setting_stops_the_build():
    with pytest.raises(jinja2.TemplateNotFound, match="search worker setting was not found"):
        rendered_main('{"search": "assets/javascripts/workers/lunr.a7633da7.min.js"}')
