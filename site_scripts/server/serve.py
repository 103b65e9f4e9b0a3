"""serve.py: serve the built lesson over HTTP, with Python's standard library only.

What it is: the command a teacher runs in the unzipped classroom bundle (`python3 serve.py`; also
`./dev.sh serve` and the tests). It prints the addresses students type, validates each file by its
content (an ETag from its hash, never its date: the classroom zip dates every file 1980-01-01), and
sends the build's Brotli copy of a file (`name.br`, listed with its original's hash in BROTLI_MANIFEST) to a
browser that accepts br, else its gzip copy (`name.gz`) to one that accepts gzip: compressed once, at build. Run from the unzipped
classroom zip, which holds no copy of itself, it answers the zip's address with a zip of its own folder.
What it is not: a production web server; it exists because browsers refuse the lesson's Python on file:// pages.
"""
import argparse
import contextlib
import errno
import functools
import hashlib
import http.server
import io
import json
import os
import re
import socket
import struct
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

CLASSROOM_ZIP = "downloads/slope-to-backprop-classroom.zip"  # as the build writes it (offline.py)
ZIP_FOLDER = "slope-to-backprop"                         # the folder it unpacks into
BROTLI_MANIFEST = "brotli-copies.json"  # written by the build (site_scripts/hooks/gzip_copies.py)
COPY_SUFFIXES = {"br": ".br", "gzip": ".gz"}  # Content-Encoding -> the suffix of the build's copy
TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".whl": "application/zip", ".json": "application/json", ".zip": "application/zip"}


class FileDigests:
    """Each served file's sha256 (its ETag), CRC-32 and size, read once per version of the file. A version
    is its stat (size, dates, inode, change time): `unzip -o` writes a new file, with a new change time,
    even where it keeps the old date and size."""

    def __init__(self):
        self.known = {}

    def of(self, path, opened):
        """(sha256 hex, crc32, size) of `opened`, the open file at `path`; leaves it at its start."""
        stat = os.fstat(opened.fileno())
        version = (path, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
        if version not in self.known:
            sha, crc = hashlib.sha256(), 0
            while chunk := opened.read(1 << 20):
                sha.update(chunk)
                crc = zlib.crc32(chunk, crc)
            opened.seek(0)
            self.known[version] = (sha.hexdigest(), crc, stat.st_size)
        return self.known[version]


def gzip_holds(copy, original):
    """Whether the open gzip file `copy` is of the bytes whose (sha256, crc32, size) is `original`: its
    trailer names the CRC-32 and size of what it decompresses to. A stale copy is never sent."""
    magic = copy.read(2)
    copy.seek(-8, os.SEEK_END)
    trailer = copy.read(8)
    copy.seek(0)
    _, crc, size = original
    return magic == b"\x1f\x8b" and trailer == struct.pack("<II", crc, size & 0xFFFFFFFF)


def accepts(header, coding):
    """Whether an Accept-Encoding header accepts `coding`, "gzip" or "br" (a coding with q=0 is refused)."""
    weights = {}
    for part in (header or "").lower().split(","):
        listed, _, parameters = part.partition(";")
        found = re.search(r"q\s*=\s*([0-9.]+)", parameters)
        try:
            weights[listed.strip()] = float(found.group(1)) if found else 1.0
        except ValueError:
            weights[listed.strip()] = 0.0
    named = weights.get(coding, weights.get("x-gzip") if coding == "gzip" else None)
    return (weights.get("*", 0.0) if named is None else named) > 0


class LessonHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder, optionally under a sub-path such as /some-repo/."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    base = "/"
    isolation_headers = False
    quiet = False
    cache_control = "no-cache"  # a browser may keep a copy but asks each time whether it is still current
    protocol_version = "HTTP/1.1"  # Chromium ignores the ETag of an HTTP/1.0 answer (and 1.1 keeps connections open)
    digests = FileDigests()     # shared by every request of the process
    manifests = None            # set below: BROTLI_MANIFEST read once per version of it

    def translate_path(self, path):
        if not path.startswith(self.base):
            return str(Path(self.directory) / "__outside_base__")
        return super().translate_path("/" + path[len(self.base):])

    def send_head(self):
        if self.base != "/" and self.path == self.base.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.base)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        address = self.path.split("?")[0].split("#")[0]
        if address == self.base + "sitemap.xml":
            return self.send_sitemap()
        path = self.translate_path(self.path)
        if address == self.base + CLASSROOM_ZIP and not os.path.isfile(path):
            return self.send_own_zip()
        if os.path.isdir(path) and address.endswith("/"):
            path = os.path.join(path, "index.html")
        elif address.endswith("/"):
            path = ""  # a file asked for as a folder
        if not os.path.isfile(path):
            return super().send_head()  # a folder's redirect to its address with "/", or a 404
        return self.send_file(path)

    def send_file(self, path):
        """The file at `path`, or its Brotli or gzip copy to a browser that accepts it (Brotli first; the .br
        copy of the snapshot and of the standard library holds a variant the browser reads as well:
        site_scripts/hooks/gzip_copies.py), validated by content: 304
        only when If-None-Match names this very content (If-Modified-Since is ignored). Range requests
        get the whole file (allowed by HTTP, and the lesson makes none)."""
        opened = open(path, "rb")
        try:
            digest = self.digests.of(path, opened)
            varies = any(os.path.isfile(path + suffix) for suffix in COPY_SUFFIXES.values())  # the build made a copy
            wanted = self.headers.get("Accept-Encoding")
            encoding, tag = None, digest[0]
            for coding, copy_of in (("br", self.brotli_copy), ("gzip", self.gzip_copy)):  # only the copy sent is opened
                if varies and accepts(wanted, coding) and (copy := copy_of(path, digest)):
                    opened.close()
                    opened, encoding = copy, coding
                    tag = self.digests.of(path + COPY_SUFFIXES[coding], opened)[0]
                    break
            etag = f'"{tag[:32]}"'
            asked = self.tags_asked_for()
            if etag in asked or "*" in asked:
                self.send_response(304)
                self.send_validators(etag, varies=varies)
                self.end_headers()
                opened.close()
                return None
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Length", str(os.fstat(opened.fileno()).st_size))
            if encoding:
                self.send_header("Content-Encoding", encoding)
            self.send_validators(etag, varies=varies)
            self.end_headers()
            return opened
        except BaseException:
            opened.close()
            raise

    def gzip_copy(self, path, digest):
        """The build's gzip copy of `path` (`path`.gz) opened, if there is one and it holds this very
        content (`digest`), else None."""
        try:
            copy = open(path + COPY_SUFFIXES["gzip"], "rb")
        except OSError:
            return None
        with contextlib.suppress(OSError):
            if gzip_holds(copy, digest):
                return copy
        copy.close()
        return None

    def brotli_copy(self, path, digest):
        """The build's Brotli copy of `path` (`path`.br) opened, if BROTLI_MANIFEST says it holds this very
        content (`digest`), else None."""
        manifest = Path(self.directory) / BROTLI_MANIFEST
        try:
            with open(manifest, "rb") as opened:
                listed = self.manifests.of(manifest, opened)
            relative = Path(path).resolve().relative_to(Path(self.directory).resolve()).as_posix()
            if listed.get(relative) != digest[0]:
                return None
            return open(path + COPY_SUFFIXES["br"], "rb")
        except (OSError, ValueError):
            return None

    def send_validators(self, etag, varies):
        self.send_header("ETag", etag)
        if varies:
            self.send_header("Vary", "Accept-Encoding")

    def tags_asked_for(self):
        """The entity tags of If-None-Match (weak or strong: HTTP compares them weakly here)."""
        header = self.headers.get("If-None-Match", "")
        return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}

    def send_sitemap(self):
        """sitemap.xml with the address it was built for replaced by the address it is served at.
        The theme's instant navigation only follows links listed there; without this, on a
        classroom machine every click would reload the page and restart Python."""
        path = Path(self.translate_path(self.path.split("?")[0]))
        if not path.is_file():
            self.send_error(404)
            return None
        sitemap = path.read_text(encoding="utf-8")
        locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
        built_for = min(locations, key=len) if locations else None  # the home page: the site's own address
        if built_for:
            sitemap = sitemap.replace(built_for, f"http://{self.headers.get('Host', '127.0.0.1')}{self.base}")
        body = sitemap.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_own_zip(self):
        """The classroom zip made from the folder served (the unzipped zip holds no copy of itself): every file
        under ZIP_FOLDER/, dated 1980 as the build dates them, serve.py executable."""
        body = tempfile.TemporaryFile()
        try:
            folder = Path(self.directory)
            with zipfile.ZipFile(body, "w", zipfile.ZIP_DEFLATED) as bundle:
                for path in sorted(folder.rglob("*")):
                    name = path.relative_to(folder).as_posix()
                    if path.is_file() and not name.startswith("downloads/"):
                        entry = zipfile.ZipInfo(f"{ZIP_FOLDER}/{name}", date_time=(1980, 1, 1, 0, 0, 0))
                        entry.compress_type = zipfile.ZIP_DEFLATED
                        entry.external_attr = (0o100755 if name == "serve.py" else 0o100644) << 16
                        bundle.writestr(entry, path.read_bytes())
            self.send_response(200)
            self.send_header("Content-Type", "application/zip")
            self.send_header("Content-Length", str(body.tell()))
            self.end_headers()
            body.seek(0)
            return body
        except BaseException:
            body.close()
            raise

    def send_error(self, code, message=None, explain=None):
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def end_headers(self):
        if self.cache_control:
            self.send_header("Cache-Control", self.cache_control)
        if self.isolation_headers:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


class Manifests(FileDigests):
    """BROTLI_MANIFEST's {path: sha256}, read once per version of the file (as FileDigests reads files)."""

    def of(self, path, opened):
        stat = os.fstat(opened.fileno())
        version = (path, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino)
        if version not in self.known:
            self.known = {version: json.loads(opened.read().decode("utf-8"))}
        return self.known[version]


LessonHandler.manifests = Manifests()


class LessonServer(http.server.ThreadingHTTPServer):
    """A browser drops downloads all the time (a reload, a closed tab, a page that moved on): that is
    no error to print a traceback for. Any other error in a request is still printed."""

    request_queue_size = 256  # a class's browsers connect at once (30 × 6); the default 5 made some wait or reset

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def network_addresses():
    """This machine's IPv4 addresses other than loopback: those the name service knows, plus the
    address of the interface that would carry traffic to a private network (many hosts map their
    own name to 127.x only). Connecting a UDP socket sends nothing."""
    addresses = set()
    try:
        addresses.update(socket.gethostbyname_ex(socket.gethostname())[2])
    except OSError:
        pass
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            addresses.add(probe.getsockname()[0])
        except OSError:
            pass  # no network at all: only this machine can connect
    return sorted(a for a in addresses if not a.startswith(("127.", "0.")))


IF_STUDENTS_CANNOT_CONNECT = """\
If a student's browser cannot open it: allow Python through this computer's firewall when it asks,
and check that the student is on the same Wi-Fi. Some school Wi-Fi keeps devices from reaching each
other: then share a phone's hotspot with the class, or give each student the zip to run on their own
computer with `python3 serve.py` (each then opens http://127.0.0.1:8000/)."""


def main(argv=None):
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(
        description="Serve the lesson over HTTP to this computer and, by default, to every device on its\n"
                    "network (every interface, port 8000). It prints the addresses students type.",
        epilog=IF_STUDENTS_CANNOT_CONNECT, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", nargs="?", default=str(here),
                        help="the built site (default: the folder this script is in)")
    parser.add_argument("--port", type=int, default=8000,
                        help="port to listen on (default 8000; choose another if 8000 is taken)")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default 0.0.0.0: every interface, so students can connect; "
                             "127.0.0.1: this computer only)")
    parser.add_argument("--base", default="/", help="serve under this sub-path, e.g. /some-repo/")
    parser.add_argument("--isolation-headers", action="store_true",
                        help="send COOP/COEP headers, as some hosts do")
    parser.add_argument("--quiet", action="store_true", help="do not log every request")
    args = parser.parse_args(argv)

    directory = Path(args.directory)
    if not (directory / "index.html").is_file():
        sys.exit(f"serve.py: {directory} has no index.html; build the site first (./dev.sh serve)")
    base = "/" + args.base.strip("/") + "/" if args.base.strip("/") else "/"
    handler = type("Handler", (LessonHandler,), {
        "base": base, "isolation_headers": args.isolation_headers, "quiet": args.quiet})
    try:
        server = LessonServer((args.host, args.port), functools.partial(handler, directory=str(directory)))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            sys.exit(f"serve.py: port {args.port} is already in use (is the lesson already being served?). "
                     f"Stop the other server, or choose another port: python3 serve.py --port {args.port + 1}")
        sys.exit(f"serve.py: cannot listen on {args.host} port {args.port}: {error.strerror or error}")
    port = server.server_address[1]
    print(f"Serving {directory} - open http://127.0.0.1:{port}{base} on this machine", flush=True)
    if args.host == "0.0.0.0":
        addresses = network_addresses()
        print(f"Listening on every network interface of this computer, port {port}.", flush=True)
        if addresses:
            print("Students on the same network type:", flush=True)
            for address in addresses:
                print(f"  http://{address}:{port}{base}", flush=True)
            print(IF_STUDENTS_CANNOT_CONNECT, flush=True)
        else:
            print("No network found: only this computer can open the lesson for now.", flush=True)
    elif not args.host.startswith("127."):
        print(f"Students on the same network type: http://{args.host}:{port}{base}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
