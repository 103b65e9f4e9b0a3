"""test_served_engine.py: the engine the site serves is exactly engine/tinygrad.py, in every form.

What it is: checks, over HTTP from the served site, that the `tinygrad` wheel holds a byte-identical
tinygrad.py, that both lesson wheels are valid (RECORD hashes and sizes match every file), that the
download link serves the same file, that the worker's wheel reader (wheels.mjs, run under Node)
unzips every file of both wheels to the bytes Python's zipfile reads (and refuses a damaged entry), and
that Python in the browser imports that very file.

What it is not: a test of the engine's behaviour (tests/engine does that).
"""
import base64
import csv
import hashlib
import io
import json
import subprocess
import urllib.request
import zipfile

from helpers import REPO, block, open_lesson, pages_with_blocks, run_block, set_code

ENGINE = REPO / "engine" / "tinygrad.py"
WHEEL_READER = REPO / "site_scripts" / "browser" / "runtime" / "wheels.mjs"
# Under Node: the files readWheel() finds in each zip named on the command line, as {path: sha256},
# or {"error": message}. Node has the browser's DecompressionStream, so this is the browser's code path.
READ_WHEELS = """
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
const { readWheel } = await import(process.argv[1]);
const results = [];
for (const file of process.argv.slice(2)) {
  try {
    const files = await readWheel(readFileSync(file));
    results.push(Object.fromEntries(files.map(({ path, bytes }) =>
      [path, createHash("sha256").update(bytes).digest("hex")])));
  } catch (error) {
    results.push({ error: error.message });
  }
}
console.log(JSON.stringify(results));
"""


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


def imported_engine_digest(page, site_url, built_site):
    """sha256 of the file `import tinygrad` loads in the browser, printed by the first block."""
    open_lesson(page, site_url, pages_with_blocks(built_site)[0])
    first = block(page, 1)
    set_code(first, "import hashlib, tinygrad\n"
                    "with open(tinygrad.__file__, 'rb') as source:\n"
                    "    print(hashlib.sha256(source.read()).hexdigest())")
    return run_block(first).strip()


def test_python_in_the_browser_imports_the_served_engine(page, site_url, built_site):
    assert imported_engine_digest(page, site_url, built_site) == hashlib.sha256(ENGINE.read_bytes()).hexdigest()


def read_with_the_worker(*zip_files):
    result = subprocess.run(["node", "--input-type=module", "-e", READ_WHEELS, WHEEL_READER.as_uri(),
                             *map(str, zip_files)], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def files_as_python_reads_them(zip_file):
    with zipfile.ZipFile(zip_file) as archive:
        return {name: hashlib.sha256(archive.read(name)).hexdigest()
                for name in archive.namelist() if not name.endswith("/")}


def test_the_worker_unzips_every_wheel_file_as_python_does(built_site, tmp_path):
    wheels = sorted((built_site / "assets" / "wheels").glob("*.whl"))
    assert len(wheels) == 2
    mixed = tmp_path / "mixed.zip"  # what the built wheels may not hold: stored entries, a folder, a comment
    with zipfile.ZipFile(mixed, "w") as archive:
        archive.writestr("pkg/", b"")
        archive.writestr(zipfile.ZipInfo("pkg/stored.py"), b"print('stored')\n" * 50, zipfile.ZIP_STORED)
        archive.writestr("pkg/deflated.py", b"x = 1\n" * 500, zipfile.ZIP_DEFLATED)
        archive.comment = b"a zip comment"
    not_a_zip = tmp_path / "not-a-wheel.whl"
    not_a_zip.write_bytes(b"<!doctype html><p>404 Not Found</p>")

    damaged = tmp_path / "damaged.whl"  # one deflated byte changed: the entry's CRC-32 no longer matches
    data = bytearray(mixed.read_bytes())
    at = data.index(b"pkg/deflated.py") + len(b"pkg/deflated.py") + 5  # inside its compressed data
    data[at] ^= 0x55
    damaged.write_bytes(bytes(data))

    *read, refused, refused_damaged = read_with_the_worker(*wheels, mixed, not_a_zip, damaged)

    assert read == [files_as_python_reads_them(zip_file) for zip_file in (*wheels, mixed)]
    assert refused == {"error": "a wheel is not a zip file"}
    assert refused_damaged == {"error": "a wheel's entry pkg/deflated.py is damaged"}
