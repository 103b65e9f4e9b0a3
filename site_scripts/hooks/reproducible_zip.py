"""reproducible_zip.py: the one way the build writes a zip file (wheels, notebooks, the classroom zip).

What it is: write_zip(path, entries), where entries are (name, bytes) pairs written in that order,
deflated, with a fixed timestamp and fixed permissions, so the same input gives the same bytes on every
build (a browser's cache and the snapshot's wheel hashes stay valid across rebuilds).
What it is not: a reader; Python's zipfile and the browser's wheels.mjs read what this writes.
"""
import zipfile

FIXED_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can store
REGULAR_FILE = 0o100644
EXECUTABLE_FILE = 0o100755


def write_zip(path, entries, executable=frozenset()):
    """Write the zip `path` from (name, data) pairs; names in `executable` get mode 755, others 644."""
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in entries:
            entry = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = (EXECUTABLE_FILE if name in executable else REGULAR_FILE) << 16
            bundle.writestr(entry, data)
