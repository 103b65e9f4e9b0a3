"""gzip_copies.py: the build's compressed copies of each built file that shrinks, for the classroom server.

What it is: write_gzip_copies(site_dir, paths) writes `name.gz` beside each file of `paths` that gzip
makes at least a tenth smaller (measured, not guessed from its ending: the wasm, scripts, pages, styles,
JSON and Python shrink; the snapshot, zips, wheels, fonts and images do not), with no time or name in
the gzip header, so the same file gives the same copy on every build (the classroom zip stays reproducible);
write_brotli_copies(site_dir, paths) writes `name.br` beside each file that has a gzip copy, and lists the
sha256 of each original in BROTLI_MANIFEST (a brotli stream names no checksum, so serve.py checks that list
and never sends a stale copy). Each copy is kept in BROTLI_CACHE (build/, outside the site) under the
sha256 of what it holds and made once per checkout. Two files compressed already, the snapshot and the
standard library, get a .br copy of their VARIANT instead: the same content with its compression undone
(the snapshot's pages stored, the zip's entries stored), which Brotli packs far smaller; the browser
reads both forms, and the build lists both forms' hashes wherever it lists the file's (served_forms).
serve.py sends a copy, compressed once here, to a browser that accepts it (br before gzip).
What it is not: a file of the lesson: the service worker neither lists nor fetches the copies (offline.py).
"""
import gzip
import hashlib
import io
import json
import os
import struct
import zipfile
from pathlib import Path

import brotli

WORTH_IT = 0.9  # a copy is written when it is at most this fraction of the file's size
BROTLI_MANIFEST = "brotli-copies.json"  # {site-relative path: sha256 hex of the file its .br copy holds}
BROTLI_CACHE = Path(__file__).resolve().parents[2] / "build" / "brotli-copies"
BROTLI_SETTINGS = {"quality": 9, "lgwin": 24}  # 11 saves 0.36 MB of the wasm's 3.1 but takes minutes to build
# The variants at quality 10: the snapshot's copy is 2.78 MB (3.03 at 9, 2.70 at 11) for about 12 s of one
# processor per build (11 takes half a minute or more); its bytes differ on every build, so it is never in
# BROTLI_CACHE. The standard library's copy is about 1.6 MB.
VARIANT_SETTINGS = {"quality": 10, "lgwin": 24}
COPY_ENDINGS = (".gz", ".br")
SNAPSHOT_MAGIC = b"PYSNAP01"  # the snapshot's format: site_scripts/browser/runtime/snapshot.mjs


def stored_snapshot(data):
    """The snapshot file `data` with its page stream stored instead of gzip (header field `pages`)."""
    start = len(SNAPSHOT_MAGIC) + 4
    (length,) = struct.unpack_from("<I", data, len(SNAPSHOT_MAGIC))
    header = json.loads(data[start:start + length])
    if not data.startswith(SNAPSHOT_MAGIC) or header["pages"] != "gzip":
        raise ValueError("not a snapshot whose pages are gzip")
    encoded = json.dumps({**header, "pages": "stored"}, separators=(",", ":")).encode()
    return SNAPSHOT_MAGIC + struct.pack("<I", len(encoded)) + encoded + gzip.decompress(data[start + length:])


def stored_zip(data):
    """The zip `data` with every entry stored instead of deflated: the same names, dates and contents, in order."""
    stored = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(stored, "w") as copy:
        for entry in source.infolist():
            entry_copy = zipfile.ZipInfo(entry.filename, entry.date_time)
            entry_copy.external_attr = entry.external_attr
            copy.writestr(entry_copy, source.read(entry))
    return stored.getvalue()


VARIANT = {"assets/snapshot/python-snapshot.bin": stored_snapshot,       # read by snapshot.mjs
           "assets/vendor/pyodide/python_stdlib.zip": stored_zip}        # read by Python's zipimport


def served_forms(path, data):
    """The bytes a browser may get for the site-relative `path` whose file holds `data`: [data], or
    [data, its VARIANT], which its .br copy holds."""
    return [data, VARIANT[path](data)] if path in VARIANT else [data]


def write_gzip_copies(site_dir, paths):
    """Write site_dir/path.gz for each site-relative path in `paths` that gzip shrinks; remove a stale copy
    of one that no longer shrinks. Returns the site-relative paths of the copies."""
    written = []
    for path in paths:
        data = (Path(site_dir) / path).read_bytes()
        copy = Path(site_dir) / (path + ".gz")
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= WORTH_IT * len(data):
            copy.write_bytes(packed)
            written.append(path + ".gz")
        else:
            copy.unlink(missing_ok=True)
    return written


def brotli_copy(data, settings=BROTLI_SETTINGS):
    """`data` compressed by Brotli at `settings`, from BROTLI_CACHE when it was made before."""
    key = hashlib.sha256(data + json.dumps(settings).encode()).hexdigest()
    cached = BROTLI_CACHE / f"{key}.br"
    if cached.is_file():
        return cached.read_bytes()
    packed = brotli.compress(data, **settings)
    BROTLI_CACHE.mkdir(parents=True, exist_ok=True)
    part = cached.with_suffix(f".{os.getpid()}.part")  # two builds at once each write their own
    part.write_bytes(packed)
    part.replace(cached)  # never half a copy in the cache
    return packed


def write_brotli_copies(site_dir, paths):
    """Write site_dir/path.br for each of `paths` that has a gzip copy (a file that shrinks) or a VARIANT, and
    the manifest BROTLI_MANIFEST of their originals' sha256. Returns the site-relative paths of the copies."""
    site_dir, manifest = Path(site_dir), {}
    for path in paths:
        copy = site_dir / (path + ".br")
        if not (site_dir / (path + ".gz")).is_file() and path not in VARIANT:
            copy.unlink(missing_ok=True)
            continue
        data = (site_dir / path).read_bytes()
        copy.write_bytes(brotli_copy(VARIANT[path](data), VARIANT_SETTINGS) if path in VARIANT else brotli_copy(data))
        manifest[path] = hashlib.sha256(data).hexdigest()
    (site_dir / BROTLI_MANIFEST).write_text(json.dumps(manifest, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return [path + ".br" for path in manifest]


def is_gzip_copy(path, paths):
    """Whether the site-relative `path` is a compressed copy (.gz or .br) of another file among `paths`."""
    return path.endswith(COPY_ENDINGS) and path[:-len(".gz")] in paths
