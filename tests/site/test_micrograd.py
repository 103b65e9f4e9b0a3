"""test_micrograd.py: "micrograd beside your engine" installs micrograd with micropip from the site's own files (#35).

What it is: a Chromium test with every request to anything but 127.0.0.1 aborted. The reader opens the
"Go deeper" box at the end of training and runs the block: micropip (loaded from the site) installs micrograd
from the site's simple index, and the block prints both engines' gradients, which must be what the same block
prints under CPython (derived, never written down) and agree with each other. Nothing of micropip or micrograd
is fetched before the block runs.
What it is not: a test of every block of the page (test_article_blocks.py) nor of how the build pins the wheels
(tests/repository/test_registry_wheels.py).
"""
import re
from urllib.parse import urlparse

from registry_wheels import wheel_name

from helpers import (block_titled, cpython_outputs, open_lesson, output_text, run_block, runnable_sources,
                     wait_python_ready)

PATH = "training/"
TITLE = "micrograd beside your engine"
BOX = "Go deeper: Karpathy's micrograd beside your engine"
ROW = re.compile(r"^(\S+) +out = (\S+) +a\.grad = (\S+) +b\.grad = (\S+)$", flags=re.M)


def test_micrograd_installs_from_the_site_with_the_network_off(page, site_url, built_site, requests_made,
                                                               outside_requests, page_errors):
    page.context.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).hostname == "127.0.0.1"
                       else route.abort())
    sources = runnable_sources(built_site / PATH / "index.html")
    number = next(index for index, source in enumerate(sources) if 'micropip.install("micrograd")' in source)
    expected = cpython_outputs(sources)[number][1]
    open_lesson(page, site_url, PATH)
    page.get_by_text(BOX, exact=True).click()
    micrograd = block_titled(page, TITLE)
    wait_python_ready(page)
    assert [url for url in requests_made if "/assets/packages/" in url] == []  # nothing before the block runs

    shown = run_block(micrograd)

    assert micrograd.get_attribute("data-state") == "done", shown
    assert shown == expected == output_text(micrograd)
    rows = {engine: numbers for engine, *numbers in ROW.findall(shown)}
    assert set(rows) == {"tinygrad", "micrograd.engine"}, shown
    assert rows["tinygrad"] == rows["micrograd.engine"]
    fetched = [urlparse(url).path for url in requests_made if "/assets/packages/" in url]
    assert any(path.endswith("/simple/micrograd/") for path in fetched), fetched      # found through the index
    assert any(path.endswith("/" + wheel_name("micrograd")) for path in fetched), fetched
    assert outside_requests == [] and page_errors == []
