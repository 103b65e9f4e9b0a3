"""conftest.py: fixtures for the browser tests: a built site, a local server, Chromium and a page.

What it is: the shared setup for everything under tests/site. The site is built once per test
session (`built_site`, tests/conftest.py, shared with tests/article and the benchmark's smoke test)
for the exact address it is served at, because Material's instant navigation only follows links
under `site_url`. A second build serves under a sub-path (`subpath_site_url`): its links, its service
worker's scope and its precache list are written for that path, so it cannot be the same build.
Every request the page, its workers and its service workers make is recorded, so a test can assert
that nothing left 127.0.0.1.

What it is not: a place for assertions or page-driving code (see helpers.py). Contexts block
service workers by default so an offline worker's one-time reload cannot race a test; a module
that tests the service worker overrides the `context_options` fixture.

Fixtures: site_url (serving tests/conftest.py's built_site), subpath_build, subpath_site_url, isolated_url, lesson_path, browser,
context_options, page, requests_made, outside_requests, page_errors, clean_run.
"""
import pytest
from playwright.sync_api import sync_playwright

from helpers import clean_run  # noqa: F401  (a fixture, for every module here: helpers.py is its one home)
from helpers import (CHROMIUM_ARGS, SUB_PATH, UI_TIMEOUT_MS, build_site, chromium_path, early_build, free_port,
                     is_outside, lesson_with_blocks, serve_site)


def pytest_collection_modifyitems(items):
    """Mark every test of this folder as a browser test (`pytest -m "not browser"` skips them)."""
    for item in items:
        if "tests/site/" in item.nodeid:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_url(site_server):
    """Base URL of the served site, e.g. "http://127.0.0.1:PORT/" (always ends with a slash)."""
    yield site_server.start()
    site_server.stop()


@pytest.fixture(scope="session")
def subpath_build(request, tmp_path_factory):
    """(folder, port) of a second build, for a sub-path like a GitHub Pages project site's (started beside the
    first at collection: tests/conftest.py's EARLY_BUILDS). Read it, or copy it before changing anything."""
    early = early_build(request.config, "subpath_build")
    if early:
        return early[1].folder(), early[0]
    port = free_port()
    return build_site(tmp_path_factory.mktemp("subpath-site"), f"http://127.0.0.1:{port}{SUB_PATH}"), port


@pytest.fixture(scope="session")
def subpath_site_url(subpath_build):
    """Base URL of the sub-path build served under its sub-path."""
    directory, port = subpath_build
    with serve_site(directory, port, base=SUB_PATH) as served:
        yield served


@pytest.fixture(scope="module")
def isolated_url(built_site):
    """The site served with the headers that make its pages cross-origin isolated (Stop interrupts Python
    there), on a port of its own: instant navigation does not follow its links (the build is for site_url)."""
    with serve_site(built_site, free_port(), isolation_headers=True) as url:
        yield url


@pytest.fixture(scope="session")
def lesson_path(built_site):
    """A lesson page with at least three runnable blocks (the article decides which); tests write their own
    code into its blocks."""
    return lesson_with_blocks(built_site, minimum=3)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context_options():
    """Options for each test's browser context; override in a module to change them."""
    return {"service_workers": "block"}


@pytest.fixture
def requests_made():
    """URLs of every request of the page, its workers and service workers; filled while the test runs."""
    return []


@pytest.fixture
def outside_requests():
    """URLs of requests (page, workers) that did not go to 127.0.0.1; filled while the test runs."""
    return []


@pytest.fixture
def page_errors():
    """Uncaught errors of the page, as text; filled while the test runs."""
    return []


@pytest.fixture
def page(browser, context_options, requests_made, outside_requests, page_errors):
    """A fresh context and page whose every request is checked against 127.0.0.1."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(UI_TIMEOUT_MS)

    def record(request):
        requests_made.append(request.url)
        if is_outside(request.url):
            outside_requests.append(request.url)

    context.on("request", record)
    new_page = context.new_page()
    new_page.on("pageerror", lambda error: page_errors.append(str(error)))
    yield new_page
    context.close()

