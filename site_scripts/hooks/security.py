"""security.py: the MkDocs hook that gives every built page its Content-Security-Policy.

What it is: after each page (and each HTML template, such as 404.html) is rendered, it writes a
`<meta http-equiv="Content-Security-Policy">` at the top of <head>, right after the charset, so the
policy covers everything the page loads after it. The policy allows the site's own files only
('self'), nothing from any other origin, no eval, no plugins, frames or media, and of inline code
only the few scripts Material's own template writes into every page, each allowed by the sha256 of its exact
text, computed here from the page as built. The page itself compiles no WebAssembly (Pyodide runs
in a worker), so it needs no 'wasm-unsafe-eval'. A page whose
HTML holds something the policy would silently block (an inline event handler such as onclick=,
or a style="..." attribute) stops the build with a message saying what to do instead.

What it is not: the policy of the Web Workers (Python, search). A <meta> policy does not reach a
worker: a worker obeys the headers of its own script's response, which a static host does not let
us set; site_scripts/browser/offline/service-worker.js adds the workers' policy (WORKER_POLICY). Nor is it a header
policy: directives only a header can carry (frame-ancestors, report-to, sandbox) are left out.
"""
import base64
import hashlib
import re

from mkdocs.exceptions import PluginError

# Source lists per directive; the inline scripts' hashes are added to script-src per page.
POLICY = {
    # Firefox prefetches the <link rel="next"> Material puts in every page (its n/. key follows that
    # link) and checks that prefetch against default-src, the only directive it has for it: 'none'
    # logged a violation on every page. So the default is the site itself, and every other kind of
    # load that would fall back to it is listed below, frames and media as 'none'.
    "default-src": ["'self'"],
    "script-src": ["'self'"],                  # the site's scripts and modules, plus hashes below
    # Stylesheets and <style> elements: the CodeMirror editor writes its theme into a <style> element at
    # run time (style-mod does so on a document). A nonce protects nothing on a static site and a hash
    # cannot follow a sheet that grows as extensions load. Injected CSS could fetch nothing from
    # elsewhere (img-src, font-src), and all output is inserted as text anyway.
    "style-src": ["'self'", "'unsafe-inline'"],
    "style-src-attr": ["'none'"],              # but no style="..." attributes (styles set by scripts are fine)
    "img-src": ["'self'", "data:"],            # Material's CSS draws its icons from data: SVG URLs
    "font-src": ["'self'"],                    # KaTeX's fonts, served by the site
    "connect-src": ["'self'"],                 # instant navigation and the sitemap (fetch)
    "worker-src": ["'self'"],                  # the Python worker, the search worker, the service worker
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-src": ["'none'"],                   # the lesson embeds no frames...
    "child-src": ["'none'"],
    "media-src": ["'none'"],                   # ...and no audio or video
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}
SCRIPT = re.compile(r"<script\b(?P<attributes>[^>]*)>(?P<body>.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
SOURCE_ATTRIBUTE = re.compile(r"\ssrc\s*=", re.IGNORECASE)
TYPE_ATTRIBUTE = re.compile(r"""\stype\s*=\s*["']?(?P<type>[^"'\s>]+)""", re.IGNORECASE)
EXECUTABLE_TYPES = {"", "module", "text/javascript", "application/javascript", "text/ecmascript"}
HEAD_START = re.compile(r"<head\b[^>]*>(\s*<meta\s+charset\s*=[^>]*>)?", re.IGNORECASE)  # the charset stays first
OPENING_TAG = re.compile(r"<[a-zA-Z][^>]*>")
INLINE_HANDLER = re.compile(r"""\son[a-z]+\s*=""", re.IGNORECASE)
STYLE_ATTRIBUTE = re.compile(r"""\sstyle\s*=""", re.IGNORECASE)


def inline_script_hashes(html):
    """'sha256-...' sources for each inline script the browser would execute, in page order."""
    hashes = []
    for script in SCRIPT.finditer(html):
        attributes = script["attributes"]
        declared_type = TYPE_ATTRIBUTE.search(attributes)
        if SOURCE_ATTRIBUTE.search(attributes):
            continue
        if declared_type and declared_type["type"].lower() not in EXECUTABLE_TYPES:
            continue  # data such as Material's <script type="application/json"> configuration
        digest = hashlib.sha256(script["body"].encode("utf-8")).digest()
        source = f"'sha256-{base64.b64encode(digest).decode()}'"
        if source not in hashes:
            hashes.append(source)
    return hashes


def policy_text(script_hashes):
    """The policy as a header value: directives joined by "; "."""
    directives = {**POLICY, "script-src": POLICY["script-src"] + script_hashes}
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def blocked_markup(html):
    """Opening tags (outside scripts) that the policy would block without saying so on the page."""
    without_scripts = SCRIPT.sub("", html)
    return [tag for tag in OPENING_TAG.findall(without_scripts)
            if INLINE_HANDLER.search(tag) or STYLE_ATTRIBUTE.search(tag)]


def with_policy(html, page_name):
    """`html` with the policy's <meta> first in <head>; PluginError if the page cannot obey it."""
    problems = blocked_markup(html)
    if problems:
        raise PluginError(
            f"security.py: {page_name} has markup the Content-Security-Policy blocks: {problems[0][:120]!r}"
            f"{f' (and {len(problems) - 1} more)' if len(problems) > 1 else ''}. Use a class and a rule "
            "in a stylesheet instead of style=\"...\", and addEventListener in a module instead of on...=.")
    head = HEAD_START.search(html)
    if head is None:
        raise PluginError(f"security.py: {page_name} has no <head> to put the Content-Security-Policy in")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy_text(inline_script_hashes(html))}">'
    return html[:head.end()] + meta + html[head.end():]


def on_post_page(output, page, config):
    return with_policy(output, page.file.src_uri)


def on_post_template(output_content, template_name, config):
    """Static templates: the HTML ones (404.html) get the policy; sitemap.xml and the like do not."""
    return with_policy(output_content, template_name) if template_name.endswith(".html") else output_content
