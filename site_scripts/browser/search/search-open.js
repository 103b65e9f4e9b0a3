/* search-open.js: search starts only when the reader opens it: the index's download, and its build.
   What it is: a classic script that overrides/main.html places before Material's bundle. Material's
   bundle asks for search/search_index.json (about 120 KB) as soon as it runs, with an
   XMLHttpRequest, and hands the index to its search worker. This script holds that one request back
   until the reader first opens or focuses search (a click on the box or the search button, the
   keyboard shortcut, a ?q= link, or the search toggle), and then sends it unchanged. At the same
   moment it says "open" on the BroadcastChannel CHANNEL, which tells the stand-in search worker
   (search-worker.js) to load Material's worker and build the index; it also answers that worker's
   "hello" while search is open. So a reader who never searches downloads no index, and nothing of
   search competes with Python's start.
   What it is not: part of the search itself (Material's own code does all the rest), nor a change
   to any other request: every other XMLHttpRequest goes out as it was sent. */
(() => {
  const CHANNEL = "lesson-search";
  const INDEX_PATH = "search/search_index.json"; // Material's, under the site's base
  const channel = new BroadcastChannel(CHANNEL);
  const toggle = document.getElementById("__search");
  const held = new WeakSet(); // requests for the index, opened but not yet allowed out
  const waiting = [];         // their sends, until search opens
  let opened = false;

  function isIndex(url) {
    const address = new URL(String(url), document.baseURI);
    return address.origin === location.origin && address.pathname.endsWith(`/${INDEX_PATH}`);
  }

  const open = XMLHttpRequest.prototype.open;
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    if (!opened && isIndex(url)) held.add(this);
    else held.delete(this);
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    if (!opened && held.has(this)) {
      waiting.push(() => send.call(this, body));
      return;
    }
    return send.call(this, body);
  };

  function searchIsOpen() {
    const active = document.activeElement;
    return Boolean(toggle?.checked || active?.matches?.("[data-md-component=search-query]"));
  }

  function announce() {
    if (!searchIsOpen()) return;
    channel.postMessage("open");
    if (opened) return;
    opened = true;
    for (const release of waiting.splice(0)) release();
  }

  channel.addEventListener("message", (event) => { if (event.data === "hello") announce(); });
  document.addEventListener("focusin", announce);
  toggle?.addEventListener("change", announce);
  announce();
})();
