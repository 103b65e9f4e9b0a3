"""offline.py: MkDocs hook that finishes the built site for offline and classroom use.

What it is: after every build (and after the other hooks, whose files it must see) it
  - copies site_scripts/server/serve.py to the site root, so every copy of the site carries its server;
  - lists every built file with its SRI sha256 (two for a file whose Brotli copy holds a variant of it:
    gzip_copies.served_forms; and its size, for the copy's progress) but those a browser
    never fetches (never_fetched.py: search languages and math fonts the site does not use), and writes that
    list, with a build version derived from it, into the service worker it copies to the site root (root scope = it controls every page);
  - writes the gzip and Brotli copies the classroom server sends (gzip_copies.py), of the listed files and the worker;
  - zips the site into downloads/CLASSROOM_ZIP, the classroom bundle a teacher unzips and starts
    with `python3 serve.py`.
What it is not: the service worker's behaviour (site_scripts/browser/offline/service-worker.js) nor the server
(site_scripts/server/serve.py). The zip and serve.py are downloads, not part of the lesson: neither is precached.
"""
import base64
import hashlib
import json
import shutil
from pathlib import Path

from mkdocs.plugins import event_priority
from gzip_copies import BROTLI_MANIFEST, is_gzip_copy, served_forms, write_brotli_copies, write_gzip_copies
from never_fetched import never_fetched
from reproducible_zip import write_zip  # MkDocs puts the hooks' folder on sys.path while it loads a hook


SITE_SCRIPTS = Path(__file__).resolve().parents[1]
WORKER_SOURCE = SITE_SCRIPTS / "browser" / "offline" / "service-worker.js"
SERVER_SOURCE = SITE_SCRIPTS / "server" / "serve.py"
WORKER_NAME = "service-worker.js"
SERVER_NAME = "serve.py"
DOWNLOADS = "downloads"
CLASSROOM_ZIP = "slope-to-backprop-classroom.zip"
ZIP_FOLDER = "slope-to-backprop"                 # the folder the zip unpacks into
BUILD_LINE = 'const BUILD = { version: "unbuilt", files: {} };'
# The copy of site_scripts/browser/ under assets/lesson/browser/ holds the unfilled worker, which on_post_build
# removes (the filled one is at the root); a hook that lists the copy before then (teachers_page.py's sizes)
# must not count it.
UNFILLED_WORKER = f"assets/lesson/browser/offline/{WORKER_NAME}"
NOT_PRECACHED = {WORKER_NAME, SERVER_NAME, UNFILLED_WORKER}  # plus downloads/ and source maps (for developer tools only)
# serve.py rewrites sitemap.xml to the address it serves, so its bytes (and hash) change with the address.
NOT_PRECACHED |= {"sitemap.xml", "sitemap.xml.gz", "sitemap.xml.br", BROTLI_MANIFEST}


def subresource_integrity(site_dir, path):
    """The SRI of the site-relative `path`: a sha256 for each form a browser may get (any one matches)."""
    forms = served_forms(path, (site_dir / path).read_bytes())
    return " ".join("sha256-" + base64.b64encode(hashlib.sha256(form).digest()).decode() for form in forms)


def site_files(site_dir):
    """Every built file as a site-relative POSIX path, sorted, skipping the downloads folder."""
    return sorted(p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*")
                  if p.is_file() and p.relative_to(site_dir).parts[0] != DOWNLOADS)


def precache_list(site_dir):
    paths = site_files(site_dir)
    names = set(paths)
    unused = never_fetched(site_dir)
    return {path: subresource_integrity(site_dir, path) for path in paths
            if path not in NOT_PRECACHED and not path.endswith(".map") and not is_gzip_copy(path, names) and path not in unused}


def build_version(files):
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]


def write_service_worker(source, site_dir, files):
    text = source.read_text(encoding="utf-8")
    if text.count(BUILD_LINE) != 1:
        raise ValueError(f"{source} must contain the line {BUILD_LINE!r} exactly once; the build fills it in")
    sizes = {path: (site_dir / path).stat().st_size for path in files}
    build = json.dumps({"version": build_version(files), "files": files, "bytes": sizes}, indent=1, sort_keys=True)
    (site_dir / WORKER_NAME).write_text(text.replace(BUILD_LINE, f"const BUILD = {build};"), encoding="utf-8")


def write_classroom_zip(site_dir):
    target = site_dir / DOWNLOADS / CLASSROOM_ZIP
    target.parent.mkdir(parents=True, exist_ok=True)
    write_zip(target, ((f"{ZIP_FOLDER}/{path}", (site_dir / path).read_bytes()) for path in site_files(site_dir)),
              executable={f"{ZIP_FOLDER}/{SERVER_NAME}"})
    return target


@event_priority(-100)  # after the hooks that vendor Pyodide, build the wheels and copy the lesson's scripts
def on_post_build(config, **kwargs):
    site_dir = Path(config["site_dir"])
    (site_dir / UNFILLED_WORKER).unlink(missing_ok=True)
    shutil.copyfile(SERVER_SOURCE, site_dir / SERVER_NAME)
    files = precache_list(site_dir)
    write_service_worker(WORKER_SOURCE, site_dir, files)
    write_gzip_copies(site_dir, [*files, WORKER_NAME])
    write_brotli_copies(site_dir, [*files, WORKER_NAME])
    write_classroom_zip(site_dir)
