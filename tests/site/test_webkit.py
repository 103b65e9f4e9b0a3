"""test_webkit.py: the lesson in WebKitGTK, Safari's engine, driven by Selenium (issue #19).

What it is: one MiniBrowser per module (started by /usr/bin/WebKitWebDriver with --automation, on an Xvfb
display of its own; a WebKitReader of readers.py) goes through the scenarios of scenarios.py, one test per
scenario, with the same expectations as in Firefox: on the session's server (service worker allowed;
stopped for the offline scenario, since WebDriver cannot take a WebKit page offline) and on the site
served without its snapshot and service worker (plain start). Without WebKitGTK or Xvfb the tests skip
(fail under CI=true). `-k figure` runs one scenario (and those it needs).

What it is not: the whole suite again (a few focused tests), nor a test of Safari's own service-worker
or storage rules on Apple's systems.
"""
import pytest

import scenarios
from helpers import SERVICE_WORKER_PATH, SNAPSHOT_PATH, damaged_host, redeploying_host, require_browser, serve_hiding
from readers import webkit_reader


@pytest.fixture(scope="module")
def webkit(built_site, site_url, site_server):
    """The scenarios' run in one MiniBrowser: the site as served to every test (on the port it was built for, so
    instant navigation follows its links; going offline stops that server and starts it again), and the site
    without its snapshot."""
    require_browser("webkit")
    with (serve_hiding(built_site, {SNAPSHOT_PATH, SERVICE_WORKER_PATH}) as plain_url, damaged_host(built_site) as damaged,
          redeploying_host(built_site, False) as redeploy, redeploying_host(built_site, True) as redeploy_sw,
          webkit_reader(site_server) as reader):
        urls = {"site": site_url, "plain": plain_url, "damaged": damaged.url,
                "redeploy": redeploy, "redeployServiceWorker": redeploy_sw}
        yield scenarios.ScenarioRun(reader, urls, built_site)


@pytest.mark.parametrize("name", scenarios.names_for("webkit"))
def test_webkit(webkit, name):
    webkit.judge(name)
