/* search-worker.js: stands in for Material's search worker until the reader opens search.
   What it is: the classic worker Material starts on every page load (overrides/main.html points
   Material's `search` setting here, with Material's own worker file named after the #). Material
   sends it the search index once it has it (search-open.js holds the index's download until search
   is opened); this worker only keeps that message. When the reader first opens or focuses search
   (search-open.js says "open" on the BroadcastChannel CHANNEL, or answers this worker's "hello" if
   search is already open), it loads Material's worker into itself
   (importScripts) and hands it the kept messages, so Lunr builds its index then, not while the
   page boots Python. From then on Material's worker answers every message as usual: it sends the
   "ready" that lets the search box take queries ("Initializing search" until then).
   What it is not: a search engine or a copy of Material's code; another tab's "open" also starts
   this one (the channel is per site), which only builds its index early. */
const CHANNEL = "lesson-search";
const MATERIAL_WORKER = new URL(`../../../javascripts/workers/${location.hash.slice(1)}`, location.href);
const kept = [];
const channel = new BroadcastChannel(CHANNEL);
let opened = false;
let started = false;

function keep(event) {
  kept.push(event.data);
  startIfOpened();
}

function startIfOpened() {
  if (started || !opened || kept.length === 0) return;
  started = true;
  channel.close();
  removeEventListener("message", keep);
  importScripts(MATERIAL_WORKER.href); // adds Material's own message listener to this worker
  for (const data of kept) dispatchEvent(new MessageEvent("message", { data }));
}

addEventListener("message", keep);
channel.addEventListener("message", (event) => {
  if (event.data !== "open") return;
  opened = true;
  startIfOpened();
});
channel.postMessage("hello");
