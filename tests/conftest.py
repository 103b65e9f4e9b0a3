"""conftest.py (tests/): makes the engine importable as `tinygrad` for every test, and builds the site once per test process.

What it is: the setup the tests share: engine/ on sys.path, exactly as a student who saved tinygrad.py
next to their own script would import it; site_scripts/, so the Python that runs in the browser
imports as it does there (`tutor.runtime.runner`, `tutor.figures.line_fit`); the repository root, so the build
hooks and the classroom server import as `site_scripts.<...>`; site_scripts/hooks/, where the hooks
find each other (as MkDocs lets them while it loads one); tests/ itself, for the helpers every folder
of tests uses (own_thread.py, block_runs.py); and tests/site/, for its helpers.py (building and
serving the site). And the one site build of a test process (`built_site`, for the address
`site_address`, served by `site_server` on `site_port`), which tests/site, tests/article and the
benchmark's smoke test share: `mkdocs build --strict` takes 10-60 s on the 2-core machine, on one core,
so it starts as soon as the tests are collected, beside the other builds the collected tests ask for
(EARLY_BUILDS), while the tests that need no build run first.

What it is not: fixtures for one folder (tests/site/conftest.py has the browser's). The engine tests
use no fixture: they also run inside Pyodide, where pytest is not available.
"""
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "engine"), str(REPO / "site_scripts"), str(REPO / "site_scripts" / "hooks"), str(REPO),
                 str(REPO / "tests"), str(REPO / "tests" / "site")]

from helpers import EARLY, SUB_PATH, SiteBuild, SiteServer, early_build, free_port  # noqa: E402  (tests/site/helpers.py, on the path above)

# fixture -> the path its build is served under
EARLY_BUILDS = {"built_site": "/", "subpath_build": SUB_PATH}


def pytest_collection_modifyitems(items):
    """Files whose tests need no build first (in their order), then those with a test that does: the builds
    run meanwhile (a file stays whole: its module fixtures are set up once). Of those, the two that drive
    Firefox and WebKit (the longest files, minutes each) go first, so the two test processes end together."""
    building = {item.path for item in items if "built_site" in getattr(item, "fixturenames", ())}
    long = {item.path for item in items if {"firefox", "webkit"} & set(getattr(item, "fixturenames", ()))}
    items.sort(key=lambda item: (item.path in building, item.path not in long))


def pytest_collection_finish(session):
    """Start the builds of EARLY_BUILDS that a collected test asks for, side by side in the background."""
    wanted = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    if session.config.option.collectonly or not wanted & EARLY_BUILDS.keys():
        return
    folder = Path(tempfile.mkdtemp(prefix="site-builds-"))
    builds = {}
    for fixture, base in EARLY_BUILDS.items():
        if fixture in wanted:
            port = free_port()
            builds[fixture] = (port, SiteBuild(folder / fixture, f"http://127.0.0.1:{port}{base}"))
    session.config.stash[EARLY] = (builds, folder)


def pytest_unconfigure(config):
    builds, folder = config.stash.get(EARLY, ({}, None))
    for _, build in builds.values():
        build.cancel()
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def site_port(request):
    """The port the site is built for and served on."""
    early = early_build(request.config, "built_site")
    return early[0] if early else free_port()


@pytest.fixture(scope="session")
def site_address(site_port):
    """The address the site is built for (its site_url), e.g. "http://127.0.0.1:PORT/"; Material's instant
    navigation follows only links under it, and absolute links in the pages start with it."""
    return f"http://127.0.0.1:{site_port}/"


@pytest.fixture(scope="session")
def built_site(request, tmp_path_factory, site_address):
    """The site, built once per session into a temporary folder for `site_address`. Read it, or copy it
    before changing anything (every test of the session sees this folder)."""
    early = early_build(request.config, "built_site")
    return (early[1] if early else SiteBuild(tmp_path_factory.mktemp("site"), site_address)).folder()


@pytest.fixture(scope="session")
def site_server(built_site, site_port):
    """serve.py for `built_site` on `site_port` (a helpers.SiteServer); tests/site's `site_url` starts it. A
    test that needs the port for a server of its own stops it and starts it again (SiteServer.paused)."""
    server = SiteServer(built_site, site_port)
    yield server
    server.stop()
