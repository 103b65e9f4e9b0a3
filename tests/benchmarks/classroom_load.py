"""classroom_load.py: a class of thirty downloading the lesson from the teacher's laptop at once (issue #38).

What it is: serve.py (a process of its own) serving a built site on 127.0.0.1; 30 simulated students,
each with 6 connections as a browser opens, download every file of a first visit with its offline copy
(the pages and the service worker's list), each file once, with `Accept-Encoding: gzip` as browsers send
(and again with none, for comparison). Prints per student the bytes on the wire, the class's wall time
on loopback, the server's processor seconds, and the time those bytes need on a shared 100 Mbit/s link.
What it is not: a test, nor a browser: no file is parsed or run; the students' own Python threads share
this machine's processors with the server, so the loopback time is an upper bound.

Run: `.venv/bin/python tests/benchmarks/classroom_load.py SITE_DIR` (a site built by ./dev.sh build or mkdocs).
"""
import argparse
import concurrent.futures
import http.client
import json
import re
import resource
import socket
import subprocess
import sys
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


def class_downloads(site, encoding):
    """(bytes a student, wall seconds for the class, server processor seconds) for one class."""
    files = first_visit_files(site)
    port = free_port()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = subprocess.Popen([sys.executable, str(SERVE), str(site), "--host", "127.0.0.1", "--port", str(port),
                               "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        server.stdout.readline()  # serving
        download(port, files[:1], encoding)  # the server has started answering
        shares = [files[index::CONNECTIONS] for index in range(CONNECTIONS)]
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(STUDENTS * CONNECTIONS) as pool:
            received = sum(pool.map(lambda share: download(port, share, encoding), shares * STUDENTS))
        wall = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return received / STUDENTS, wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site (with the build's gzip copies)")
    args = parser.parse_args()
    print(f"{STUDENTS} students x {CONNECTIONS} connections, {len(first_visit_files(args.site))} files each")
    print(f"{'Accept-Encoding':<16} {'MB/student':>10} {'class, loopback s':>18} {'server CPU s':>13} "
          f"{'class over 100 Mbit/s s':>24}")
    for encoding in ("gzip, deflate, br", None):
        per_student, wall, cpu = class_downloads(args.site, encoding)
        link = per_student * STUDENTS / LINK_BYTES_PER_SECOND
        print(f"{encoding or '(none)':<16} {per_student / 1e6:>10.2f} {wall:>18.1f} {cpu:>13.1f} {max(link, wall):>24.1f}")


if __name__ == "__main__":
    main()
