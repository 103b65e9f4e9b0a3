"""conftest.py (tests/): makes the engine importable as `tinygrad` for every test, and builds the site once.

What it is: the setup the tests share: engine/ on sys.path, exactly as a student who saved tinygrad.py
next to their own script would import it; site_scripts/, so the Python that runs in the browser
imports as it does there (`tutor.runtime.runner`, `tutor.figures.line_fit`); the repository root, so the build
hooks and the classroom server import as `site_scripts.<...>`; site_scripts/hooks/, where the hooks
find each other (as MkDocs lets them while it loads one); tests/ itself, for the helpers every folder
of tests uses (own_thread.py, block_runs.py); and tests/site/, for its helpers.py (building and
serving the site). And the one site build of a test session (`built_site`, for the address
`site_address`, served by `site_server` on `site_port`), which tests/site, tests/article and the
benchmark's smoke test share: `mkdocs build --strict` takes 10-60 s on the 2-core machine.

What it is not: fixtures for one folder (tests/site/conftest.py has the browser's). The engine tests
use no fixture: they also run inside Pyodide, where pytest is not available.
"""
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "engine"), str(REPO / "site_scripts"), str(REPO / "site_scripts" / "hooks"), str(REPO),
                 str(REPO / "tests"), str(REPO / "tests" / "site")]

from helpers import SiteServer, build_site, free_port  # noqa: E402  (tests/site/helpers.py, on the path above)


@pytest.fixture(scope="session")
def site_port():
    """The port the site is built for and served on."""
    return free_port()


@pytest.fixture(scope="session")
def site_address(site_port):
    """The address the site is built for (its site_url), e.g. "http://127.0.0.1:PORT/"; Material's instant
    navigation follows only links under it, and absolute links in the pages start with it."""
    return f"http://127.0.0.1:{site_port}/"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, site_address):
    """The site, built once per session into a temporary folder for `site_address`. Read it, or copy it
    before changing anything (every test of the session sees this folder)."""
    return build_site(tmp_path_factory.mktemp("site"), site_address)


@pytest.fixture(scope="session")
def site_server(built_site, site_port):
    """serve.py for `built_site` on `site_port` (a helpers.SiteServer); tests/site's `site_url` starts it. A
    test that needs the port for a server of its own stops it and starts it again (SiteServer.paused)."""
    server = SiteServer(built_site, site_port)
    yield server
    server.stop()
