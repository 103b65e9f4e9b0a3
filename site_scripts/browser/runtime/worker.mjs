// worker.mjs: the module Web Worker that hosts Python (Pyodide) for one page and its navigations.
// What it is: it boots Pyodide from the site's own copy while it downloads and unzips the lesson's
// wheels (tinygrad, tutor) from the site, installs them (wheels.mjs), then answers "run" and "call"
// messages one at a time by calling tutor.session. Every URL is derived from import.meta.url, so
// any sub-path works.
// Pyodide starts from the build's memory snapshot (snapshot.mjs) when it can, else the plain way.
// What it is not: the page's API (runtime.mjs) nor the Python logic (session.py).
//
// Messages in:  {type: "interrupt-buffer", buffer}            (optional, before anything else)
//               {type: "engine-source", source}               (optional, before anything else: the
//                                                              reader's edited engine, see engine_edit.py)
//               {type: "run", id, page, code, filename, fresh}
//               {type: "call", id, module, fn, kwargs, page}  (page: null, or whose namespace to pass)
// Messages out: {type: "status", state, message, progress}    progress 0..1 while starting; the
//                                                              "ready" after boot adds boot: "snapshot"|"plain"
//               {type: "begin", id} {type: "output", id, stream, text}
//               {type: "result", id, ok, error?, answer?}     answer: tutor.session.call's structured
//                                                              answer {ok, value} or {ok: false, type, message}
//               {type: "fatal", message}
import { loadPyodide, version } from "../../../vendor/pyodide/pyodide.mjs";
import { SNAPSHOT_PATH, startPyodide } from "./snapshot.mjs";
import { installWheel, readWheel } from "./wheels.mjs";

const PYODIDE_URL = new URL("../../../vendor/pyodide/", import.meta.url);
const WHEELS_URL = new URL("../../../wheels/", import.meta.url);
const SNAPSHOT_URL = new URL(`../../../${SNAPSHOT_PATH}`, import.meta.url);

let interruptBuffer = null;
let engineSource = null; // the reader's edited engine, installed in place of the lesson's at boot
let queue = Promise.resolve();
const booted = boot();
booted.catch(() => {}); // reported as a status; requests get the error as their result

self.onmessage = ({ data }) => {
  if (data.type === "interrupt-buffer") {
    interruptBuffer = data.buffer;
    return;
  }
  if (data.type === "engine-source") {
    engineSource = data.source;
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
  self.postMessage({ type: "fatal", message: error?.message ?? String(error) });
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
  self.postMessage({ type: "status", state, message, progress, ...details });
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
    const session = pyodide.pyimport("tutor.session");
    if (engineSource !== null) installEditedEngine(pyodide);
    session.configure();
    status("ready", "Python is ready", 1, { boot: started.boot });
    return session;
  } catch (error) {
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
function installEditedEngine(pyodide) {
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

async function answer(request) {
  let session;
  try {
    session = await booted;
  } catch (error) {
    self.postMessage({ type: "result", id: request.id, ok: false, error: `Python could not start: ${error.message}` });
    return;
  }
  self.postMessage({ type: "begin", id: request.id });
  status("running", "Running…");
  try {
    self.postMessage({ type: "result", id: request.id, ...(await perform(session, request)) });
  } catch (error) {
    if (error.pyodide_fatal_error) {
      reportFatal(error); // the interpreter itself failed; the page replaces this worker
      return;
    }
    self.postMessage({ type: "result", id: request.id, ok: false, error: error.message });
  }
  status("ready", "Python is ready");
}

async function perform(session, request) {
  if (request.type === "run") {
    const emit = (stream, text) => self.postMessage({ type: "output", id: request.id, stream, text });
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
