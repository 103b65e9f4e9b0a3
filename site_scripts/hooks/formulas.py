"""formulas.py: the MkDocs hook that typesets every formula of the lesson at build time with KaTeX.

What it is: pymdownx.arithmatex (generic mode) turns $...$ and $$...$$ into
`<span class="arithmatex">\\(...\\)</span>` and `<div class="arithmatex">\\[...\\]</div>`. This hook
collects those elements from every page as it is converted (on_page_content), renders all of them in
one Node process with the site's own KaTeX once every page is read (on_env, see render_math.mjs),
and puts the finished markup in each built page in their place (on_post_page). Pages therefore
arrive with their math typeset: no script, no reflow, readable with JavaScript off and in print.
KaTeX's visible markup positions its boxes with style="..." attributes, which the site's
Content-Security-Policy refuses (site_scripts/hooks/security.py); each distinct style becomes a class
instead (`formula-` and a hash of the declarations), and the rules, marked !important so they win
over KaTeX's own stylesheet exactly as a style attribute would, go into one generated stylesheet,
STYLESHEET, which site_scripts/overrides/main.html links after katex.min.css. KaTeX's MathML
stays in the markup for screen readers. A formula KaTeX refuses (or accepts only with a
LaTeX-incompatibility warning) stops the build with the page, the formula and KaTeX's reason.

What it is not: a change to the Markdown. The notebooks (notebooks.py) keep the TeX source, and the
search index gets each formula as plain text from search_text.py; KaTeX's CSS and fonts are vendored
by vendor.py.
"""
import hashlib
import html
import json
import re
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

REPO = Path(__file__).resolve().parents[2]
RENDERER = Path(__file__).with_name("render_math.mjs")
KATEX = REPO / "node_modules" / "katex" / "dist" / "katex.mjs"   # what RENDERER imports
STYLESHEET = "assets/math/formulas.css"     # in the built site
CLASS_PREFIX = "formula-"
ARITHMATEX = re.compile(r'<(?P<tag>span|div) class="arithmatex">(?P<source>.*?)</(?P=tag)>', re.DOTALL)
DELIMITERS = {"span": ("\\(", "\\)"), "div": ("\\[", "\\]")}   # arithmatex's generic-mode wrappers
OPENING_TAG = re.compile(r"<[a-zA-Z][^>]*>")
STYLE = re.compile(r'\sstyle="(?P<style>[^"]*)"')
CLASS = re.compile(r'\sclass="(?P<classes>[^"]*)"')
SETUP_HINT = "run ./dev.sh serve once (it installs Node's packages, KaTeX among them)"

formulas = {}    # (tex, display) -> [pages it appears on]; filled while the pages are converted
rendered = {}    # (tex, display) -> finished markup, without style attributes
style_classes = {}   # style declarations -> class name


def on_config(config):
    if not KATEX.exists():
        raise PluginError(f"formulas.py: missing {KATEX.relative_to(REPO)}; {SETUP_HINT}")
    formulas.clear()
    rendered.clear()
    style_classes.clear()
    return config


def on_page_content(content, page, config, files):
    for element in ARITHMATEX.finditer(content):
        formulas.setdefault(formula_of(element), []).append(page.file.src_uri)
    return content


def on_env(env, config, files):
    """Render every formula of the build in one Node process; stop the build on any refusal."""
    waiting = [key for key in formulas if key not in rendered]
    results = render(waiting)
    refused = [(key, result["error"]) for key, result in zip(waiting, results) if "error" in result]
    if refused:
        raise PluginError("formulas.py: KaTeX cannot typeset " + "; ".join(
            f"{display_name(key)} on {', '.join(sorted(set(formulas[key])))}: {error}" for key, error in refused))
    for key, result in zip(waiting, results):
        rendered[key] = without_style_attributes(result["html"])
    return env


def on_post_page(output, page, config):
    def typeset(element):
        key = formula_of(element)
        if key not in rendered:
            raise PluginError(f"formulas.py: {page.file.src_uri} shows {display_name(key)}, which was not in its "
                              "converted Markdown (on_page_content); nothing typeset it")
        return f'<{element["tag"]} class="arithmatex">{rendered[key]}</{element["tag"]}>'
    return ARITHMATEX.sub(typeset, output)


def on_post_build(config):
    target = Path(config["site_dir"]) / STYLESHEET
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(stylesheet(), encoding="utf-8")


# ---- Formulas ---------------------------------------------------------------------------------

def formula_of(element):
    """(TeX, display mode) of an arithmatex element: its text unescaped, without the wrapper."""
    opening, closing = DELIMITERS[element["tag"]]
    source = html.unescape(element["source"]).strip()
    if not (source.startswith(opening) and source.endswith(closing)):
        raise PluginError(f"formulas.py: an arithmatex element without {opening} ... {closing}: {source[:80]!r}; "
                          "mkdocs.yml must keep pymdownx.arithmatex in generic mode with its default wrappers")
    return source[len(opening):-len(closing)].strip(), element["tag"] == "div"


def display_name(key):
    tex, display = key
    return f"$${tex}$$" if display else f"${tex}$"


def render(keys):
    """KaTeX's result for each (tex, display), in order: {"html": ...} or {"error": ...}."""
    if not keys:
        return []
    request = json.dumps([{"tex": tex, "display": display} for tex, display in keys])
    try:
        result = subprocess.run(["node", str(RENDERER)], input=request, capture_output=True, text=True,
                                encoding="utf-8", cwd=REPO)
    except OSError as error:  # no node on PATH
        raise PluginError(f"formulas.py: cannot run node ({error}); {SETUP_HINT}") from error
    if result.returncode != 0:
        raise PluginError(f"formulas.py: {RENDERER.name} failed ({SETUP_HINT}):\n{result.stderr}")
    return json.loads(result.stdout)


# ---- Style attributes into classes ---------------------------------------------------------

def without_style_attributes(markup):
    """KaTeX's markup with each style="..." replaced by a class that carries the same declarations."""
    def rewrite(match):
        tag = match[0]
        style = STYLE.search(tag)
        if style is None:
            return tag
        name = class_for(style["style"])
        tag = tag[:style.start()] + tag[style.end():]
        classes = CLASS.search(tag)
        if classes is None:
            return f'{tag[:-1].rstrip("/")} class="{name}"{"/" if tag.endswith("/>") else ""}>'
        return f'{tag[:classes.start()]} class="{classes["classes"]} {name}"{tag[classes.end():]}'
    return OPENING_TAG.sub(rewrite, markup)


def class_for(style):
    declarations = ";".join(part.strip() for part in html.unescape(style).split(";") if part.strip())
    if declarations not in style_classes:
        name = CLASS_PREFIX + hashlib.sha256(declarations.encode()).hexdigest()[:10]
        if name in style_classes.values():
            raise PluginError(f"formulas.py: two styles share the class {name}; lengthen the hash")
        style_classes[declarations] = name
    return style_classes[declarations]


def stylesheet():
    rules = [f".{name}{{{';'.join(f'{part} !important' for part in declarations.split(';'))}}}"
             for declarations, name in sorted(style_classes.items(), key=lambda item: item[1])]
    return ("/* formulas.css: written by site_scripts/hooks/formulas.py, the box positions of the lesson's "
            "formulas as typeset by KaTeX. Generated on every build: do not edit. */\n" + "\n".join(rules) + "\n")
