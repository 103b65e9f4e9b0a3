// register.mjs: registers the site's service worker (offline cache + cross-origin isolation) from any page.
// What it is: `registerOffline()`, called once by main.mjs. It registers <site root>/service-worker.js for
// the whole site (the root is derived from this module's URL, so a sub-path such as /repo/ works). A page
// is never reloaded to become cross-origin isolated: on a host without isolation headers (GitHub Pages)
// the first visit keeps the document it painted, and its Python, while the service worker installs and
// takes control of it; Stop restarts Python there, and isolation comes with the reader's next full page
// load, which the service worker answers with the headers. An untouched page is reloaded once when a new
// build's worker took over (a page the reader touched shows the new build from the next chapter they
// open). It asks for a new build now and then, since instant navigation makes no page loads that would
// check for one. Once Python has booted in the page and then been left alone for a moment, it asks the
// service worker to keep a copy of the whole lesson (Python included), shows in the footer how far that
// copy is ("Saving the lesson for offline use… 40%", then "Saved for offline use", asked again whenever it
// may have gone stale) and marks <html data-offline="ready"> when it is complete. loadFailure() words a module the page could not load.
// What it is not: the service worker itself (service-worker.js), nor anything the lesson needs to run:
// without service workers (file://, plain http from another machine, old browsers) Python still works,
// just not offline and with Stop restarting Python instead of interrupting it.
import { runtime } from "../runtime/runtime.mjs";

const SITE_ROOT = new URL("../../../../", import.meta.url);  // this file is <root>/assets/lesson/browser/offline/
const WORKER_URL = new URL("service-worker.js", SITE_ROOT);
const BUILD_TIMING = "lesson-build";  // service-worker.js names the build of each page it answers in Server-Timing
const UPDATE_CHECK_INTERVAL_MS = 10 * 60 * 1000;
const INTERACTIONS = ["pointerdown", "keydown", "wheel", "touchstart"];

let newBuildWaiting = false;    // a new build's worker took over: show it once that loses nothing
let readerTouchedPage = false;  // any click, key, wheel or touch since this page was shown

// A new build reloads only a page the reader has not touched (no edits or output to lose, no jump while
// reading); otherwise it waits for the next page they open through instant navigation.
function showNewBuildWhenSafe() {
  newBuildWaiting = true;
  if (!readerTouchedPage) location.reload();
}

function watchNavigation(registration) {
  let lastUpdateCheck = Date.now();
  const checkForNewBuild = () => {
    if (Date.now() - lastUpdateCheck < UPDATE_CHECK_INTERVAL_MS) return;
    lastUpdateCheck = Date.now();
    registration.update().catch(() => {});  // offline: try again later
  };
  // A page shown by instant navigation is a new page; its address may gain a #heading at any time
  // (Material's navigation.tracking, which can even write the previous page's heading into it).
  let shownPath = location.pathname;
  globalThis.document$?.subscribe(() => {
    if (location.pathname === shownPath) return;
    shownPath = location.pathname;
    readerTouchedPage = false;
    if (newBuildWaiting) showNewBuildWhenSafe();
    else checkForNewBuild();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") checkForNewBuild();
  });
}

// Listened for from the start: a new build's worker may take over while the page still loads, before
// register() has its answer (a listener added only then missed it, and the page kept the old build).
// It may even take over before this module runs: no controllerchange is left to hear then, so the page
// also asks its worker which build it serves and compares that with the build that answered the
// document (the worker names it in the document's Server-Timing header). In 3 of about 10 whole test
// runs the takeover came that early and the page kept the old build. The first worker taking control
// of a page (a first visit, or a page loaded with a hard reload, which bypasses the worker) is no new
// build: that page simply stays as it is.
function watchController() {
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled) showNewBuildWhenSafe();
    controlled = true;
  });
  const documentBuild = performance.getEntriesByType("navigation")[0]?.serverTiming
    ?.find((entry) => entry.name === BUILD_TIMING)?.description;
  if (documentBuild) {
    navigator.serviceWorker.addEventListener("message", ({ data }) => {
      if (data?.type === "build" && data.version !== documentBuild) showNewBuildWhenSafe();
    });
    navigator.serviceWorker.controller?.postMessage({ type: "build" });
  }
}

async function register() {
  const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: SITE_ROOT.href, updateViaCache: "none" });
  watchNavigation(registration);
}

// Where the offline copy stands, in words; shown in every page's footer (a polite status line).
const OFFLINE_TEXT = {
  "not-precached": () => "Not saved for offline use yet: it is saved once a block or a figure has run.",
  "precache-progress": ({ percent }) => `Saving the lesson for offline use… ${percent}%`,
  precached: () => "Saved for offline use",
  "precache-failed": ({ message }) => `Saving for offline use stopped (${message}); it is tried again when Python next starts.`,
};
let offlineText = "";

function showOfflineStatus() {
  const footer = document.querySelector(".md-footer-meta__inner");
  if (!footer || !offlineText) return;
  let line = footer.querySelector(".lesson-offline-status");
  if (!line) {
    line = footer.appendChild(document.createElement("p"));
    line.className = "md-copyright lesson-offline-status";
    line.setAttribute("role", "status");
  }
  if (line.textContent !== offlineText) line.textContent = offlineText;
}

function sayOfflineStatus(status) {
  if (status.type === "precached") document.documentElement.dataset.offline = "ready";
  else delete document.documentElement.dataset.offline;
  offlineText = OFFLINE_TEXT[status.type](status);
  showOfflineStatus();
}

// The copy may be gone while the page stays open (the reader cleared the site's data): asked again on each
// page instant navigation shows and each time the tab comes back into view. No service worker (or none
// allowed): not saved.
async function askOfflineStatusAgain() {
  const registration = await navigator.serviceWorker.getRegistration(SITE_ROOT.href).catch(() => null);
  const worker = navigator.serviceWorker.controller ?? registration?.active;
  if (worker) worker.postMessage({ type: "offline-status" });
  else if (!registration) sayOfflineStatus({ type: "not-precached" });
}

// Only a reader who used Python pays for the offline copy of it (about 21 MB). The copy competes for the
// processor and the disk with whatever the reader does next, so it waits for a quiet moment: on the
// 2-core test machine a first visit's chapter switch right after the first result took 489 ms with the
// copy running and 186 ms without (./dev.sh bench --only first_visit_switch --repeats 5).
const COPY_AFTER_QUIET_MS = 2000;
function precacheOncePythonRan() {
  navigator.serviceWorker.addEventListener("message", ({ data }) => {
    if (data?.type in OFFLINE_TEXT) sayOfflineStatus(data);
  });
  globalThis.document$?.subscribe(() => {  // instant navigation replaces the footer
    showOfflineStatus();
    if (offlineText) askOfflineStatusAgain();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && offlineText) askOfflineStatusAgain();
  });
  navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: "offline-status" }));
  let asked = false;
  let timer = null;
  // Asked for once Python has been ready, with nothing run and no chapter opened, for COPY_AFTER_QUIET_MS.
  const askWhenQuiet = () => {
    clearTimeout(timer);
    if (asked || runtime.status.state !== "ready") return;
    timer = setTimeout(() => {
      asked = true;
      navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ type: "precache" }));
    }, COPY_AFTER_QUIET_MS);
  };
  runtime.onStatus(askWhenQuiet);
  globalThis.document$?.subscribe(askWhenQuiet);
}

/** A plain message for a module the page could not load (a figure's view, show()'s graph): offline,
 *  what the offline copy does not hold yet is "not saved for offline use yet", not a failed fetch. */
export function loadFailure(what, error) {
  if (navigator.onLine === false || (error instanceof TypeError && document.documentElement.dataset.offline !== "ready")) {
    return `${what} is not saved for offline use yet: open the lesson once more while online and let it finish saving.`;
  }
  return `${what} could not be loaded: ${error.message}`;
}

export function registerOffline() {
  if (!("serviceWorker" in navigator)) return;
  for (const type of INTERACTIONS) {
    addEventListener(type, () => { readerTouchedPage = true; }, { capture: true, passive: true });
  }
  precacheOncePythonRan();
  watchController();
  const start = () => register().catch((error) => {
    console.warn(`The lesson will not work offline: its service worker could not be registered (${error.message}).`);
  });
  // Precaching competes with the page for bandwidth: start once the page itself has loaded.
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
}
