"""serve.py: serve the built lesson over HTTP, with Python's standard library only.

What it is: the one command a teacher runs in the unzipped classroom bundle
(`python3 serve.py`), and the server that `./dev.sh serve` and the tests use.
It prints the address for this machine and for students on the same network.

What it is not: a production web server. Browsers refuse to run the lesson's
Python from `file://` pages (module scripts and WebAssembly need an origin), so
opening index.html directly cannot work; this tiny server is the fix.
"""
import argparse
import functools
import http.server
import io
import re
import socket
import sys
from pathlib import Path

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
         ".whl": "application/zip", ".json": "application/json", ".zip": "application/zip"}


class LessonHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder, optionally under a sub-path such as /some-repo/."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}
    base = "/"
    isolation_headers = False
    quiet = False

    def translate_path(self, path):
        if not path.startswith(self.base):
            return str(Path(self.directory) / "__outside_base__")
        return super().translate_path("/" + path[len(self.base):])

    def send_head(self):
        if self.base != "/" and self.path == self.base.rstrip("/"):
            self.send_response(301)
            self.send_header("Location", self.base)
            self.end_headers()
            return None
        if self.path.split("?")[0] == self.base + "sitemap.xml":
            return self.send_sitemap()
        return super().send_head()

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
        if self.isolation_headers:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
            self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


class LessonServer(http.server.ThreadingHTTPServer):
    """A browser drops downloads all the time (a reload, a closed tab, a page that moved on): that is
    no error to print a traceback for. Any other error in a request is still printed."""

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


def main(argv=None):
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description="Serve the lesson site over HTTP.")
    parser.add_argument("directory", nargs="?", default=str(here),
                        help="the built site (default: the folder this script is in)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default 0.0.0.0: this machine and its network)")
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
    server = LessonServer(
        (args.host, args.port), functools.partial(handler, directory=str(directory)))
    port = server.server_address[1]
    print(f"Serving {directory} - open http://127.0.0.1:{port}{base} on this machine", flush=True)
    if args.host == "0.0.0.0":
        for address in network_addresses():
            print(f"  students on the same network: http://{address}:{port}{base}", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
