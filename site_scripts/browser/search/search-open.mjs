// search-open.mjs: tells the search worker when the reader opens search.
// What it is: the page's half of search-worker.js. Material's search worker only builds its index
// once this module says "open" on the BroadcastChannel CHANNEL: when the search box gets the focus
// (a click on it or on the search button, the keyboard shortcut, a ?q= link) or the search toggle
// opens, and in answer to the worker's "hello" while search is open. What it is not: part of the
// search itself; Material's own code does all the rest.
const CHANNEL = "lesson-search";
const channel = new BroadcastChannel(CHANNEL);
const toggle = document.getElementById("__search");

function searchIsOpen() {
  const active = document.activeElement;
  return Boolean(toggle?.checked || active?.matches?.("[data-md-component=search-query]"));
}

function announce() {
  if (searchIsOpen()) channel.postMessage("open");
}

channel.addEventListener("message", (event) => { if (event.data === "hello") announce(); });
document.addEventListener("focusin", announce);
toggle?.addEventListener("change", announce);
announce();
