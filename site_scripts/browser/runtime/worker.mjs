// worker.mjs: the module Web Worker that hosts Python (Pyodide) for one page and its navigations.
// What it is: the carrier between the page and the lesson's Python. It boots Pyodide from the site's
// own copy while it downloads and unzips the lesson's wheels (tinygrad, tutor) from the site,
// installs them (wheels.mjs), and takes from Python, once, the dispatcher of the contract
// (tutor.runtime.dispatcher; the kinds are in contract.mjs, written from tutor/runtime/contract.py).
// Then it only carries messages: every request from the page goes to that dispatcher as JSON (one
// at a time, in order; a "stop" at once, since it must reach a run that waits in an await), and
// every event Python sends, and each answer, goes back to the page. It adds the two events only
// JavaScript can see: "status" (the start: progress, then ready or error) and "fatal" (Python itself
// died; what killed it is classified here, once, into an error kind: stack-overflow, process-exit or
// fatal), and answers a request with "not-started" when Python could not start, or with "broken"
// when it cannot carry one (something a block changed in this worker's JavaScript). The dispatcher is
// the function Python gave at boot, so a block that replaces names of the tutor package cannot cut
// the line, and the JSON functions it carries with are taken at load, before any block could replace
// them (`js.JSON.parse = None`). Every URL is derived from import.meta.url, so any sub-path works.
// Pyodide starts from the build's memory snapshot (snapshot.mjs) when it can, else the plain way.
// Every file it downloads must prove to be the build's, else it is fetched once more (downloads.mjs);
// and the build must be the page's own: else it says that a new version of the lesson is available.
// What it is not: the page's API (runtime.mjs) nor the Python logic (tutor/runtime/).
//
// Transport messages, which never reach Python:
//   {type: "token", token}             first (see "Forged messages" below)
//   {type: "interrupt-buffer", buffer} optional, before anything else: the shared interrupt flag of Stop
//                                      on a cross-origin isolated page (a "stop" clears it when Python
//                                      is idle, since the cancelled await reports the Stop itself)
// Requests and events: contract.mjs. The page sends "configure" first, as soon as its runtime has this
// worker (which may be a moment after start-early.js created it): no lesson code runs before it, since
// requests are answered in order.
// Forged messages: the reader's code can post messages to the page too (`import js;
// js.postMessage(...)`). Every message out carries the token the page sent first, before any Python
// ran, and the page ignores messages without it. The token and the posting function are kept in this
// module's scope, which Python cannot reach (it sees only the worker's global object).
// time.sleep: Python's own needs WebAssembly stack switching, which a worker started from the snapshot
// lacks; the dispatcher gets `wait` instead, which blocks the worker with Atomics.wait (on the interrupt
// buffer when the page is isolated, so Stop wakes it at once) or, where no shared memory exists, a
// busy wait of at most one slice.
import { loadPyodide, version } from "../../../vendor/pyodide/pyodide.mjs";
import { SNAPSHOT_PATH, startPyodide } from "./snapshot.mjs";
import { installWheel, readWheel } from "./wheels.mjs";
import { checkBuilt, fetchBuilt, pythonBuild } from "./downloads.mjs";
import { AT_ONCE, ERROR, EVENT } from "./contract.mjs";

const PYODIDE_URL = new URL("../../../vendor/pyodide/", import.meta.url);
const WHEELS_URL = new URL("../../../wheels/", import.meta.url);
const SNAPSHOT_URL = new URL(`../../../${SNAPSHOT_PATH}`, import.meta.url);

const postToPage = self.postMessage.bind(self); // the reader's code may replace self.postMessage
const { parse: parseJSON, stringify: toJSON } = JSON; // and JSON's functions (`import js; js.JSON.parse = None`)
// close() from a block (`js.close()`) would end this worker silently, and the page would wait forever.
for (const scope of [Object.getPrototypeOf(self), self]) {
  try {
    Object.defineProperty(scope, "close", {
      value: () => { throw new Error("close() would end the worker that runs Python, so the page does not allow it"); },
      writable: false, configurable: false,
    });
  } catch { /* a browser that does not let it be replaced */ }
}

// Reader code runs in this worker, and the worker shares the site's origin: through `js.caches` it could
// rewrite the offline copy that the service worker serves to every page, and through IndexedDB, the
// origin's file system or a worker of its own, other storage of the site. None of it is Python's to use:
// once Pyodide has started, each way in is replaced, on the global object and up its prototype chain,
// by a getter that refuses in plain words and cannot be replaced again.
const NO_STORAGE = "Python in this lesson has no access to the site's storage";
const STORAGE_WAYS = [
  [self, ["caches", "indexedDB", "Worker", "SharedWorker", "BroadcastChannel", "cookieStore"]],
  [navigator, ["storage", "serviceWorker", "storageBuckets"]],
];
function withholdOriginStorage() {
  const refuse = () => { throw new Error(NO_STORAGE); };
  for (const [holder, names] of STORAGE_WAYS) {
    for (const name of names) {
      for (let scope = holder; scope !== null; scope = Object.getPrototypeOf(scope)) {
        if (scope !== holder && !Object.hasOwn(scope, name)) continue;
        delete scope[name];
        Object.defineProperty(scope, name, { get: refuse, set: refuse, configurable: false });
      }
    }
  }
}
let token = null;
let pageBuild = null; // the build of Python's files the page belongs to (sent with the token)
let tokenArrived; // resolved by the page's first message: nothing is posted before it (the page would drop it)
const tokenReceived = new Promise((resolve) => { tokenArrived = resolve; });
let interruptBuffer = null;
let queue = Promise.resolve();
let dispatch = null; // tutor.runtime.dispatcher's dispatch(request_text), taken once at boot
const booted = tokenReceived.then(boot);
booted.catch(() => {}); // reported as a status; requests get the error as their result

/** Post `message` to the page, with the token that tells it from a message the reader's code forged. */
function post(message) {
  postToPage({ ...message, token });
}

self.onmessage = ({ data }) => {
  if (data.type === "token") {
    token ??= data.token;
    pageBuild ??= data.build ?? null;
    tokenArrived();
    return;
  }
  if (data.type === "interrupt-buffer") {
    interruptBuffer = data.buffer;
    return;
  }
  if (AT_ONCE.includes(data.kind)) {
    // This handler runs only while Python is idle: a run in progress is waiting in an await, and the flag
    // would be seen by nobody (the cancelled run reports the Stop itself).
    if (interruptBuffer) Atomics.store(interruptBuffer, 0, 0);
    if (dispatch) dispatch(toJSON(data)).catch(reportIfFatal);
    return;
  }
  queue = queue.then(() => answer(data));
};

// A fatal error can also escape Pyodide outside any awaited call (for example while Python frees a
// very deep graph in an event-loop task): report it, or the page would wait for a result forever.
let fatalReported = false;
function reportFatal(error) {
  if (fatalReported) return;
  fatalReported = true;
  post({ kind: EVENT.FATAL, error: fatalError(error) });
}

function reportIfFatal(error) {
  if (error?.pyodide_fatal_error) reportFatal(error);
}

/** What killed Python, as an error value: Pyodide passes on what Emscripten threw, an exit status
 *  (`status`: os._exit underneath) or the engine's stack overflow (RangeError; InternalError in Firefox). */
function fatalError(error) {
  const message = error?.message ?? String(error);
  if (Number.isInteger(error?.status)) return { kind: ERROR.PROCESS_EXIT, message, status: error.status };
  if (error instanceof RangeError || error?.name === "InternalError") return { kind: ERROR.STACK_OVERFLOW, message };
  return { kind: ERROR.FATAL, message };
}

self.addEventListener("unhandledrejection", (event) => {
  if (!event.reason?.pyodide_fatal_error) return;
  event.preventDefault();
  reportFatal(event.reason);
});
self.addEventListener("error", (event) => {
  if (!event.error?.pyodide_fatal_error) return;
  event.preventDefault();
  reportFatal(event.error);
});

function status(state, message, progress = null, details = {}) {
  post({ kind: EVENT.STATUS, state, message, progress, ...details });
}

async function boot() {
  try {
    status("starting", "Downloading Python…", 0.1);
    const lessonWheels = fetchLessonWheels(); // downloaded and unzipped while Pyodide boots
    const lessonFiles = lessonWheels.then((wheels) => Promise.all(wheels.map((wheel) => readWheel(wheel))));
    lessonFiles.catch(() => {});              // awaited below; this only avoids an unhandled rejection
    // From the build's memory snapshot when it can (much faster), else the plain way; same result.
    const [started] = await Promise.all([startPyodide({ loadPyodide, version, indexURL: PYODIDE_URL.href,
                                                       snapshotURL: SNAPSHOT_URL.href, lessonWheels }),
                                         samePageBuild()]);
    const pyodide = started.pyodide;
    status("starting", "Installing the engine…", 0.85);
    for (const files of await lessonFiles) installWheel(pyodide, files);
    if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
    const runtime = pyodide.pyimport("tutor.runtime.dispatcher");
    const dispatcher = runtime.dispatcher((event) => post(parseJSON(event)), waiter());
    runtime.destroy();
    withholdOriginStorage(); // before the first request, so before any reader code
    dispatch = dispatcher;
    status("ready", "Python is ready", 1, { boot: started.boot });
  } catch (error) {
    if (error instanceof NewBuild) {
      status("error", error.message, null, { newBuild: true });
      throw error;
    }
    console.error(`Python could not start: ${error.message}`); // for whoever hosts the site, too
    status("error", `Python could not start: ${error.message}`);
    throw error;
  }
}

/** The site now serves another build of Python's files than the page's own (a redeploy, and a new
 *  service worker took over): this worker must not run it under the page (issue #39). */
class NewBuild extends Error {}
async function samePageBuild() {
  const served = (await pythonBuild()).version;
  if (pageBuild !== null && served !== pageBuild) {
    throw new NewBuild("A new version of the lesson is available — reload the page to run Python "
      + "(your edits are kept).");
  }
}

/** The bytes of the lesson's wheels (wheels.json "packages": tinygrad, tutor), each the build's
 *  (downloads.mjs). Revalidated, like the list, because a new build keeps the wheels' names. */
async function fetchLessonWheels() {
  const manifest = JSON.parse(new TextDecoder().decode(await fetchFromSite(new URL("wheels.json", WHEELS_URL))));
  return Promise.all(manifest.packages.map((name) => fetchFromSite(new URL(name, WHEELS_URL))));
}

function fetchFromSite(url) {
  return fetchBuilt(url.href, async (answer) => {
    const bytes = await answer.arrayBuffer();
    await checkBuilt(url.href, bytes);
    return bytes;
  }, { cache: "no-cache" });
}

/** The blocking wait time.sleep uses (see the header): wait(seconds) blocks the worker for at most that
 *  long and answers true if Stop was pressed (the flag is then cleared: Python raises KeyboardInterrupt). */
function waiter() {
  let cell = interruptBuffer; // Atomics.wait returns at once, or when notified, once Stop set it
  if (!cell) {
    try {
      cell = new Int32Array(new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer);
    } catch {
      cell = null; // no shared memory in this browser without isolation: busy wait
    }
  }
  return (seconds) => {
    const milliseconds = Math.max(0, seconds * 1000);
    if (cell) {
      Atomics.wait(cell, 0, 0, milliseconds);
    } else {
      const end = performance.now() + milliseconds;
      while (performance.now() < end) { /* nothing else can run in this worker meanwhile anyway */ }
    }
    return cell === interruptBuffer && Atomics.exchange(cell, 0, 0) !== 0;
  };
}

/** Hand `request` to Python and carry its answer back; a request Python cannot get is answered here. */
async function answer(request) {
  try {
    await booted;
  } catch (error) {
    const message = error instanceof NewBuild ? error.message : `Python could not start: ${error.message}`;
    post({ kind: EVENT.RESULT, id: request.id, ok: false, error: { kind: ERROR.NOT_STARTED, message } });
    return;
  }
  try {
    const reply = await dispatch(toJSON(request));
    if (reply !== undefined) post(parseJSON(reply));
  } catch (error) {
    if (error?.pyodide_fatal_error) {
      reportFatal(error); // the interpreter itself failed; the page replaces this worker
      return;
    }
    const type = error?.type ?? error?.name ?? "Error";
    post({ kind: EVENT.RESULT, id: request.id, ok: false,
           error: { kind: ERROR.BROKEN, type, message: `The worker that carries Python's answers failed (${type}: `
             + `${error?.message ?? String(error)}), not your code: a block changed something it relies on. `
             + "Press Restart Python to get a fresh Python." } });
  }
}
