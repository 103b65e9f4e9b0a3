"""registry_wheels.py: the wheels the site serves from PyPI (micropip, micrograd), pinned by version and sha256.

What it is: PINS, the one list of them; `wheel_path(name)`, the checked local copy of a pinned wheel (downloaded
once with pip into .cache/registry-wheels/, checked against its sha256 every time); and `write_index(folder)`, which
writes the wheels with a PEP 503 simple index (simple/<name>/index.html) and packages.json (micropip's file name,
for tutor/runtime/packages.py) into the built site. vendor.py calls write_index; block_outputs.py uses wheel_path to
install micrograd under CPython at build time.
What it is not: an installer for the build's Python, nor a mirror of PyPI: only the pinned wheels are served.
"""
import hashlib
import html
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "registry-wheels"
PYODIDE_PYTHON = "3.14"   # the Python of the vendored Pyodide (micropip 0.11 needs >= 3.13)
PINS = {  # name -> (version, sha256 of the py3-none-any wheel on PyPI)
    "micropip": ("0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"),
    "micrograd": ("0.1.0", "47d756d92043c7d7ef55372640dc1549780a8c22806b3a11cb3d4efc5937a4ae"),
}


class WheelError(Exception):
    """A pinned wheel could not be had, or its bytes are not the pinned ones."""


def wheel_name(name):
    return f"{name}-{PINS[name][0]}-py3-none-any.whl"


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def wheel_path(name):
    """The local copy of pinned wheel `name`, downloaded from PyPI with pip the first time; its sha256 checked."""
    path = CACHE / wheel_name(name)
    if not path.exists():
        download(name, path)
    if sha256(path) != PINS[name][1]:
        raise WheelError(f"{path.relative_to(REPO)} is not the pinned {wheel_name(name)} (sha256 differs); delete it "
                         "to download it again, or update PINS in site_scripts/hooks/registry_wheels.py")
    return path


def download(name, path):
    version, digest = PINS[name]
    with tempfile.TemporaryDirectory() as folder:
        requirements = Path(folder) / "requirements.txt"
        requirements.write_text(f"{name}=={version} --hash=sha256:{digest}\n")
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                   "--python-version", PYODIDE_PYTHON, "--require-hashes", "-r", str(requirements), "-d", folder]
        result = subprocess.run(command, capture_output=True, text=True)
        downloaded = Path(folder) / path.name
        if result.returncode != 0 or not downloaded.exists():
            raise WheelError(f"pip could not download {path.name} from PyPI:\n{result.stderr.strip()}")
        path.parent.mkdir(parents=True, exist_ok=True)
        # A partial copy of this build's own, renamed into place: never a half-written wheel, and two builds
        # downloading at once (the tests' two) each rename a whole one.
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f"{path.stem}-", suffix=".part", delete=False) as partial:
            partial.write(downloaded.read_bytes())
        Path(partial.name).replace(path)


def write_index(folder):
    """The pinned wheels, a simple index of them and packages.json, under `folder` of the built site."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, (_, digest) in PINS.items():
        file_name = wheel_name(name)
        shutil.copyfile(wheel_path(name), folder / file_name)
        project = folder / "simple" / name
        project.mkdir(parents=True, exist_ok=True)
        link = html.escape(f"../../{file_name}#sha256={digest}")
        (project / "index.html").write_text(
            f'<!DOCTYPE html>\n<html><head><title>Links for {name}</title></head><body>\n'
            f'<a href="{link}">{file_name}</a>\n</body></html>\n')
    (folder / "packages.json").write_text(json.dumps({"micropip": wheel_name("micropip")}, indent=2) + "\n")
