"""search_text.py: MkDocs hook that makes the formulas in the search index readable.

What it is: the search plugin indexes each page before its formulas are typeset (formulas.py puts
KaTeX's markup in only at on_post_page), so search/search_index.json holds their TeX inside
arithmatex's wrappers, and a search result's preview showed "\\(\\frac{\\partial L}{\\partial w}\\)".
After the search plugin has written the index, this hook replaces each formula in every entry's title
and text by plain Unicode text from pylatexenc ("∂L/∂w"), so previews read like the page and a reader
can search for what a formula says ("df/dx"). A formula pylatexenc cannot parse stops the build
with the page and the formula.
What it is not: the typesetting (formulas.py) or the search itself (Material's search plugin, with the
lesson's worker stand-in in browser/search/).
"""
import html
import json
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from formulas import DELIMITERS  # arithmatex's wrappers; MkDocs puts the hooks' folder on sys.path while it loads a hook

INDEX = Path("search") / "search_index.json"   # in the built site, as Material's search plugin writes it
FORMULA = re.compile("|".join(f"{re.escape(opening)}(.*?){re.escape(closing)}" for opening, closing in DELIMITERS.values()),
                     re.DOTALL)  # one group per kind of wrapper: the formula's TeX
FRACTIONS = ("frac", "dfrac", "tfrac")   # pylatexenc knows only \frac, and writes it without parentheses
ONE_TERM = re.compile(r"[\w.∂∇]+")        # a numerator or denominator written without parentheses
# pylatexenc keeps the TeX's spacing around the symbols it writes ("x \\cdot x" gives "x ·x", "a \\to b"
# gives "a →b"): relations, arrows and products get one space on each side, as on the page.
SPACED = re.compile(r"\s*([=≈≠≤≥<>→←↦·×])\s*")


def one_line(text):
    return " ".join(text.split())


def fraction(node, l2tobj):  # pylatexenc passes its writer by this name
    """top/bottom, each in parentheses unless it is one term: (L(w + h) - L(w - h))/2h."""
    parts = [one_line(l2tobj.nodelist_to_text([argument])) for argument in node.nodeargd.argnlist]
    return "/".join(part if ONE_TERM.fullmatch(part) else f"({part})" for part in parts)


def converter():
    """A parser that knows every fraction macro, and a text writer that writes them all the same way."""
    parsing = latexwalker.get_default_latex_context_db()
    parsing.add_context_category("fractions", macros=[macrospec.MacroSpec(name, "{{") for name in FRACTIONS],
                                 prepend=True)
    writing = get_default_latex_context_db()
    writing.add_context_category("fractions", prepend=True,
                                 macros=[MacroTextSpec(name, simplify_repl=fraction) for name in FRACTIONS])
    return parsing, LatexNodes2Text(latex_context=writing, math_mode="text")


def formula_text(tex, parsing, writer):
    """The formula `tex` (as the index holds it, HTML-escaped) as plain text, HTML-escaped again."""
    nodes = latexwalker.LatexWalker(html.unescape(tex), latex_context=parsing, tolerant_parsing=False).get_latex_nodes()[0]
    return html.escape(SPACED.sub(r" \1 ", one_line(writer.nodelist_to_text(nodes))).strip(), quote=False)


def readable(text, location, parsing, writer):
    def replace(match):
        tex = match.group(match.lastindex)
        try:
            return formula_text(tex, parsing, writer)
        except latexwalker.LatexWalkerError as problem:
            raise PluginError(f"search_text.py: {location or 'the home page'} has a formula the search index "
                              f"cannot show as text: {tex.strip()[:80]!r} ({problem})") from None
    return FORMULA.sub(replace, text)


@event_priority(-50)  # after the search plugin writes the index; before offline.py lists the built files
def on_post_build(config, **kwargs):
    path = Path(config["site_dir"]) / INDEX
    if not path.is_file():
        return  # search turned off
    index = json.loads(path.read_text(encoding="utf-8"))
    parsing, writer = converter()
    for entry in index["docs"]:
        for field in ("title", "text"):
            entry[field] = readable(entry[field], entry["location"], parsing, writer)
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
