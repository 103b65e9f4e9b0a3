"""test_security.py: the Content-Security-Policy of the built site, and hostile text shown as text.

What it is: checks that every built page carries the policy written by site_scripts/hooks/security.py
ahead of any script; that Chromium reports no violation of it while a reader opens every page, runs a
block, uses a figure, switches to dark mode, searches and follows a link (instant navigation); that
the policy is really enforced (an injected inline script, event handler and style attribute are
refused); that markup printed by a block or carried by a figure's error message appears as literal
text; and that Python's worker runs under the worker policy the service worker sends with worker
scripts ('wasm-unsafe-eval', no 'unsafe-eval'), where a block's js.eval is refused in plain words
(the page runs no JavaScript made from text). What it is not: a test of the service worker's
caching or isolation (test_hosting.py).
Most tests share one browser context (module scope): they change nothing another test relies on,
and each of them opens the page it needs.
"""
import base64
import hashlib
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from helpers import (PYTHON_TIMEOUT_MS, REPO, UI_TIMEOUT_MS, block, is_outside, open_editor, open_lesson, run_block,
                     set_code)

sys.path.insert(0, str(REPO))
from site_scripts.hooks import security

VIOLATION_LISTENER = """
window.policyViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.policyViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`);
});
"""
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="(?P<policy>[^"]+)">')
INLINE_SCRIPT = re.compile(r"<script>(?P<body>.*?)</script>", re.DOTALL)
HOSTILE_MARKUP = ['<img src=x onerror="window.hostileRan=1;alert(1)">', "<script>window.hostileRan=2;alert(2)</script>",
                  '<svg onload="window.hostileRan=3;alert(3)"></svg>']
WORKER_POLICY = re.compile(r'^const WORKER_POLICY = "(?P<policy>[^"]+)";$', re.MULTILINE)  # in service-worker.js


def built_pages(built_site):
    """Every page of the built site; not the package index of assets/packages/ (links micropip reads, no page)."""
    return sorted(path for path in Path(built_site).rglob("*.html")
                  if not path.relative_to(built_site).as_posix().startswith("assets/packages/"))


def page_address(site_url, built_site, html_file):
    relative = html_file.relative_to(built_site).as_posix()
    return site_url + (relative[:-len("index.html")] if relative.endswith("index.html") else relative)


def directives(policy):
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.fixture(scope="module")
def watched(browser):
    """One context for the module, recording policy violations, outside requests and dialogs."""
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.add_init_script(VIOLATION_LISTENER)
    outside, dialogs = [], []
    context.on("request", lambda request: outside.append(request.url) if is_outside(request.url) else None)
    page = context.new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield SimpleNamespace(page=page, outside=outside, dialogs=dialogs)
    context.close()


def violations(page):
    return page.evaluate("() => window.policyViolations")


def test_every_page_carries_the_policy_before_any_script(built_site):
    pages = built_pages(built_site)
    assert pages, "the build wrote no HTML page"
    for html_file in pages:
        html = html_file.read_text(encoding="utf-8")
        meta = POLICY_META.search(html)
        assert meta, f"{html_file.name}: no Content-Security-Policy <meta>"
        assert meta.start() < html.index("<script"), f"{html_file}: the policy comes after a script"
        policy = directives(meta["policy"])
        # default-src is 'self' only for Firefox's prefetch of <link rel="next"> (no directive of its own);
        # every other kind of load that would fall back to it is listed, frames, media and plugins as 'none'.
        assert policy["default-src"] == ["'self'"]
        assert all(policy[name] == ["'none'"] for name in ("object-src", "frame-src", "child-src", "media-src"))
        assert {"script-src", "style-src", "img-src", "font-src", "connect-src", "worker-src", "manifest-src"} <= set(policy)
        assert {"'unsafe-eval'", "'unsafe-inline'", "'wasm-unsafe-eval'"}.isdisjoint(policy["script-src"])
        assert not any(source.startswith(("http", "*")) for sources in policy.values() for source in sources)
        for script in INLINE_SCRIPT.finditer(html):  # each inline script of Material's template, by its hash
            digest = base64.b64encode(hashlib.sha256(script["body"].encode()).digest()).decode()
            assert f"'sha256-{digest}'" in policy["script-src"], f"{html_file}: inline script not allowed"


@pytest.mark.parametrize("markup", ['<p style="color: red">x</p>', '<button onclick="go()">x</button>'])
def test_the_hook_refuses_markup_the_policy_would_silently_block(markup):
    page = f'<html><head><meta charset="utf-8"></head><body>{markup}</body></html>'
    with pytest.raises(security.PluginError, match="Content-Security-Policy blocks"):
        security.with_policy(page, "page.md")


def test_no_violation_while_reading_running_and_using_figures(watched, site_url, built_site):
    page = watched.page
    for html_file in built_pages(built_site):
        page.goto(page_address(site_url, built_site, html_file))
        page.wait_for_load_state("load")
        assert violations(page) == [], html_file.name
    open_lesson(page, site_url, "derivatives/")
    assert "Traceback" not in run_block(block(page, 1))                    # the editor mounts, Python runs
    figure = page.get_by_role("group", name="A formula you can evaluate but not picture", exact=True)
    figure.get_by_role("button", name="Reveal full curve").click()
    figure.get_by_role("slider").press("End")
    expect(figure).to_have_attribute("aria-busy", "false", timeout=PYTHON_TIMEOUT_MS)
    page.locator('label[title="Switch to dark mode"]').click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    page.keyboard.press("/")                                               # search, in its own worker
    page.keyboard.type("gradient")
    expect(page.locator(".md-search-result__item").first).to_be_visible()
    page.keyboard.press("Escape")
    title = page.title()
    page.locator(".md-footer__link--next").click()                         # instant navigation
    page.wait_for_function("title => document.title !== title", arg=title)
    assert page.url.startswith(f"{site_url}loss-and-gradient/")
    expect(page.get_by_role("group", name="The loss experiment", exact=True)).to_be_visible()
    assert violations(page) == []
    assert watched.outside == []


@pytest.mark.parametrize("keys", [["Control+A", "x"], ["Control+A", "Enter"], ["Control+End", "Enter", "y"]],
                         ids=["select-all-then-a-character", "select-all-then-enter", "end-then-enter"])
def test_typing_over_a_selection_of_several_lines_breaks_no_policy(watched, site_url, keys):
    """Ctrl+A, then a character, in a block's editor logged "Applying inline style violates ... style-src-attr": the
    browser's own editing merged the selected lines with a style attribute. The editor makes that edit itself."""
    page = watched.page
    console = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    open_lesson(page, site_url, "backpropagation/")
    page.evaluate("() => localStorage.clear()")  # no saved edit of an earlier case
    open_lesson(page, site_url, "backpropagation/")
    target = block(page, 1)
    target.scroll_into_view_if_needed()
    content = open_editor(target)
    before = target.evaluate("element => element.runnableCode()")
    content.click()
    for key in keys:
        page.keyboard.press(key) if len(key) > 1 else page.keyboard.type(key)
    typed = {"x": "x", "Enter": "\n", "y": "y"}[keys[-1]]
    page.wait_for_function("([element, before, typed]) => element.runnableCode() !== before"  # the last key is in
                           " && element.runnableCode().endsWith(typed)", arg=[target.element_handle(), before, typed])
    code = target.evaluate("element => element.runnableCode()")
    if keys[-1] == "y":  # a new last line (which the editor indents when the block ends inside a loop)
        assert code.startswith(before + "\n") and code[len(before) + 1:].strip() == "y", code
    else:
        assert code == typed
    assert violations(page) == [] and console == []


def test_an_injected_inline_script_handler_and_style_attribute_are_refused(watched, site_url):
    """Proof that the policy is in force: inline code added after load is refused and reported."""
    page = watched.page
    page.goto(site_url)
    page.evaluate("""() => {
      const script = document.createElement("script");
      script.textContent = "window.injectedRan = true";
      document.body.append(script);
      document.body.insertAdjacentHTML("beforeend",
        '<p id="styled" style="color: rgb(1, 2, 3)">styled</p><button id="handler" onclick="window.injectedRan = true">x</button>');
    }""")
    page.locator("#handler").dispatch_event("click")
    assert page.evaluate("() => window.injectedRan") is None
    assert page.evaluate("() => getComputedStyle(document.getElementById('styled')).color") != "rgb(1, 2, 3)"
    reported = " ".join(violations(page))
    assert "script-src-elem blocked inline" in reported
    assert "script-src-attr blocked inline" in reported
    assert "style-src-attr blocked inline" in reported


def test_markup_printed_by_a_block_is_shown_as_text(watched, site_url):
    page = watched.page
    open_lesson(page, site_url)
    first = block(page, 1)
    set_code(first, "".join(f"print({markup!r})\n" for markup in HOSTILE_MARKUP))
    shown = run_block(first)
    for markup in HOSTILE_MARKUP:
        assert markup in shown
    assert first.get_by_role("log").locator("img, script, svg").count() == 0
    assert page.evaluate("() => window.hostileRan") is None
    assert watched.dialogs == []


def test_markup_in_a_figure_error_message_is_shown_as_text(watched, site_url):
    page = watched.page
    open_lesson(page, site_url, "derivatives/")
    # The blocks and the figures share one Python and its engine: a block makes the engine's values raise
    # an error whose message is markup, as a reader's experiment might (the figure's own model would be
    # put back after the run: tutor/runtime/keeper.py).
    set_code(block(page, 1), "import tinygrad\n"
                             "def refuse(self, *args, **kwargs):\n"
                             f"    raise ValueError({HOSTILE_MARKUP[0]!r})\n"
                             "tinygrad.Value.__init__ = refuse\n")
    assert "Traceback" not in run_block(block(page, 1))
    figure = page.get_by_role("group", name="A formula you can evaluate but not picture", exact=True)
    figure.get_by_role("slider").press("End")
    expect(figure.get_by_role("alert")).to_have_text(HOSTILE_MARKUP[0], timeout=PYTHON_TIMEOUT_MS)
    assert figure.locator(".figure__messages img").count() == 0
    assert page.evaluate("() => window.hostileRan") is None
    assert watched.dialogs == []
    assert violations(page) == []


def test_python_worker_runs_under_the_service_workers_policy_without_eval(browser, site_url, built_site):
    """A worker does not obey the page's <meta>: the service worker sends the worker's policy with the
    worker script. Here that policy, read from the built service worker, is added by a route."""
    policy = WORKER_POLICY.search((Path(built_site) / "service-worker.js").read_text(encoding="utf-8"))["policy"]
    sources = directives(policy)
    assert sources["script-src"] == ["'self'", "'wasm-unsafe-eval'"] and sources["default-src"] == ["'none'"]
    context = browser.new_context(service_workers="block")
    context.set_default_timeout(UI_TIMEOUT_MS)
    policies_sent = []

    def with_worker_policy(route):
        response = route.fetch()
        policies_sent.append(route.request.url)
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": policy})

    context.route("**/assets/lesson/browser/runtime/worker.mjs", with_worker_policy)
    try:
        page = context.new_page()
        open_lesson(page, site_url)
        first = block(page, 1)
        set_code(first, "import js\nprint(6 * 7)\ntry:\n    js.eval('1')\nexcept Exception as error:\n"
                        "    print('refused:', type(error).__name__, str(error)[:40])\n")
        shown = run_block(first)
        assert policies_sent, "the worker script was never requested"
        assert "42" in shown
        assert "refused: JsException EvalError" in shown
        set_code(first, "import js\njs.eval('1')")  # uncaught, the refusal gets plain words
        shown = run_block(first)
        assert "runs no JavaScript made from text" in shown and "security policy" in shown, shown
    finally:
        context.close()
