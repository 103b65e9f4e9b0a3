"""python_build.py: MkDocs hook that names the build of Python's files, for the browser to check (issue #39).

What it is: once every file Python needs is written (Pyodide, the snapshot, the wheels, the lesson's scripts:
PYTHON_FOLDERS), it writes PYTHON_BUILD, {version, files: {path under assets/: SRI sha256}}, and that version
into every page's <meta name="lesson-python-build"> (overrides/main.html). Python's worker uses a file only
if it has the build's hash, and refuses to start a build other than its page's (runtime/downloads.mjs).
What it is not: the offline copy's list (offline.py, which runs after it and lists these files too).
"""
import json
import re
from pathlib import Path

from mkdocs.plugins import event_priority

import offline  # MkDocs puts the hooks' folder on sys.path while it loads a hook

PYTHON_BUILD = "assets/python-build.json"
PYTHON_FOLDERS = ("assets/lesson/", "assets/snapshot/", "assets/vendor/pyodide/", "assets/wheels/")
PAGE_BUILD = re.compile(r'(<meta name="lesson-python-build" content=")[^"]*(")')


@event_priority(-80)  # after snapshot.py (-50) wrote the last of Python's files; before teachers_page.py (-90) measures them
def on_post_build(config, **kwargs):
    site_dir = Path(config["site_dir"])
    files = {path.removeprefix("assets/"): integrity for path, integrity in offline.precache_list(site_dir).items()
             if path.startswith(PYTHON_FOLDERS)}
    version = offline.build_version(files)
    (site_dir / PYTHON_BUILD).write_text(json.dumps({"version": version, "files": files}, indent=1, sort_keys=True))
    for page in site_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if PAGE_BUILD.search(text):
            page.write_text(PAGE_BUILD.sub(rf"\g<1>{version}\g<2>", text), encoding="utf-8")
