"""never_fetched.py: the built files no browser fetches for this lesson, which the offline copy leaves out (#38).

What it is: never_fetched(site_dir): Material's lunr search-language files its worker imports only for the
languages other than English that the search index names (decided as that worker decides), and KaTeX's fonts
no build-time formula is drawn in (a font is kept when a katex.min.css rule naming its face may apply to the
classes on some page; a bold or italic class anywhere keeps those faces: rather a font too many than too few).
What it is not: the list itself (offline.py) or a cleaner: the files stay in the site and in the classroom zip.
"""
import json
import re
from pathlib import Path

LUNR = "assets/javascripts/lunr/"
SEARCH_INDEX = "search/search_index.json"
KATEX_CSS = "assets/vendor/katex/katex.min.css"
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
CLASSES = re.compile(r'class="([^"]*)"')


def never_fetched(site_dir):
    site_dir = Path(site_dir)
    return unused_search_languages(site_dir) | unused_math_fonts(site_dir)


def unused_search_languages(site_dir):
    index = site_dir / SEARCH_INDEX
    languages = json.loads(index.read_text(encoding="utf-8"))["config"]["lang"] if index.is_file() else []
    names = {f"min/lunr.{language}.min.js" for language in languages if language != "en"}
    names |= {"tinyseg.js" for language in languages if language == "ja"}
    names |= {"wordcut.js" for language in languages if language in ("hi", "th")}
    names |= {"min/lunr.multi.min.js"} if len(languages) > 1 else set()
    names |= {"min/lunr.stemmer.support.min.js"} if names else set()
    present = {path.relative_to(site_dir).as_posix() for path in (site_dir / LUNR).rglob("*") if path.is_file()}
    return present - {LUNR + name for name in names}


def unused_math_fonts(site_dir):
    css = site_dir / KATEX_CSS
    if not css.is_file():
        return set()
    used_classes = {name for page in site_dir.rglob("*.html")
                    for value in CLASSES.findall(page.read_text(encoding="utf-8")) for name in value.split()}
    faces = {}  # woff2 file -> (family, weight, style)
    drawn = {("KaTeX_Main", "400", "normal")}  # .katex itself
    bold = italic = False  # a rule that makes whatever family bold or italic (.textbf, .textit) applies
    for selectors, body in RULE.findall(css.read_text(encoding="utf-8")):
        declared = {name: value.strip() for name, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body)}
        if selectors.strip() == "@font-face":
            font = re.search(r"url\(([^)]+\.woff2)\)", declared["src"]).group(1)
            faces[font] = (declared["font-family"], declared.get("font-weight", "400"), declared.get("font-style", "normal"))
            continue
        if not any(set(re.findall(r"\.([\w-]+)", selector)) - {"katex"} <= used_classes for selector in selectors.split(",")):
            continue
        weight, style = declared.get("font-weight", "400").replace("bold", "700"), declared.get("font-style", "normal")
        if "font-family" in declared:
            drawn.add((declared["font-family"].split(",")[0].strip(), weight, style))
        else:
            bold, italic = bold or weight == "700", italic or style == "italic"
    kept = {(family, w, s) for family, weight, style in drawn
            for w in {weight, *(["700"] if bold else [])} for s in {style, *(["italic"] if italic else [])}}
    folder = KATEX_CSS.rsplit("/", 1)[0]
    return {f"{folder}/{font}" for font, face in faces.items() if face not in kept}
