"""classroom_load.py: a class of thirty downloading the lesson from the teacher's laptop at once (issue #38).

What it is: serve.py (a process of its own) serving a built site on 127.0.0.1; 30 simulated students,
each with 6 connections as a browser opens, download every file of a first visit with its offline copy
(the pages and the service worker's list), each file once, with `Accept-Encoding: gzip, deflate, br` as
browsers send (and with gzip only, and with none, for comparison); side by side, when nginx is installed,
nginx serving the same folder with gzip on the fly (as a web server is usually set up) and with the
build's gzip copies (gzip_static). Prints per student the bytes on the wire, the class's wall time on
loopback, the server's processor seconds (nginx's workers included), and the time the class needs on a
shared 100 Mbit/s link: the larger of its bytes over that link and the loopback time.
What it is not: a test, nor a browser: no file is parsed or run; the students' own Python threads share
this machine's processors with the server, so the loopback time is an upper bound.

Run: `.venv/bin/python tests/benchmarks/classroom_load.py SITE_DIR` (a site built by ./dev.sh build or mkdocs).
"""
import argparse
import concurrent.futures
import http.client
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SERVE = Path(__file__).resolve().parents[2] / "site_scripts" / "server" / "serve.py"
STUDENTS, CONNECTIONS = 30, 6
LINK_BYTES_PER_SECOND = 100e6 / 8  # a shared 100 Mbit/s school Wi-Fi, at best


def first_visit_files(site):
    """Every file a first visit downloads in the end: the service worker's list (the offline copy) and the worker."""
    text = (site / "service-worker.js").read_text(encoding="utf-8")
    listed = json.loads(re.search(r"^const BUILD = (\{.*?^\});$", text, re.S | re.M).group(1))["files"]
    return ["/service-worker.js", *("/" + path for path in listed)]


def download(port, paths, encoding):
    """Bytes received (status lines, headers and bodies) for `paths` over one kept-open connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    received = 0
    try:
        for path in paths:
            connection.request("GET", path, headers={"Accept-Encoding": encoding} if encoding else {})
            response = connection.getresponse()
            body = response.read()
            assert response.status == 200, (path, response.status)
            received += len(body) + sum(len(name) + len(value) + 4 for name, value in response.getheaders()) + 17
    finally:
        connection.close()
    return received


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


NGINX_CONFIG = """daemon off;
worker_processes 2;
pid {scratch}/nginx.pid;
error_log {scratch}/error.log;
{user}
events {{ worker_connections 1024; }}
http {{
  include /etc/nginx/mime.types;
  types {{ text/javascript mjs; }}
  default_type application/octet-stream;
  access_log off;
  client_body_temp_path {scratch}/body;
  proxy_temp_path {scratch}/proxy;
  fastcgi_temp_path {scratch}/fastcgi;
  uwsgi_temp_path {scratch}/uwsgi;
  scgi_temp_path {scratch}/scgi;
  keepalive_requests 10000;
  gzip on;
  gzip_types text/css text/javascript application/javascript application/json application/wasm image/svg+xml text/xml;
  {gzip_static}
  server {{ listen 127.0.0.1:{port}; root {site}; add_header Cache-Control no-cache; }}
}}
"""


def serve_py(site, port, scratch):
    return [sys.executable, str(SERVE), str(site), "--host", "127.0.0.1", "--port", str(port), "--quiet"]


def nginx(gzip_static):
    """A command line for nginx serving `site`, with gzip on the fly, or with the build's .gz copies."""
    def command(site, port, scratch):
        config = Path(scratch) / "nginx.conf"
        config.write_text(NGINX_CONFIG.format(scratch=scratch, port=port, site=Path(site).resolve(),
                                              user="user root;" if os.geteuid() == 0 else "",
                                              gzip_static="gzip_static on;" if gzip_static else ""))
        return [shutil.which("nginx"), "-p", str(scratch), "-c", str(config), "-e", f"{scratch}/error.log"]
    return command


SERVERS = {"serve.py": serve_py, "nginx, gzip on the fly": nginx(False), "nginx, the build's .gz": nginx(True)}


def wait_for(port, server):
    """Until the server answers on `port` (or exits, saying why)."""
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped: {server.stdout.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)


def class_downloads(site, encoding, serve=serve_py):
    """(bytes a student, wall seconds for the class, server processor seconds) for one class."""
    files = first_visit_files(site)
    port = free_port()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    scratch = tempfile.mkdtemp(prefix="classroom-load-")
    server = subprocess.Popen(serve(site, port, scratch), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for(port, server)
        download(port, files[:1], encoding)  # the server has started answering
        shares = [files[index::CONNECTIONS] for index in range(CONNECTIONS)]
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(STUDENTS * CONNECTIONS) as pool:
            received = sum(pool.map(lambda share: download(port, share, encoding), shares * STUDENTS))
        wall = time.perf_counter() - started
    finally:
        server.terminate()  # nginx's master stops its workers and waits for them: their processor time counts too
        server.wait(timeout=30)
        shutil.rmtree(scratch, ignore_errors=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return received / STUDENTS, wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (with the build's gzip copies)")
    args = parser.parse_args()
    print(f"{STUDENTS} students x {CONNECTIONS} connections, {len(first_visit_files(args.site))} files each")
    print(f"{'Server':<24} {'Accept-Encoding':<18} {'MB/student':>10} {'class, loopback s':>18} {'server CPU s':>13} "
          f"{'class over 100 Mbit/s s':>24}")
    runs = [("serve.py", encoding) for encoding in ("gzip, deflate, br", "gzip", None)]
    if shutil.which("nginx"):
        runs += [(name, "gzip, deflate, br") for name in SERVERS if name != "serve.py"]
    else:
        print("(nginx is not installed: its rows are left out; sudo apt-get install -y nginx)")
    for name, encoding in runs:
        per_student, wall, cpu = class_downloads(args.site, encoding, SERVERS[name])
        link = per_student * STUDENTS / LINK_BYTES_PER_SECOND
        print(f"{name:<24} {encoding or '(none)':<18} {per_student / 1e6:>10.2f} {wall:>18.1f} {cpu:>13.1f} "
              f"{max(link, wall):>24.1f}")


if __name__ == "__main__":
    main()
