// worker.mjs: the module Web Worker that hosts Python (Pyodide) for one page and its navigations.
// What it is: it boots Pyodide from the site's own copy while it downloads and unzips the lesson's
// wheels (tinygrad, tutor) from the site, installs them (wheels.mjs), then answers "run" and "call"
// messages one at a time by calling tutor.session. Every URL is derived from import.meta.url, so
// any sub-path works.
// Pyodide starts from the build's memory snapshot (snapshot.mjs) when it can, else the plain way.
// What it is not: the page's API (runtime.mjs) nor the Python logic (session.py).
//
// Messages in:  {type: "token", token}                       (first: see "Forged messages" below)
//               {type: "interrupt-buffer", buffer}            (optional, before anything else)
//               {type: "configure", engineSource}             (from the page's runtime once it has this
//                                                              worker, which may be a moment after
//                                                              start-early.js created it: the reader's
//                                                              edited engine, or null for the lesson's,
//                                                              see engine_edit.py; the worker starts
//                                                              Pyodide meanwhile, but runs no lesson code
//                                                              and is not ready before it)
//               {type: "run", id, page, code, filename, fresh}
//               {type: "interrupt", ids}                      Stop, on an isolated page, beside the flag in
//                                                              the interrupt buffer: a run among `ids` that
//                                                              waits in an await is cancelled (an idle Python
//                                                              never looks at the flag)
//               {type: "call", id, module, fn, kwargs, page}  (page: null, or whose namespace to pass)
// Messages out: {type: "status", state, message, progress}    progress 0..1 while starting; the
//                                                              "ready" after boot adds boot: "snapshot"|"plain"
//               {type: "begin", id} {type: "output", id, stream, text}
//               {type: "result", id, ok, error?, answer?, deepGraph, changedEngine}
//                                                              answer: tutor.session.call's structured
//                                                              answer {ok, value} or {ok: false, type, message};
//                                                              deepGraph: Python now holds a chain of Values
//                                                              that may crash it when freed; changedEngine:
//                                                              this run changed the lesson's engine (the
//                                                              page does not replay it after a restart)
//               {type: "deep-graph"}                          a run is building such a chain (sent at once)
//               {type: "fatal", message}
// Forged messages: the reader's code can post messages to the page too (`import js;
// js.postMessage(...)`). Every message out carries the token the page sent first, before any Python
// ran, and the page ignores messages without it. The token and the posting function are kept in this
// module's scope, which Python cannot reach (it sees only the worker's global object).
// time.sleep: Python's own needs WebAssembly stack switching, which a worker started from the snapshot
// lacks; tutor.session gets `wait` instead, which blocks the worker with Atomics.wait (on the interrupt
// buffer when the page is isolated, so Stop wakes it at once) or, where no shared memory exists, a
// busy wait of at most one slice.
import { loadPyodide, version } from "../../../vendor/pyodide/pyodide.mjs";
import { SNAPSHOT_PATH, startPyodide } from "./snapshot.mjs";
import { installWheel, readWheel } from "./wheels.mjs";

const PYODIDE_URL = new URL("../../../vendor/pyodide/", import.meta.url);
const WHEELS_URL = new URL("../../../wheels/", import.meta.url);
const SNAPSHOT_URL = new URL(`../../../${SNAPSHOT_PATH}`, import.meta.url);

const postToPage = self.postMessage.bind(self); // the reader's code may replace self.postMessage
// close() from a block (`js.close()`) would end this worker silently, and the page would wait forever.
for (const scope of [Object.getPrototypeOf(self), self]) {
  try {
    Object.defineProperty(scope, "close", {
      value: () => { throw new Error("close() would end the worker that runs Python, so the page does not allow it"); },
      writable: false, configurable: false,
    });
  } catch { /* a browser that does not let it be replaced */ }
}
let token = null;
let tokenArrived; // resolved by the page's first message: nothing is posted before it (the page would drop it)
const tokenReceived = new Promise((resolve) => { tokenArrived = resolve; });
let interruptBuffer = null;
let configure; // resolves to the page's configuration: { engineSource }
const configured = new Promise((resolve) => { configure = resolve; });
let queue = Promise.resolve();
let current = null; // the request Python is answering
let session = null; // tutor.session, once booted
const booted = tokenReceived.then(boot);
booted.catch(() => {}); // reported as a status; requests get the error as their result

/** Post `message` to the page, with the token that tells it from a message the reader's code forged. */
function post(message) {
  postToPage({ ...message, token });
}

self.onmessage = ({ data }) => {
  if (data.type === "token") {
    token ??= data.token;
    tokenArrived();
    return;
  }
  if (data.type === "interrupt-buffer") {
    interruptBuffer = data.buffer;
    return;
  }
  if (data.type === "configure") {
    configure({ engineSource: data.engineSource ?? null });
    return;
  }
  if (data.type === "interrupt") {
    // This handler runs only while Python is idle: a run in progress is waiting in an await.
    if (current && data.ids.includes(current.id) && interruptBuffer && session) {
      Atomics.store(interruptBuffer, 0, 0); // seen by nobody: the cancelled run reports the Stop itself
      session.stop_waiting_run();
    }
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
  post({ type: "fatal", message: error?.message ?? String(error) });
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
  post({ type: "status", state, message, progress, ...details });
}

async function boot() {
  try {
    status("starting", "Downloading Python…", 0.1);
    const lessonWheels = fetchLessonWheels(); // downloaded and unzipped while Pyodide boots
    const lessonFiles = lessonWheels.then((wheels) => Promise.all(wheels.map((wheel) => readWheel(wheel))));
    lessonFiles.catch(() => {});              // awaited below; this only avoids an unhandled rejection
    // From the build's memory snapshot when it can (much faster), else the plain way; same result.
    const started = await startPyodide({ loadPyodide, version, indexURL: PYODIDE_URL.href,
                                         snapshotURL: SNAPSHOT_URL.href, lessonWheels });
    const pyodide = started.pyodide;
    status("starting", "Installing the engine…", 0.85);
    await installLessonWheels(pyodide, lessonWheels, lessonFiles);
    if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
    const { engineSource } = await configured;
    session = pyodide.pyimport("tutor.session");
    if (engineSource !== null) installEditedEngine(pyodide, engineSource);
    session.configure(waiter(), () => post({ type: "deep-graph" }));
    status("ready", "Python is ready", 1, { boot: started.boot });
    return session;
  } catch (error) {
    console.error(`Python could not start: ${error.message}`); // for whoever hosts the site, too
    status("error", `Python could not start: ${error.message}`);
    throw error;
  }
}

/** Install the lesson's wheels: write their files (unzipped meanwhile) where Python imports from;
 *  micropip would take more than half a second on every boot. A browser that cannot inflate them
 *  (DecompressionStream "deflate-raw" came after Pyodide's oldest browsers) has Python unpack them. */
async function installLessonWheels(pyodide, lessonWheels, lessonFiles) {
  let wheelsFiles;
  try {
    wheelsFiles = await lessonFiles;
  } catch (error) {
    console.info(`The wheels are unpacked by Python instead: ${error.message}`);
    for (const wheel of await lessonWheels) pyodide.unpackArchive(wheel, "wheel");
    return;
  }
  for (const files of wheelsFiles) installWheel(pyodide, files);
}

/** Make the next `import tinygrad` load the reader's edited engine (tutor.engine_edit.install). */
function installEditedEngine(pyodide, engineSource) {
  try {
    pyodide.pyimport("tutor.engine_edit").install(engineSource);
  } catch (error) {
    throw new Error(`your edited engine could not be installed (${error.message})`);
  }
}

/** The bytes of the lesson's wheels (wheels.json "packages": tinygrad, tutor). Revalidated, like
 *  the list, because a new build keeps the wheels' names. */
async function fetchLessonWheels() {
  const manifest = await (await fetchFromSite(new URL("wheels.json", WHEELS_URL))).json();
  return Promise.all(manifest.packages.map(
    async (name) => (await fetchFromSite(new URL(name, WHEELS_URL))).arrayBuffer()));
}

async function fetchFromSite(url) {
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
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

async function answer(request) {
  try {
    await booted;
  } catch (error) {
    post({ type: "result", id: request.id, ok: false, error: `Python could not start: ${error.message}` });
    return;
  }
  post({ type: "begin", id: request.id });
  status("running", "Running…");
  current = request;
  try {
    const result = await perform(session, request);
    post({ type: "result", id: request.id, ...result, ...facts(session) });
  } catch (error) {
    if (error.pyodide_fatal_error) {
      reportFatal(error); // the interpreter itself failed; the page replaces this worker
      return;
    }
    post({ type: "result", id: request.id, ok: false, error: error.message });
  } finally {
    current = null;
  }
  status("ready", "Python is ready");
}

/** What the page must know after a request: whether Python holds a chain of Values that may crash it
 *  when freed, and whether the last run changed the engine (false when Python cannot say). */
function facts(session) {
  try {
    return { deepGraph: session.holds_deep_graph(), changedEngine: session.changed_engine === true };
  } catch {
    return { deepGraph: false, changedEngine: false };
  }
}

async function perform(session, request) {
  if (request.type === "run") {
    const emit = (stream, text) => post({ type: "output", id: request.id, stream, text });
    const report = await session.run.callKwargs(request.page, request.code, emit,
      { filename: request.filename, fresh: request.fresh });
    return report ? { ok: false, error: report, reported: true } : { ok: true };
  }
  if (request.type === "call") {
    const answer = session.call(request.module, request.fn, JSON.stringify(request.kwargs ?? {}), request.page ?? undefined); // undefined: None (null would be jsnull)
    return { ok: true, answer: JSON.parse(answer) };
  }
  return { ok: false, error: `Unknown request type ${JSON.stringify(request.type)}` };
}
