"""conftest.py (tests/article/): the one site build the article's tests share.

What it is: a session fixture `site` that runs the real `mkdocs build --strict` once into a
temporary folder (with the browser tests' own build helper from tests/site/helpers.py), for the
address `site_address` gives, so test_build.py and test_notebooks.py look at the same build.
What it is not: a server or a browser; these tests only read the built files.
"""
import sys
from pathlib import Path

import pytest

SITE_TESTS = str(Path(__file__).resolve().parents[1] / "site")
if SITE_TESTS not in sys.path:
    sys.path.insert(0, SITE_TESTS)

from helpers import build_site  # noqa: E402  (tests/site/helpers.py, found through the line above)

SITE_ADDRESS = "http://127.0.0.1:8000/"


@pytest.fixture(scope="session")
def site_address():
    """The address the site is built for (its site_url), which absolute links in it start with."""
    return SITE_ADDRESS


@pytest.fixture(scope="session")
def site(tmp_path_factory, site_address):
    return build_site(tmp_path_factory.mktemp("article-site"), site_address)
