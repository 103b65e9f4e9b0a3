"""test_served_engine.py: the engine the site serves is exactly engine/tinygrad.py, in every form.

What it is: checks, over HTTP from the served site, that the `tinygrad` wheel holds a byte-identical
tinygrad.py, that both lesson wheels are valid (RECORD hashes and sizes match every file), that the
download link serves the same file, and that Python in the browser imports that very file.

What it is not: a test of the engine's behaviour (tests/engine does that).
"""
import base64
import csv
import hashlib
import io
import json
import urllib.request
import zipfile

from helpers import REPO, block, open_lesson, pages_with_blocks, run_block, set_code

ENGINE = REPO / "engine" / "tinygrad.py"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


def served_wheels(site_url):
    """{package name: ZipFile} of the lesson's wheels, as listed by the served wheels.json."""
    manifest = json.loads(fetch(site_url + "assets/wheels/wheels.json"))
    return {name.split("-")[0]: zipfile.ZipFile(io.BytesIO(fetch(site_url + "assets/wheels/" + name)))
            for name in manifest["packages"]}


def test_the_served_wheel_holds_the_engine_byte_for_byte(site_url):
    wheel = served_wheels(site_url)["tinygrad"]
    assert wheel.read("tinygrad.py") == ENGINE.read_bytes()


def test_the_download_link_serves_the_engine_byte_for_byte(site_url):
    assert fetch(site_url + "tinygrad.py") == ENGINE.read_bytes()


def test_every_served_wheel_matches_its_record(site_url):
    for name, wheel in served_wheels(site_url).items():
        record_name = next(entry for entry in wheel.namelist() if entry.endswith(".dist-info/RECORD"))
        rows = list(csv.reader(io.StringIO(wheel.read(record_name).decode())))
        recorded = {row[0] for row in rows}
        assert recorded == set(wheel.namelist()), f"{name}: RECORD lists other files than the wheel holds"
        for path, digest, size in rows:
            if path == record_name:
                continue
            data = wheel.read(path)
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, size) == (expected, str(len(data))), f"{name}: {path}"


def test_python_in_the_browser_imports_the_served_engine(page, site_url, built_site):
    open_lesson(page, site_url, pages_with_blocks(built_site)[0])
    first = block(page, 1)
    set_code(first, "import hashlib, tinygrad\n"
                    "with open(tinygrad.__file__, 'rb') as source:\n"
                    "    print(hashlib.sha256(source.read()).hexdigest())")

    assert run_block(first) == hashlib.sha256(ENGINE.read_bytes()).hexdigest() + "\n"
