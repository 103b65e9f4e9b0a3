"""conftest.py (tests/article/): the site build the article's tests read.

What it is: `site`, the session's one `mkdocs build --strict` of the real configuration (tests/conftest.py's
`built_site`, which the browser tests serve too), built for the address `site_address` gives, so
test_build.py, test_notebooks.py and the others look at the same build as the browsers.
What it is not: a server or a browser; these tests only read the built files (never change them).
"""
import pytest


@pytest.fixture(scope="session")
def site(built_site):
    return built_site
