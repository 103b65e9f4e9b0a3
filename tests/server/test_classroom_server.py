"""test_classroom_server.py: the classroom server (site_scripts/server/serve.py) as a teacher runs it, in CPython.

What it is: an update unzipped over the old lesson reaches returning readers, although the classroom zip
dates every file 1980-01-01 (issue #39: validation by content, not by date); the build's gzip and Brotli
copies, each the same bytes as its file once decompressed, sent only to a browser that accepts their
encoding, Brotli first, and never once the file changed (issue #38); the offline copy a class downloads
leaves out the search language files and math fonts a browser never fetches for this lesson (#38);
what the server says when it starts or cannot; and, served from the unzipped classroom zip, no link of the
home page or the teachers' page (hosting included) that answers 404, the zip's own link answered by a zip of its folder.
What it is not: the browser's side (tests/site/test_hosting.py: offline copy, isolation, the zip in Chromium).
"""
import base64
import brotli
import gzip
import hashlib
import html
import io
import http.client
import json
import re
import os
import signal
import socket
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from helpers import SiteServer, free_port  # tests/site/helpers.py

from site_scripts.hooks import never_fetched as NEVER
from site_scripts.hooks import offline as OFFLINE_HOOK
from site_scripts.hooks.gzip_copies import BROTLI_MANIFEST, write_brotli_copies, write_gzip_copies
from site_scripts.hooks.reproducible_zip import write_zip

SERVE = Path(__file__).resolve().parents[2] / "site_scripts" / "server" / "serve.py"


def get(port, path, **headers):
    """(status, headers, body) of GET `path` from the server on 127.0.0.1:`port`, body as sent (not decoded)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


def validators(headers):
    """The conditional headers a browser sends for the copy it keeps: whichever validators it was given."""
    asked = {}
    if headers["ETag"]:
        asked["If-None-Match"] = headers["ETag"]
    if headers["Last-Modified"]:
        asked["If-Modified-Since"] = headers["Last-Modified"]
    return asked


def unzip_over(archive, folder):
    """Extract `archive` into `folder` over what is there, dating each file as `unzip -o` does: with its date in the zip."""
    with zipfile.ZipFile(archive) as bundle:
        for entry in bundle.infolist():
            target = bundle.extract(entry, folder)
            stamp = time.mktime(entry.date_time + (0, 0, -1))
            os.utime(target, (stamp, stamp))


def lesson_build(label):
    """A tiny lesson build whose files say `label`, each the same size in every build (the worst case)."""
    return [("lesson/index.html", f"<!doctype html><title>Lesson</title><p>Build {label}</p>".encode()),
            ("lesson/service-worker.js", f'const BUILD = {{ version: "{label}" }};'.encode()),
            ("lesson/engine/tinygrad.py", f"BUILD = {label!r}\n".encode())]


def test_an_update_unzipped_over_the_lesson_reaches_returning_readers(tmp_path):
    """A teacher serves build A, a student's browser keeps its files, the teacher unzips build B over A
    (`unzip -o`: every file dated 1980-01-01 again) and starts the server again: the student's conditional
    requests get B, and B's own validators then get 304."""
    for label in "AB":
        write_zip(tmp_path / f"classroom-{label}.zip", lesson_build(label))
    unzip_over(tmp_path / "classroom-A.zip", tmp_path)
    port = free_port()
    server = SiteServer(tmp_path / "lesson", port)
    server.start()
    try:
        kept = {}
        for name, data in lesson_build("A"):
            path = "/" + name.removeprefix("lesson/")
            status, headers, body = get(port, path)
            assert (status, body) == (200, data)
            assert headers["Cache-Control"] == "no-cache", "the browser asks before reusing its copy"
            kept[path] = validators(headers)
        server.stop()
        unzip_over(tmp_path / "classroom-B.zip", tmp_path)
        assert {(tmp_path / name).stat().st_mtime for name, _ in lesson_build("B")} == {time.mktime((1980, 1, 1, 0, 0, 0, 0, 0, -1))}
        server.start()
        for name, data in lesson_build("B"):
            path = "/" + name.removeprefix("lesson/")
            status, headers, body = get(port, path, **kept[path])
            assert (status, body) == (200, data), f"{path}: the returning reader still has build A"
            assert get(port, path, **validators(headers))[0] == 304, f"{path}: B's own copy is current"
            later = {"If-Modified-Since": "Sat, 01 Jan 2050 00:00:00 GMT"}
            assert get(port, path, **later)[:3:2] == (200, data), "a date says nothing about the content"
    finally:
        server.stop()


def test_a_gzip_copy_goes_only_to_a_browser_that_accepts_gzip_and_only_while_it_holds_the_file(tmp_path):
    script = ("const lesson = 'from a slope to backpropagation';\n" * 400).encode()
    (tmp_path / "index.html").write_bytes(b"<!doctype html><p>Lesson</p>")
    (tmp_path / "lesson.mjs").write_bytes(script)
    assert write_gzip_copies(tmp_path, ["lesson.mjs"]) == ["lesson.mjs.gz"]
    copy = (tmp_path / "lesson.mjs.gz").read_bytes()
    port = free_port()
    with_server = SiteServer(tmp_path, port)
    with_server.start()
    try:
        for _ in range(2):  # the first request reads the file and its copy, the next one reuses what it learned
            status, headers, body = get(port, "/lesson.mjs", **{"Accept-Encoding": "gzip, deflate, br", "Range": "bytes=0-9"})
            assert status == 200 and body == copy and gzip.decompress(body) == script, "the whole copy, never a range of it"
        assert (headers["Content-Encoding"], headers["Vary"], headers["Content-Type"]) == ("gzip", "Accept-Encoding", "text/javascript")
        assert int(headers["Content-Length"]) == len(copy) < len(script) / 5
        assert get(port, "/lesson.mjs", **{"Accept-Encoding": "gzip", "If-None-Match": headers["ETag"]})[0] == 304
        for refusing in ({}, {"Accept-Encoding": "identity"}, {"Accept-Encoding": "br, gzip;q=0"}):
            status, plain, body = get(port, "/lesson.mjs", **refusing)
            assert (status, body, plain["Content-Encoding"], plain["Vary"]) == (200, script, None, "Accept-Encoding")
            assert plain["ETag"] != headers["ETag"], "each encoding is its own representation"
            assert get(port, "/lesson.mjs", **refusing, **{"If-None-Match": headers["ETag"]})[0] == 200

        # The file changed and its copy did not (a hand edit, a half-copied folder): the copy is not sent.
        (tmp_path / "lesson.mjs").write_bytes(script.replace(b"slope", b"curve"))
        status, headers, body = get(port, "/lesson.mjs", **{"Accept-Encoding": "gzip"})
        assert (status, headers["Content-Encoding"], body) == (200, None, script.replace(b"slope", b"curve"))
    finally:
        with_server.stop()


def test_every_gzip_copy_of_the_build_is_its_file_byte_for_byte(built_site, tmp_path):
    """The build writes a copy where gzip shrinks the file (the wasm, scripts, pages), none where it does not
    (the snapshot, zips, wheels), the same bytes on every build; the offline copy never lists one."""
    listed = [*OFFLINE_HOOK.precache_list(built_site), OFFLINE_HOOK.WORKER_NAME]
    copied = [path for path in listed if (built_site / (path + ".gz")).is_file()]
    for path in copied:
        assert gzip.decompress((built_site / (path + ".gz")).read_bytes()) == (built_site / path).read_bytes(), path
    assert {"assets/vendor/pyodide/pyodide.asm.wasm", "index.html", OFFLINE_HOOK.WORKER_NAME} <= set(copied)
    assert not {"assets/snapshot/python-snapshot.bin", "assets/vendor/pyodide/python_stdlib.zip"} & set(copied)
    assert not [path for path in listed if path.endswith(".gz")], "the offline copy never fetches a gzip copy"

    again = ["index.html", "assets/vendor/pyodide/pyodide.asm.wasm"]
    for path in again:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes((built_site / path).read_bytes())
    write_gzip_copies(tmp_path, again)
    assert [(tmp_path / (path + ".gz")).read_bytes() == (built_site / (path + ".gz")).read_bytes() for path in again] \
        == [True, True], "a rebuild writes the same bytes"
    with zipfile.ZipFile(built_site / OFFLINE_HOOK.DOWNLOADS / OFFLINE_HOOK.CLASSROOM_ZIP) as bundle:
        assert f"{OFFLINE_HOOK.ZIP_FOLDER}/assets/vendor/pyodide/pyodide.asm.wasm.gz" in bundle.namelist()


def test_the_offline_copy_leaves_out_search_languages_and_math_fonts_the_lesson_never_uses(built_site, tmp_path):
    """Material ships lunr's files for thirty languages and KaTeX twenty fonts (0.4 MB a student with Brotli);
    a browser fetches a search language only for a language other than English that the search index names,
    and a font only for a formula drawn in it, so a class's thirty first visits (issue #38) skip the rest."""
    listed = OFFLINE_HOOK.precache_list(built_site)
    assert json.loads((built_site / NEVER.SEARCH_INDEX).read_text(encoding="utf-8"))["config"]["lang"] == ["en"]
    assert len(list((built_site / NEVER.LUNR).rglob("*.js"))) > 30, "Material's files are still in the site"
    assert not [path for path in listed if path.startswith(NEVER.LUNR)]
    fonts = {path.rsplit("/", 1)[1] for path in listed if path.endswith(".woff2")}
    # The formulas are typeset at build time: letters in KaTeX_Main and KaTeX_Math italic, big brackets in KaTeX_Size*.
    assert {"KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2", "KaTeX_Size1-Regular.woff2"} <= fonts
    assert not {"KaTeX_Fraktur-Regular.woff2", "KaTeX_Script-Regular.woff2", "KaTeX_Typewriter-Regular.woff2"} & fonts

    # A site searched in German and Japanese, with a bold formula (\mathbf) and a calligraphic one (\mathcal):
    # the offline copy holds what the browser then fetches.
    lunr = ["min/lunr.de.min.js", "min/lunr.ja.min.js", "min/lunr.fr.min.js", "min/lunr.multi.min.js",
            "min/lunr.stemmer.support.min.js", "tinyseg.js", "wordcut.js"]
    for name in lunr:
        (tmp_path / NEVER.LUNR / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / NEVER.LUNR / name).write_text("// lunr", encoding="utf-8")
    (tmp_path / "search").mkdir()
    (tmp_path / NEVER.SEARCH_INDEX).write_text(json.dumps({"config": {"lang": ["de", "ja"]}, "docs": []}), encoding="utf-8")
    katex = built_site / NEVER.KATEX_CSS
    (tmp_path / NEVER.KATEX_CSS).parent.mkdir(parents=True)
    (tmp_path / NEVER.KATEX_CSS).write_bytes(katex.read_bytes())
    for font in (katex.parent / "fonts").iterdir():
        (tmp_path / NEVER.KATEX_CSS).parent.joinpath("fonts").mkdir(exist_ok=True)
        (tmp_path / NEVER.KATEX_CSS).parent.joinpath("fonts", font.name).write_bytes(b"font")
    (tmp_path / "index.html").write_text('<span class="katex"><span class="mord mathbf">v</span>'
                                         '<span class="mord mathcal">L</span></span>', encoding="utf-8")
    listed = OFFLINE_HOOK.precache_list(tmp_path)
    assert sorted(path.removeprefix(NEVER.LUNR) for path in listed if path.startswith(NEVER.LUNR)) == sorted(
        set(lunr) - {"min/lunr.fr.min.js", "wordcut.js"})
    assert sorted(path.rsplit("/", 1)[1] for path in listed if path.endswith(".woff2")) == [
        "KaTeX_Caligraphic-Regular.woff2", "KaTeX_Main-Bold.woff2", "KaTeX_Main-Regular.woff2"]


def test_the_wasm_goes_compressed_to_a_browser(built_site, site_server):
    url = site_server.start()
    port = int(url.rsplit(":", 1)[1].strip("/"))
    wasm = built_site / "assets/vendor/pyodide/pyodide.asm.wasm"
    status, headers, body = get(port, "/assets/vendor/pyodide/pyodide.asm.wasm", **{"Accept-Encoding": "gzip, deflate"})
    assert (status, headers["Content-Type"], headers["Content-Encoding"]) == (200, "application/wasm", "gzip")
    assert len(body) < wasm.stat().st_size / 2 and gzip.decompress(body) == wasm.read_bytes()


def started(command):
    """The lines serve.py printed before "Press Ctrl+C", and the running process."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("Press Ctrl+C"):
            break
    return lines, process


def test_the_server_says_where_students_connect_and_what_to_do_if_they_cannot(tmp_path):
    (tmp_path / "index.html").write_text("<p>Lesson</p>")
    lines, process = started([sys.executable, str(SERVE), str(tmp_path), "--port", "0", "--quiet"])
    try:
        said = "\n".join(lines)
        port = int(said.split("open http://127.0.0.1:")[1].split("/")[0])
        assert f"Listening on every network interface of this computer, port {port}." in lines
        student_lines = [line.strip() for line in lines if line.startswith("  http://")]
        assert all(line.endswith(f":{port}/") and not line.startswith("http://127.") for line in student_lines)
        if student_lines:
            assert "Students on the same network type:" in lines
            assert "firewall" in said and "hotspot" in said
        else:
            assert "only this computer can open the lesson" in said
    finally:
        process.terminate()
        process.wait(timeout=10)
    help_text = subprocess.run([sys.executable, str(SERVE), "--help"], capture_output=True, text=True, check=True).stdout
    assert "--port" in help_text and "--host" in help_text and "firewall" in help_text and "hotspot" in help_text


def test_a_class_connecting_at_once_is_queued_and_answered(tmp_path):
    """Thirty students' browsers open six connections each as the class starts: while the server is busy
    (here: paused), the system holds every connection for it, and it then answers each one."""
    (tmp_path / "index.html").write_text("<p>Lesson</p>")
    lines, process = started([sys.executable, str(SERVE), str(tmp_path), "--host", "127.0.0.1", "--port", "0", "--quiet"])
    port = int("\n".join(lines).split("open http://127.0.0.1:")[1].split("/")[0])
    connections = []
    try:
        os.kill(process.pid, signal.SIGSTOP)
        try:
            for _ in range(30 * 6):  # a connection the queue cannot hold is not established: the timeout fails the test
                connections.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        finally:
            os.kill(process.pid, signal.SIGCONT)
        for connection in connections:
            connection.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert all(connection.makefile("rb").readline().startswith(b"HTTP/1.1 200") for connection in connections)
    finally:
        for connection in connections:
            connection.close()
        process.terminate()
        process.wait(timeout=10)


def test_a_port_in_use_gets_a_plain_message(tmp_path):
    (tmp_path / "index.html").write_text("<p>Lesson</p>")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, str(SERVE), str(tmp_path), "--host", "127.0.0.1", "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert done.stderr.strip() == (f"serve.py: port {port} is already in use (is the lesson already being served?). "
                                   f"Stop the other server, or choose another port: python3 serve.py --port {port + 1}")


def test_served_from_the_classroom_zip_no_link_of_the_home_or_teachers_page_answers_404(built_site, tmp_path):
    """The teachers' page linked the classroom zip, which the zip cannot hold, so served from the zip the link
    answered 404 (issue #38): serve.py answers it with a zip of its folder, holding what the build's zip holds."""
    assert (OFFLINE_HOOK.DOWNLOADS + "/" + OFFLINE_HOOK.CLASSROOM_ZIP, OFFLINE_HOOK.ZIP_FOLDER) == (
        serve_module().CLASSROOM_ZIP, serve_module().ZIP_FOLDER)
    archive = built_site / OFFLINE_HOOK.DOWNLOADS / OFFLINE_HOOK.CLASSROOM_ZIP
    with zipfile.ZipFile(archive) as bundle:
        bundle.extractall(tmp_path)
        names = sorted(bundle.namelist())
    folder = tmp_path / OFFLINE_HOOK.ZIP_FOLDER
    lines, process = started([sys.executable, str(folder / "serve.py"), "--host", "127.0.0.1", "--port", "0", "--quiet"])
    try:
        port = int("\n".join(lines).split("open http://127.0.0.1:")[1].split("/")[0])
        checked = set()
        for page in ("/", "/teachers/"):
            status, _, body = get(port, page)
            assert status == 200
            for link in re.findall(r'(?:href|src)="([^"#]+)', body.decode("utf-8")):
                address = urlsplit(urljoin(f"http://127.0.0.1:{port}{page}", html.unescape(link)))
                if address.netloc == f"127.0.0.1:{port}" and address.path not in checked:
                    checked.add(address.path)
                    assert get(port, address.path)[0] == 200, f"{page} links {link}, which answers 404 from the zip"
        zip_address = "/" + OFFLINE_HOOK.DOWNLOADS + "/" + OFFLINE_HOOK.CLASSROOM_ZIP
        assert {zip_address, "/teachers/"} <= checked, "the home page links the teachers' page, which links the zip"
        status, headers, body = get(port, zip_address)
        assert (status, headers["Content-Type"]) == (200, "application/zip")
        (tmp_path / "again.zip").write_bytes(body)
        with zipfile.ZipFile(tmp_path / "again.zip") as again:
            assert sorted(again.namelist()) == names
            assert again.read(f"{OFFLINE_HOOK.ZIP_FOLDER}/index.html") == (folder / "index.html").read_bytes()
    finally:
        process.terminate()
        process.wait(timeout=10)


def serve_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location("serve_under_test", SERVE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_brotli_copy_goes_to_a_browser_that_accepts_br_and_only_while_it_holds_the_file(tmp_path):
    script = ("const lesson = 'from a slope to backpropagation';\n" * 400).encode()
    (tmp_path / "index.html").write_bytes(b"<!doctype html><p>Lesson</p>")
    (tmp_path / "lesson.mjs").write_bytes(script)
    (tmp_path / "font.woff2").write_bytes(os.urandom(5000))  # does not shrink: no copy of either kind
    write_gzip_copies(tmp_path, ["lesson.mjs", "font.woff2"])
    assert write_brotli_copies(tmp_path, ["lesson.mjs", "font.woff2"]) == ["lesson.mjs.br"]
    copy = (tmp_path / "lesson.mjs.br").read_bytes()
    assert brotli.decompress(copy) == script and len(copy) < len((tmp_path / "lesson.mjs.gz").read_bytes())
    port = free_port()
    with_server = SiteServer(tmp_path, port)
    with_server.start()
    try:
        status, headers, body = get(port, "/lesson.mjs", **{"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert (status, body, headers["Content-Encoding"], headers["Vary"]) == (200, copy, "br", "Accept-Encoding")
        assert int(headers["Content-Length"]) == len(copy)
        assert get(port, "/lesson.mjs", **{"Accept-Encoding": "br", "If-None-Match": headers["ETag"]})[0] == 304
        status, gzipped, body = get(port, "/lesson.mjs", **{"Accept-Encoding": "gzip, br;q=0"})
        assert (gzipped["Content-Encoding"], gzip.decompress(body)) == ("gzip", script)
        assert len({headers["ETag"], gzipped["ETag"], get(port, "/lesson.mjs")[1]["ETag"]}) == 3, "one tag per encoding"
        status, plain, body = get(port, "/font.woff2", **{"Accept-Encoding": "br"})
        assert (status, plain["Content-Encoding"], body) == (200, None, (tmp_path / "font.woff2").read_bytes())

        # The file changed and the manifest still names the old one: the stale copy is not sent.
        (tmp_path / "lesson.mjs").write_bytes(script.replace(b"slope", b"curve"))
        write_gzip_copies(tmp_path, ["lesson.mjs"])
        status, headers, body = get(port, "/lesson.mjs", **{"Accept-Encoding": "br, gzip"})
        assert (headers["Content-Encoding"], gzip.decompress(body)) == ("gzip", script.replace(b"slope", b"curve"))
    finally:
        with_server.stop()


SNAPSHOT = "assets/snapshot/python-snapshot.bin"
STDLIB = "assets/vendor/pyodide/python_stdlib.zip"


def snapshot_parts(snapshot):
    """(header, page stream) of a snapshot file (format of site_scripts/browser/runtime/snapshot.mjs)."""
    assert snapshot.startswith(b"PYSNAP01")
    (length,) = struct.unpack_from("<I", snapshot, 8)
    return json.loads(snapshot[12:12 + length]), snapshot[12 + length:]


def test_every_brotli_copy_of_the_build_is_its_file_byte_for_byte_or_the_same_content_stored(built_site, site_server):
    """The build's .br copies: beside every gzip copy, listed in the manifest with their original's sha256,
    each decompressing to its file, except the snapshot's and the standard library's (no gzip copy: they are
    compressed already), which decompress to the same content with its own compression undone (issue #38):
    the snapshot with its pages stored (header `pages`), so that its raw memory is the very same, and the zip
    with its entries stored. The build lists both forms' hashes for the browser; serve.py sends the variant,
    about a quarter smaller on the wire, to a browser that accepts br, and the file as it is to any other."""
    manifest = json.loads((built_site / BROTLI_MANIFEST).read_text(encoding="utf-8"))
    gzipped = sorted(path.relative_to(built_site).as_posix()[:-3] for path in built_site.rglob("*.gz"))
    gzipped.remove("sitemap.xml")  # MkDocs's own sitemap.xml.gz, which serve.py never sends (it rewrites the sitemap)
    assert sorted(manifest) == sorted([*gzipped, SNAPSHOT, STDLIB]) and "assets/vendor/pyodide/pyodide.asm.wasm" in manifest
    decoded = {}
    for path, digest in manifest.items():
        original = (built_site / path).read_bytes()
        assert hashlib.sha256(original).hexdigest() == digest, path
        decoded[path] = brotli.decompress((built_site / (path + ".br")).read_bytes())
        assert decoded[path] == original or path in (SNAPSHOT, STDLIB), path

    snapshot, variant = snapshot_parts((built_site / SNAPSHOT).read_bytes()), snapshot_parts(decoded[SNAPSHOT])
    assert (snapshot[0].pop("pages"), variant[0].pop("pages")) == ("gzip", "stored")
    assert variant[0] == snapshot[0] and variant[1] == gzip.decompress(snapshot[1]), "the same header and pages"
    with zipfile.ZipFile(built_site / STDLIB) as library, zipfile.ZipFile(io.BytesIO(decoded[STDLIB])) as stored:
        entries = library.infolist()
        assert [(entry.filename, entry.date_time) for entry in entries] == [
            (entry.filename, entry.date_time) for entry in stored.infolist()]
        assert {entry.compress_type for entry in stored.infolist()} == {zipfile.ZIP_STORED}
        assert zipfile.ZIP_DEFLATED in {entry.compress_type for entry in entries}
        assert all(library.read(entry) == stored.read(entry.filename) for entry in entries)

    listed = OFFLINE_HOOK.precache_list(built_site)
    python_build = json.loads((built_site / "assets/python-build.json").read_text(encoding="utf-8"))["files"]
    port = int(site_server.start().rsplit(":", 1)[1].strip("/"))
    for path in (SNAPSHOT, STDLIB):
        original = (built_site / path).read_bytes()
        forms = {"sha256-" + base64.b64encode(hashlib.sha256(form).digest()).decode() for form in (original, decoded[path])}
        assert set(listed[path].split(" ")) == forms == set(python_build[path.removeprefix("assets/")].split(" ")), path
        status, headers, body = get(port, "/" + path, **{"Accept-Encoding": "gzip, deflate, br"})
        assert (status, headers["Content-Encoding"], headers["Vary"]) == (200, "br", "Accept-Encoding")
        assert brotli.decompress(body) == decoded[path] and len(body) < 0.8 * len(original), path
        for accepted in ("gzip, deflate", None):  # GitHub Pages' bytes, as before
            status, headers, body = get(port, "/" + path, **({"Accept-Encoding": accepted} if accepted else {}))
            assert (status, headers["Content-Encoding"], body) == (200, None, original), (path, accepted)
    assert not [path for path in listed if path.endswith(".br")] and BROTLI_MANIFEST not in listed
