"""snapshot.py: the MkDocs hook that adds Python's start-up memory snapshot to the built site.

What it is: after vendor.py has put Pyodide and the lesson's wheels into the site (and before
offline.py lists every file for the service worker and the classroom zip), it runs
make_snapshot.mjs under Node, which writes assets/snapshot/python-snapshot.bin from those very
files. Pages then show a first result in well under half the time of a plain start
(site_scripts/browser/runtime/snapshot.mjs; `./dev.sh bench` measures it).
Policy: the snapshot is part of every build. If Node cannot make it (typically after a Pyodide
upgrade changed its private snapshot API), the build stops with Node's message rather than ship a
site that silently starts slowly.

What it is not: the snapshot's format or its use in the browser (snapshot.mjs), nor the maker.
"""
import json
import logging
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

MAKER = Path(__file__).resolve().with_name("make_snapshot.mjs")
REPO = MAKER.parents[2]
log = logging.getLogger("mkdocs.hooks.snapshot")


@event_priority(-50)  # after vendor.py (priority 0) wrote Pyodide and the wheels; before offline.py (-100)
def on_post_build(config, **kwargs):
    command = ["node", str(MAKER), config["site_dir"]]
    try:
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    except OSError as error:
        raise PluginError(f"snapshot.py: cannot run Node ({error}); run ./dev.sh serve once") from error
    if result.returncode != 0:
        raise PluginError("snapshot.py: Node could not make Python's memory snapshot "
                          f"(is Pyodide still the pinned version?):\n{result.stderr[-4000:]}")
    made = json.loads(result.stdout.strip().splitlines()[-1])
    log.info(f"Python snapshot: {made['bytes']:,} bytes ({made['rawBytes']:,} in memory), "
             f"made in {made['totalSeconds']} s")
