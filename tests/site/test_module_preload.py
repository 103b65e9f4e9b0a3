"""test_module_preload.py: every page preloads the lesson modules it loads at once
(site_scripts/hooks/module_preload.py and main.html, issue #20).

What it is:
  - the hook's walk over static imports, on a small folder of modules made here: each module once,
    each before what it imports, through `export ... from` and a cycle, a vendored bundle listed but
    not read, dynamic `import()` left out, a missing module a clear build error;
  - on every built page, one modulepreload link per module of the walk over the real entries, in
    its order, each naming a file the build wrote;
  - in Chromium, on a first visit of a chapter: every one of those modules was requested before
    start-early.js (which starts the chain of imports) had arrived, so by its link, and only once; the
    blocks still mount.
What it is not: a measure of the time it saves (the benchmark's "the page creates Python's worker").
"""
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

import pytest
from mkdocs.exceptions import PluginError

from helpers import pages_with_blocks, wait_blocks_mounted
from site_scripts.hooks import module_preload


def write(folder, files):
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")


def test_walk_follows_static_imports_once_each(tmp_path):
    write(tmp_path, {
        "browser/main.mjs": 'import { a } from "./parts/a.mjs";\nexport { b } from "./parts/b.mjs";\n'
                            'const later = () => import("./parts/later.mjs");\n',
        "browser/parts/a.mjs": 'import { b } from "./b.mjs";\nimport { draw } from "../../../vendor/d3/draw.mjs";\n',
        "browser/parts/b.mjs": 'import {\n  a,\n} from "./a.mjs";  // a cycle\n',
        "browser/parts/later.mjs": "export const later = 1;\n",
    })
    graph = module_preload.module_graph(("assets/lesson/browser/main.mjs",), scripts=tmp_path)
    assert graph == ["assets/lesson/browser/main.mjs", "assets/lesson/browser/parts/a.mjs",
                     "assets/lesson/browser/parts/b.mjs", "assets/vendor/d3/draw.mjs"]


def test_walk_names_a_module_that_is_missing(tmp_path):
    write(tmp_path, {"browser/main.mjs": 'import { gone } from "./gone.mjs";\n'})
    with pytest.raises(PluginError, match=r"assets/lesson/browser/gone\.mjs is imported but site_scripts/ has no such file"):
        module_preload.module_graph(("assets/lesson/browser/main.mjs",), scripts=tmp_path)


class PreloadLinks(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "link" and attributes.get("rel") == "modulepreload":
            self.hrefs.append(attributes["href"])


def test_every_page_preloads_the_modules_it_loads(built_site, site_url):
    expected = module_preload.module_graph()
    assert expected[0].endswith("runtime/runtime.mjs") and "assets/lesson/browser/main.mjs" in expected
    pages = sorted(built_site.rglob("index.html"))
    assert len(pages) > 5
    for page_file in pages:
        links = PreloadLinks()
        links.feed(page_file.read_text(encoding="utf-8"))
        page_url = site_url + page_file.parent.relative_to(built_site).as_posix() + "/"
        paths = [urlparse(urljoin(page_url, href)).path.removeprefix(urlparse(site_url).path) for href in links.hrefs]
        assert paths == expected, page_file
        for path in paths:
            assert (built_site / path).is_file(), f"{page_file} preloads {path}, which the build did not write"


def test_a_first_visit_fetches_each_module_by_its_link(page, site_url, built_site):
    """Without its link a module is requested only once the module importing it has arrived: for
    runtime.mjs, once start-early.js (which imports it) has been downloaded and run. With the links
    every module is requested before start-early.js has even arrived."""
    chapter = pages_with_blocks(built_site)[0]
    page.goto(site_url + chapter)
    wait_blocks_mounted(page)
    fetched = page.evaluate("""() => performance.getEntriesByType("resource")
      .map((entry) => [new URL(entry.name).pathname, entry.startTime, entry.responseEnd])""")
    base = urlparse(site_url).path
    requests = {}
    for path, started, ended in fetched:
        requests.setdefault(path.removeprefix(base), []).append((started, ended))
    (start_early,) = requests["assets/lesson/browser/runtime/start-early.js"]
    for module in module_preload.module_graph():
        assert module in requests, f"{module} was never fetched"
        assert len(requests[module]) == 1, f"{module} was fetched {len(requests[module])} times"
        started, _ = requests[module][0]
        assert started < start_early[1], (f"{module} was requested at {started:.0f} ms, after start-early.js "
                                          f"arrived ({start_early[1]:.0f} ms): its preload link did not act")
    assert not [path for path, times in requests.items() if len(times) > 1 and re.search(r"\.m?js$", path)]
