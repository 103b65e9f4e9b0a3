"""vendor.py: the MkDocs hook that puts everything the browser runs into the built site.

What it is: after each build it writes, under the site folder,
  assets/vendor/pyodide/     Pyodide's core files from node_modules/pyodide
  assets/vendor/katex/       KaTeX's CSS and woff2 fonts (formulas.py typesets at build time:
                             pages load no KaTeX script)
  assets/vendor/codemirror/editor.mjs  site_scripts/browser/editor/editor.mjs bundled by esbuild
  assets/vendor/d3/contours.mjs        site_scripts/browser/d3/contours.mjs (d3-contour) bundled by esbuild
  assets/vendor/dagre/graph-layout.mjs site_scripts/browser/dagre/graph-layout.mjs (dagre) bundled by esbuild
  assets/wheels/             the `tinygrad` and `tutor` wheels built here with zipfile, and
                             wheels.json naming them for the runtime (which installs them)
  assets/packages/           micropip's and micrograd's wheels from PyPI (pinned, sha256-checked) with a
                             simple index of them, fetched only by a block that imports micropip
                             (registry_wheels.py)
  assets/lesson/             the browser files (.mjs .js .css) of site_scripts/browser/ and of
                             site_scripts/tutor/ (the figures' views), under the same folders
  tinygrad.py                engine/tinygrad.py unchanged, as a download
so the site needs no CDN and works from any sub-path. Wheels are reproducible: fixed timestamps,
sorted entries.

It also stops the build when site_scripts/browser/runtime/contract.mjs no longer matches the
contract it is written from (contract_js.py).

What it is not: an installer. node_modules comes from `./dev.sh serve` (or `./dev.sh test`); when it
is missing the build stops and says so.
"""
import base64
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError
import contract_js  # MkDocs puts the hooks' folder on sys.path while it loads a hook
import registry_wheels
from reproducible_zip import write_zip

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "site_scripts"
NODE_MODULES = REPO / "node_modules"
ESBUILD = NODE_MODULES / ".bin" / "esbuild"
ENGINE = REPO / "engine" / "tinygrad.py"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
WHEEL_VERSION = "0.1.0"
WHEEL_TAG = "py3-none-any"
BROWSER_SUFFIXES = {".mjs", ".js", ".css"}
BROWSER_FOLDERS = ("browser", "tutor")  # the rest of site_scripts/ runs at build time or on a server
NOT_FOR_THE_BROWSER = {"editor", "d3", "dagre", "__pycache__"}  # editor/, d3/ and dagre/ ship as bundles
SETUP_HINT = "run ./dev.sh serve once (it installs the npm packages)"


def on_config(config):
    """Stop early, with a clear message, when the vendored inputs are not installed."""
    missing = [str(path.relative_to(REPO)) for path in
               [NODE_MODULES / "pyodide" / name for name in PYODIDE_FILES]
               + [NODE_MODULES / "katex" / "dist" / "katex.min.css", ESBUILD, ENGINE]
               if not path.exists()]
    if missing:
        raise PluginError(f"vendor.py: missing {', '.join(missing)}; {SETUP_HINT}")
    stale = contract_js.check()
    if stale:
        raise PluginError(f"vendor.py: {stale}")
    return config


def on_serve(server, config, builder):
    """With `mkdocs serve`, rebuild when the browser scripts or the engine change."""
    server.watch(str(SCRIPTS))
    server.watch(str(ENGINE))
    return server


def on_post_build(config):
    site = Path(config["site_dir"])
    vendor = site / "assets" / "vendor"
    copy_files(NODE_MODULES / "pyodide", vendor / "pyodide", PYODIDE_FILES)
    vendor_katex(vendor / "katex")
    bundle(SCRIPTS / "browser" / "editor" / "editor.mjs", vendor / "codemirror" / "editor.mjs")
    bundle(SCRIPTS / "browser" / "d3" / "contours.mjs", vendor / "d3" / "contours.mjs")
    bundle(SCRIPTS / "browser" / "dagre" / "graph-layout.mjs", vendor / "dagre" / "graph-layout.mjs")
    write_wheels(site / "assets" / "wheels")
    try:
        registry_wheels.write_index(site / "assets" / "packages")
    except registry_wheels.WheelError as problem:
        raise PluginError(f"vendor.py: {problem}") from None
    copy_browser_files(SCRIPTS, site / "assets" / "lesson")
    shutil.copyfile(ENGINE, site / "tinygrad.py")


def copy_files(source, destination, names):
    destination.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copyfile(source / name, destination / name)


def vendor_katex(destination):
    """KaTeX's CSS and the woff2 fonts every current browser uses (its script runs only at build time)."""
    dist = NODE_MODULES / "katex" / "dist"
    copy_files(dist, destination, ["katex.min.css"])
    fonts = sorted(font.name for font in (dist / "fonts").glob("*.woff2"))
    copy_files(dist / "fonts", destination / "fonts", fonts)


def bundle(entry, output):
    """One minified ES module from `entry` and what it imports, written by esbuild."""
    output.parent.mkdir(parents=True, exist_ok=True)
    command = [str(ESBUILD), str(entry), "--bundle", "--format=esm", "--minify",
               "--log-level=warning", f"--outfile={output}"]
    try:
        result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
    except OSError as error:  # e.g. no node on PATH
        raise PluginError(f"vendor.py: cannot run esbuild ({error}); {SETUP_HINT}") from error
    if result.returncode != 0:
        raise PluginError(f"vendor.py: esbuild failed on {entry.relative_to(REPO)}:\n{result.stderr}")


def copy_browser_files(source, destination):
    """Copy the .mjs/.js/.css files of site_scripts/browser/ and site_scripts/tutor/, keeping their
    folders (browser/..., tutor/figures/...), so relative imports between them still work."""
    for path in sorted(p for folder in BROWSER_FOLDERS for p in (source / folder).rglob("*")):
        relative = path.relative_to(source)
        if path.suffix in BROWSER_SUFFIXES and not NOT_FOR_THE_BROWSER & set(relative.parts[:-1]):
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


# ---- Wheels ----------------------------------------------------------------------------------

def write_wheels(destination):
    """The engine's wheel and the tutor's, and wheels.json listing them for the runtime."""
    destination.mkdir(parents=True, exist_ok=True)
    packages = [
        write_wheel(destination, "tinygrad", "The lesson's scalar autograd engine.",
                    {"tinygrad.py": ENGINE.read_bytes()}),
        write_wheel(destination, "tutor", "The lesson's Python side: its runtime, figure models and checks.",
                    tutor_files()),
    ]
    manifest = {"packages": packages}
    (destination / "wheels.json").write_text(json.dumps(manifest, indent=2) + "\n")


def tutor_files():
    """Archive name -> bytes for package `tutor`: every .py file under site_scripts/tutor/, at the
    same path (the folder is the package, file for file)."""
    root = SCRIPTS / "tutor"
    return {f"tutor/{path.relative_to(root).as_posix()}": path.read_bytes()
            for path in sorted(root.rglob("*.py")) if "__pycache__" not in path.parts}


def write_wheel(destination, name, summary, files):
    """Write a pure-Python wheel of `files` (archive name -> bytes); return its file name."""
    dist_info = f"{name}-{WHEEL_VERSION}.dist-info"
    files = {**files,
             f"{dist_info}/METADATA": (f"Metadata-Version: 2.1\nName: {name}\nVersion: {WHEEL_VERSION}\n"
                                       f"Summary: {summary}\n").encode(),
             f"{dist_info}/WHEEL": (f"Wheel-Version: 1.0\nGenerator: site_scripts/hooks/vendor.py\n"
                                    f"Root-Is-Purelib: true\nTag: {WHEEL_TAG}\n").encode()}
    record_name = f"{dist_info}/RECORD"
    record = "".join(f"{archive_name},sha256={record_hash(data)},{len(data)}\n"
                     for archive_name, data in sorted(files.items())) + f"{record_name},,\n"
    files[record_name] = record.encode()
    wheel_name = f"{name}-{WHEEL_VERSION}-{WHEEL_TAG}.whl"
    write_zip(destination / wheel_name, files.items())  # RECORD last, as the wheel spec recommends
    return wheel_name


def record_hash(data):
    """The RECORD file's hash format: urlsafe base64 of the sha256 digest, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
