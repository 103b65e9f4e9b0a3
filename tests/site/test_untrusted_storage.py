"""test_untrusted_storage.py: reader code cannot change what the site serves (issue #34).

What it is: Chromium tests of the two layers that keep a block (or a work file's engine) from rewriting
the offline copy, each on its own and together:
  - Python's worker has none of the origin's storage: an audit of its global scope and navigator, up
    their prototype chains, finds no way to Cache Storage, IndexedDB, the origin's file system, service
    workers or workers of its own, and a block that tries gets the plain refusal;
  - the service worker serves only what the build made: an entry of its cache rewritten with the
    attacker's page (here by the page itself, as if Python still had `caches`) is dropped, never served;
  - the whole exploit pasted into a block changes nothing a later page gets.
What it is not: the offline copy's ordinary behaviour (test_hosting.py, test_offline_status.py).
"""
import html
import json
import re
from pathlib import Path

import pytest

from helpers import PYTHON_TIMEOUT_MS, block, open_lesson, run_block, set_code

REFUSAL = "Python in this lesson has no access to the site's storage"
MARKER = "POISONED-BY-A-BLOCK"
TARGET = "your-work/"  # a page the attack rewrites
BUILD = re.compile(r"^const BUILD = (?P<build>\{.*?\n\});$", re.MULTILINE | re.DOTALL)
TYPES = re.compile(r"^const TYPES = \{(?P<types>.*?)\};$", re.MULTILINE | re.DOTALL)

# Every way to the origin's storage that an audit finds, up the prototype chains of the worker's global
# object and of its navigator; then the direct tries, each caught and printed.
AUDIT = """\
import js
from pyodide.ffi import jsnull
STORAGE = {"[object CacheStorage]", "[object IDBFactory]", "[object StorageManager]", "[object CookieStore]",
           "[object ServiceWorkerContainer]", "[object StorageBucketManager]", "[object FileSystemDirectoryHandle]"}
CONSTRUCTORS = {"Worker", "SharedWorker", "BroadcastChannel"}
found = []
for holder, label in ((js.self, "self"), (js.navigator, "navigator")):
    scope = holder
    while scope not in (None, jsnull):
        for name in js.Object.getOwnPropertyNames(scope):
            try:
                value = js.Reflect.get(scope, name, holder)
            except Exception:
                continue
            kind = js.Object.prototype.toString.call(value)
            if kind in STORAGE or (name in CONSTRUCTORS and value not in (None, jsnull)):
                found.append(f"{label}.{name}")
        scope = js.Object.getPrototypeOf(scope)
print("reachable:", sorted(set(found)))
for attempt in ("js.caches", "js.self.caches", "js.indexedDB", "js.navigator.storage", "js.Worker",
                "js.Object.getPrototypeOf(js.self).caches"):
    try:
        print(attempt, "->", eval(attempt))
    except Exception as error:
        print(attempt, "->", type(error).__name__, str(error).splitlines()[-1])
try:
    js.Object.defineProperty(js.self, "caches", js.Object.fromEntries([["value", 1]]))
    print("redefined")
except Exception as error:
    print("redefine ->", type(error).__name__)
"""

# The exploit of issue #34, as a reader would paste it: read the build from the service worker, open the
# offline copy's cache and put the attacker's page in place of a lesson page.
EXPLOIT = f"""\
import js, json, re
from pyodide.http import pyfetch
root = js.URL.new("../../../../", js.location.href).href
text = await (await pyfetch(root + "service-worker.js")).string()
build = json.loads(re.search(r"const BUILD = (\\{{.*?\\n\\}});", text, re.S).group(1))
scope = js.URL.new(root).pathname
try:
    cache = await js.caches.open(f"lesson-offline {{scope}} {{build['version']}}")
    key = root + "{TARGET}index.html?sri=" + js.encodeURIComponent(build["files"]["{TARGET}index.html"])
    await cache.put(key, js.Response.new("<h1>{MARKER}</h1><script>alert(localStorage.length)</script>"))
    print("poisoned")
except Exception as error:
    print("refused:", str(error).splitlines()[-1])
"""

# The same attack from the page's side (where `caches` exists), for the service worker's own layer.
POISON_FROM_PAGE = """async ([target, marker]) => {
  const root = new URL("./", navigator.serviceWorker.controller.scriptURL);
  const text = await (await fetch(new URL("service-worker.js", root))).text();
  const build = JSON.parse(text.match(/const BUILD = (\\{.*?\\n\\});/s)[1]);
  const cache = await caches.open(`lesson-offline ${root.pathname} ${build.version}`);
  const key = new URL(target + "index.html", root).href + "?sri=" + encodeURIComponent(build.files[target + "index.html"]);
  await cache.put(key, new Response(`<h1>${marker}</h1>`, { headers: { "Content-Type": "text/html" } }));
  return (await cache.match(key)) !== undefined;
}"""

@pytest.fixture
def context_options():
    return {"service_workers": "allow"}


def controlled(page):
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PYTHON_TIMEOUT_MS)


def served_target(page, site_url):
    page.goto(site_url + TARGET)
    return page.content()


def test_python_has_no_way_to_the_sites_storage(page, site_url):
    open_lesson(page, site_url)
    first = block(page, 1)
    set_code(first, AUDIT)
    shown = run_block(first)
    assert "reachable: []" in shown, shown
    for attempt in ("js.caches", "js.self.caches", "js.indexedDB", "js.navigator.storage", "js.Worker",
                    "js.Object.getPrototypeOf(js.self).caches"):
        assert re.search(rf"^{re.escape(attempt)} -> .*{re.escape(REFUSAL)}$", shown, re.MULTILINE), shown
    assert "redefined" not in shown, shown


def test_a_rewritten_entry_of_the_offline_copy_is_never_served(page, site_url, built_site):
    """The service worker alone: the page (standing in for a Python that still had `caches`) rewrites the
    cached copy of a lesson page; the next visit gets the build's page, and the rewritten entry is gone."""
    open_lesson(page, site_url)
    controlled(page)
    assert page.evaluate(POISON_FROM_PAGE, [TARGET, MARKER])
    assert MARKER not in served_target(page, site_url)
    assert page.get_by_role("heading", level=1).first.inner_text() == heading_of(built_site, TARGET)
    assert not page.evaluate("""async ([target, marker]) => {
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) {
          const response = await (await caches.open(name)).match(request);
          if ((await response.text()).includes(marker)) return true;
        }
      }
      return false;
    }""", [TARGET, MARKER])


def test_the_exploit_pasted_into_a_block_changes_nothing_served(page, site_url, built_site):
    open_lesson(page, site_url)
    controlled(page)
    first = block(page, 1)
    set_code(first, EXPLOIT)
    shown = run_block(first)
    assert f"refused: Error: {REFUSAL}" in shown, shown
    assert MARKER not in served_target(page, site_url)
    assert page.get_by_role("heading", level=1).first.inner_text() == heading_of(built_site, TARGET)


def test_every_file_the_offline_copy_lists_has_a_type(built_site):
    """The service worker gives a cached file the type of its ending, never the entry's own headers."""
    worker = (Path(built_site) / "service-worker.js").read_text(encoding="utf-8")
    types = set(re.findall(r"\b(\w+):", TYPES.search(worker)["types"]))
    listed = json.loads(BUILD.search(worker)["build"])["files"]
    assert {path.rsplit(".", 1)[-1] for path in listed} <= types


def heading_of(built_site, target):
    """The first heading of the built page `target`, as its text reads."""
    page = (Path(built_site) / target / "index.html").read_text(encoding="utf-8")
    return html.unescape(re.sub(r"<[^>]+>", "", re.search(r"<h1[^>]*>(.*?)</h1>", page, re.DOTALL)[1])).strip()
