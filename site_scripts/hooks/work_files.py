"""work_files.py: MkDocs hook that gives the pages "Your work" and "Class overview" what they must know of the lesson.

What it is: while the pages are built it notes, in nav order, every page with runnable blocks (its path
relative to the site's root, as the browser's saved edits name it, its title and how many blocks it
has) and every exercise (its name, page, block number and title), read from the blocks the runnable
fence wrote (runnable_fence.BLOCK_OPENING, the same pattern its own hook reads), and on those pages every
checked prediction (its id and page) and every figure the reader fills in by hand (a model that sets
SAVES_PROGRESS: its name, page and TITLE), from the placeholders the chapters hold. After the build it
writes them, with the site's name and a fingerprint of the lesson's code (`build`: it changes whenever
a block's code, an exercise or a page changes), as assets/lesson/browser/work/lesson.json, and copies
the work file's JSON Schema (site_scripts/browser/work/work-file.schema.json) beside it, where the
ARCHITECTURE.md and the page "Your work" point readers to it. Both are written before offline.py lists the
files to keep for offline use, so they are part of the offline copy.
What it is not: the work file itself (browser/work/work-file.mjs makes and reads it) or its checks.
"""
import hashlib
import html
import json
import shutil
from pathlib import Path

import re

import runnable_fence  # MkDocs puts the hooks' folder on sys.path while it loads a hook
from prediction_answers import PLACEHOLDER as PREDICTION  # predictions.py's placeholder, not yet filled
from tutor_sources import FIGURE_MODELS, module_constants

SCHEMA = Path(__file__).resolve().parents[1] / "browser" / "work" / "work-file.schema.json"
TARGET = Path("assets") / "lesson" / "browser" / "work"
MAP_NAME = "lesson.json"
BUILD_YOUR_OWN = "build-your-own.md"   # the chapter whose exercises are the steps of the reader's own engine

FIGURE = re.compile(r'<div[^>]*\sdata-widget="(?P<name>[a-z_][a-z0-9_]*)"')  # figures.py's placeholder, not yet filled

pages = {}        # src_uri -> {"path", "title", "blocks"}, filled in on_page_content
exercises = {}    # src_uri -> [{"name", "chapter", "block", "title"}, ...]
predictions = {}  # src_uri -> [{"id", "chapter"}, ...]
by_hand = {}      # src_uri -> [{"name", "chapter", "title"}, ...]: the figures whose progress the page saves
sources = {}      # src_uri -> every block's source, for the fingerprint
nav_order = []    # src_uri of the nav's pages, in order


def on_pre_build(config):
    for collected in (pages, exercises, sources, predictions, by_hand):
        collected.clear()
    nav_order.clear()


def on_nav(nav, config, files):
    nav_order[:] = [page.file.src_uri for page in nav.pages]
    return nav


def on_page_content(content, page, config, files):
    openings = list(runnable_fence.BLOCK_OPENING.finditer(content))
    if not openings:
        return content
    uri = page.file.src_uri
    pages[uri] = {"path": page.url, "title": page.title, "blocks": len(openings)}
    exercises[uri] = [{"name": opening["exercise"], "chapter": page.url, "block": number,
                       "title": html.unescape(opening["title"] or "")}
                      for number, opening in enumerate(openings, start=1) if opening["exercise"]]
    sources[uri] = [html.unescape(opening["source"]) for opening in openings]
    predictions[uri] = [{"id": match["id"], "chapter": page.url} for match in PREDICTION.finditer(content)]
    by_hand[uri] = [{"name": name, "chapter": page.url, "title": constants["TITLE"]}
                    for name in dict.fromkeys(match["name"] for match in FIGURE.finditer(content))
                    for constants in [figure_constants(name)] if constants.get("SAVES_PROGRESS") is True]
    return content


def figure_constants(name):
    """The plain constants of figure `name`'s model ({} when there is no such model: figures.py says so)."""
    try:
        return module_constants(FIGURE_MODELS / f"{name}.py")
    except OSError:
        return {}


def lesson_map(site_name):
    """What the work pages need: {"site": {"name", "build"}, "chapters": [...], "exercises": [...], "buildYourOwn"}."""
    order = [uri for uri in nav_order if uri in pages] + sorted(set(pages) - set(nav_order))
    chapters = [pages[uri] for uri in order]
    listed = [exercise for uri in order for exercise in exercises[uri]]
    fingerprint = hashlib.sha256(json.dumps([site_name, chapters, listed, [sources[uri] for uri in order]],
                                            sort_keys=True).encode()).hexdigest()[:16]
    own = pages.get(BUILD_YOUR_OWN, {}).get("path")
    return {"site": {"name": site_name, "build": fingerprint}, "chapters": chapters, "exercises": listed,
            "predictions": [item for uri in order for item in predictions[uri]],
            "figures": [item for uri in order for item in by_hand[uri]], "buildYourOwn": own}


def on_post_build(config):
    target = Path(config["site_dir"]) / TARGET
    target.mkdir(parents=True, exist_ok=True)
    (target / MAP_NAME).write_text(json.dumps(lesson_map(config["site_name"]), indent=1, ensure_ascii=False),
                                   encoding="utf-8")
    shutil.copyfile(SCHEMA, target / SCHEMA.name)
