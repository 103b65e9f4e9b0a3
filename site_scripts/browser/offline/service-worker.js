/* service-worker.js: keeps the whole lesson site usable offline and makes its pages cross-origin isolated.
   What it is: a classic service worker, copied to the site root by site_scripts/hooks/offline.py, which
   also replaces the BUILD line below with this build's file list (site path -> SRI sha256; two, either of
   which matches, for a file the classroom server may send as a variant: hooks/gzip_copies.py). It answers
   cache-first with a network fallback. Installing a first build downloads nothing, so a reader who only
   reads transfers no more than the pages they open; once Python has booted in a page, the page asks for
   a copy of every listed file (the Pyodide files then come from the browser's HTTP cache, not downloaded
   twice), hears how far the copy is (messages "precache-progress" with a percentage of the bytes, then
   "precached", or "precache-failed"), and can ask where it stands ("offline-status"). The lesson's own
   modules, styles and wheels are copied before the large Pyodide files, so a page that goes offline
   half-way still has every module it or show() may load. A later build keeps the unchanged files
   of the older copy (matched by content hash) and, if that copy was complete, downloads the changed
   ones before it takes over. It also re-serves every response with
   COOP/COEP/CORP headers so that SharedArrayBuffer (needed to interrupt Python) works on hosts such as
   GitHub Pages that cannot send those headers, and names its build in each page's Server-Timing header
   (a page whose document an older build answered then knows to reload). Every URL is derived from the registration scope, so the
   site works under a sub-path such as /some-repo/.
   Python's worker shares this origin, so Cache Storage may hold anything: every entry is checked against
   the build's hash each time it is served (and before an older build's copy is reused), a mismatch is
   dropped and fetched again, and a cached entry's own headers are never used (its type comes from TYPES).
   What it is not: a general caching library; it caches nothing outside the build's list and never
   touches requests to other origins. */
const BUILD = { version: "unbuilt", files: {} };

const SCOPE = new URL(self.registration.scope);
const CACHE_PREFIX = `lesson-offline ${SCOPE.pathname} `;  // one origin may host several project sites
const CACHE_NAME = CACHE_PREFIX + BUILD.version;
const PARALLEL_DOWNLOADS = 6;
const COPY_COMPLETE = `${SCOPE.href}?offline-copy=complete`;  // in a cache holding every listed file
// A worker obeys the Content-Security-Policy of its own script's response, not the page's <meta> policy
// (site_scripts/hooks/security.py). Pyodide needs 'wasm-unsafe-eval' to compile its WebAssembly; nothing
// needs eval, so Python's `js.eval` is refused too.
const WORKER_POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";
const BUILD_TIMING = "lesson-build";  // the Server-Timing entry that names the build of a page's document
const ISOLATION_HEADERS = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Cross-Origin-Resource-Policy": "same-origin",
};

// The built file behind a URL of this site ("chapter/" -> "chapter/index.html"), or null if outside it.
function sitePath(url) {
  const target = new URL(url);
  if (target.origin !== SCOPE.origin || !target.pathname.startsWith(SCOPE.pathname)) return null;
  let path;
  try {
    path = decodeURIComponent(target.pathname.slice(SCOPE.pathname.length));
  } catch {
    return null;  // a malformed URL is left to the network, which answers it as any server would
  }
  return path === "" || path.endsWith("/") ? path + "index.html" : path;
}

// Cache entries are keyed by path and content, so an unchanged file can move from an old build's cache.
function cacheKey(path) {
  return `${new URL(path, SCOPE).href}?sri=${encodeURIComponent(BUILD.files[path])}`;
}

// The type of a built file, by its ending (tests/site/test_untrusted_storage.py checks every listed file has one).
const TYPES = {
  html: "text/html; charset=utf-8", js: "text/javascript", mjs: "text/javascript", css: "text/css",
  json: "application/json", map: "application/json", ipynb: "application/json", xml: "application/xml",
  wasm: "application/wasm", zip: "application/zip", whl: "application/zip", gz: "application/gzip",
  bin: "application/octet-stream", py: "text/plain; charset=utf-8", txt: "text/plain; charset=utf-8",
  woff2: "font/woff2", woff: "font/woff", ttf: "font/ttf", png: "image/png", svg: "image/svg+xml", ico: "image/x-icon",
};

/** `response` (a cache entry for `path`) rebuilt from its bytes if they are the build's, else null. */
async function asBuilt(path, response) {
  if (!response) return null;
  const body = await response.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  if (!BUILD.files[path].split(" ").includes(`sha256-${btoa(String.fromCharCode(...digest))}`)) return null;
  const type = TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
  return new Response(body, { headers: { "Content-Type": type } });
}

/** The cached copy of `path` if it is the build's; a copy that is not is deleted, never served. */
async function cachedAsBuilt(cache, path) {
  const cached = await asBuilt(path, await cache.match(cacheKey(path)));
  if (!cached) await cache.delete(cacheKey(path));
  return cached;
}

async function olderCaches() {
  const names = (await caches.keys()).filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME);
  return Promise.all(names.map((name) => caches.open(name)));
}

// Files a page loads on demand come first (modules, styles, wheels, the snapshot), the large Pyodide
// files last: the list is taken from its end.
const LAST_FIRST = (path) => (path.startsWith("assets/vendor/pyodide/") ? 0 : 1);

// Tell every page of this site how far the copy is.
async function tellPages(message) {
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    client.postMessage(message);
  }
}

let copying = null;  // the copy in progress, shared by every page that asks for it
let copied = { done: 0, total: 1 };

// Put every listed file in this build's cache: first those an older build's cache holds unchanged;
// then, unless `reuseOnly`, download the rest, reporting progress, and mark the copy complete.
async function precacheBuild({ reuseOnly = false } = {}) {
  const cache = await caches.open(CACHE_NAME);
  const older = await olderCaches();
  const toDownload = [];
  const size = (path) => BUILD.bytes?.[path] ?? 1;
  copied = { done: 0, total: Object.keys(BUILD.files).reduce((sum, path) => sum + size(path), 0) || 1 };
  for (const path of Object.keys(BUILD.files)) {
    if (await cache.match(cacheKey(path))) { copied.done += size(path); continue; }
    let reused = null;
    for (const olderCache of older) reused ||= await asBuilt(path, await olderCache.match(cacheKey(path)));
    if (reused) { await cache.put(cacheKey(path), reused); copied.done += size(path); }
    else toDownload.push(path);
  }
  if (reuseOnly) return;
  toDownload.sort((a, b) => LAST_FIRST(a) - LAST_FIRST(b) || size(b) - size(a));
  let percentShown = -1;
  const report = () => {
    const percent = Math.floor((100 * copied.done) / copied.total);
    if (percent !== percentShown) tellPages({ type: "precache-progress", percent: (percentShown = percent) });
  };
  report();
  // The integrity check refuses a file from a half-finished deploy; the copy stays incomplete and the
  // next request for it (next install, or next page whose Python boots) tries again. The first failure
  // stops every download: none reports progress after it, so the failure is the last word pages hear.
  let failure = null;
  const downloadNext = async () => {
    for (let path = toDownload.pop(); path !== undefined && !failure; path = toDownload.pop()) {
      try {
        const response = await fetch(new URL(path, SCOPE), { cache: "no-cache", integrity: BUILD.files[path] })
          .catch((error) => { throw new Error(`precaching ${path} failed: ${error.message}`); });
        if (!response.ok) throw new Error(`precaching ${path} failed: HTTP ${response.status}`);
        await cache.put(cacheKey(path), response);
      } catch (error) {
        failure ??= error;
      }
      if (failure) return;
      copied.done += size(path);
      report();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_DOWNLOADS }, downloadNext));
  if (failure) throw failure;
  await cache.put(COPY_COMPLETE, new Response(BUILD.version));
}

// One copy at a time; every page hears how it ends.
function copyLesson() {
  copying ??= precacheBuild()
    .then(() => tellPages({ type: "precached" }))
    .catch((error) => tellPages({ type: "precache-failed", message: error.message }))
    .finally(() => { copying = null; });
  return copying;
}

async function offlineStatus() {
  const cache = await caches.open(CACHE_NAME);
  if (await cache.match(COPY_COMPLETE)) return { type: "precached" };
  if (copying) return { type: "precache-progress", percent: Math.floor((100 * copied.done) / copied.total) };
  return { type: "not-precached" };
}

async function readerKeepsOfflineCopy() {
  for (const olderCache of await olderCaches()) if (await olderCache.match(COPY_COMPLETE)) return true;
  return false;
}

const NULL_BODY_STATUSES = new Set([204, 205, 304]);  // a Response with one of these refuses a body, even an empty one

function withIsolationHeaders(response, request, { status, statusText } = response) {
  if (response.status === 0) return response;  // opaque responses and redirects cannot be rebuilt
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  if (request.destination === "worker") headers.set("Content-Security-Policy", WORKER_POLICY);
  // A page learns from its navigation timing which build's worker answered it (register.mjs).
  if (request.mode === "navigate") headers.set("Server-Timing", `${BUILD_TIMING};desc="${BUILD.version}"`);
  return new Response(NULL_BODY_STATUSES.has(status) ? null : response.body, { status, statusText, headers });
}

async function respond(request) {
  const path = sitePath(request.url);
  const cache = await caches.open(CACHE_NAME);
  const listed = path in BUILD.files;
  const cached = listed ? await cachedAsBuilt(cache, path) : null;
  if (cached) return withIsolationHeaders(cached, request);
  try {
    let response = await fetch(request);
    // In WebKit a page's request for the Python worker's script, made again on the next page, can come
    // here as a revalidation: fetch(request) then answers the server's bare 304, and a worker given a 304
    // fails to load ("the Python worker failed to load"). Asked by URL alone, the browser's HTTP cache
    // revalidates itself and answers with the body it keeps.
    if (response.status === 304) response = await fetch(request.url, { cache: "no-cache" });
    return withIsolationHeaders(response, request);
  } catch (error) {
    const notFound = request.mode === "navigate" && "404.html" in BUILD.files && (await cachedAsBuilt(cache, "404.html"));
    if (notFound) return withIsolationHeaders(notFound, request, { status: 404, statusText: "Not Found" });
    throw error;
  }
}

// A reader who keeps an offline copy gets a new build's changed files before the new build takes over,
// so the copy stays complete; for anyone else installing downloads nothing.
self.addEventListener("install", (event) => {
  event.waitUntil(readerKeepsOfflineCopy()
    .then((keepsCopy) => precacheBuild({ reuseOnly: !keepsCopy }))
    .then(() => self.skipWaiting()));
});

// A page whose Python has booted asks for the whole lesson, Pyodide included, to be kept for offline use;
// any page may ask where that copy stands, and which build this worker serves.
self.addEventListener("message", (event) => {
  if (event.data?.type === "precache") event.waitUntil(copyLesson());
  else if (event.data?.type === "offline-status") event.waitUntil(offlineStatus().then((status) => event.source?.postMessage(status)));
  else if (event.data?.type === "build") event.source?.postMessage({ type: "build", version: BUILD.version });
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method === "GET" && sitePath(event.request.url) !== null) {
    event.respondWith(respond(event.request));
  }
});
