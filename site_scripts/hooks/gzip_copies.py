"""gzip_copies.py: the build's gzip copy of each built file that gzip shrinks, for the classroom server.

What it is: write_gzip_copies(site_dir, paths) writes `name.gz` beside each file of `paths` that gzip
makes at least a tenth smaller (measured, not guessed from its ending: the wasm, scripts, pages, styles,
JSON and Python shrink; the snapshot, zips, wheels, fonts and images do not), with no time or name in
the gzip header, so the same file gives the same copy on every build (the classroom zip stays reproducible).
serve.py sends a copy, compressed once here, to a browser that accepts gzip.
What it is not: a file of the lesson: the service worker neither lists nor fetches the copies (offline.py).
"""
import gzip
from pathlib import Path

WORTH_IT = 0.9  # a copy is written when it is at most this fraction of the file's size


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


def is_gzip_copy(path, paths):
    """Whether the site-relative `path` is the gzip copy of another file among `paths`."""
    return path.endswith(".gz") and path[:-len(".gz")] in paths
