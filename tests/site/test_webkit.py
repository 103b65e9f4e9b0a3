"""test_webkit.py: the lesson in WebKitGTK, Safari's engine, driven by Selenium (issue #19).

What it is: one MiniBrowser per module (started by /usr/bin/WebKitWebDriver with --automation, on an Xvfb
display of its own; a WebKitReader of readers.py) goes through the scenarios of scenarios.py, one test per
scenario, with the same expectations as in Firefox: on this module's own server (service worker allowed;
stopped for the offline scenario, since WebDriver cannot take a WebKit page offline) and on the site
served without its snapshot and service worker (plain start). Without WebKitGTK or Xvfb the tests skip
(fail under CI=true). `-k figure` runs one scenario (and those it needs).

What it is not: the whole suite again (a few focused tests), nor a test of Safari's own service-worker
or storage rules on Apple's systems.
"""
import pytest

import scenarios
from helpers import SERVICE_WORKER_PATH, SNAPSHOT_PATH, damaged_host, redeploying_host, SiteServer, free_port, require_browser, serve_hiding
from readers import webkit_reader


@pytest.fixture(scope="module")
def webkit(built_site):
    """The scenarios' run in one MiniBrowser: a server of this module's own, and the site without its snapshot."""
    require_browser("webkit")
    server = SiteServer(built_site, free_port())
    try:
        site_url = server.start()
        with (serve_hiding(built_site, {SNAPSHOT_PATH, SERVICE_WORKER_PATH}) as plain_url, damaged_host(built_site) as damaged,
              redeploying_host(built_site, False) as redeploy, redeploying_host(built_site, True) as redeploy_sw,
              webkit_reader(server) as reader):
            urls = {"site": site_url, "plain": plain_url, "damaged": damaged.url,
                    "redeploy": redeploy, "redeployServiceWorker": redeploy_sw}
            yield scenarios.ScenarioRun(reader, urls, built_site)
    finally:
        server.stop()


@pytest.mark.parametrize("name", scenarios.names_for("webkit"))
def test_webkit(webkit, name):
    webkit.judge(name)
