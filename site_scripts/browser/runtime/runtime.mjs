// runtime.mjs: the page's handle on Python, a thin layer over the worker in worker.mjs.
// What it is: one shared `runtime` object (start, startWhenNear, onStatus, ready, run, call, stop,
// restart, onRestart, useEngine, engineSource, onEngineChange) used by the runnable blocks, the
// figures and the engine's editor and banner. It starts the module worker (or, on a full page load
// that opens near a block or figure, adopts the one start-early.js already created, with the messages
// it sent meanwhile), forwards requests, streams output back and reports the state of Python; it
// also mirrors that state on
// <html data-python-state="..." data-python-session="N" data-python-boot="snapshot|plain"> (the
// last: how the current interpreter started, once ready).
// The page never waits on Python: everything is a message.
// What it is not: Python logic (tutor/session.py) or rendering (blocks, figures).
//
// Stop: on a cross-origin isolated page a shared interrupt flag raises KeyboardInterrupt and keeps
// every namespace. Otherwise (a plain static host), or when the code ignores the interrupt for
// INTERRUPT_GRACE_MS (one long C-level operation), the worker is terminated and a fresh one boots.
// A worker whose Python died (a fatal Pyodide error) is replaced the same way, and so is one the
// reader asks to restart. `runtime.session` then changes and onRestart listeners hear why, so the
// blocks can replay their definitions and tell the reader. The crash message says what is known (the
// browser's stack ran out, or the process was ended) and names a deep graph of Values as the cause
// only when Python said, before it died, that it held or was building one.
// Forged messages: code in a block can post messages to this page from the worker. Each worker gets a
// random token as its first message and tags everything it sends with it; anything else is ignored.
//
// Engine: the site runs the lesson's engine unless the reader applied an edited one (page "Edit the
// engine", engine-store.mjs keeps it). Every worker is sent a "configure" message with that source
// (null for the lesson's engine) as soon as the runtime has it, and installs it before it answers; a
// worker runs no lesson code before that message. useEngine() switches engines by replacing the
// worker, like a restart, or, while Python has not started on this page, only remembers the engine
// for when it starts (a reader who only reads never downloads Python). When another tab of the site applies or restores an
// engine, the runtime follows it the same way, so every open tab runs the stored engine.

import { onStoredEngineChange, storedEngine } from "../storage/engine-store.mjs";

// The page elements that use Python, the rule for when it starts (near the viewport) and the creation of
// its worker come from start-early.js, a classic script every page loads before its modules.
if (!globalThis.lessonPython) throw new Error("runtime.mjs needs start-early.js, loaded before it");
const { NEAR_VIEW_MARGIN, isNearView, createWorker, takeEarlyWorker } = globalThis.lessonPython;
const INTERRUPT_GRACE_MS = 800; // an interrupt not honoured by then falls back to a restart (Stop < 1 s)
// Besides a block or figure near the view, the reader pointing at, touching or focusing one starts Python.
const INTENT_EVENTS = ["pointerenter", "touchstart", "focusin"];
const SIGINT = 2;
const RESTART_MESSAGES = {
  stopped: "Stopped. Python had to be restarted to stop this code, so everything it defined was lost.",
  unresponsive: "Stopped. The code did not answer the interrupt (it was inside one long operation), "
    + "so Python was restarted and everything it defined was lost.",
  requested: "Python was restarted.",
  "engine-edited": "Python was restarted with your edited engine.",
  "engine-restored": "Python was restarted with the lesson's original engine.",
  "engine-edited-elsewhere": "Python was restarted with the edited engine you applied in another tab.",
  "engine-restored-elsewhere": "Python was restarted with the lesson's original engine, restored in another tab.",
};
const STACK_OVERFLOW = /call stack|stack size|too much recursion/i;
const PROCESS_ENDED = /Program terminated with exit\((-?\d+)\)/;

class Runtime {
  #worker = null;
  #interrupt = null; // Int32Array over a SharedArrayBuffer, when the page is cross-origin isolated
  #token = ""; // what tells the current worker's messages from forged ones
  #deepGraph = false; // the worker's Python holds (or a run is building) a chain of Values deep enough to crash it
  #pending = new Map(); // request id -> { resolve, onOutput, onStart, kind }
  #nextId = 1;
  #listeners = new Set();
  #restartListeners = new Set();
  #engineListeners = new Set();
  #status = { state: "idle", message: "Python has not started", progress: null };
  #ready = null;
  #settleReady = null;
  #nearView = null; // IntersectionObserver of startWhenNear(), until Python starts
  #engineSource = storedEngine(); // the reader's edited engine, or null for the lesson's own

  /** A number that changes whenever a new interpreter replaces the old one (all namespaces lost);
   *  0 until Python starts on this page. */
  session = 0;

  constructor() {
    onStoredEngineChange((source) => {
      if (source !== this.#engineSource) this.#switchEngine(source, true);
    });
  }

  /** Create the worker and boot Python, unless that has already happened; the first time, take the
   *  worker start-early.js created at load if there is one. Idempotent. */
  start() {
    if (this.#worker) return;
    this.#nearView?.disconnect();
    this.#nearView = null;
    this.session += 1;
    document.documentElement.dataset.pythonSession = String(this.session);
    delete document.documentElement.dataset.pythonBoot; // set again when this interpreter is ready
    this.#ready = new Promise((resolve, reject) => { this.#settleReady = { resolve, reject }; });
    this.#ready.catch(() => {}); // a failed start is reported through onStatus as well
    const { worker, token, interrupt, missed = [] } = takeEarlyWorker() ?? createWorker();
    this.#worker = worker;
    this.#token = token;
    this.#interrupt = interrupt;
    this.#deepGraph = false;
    worker.onmessage = ({ data }) => {
      if (data?.token === this.#token) this.#receive(data); // else forged by code in a block
    };
    worker.onerror = (event) => {
      if (worker !== this.#worker) return; // a replaced worker's late error is not the new one's
      const details = event.message || "no details";
      if (this.#status.state === "ready" || this.#status.state === "running") this.#restart("crashed", details);
      else this.#failed(`the Python worker failed to load (${details})`);
    };
    worker.postMessage({ type: "configure", engineSource: this.#engineSource }); // it waits for this
    for (const event of missed) (event.type === "error" ? worker.onerror : worker.onmessage)(event);
  }

  /** Start Python now if `element` (a block or a figure) is near the viewport, else once it nears it
   *  or the reader reaches for it. */
  startWhenNear(element) {
    if (this.#worker) return;
    if (isNearView(element)) {
      this.start(); // at once: an IntersectionObserver would only say so at the next frame
      return;
    }
    this.#nearView ??= new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.start();
    }, { rootMargin: `${NEAR_VIEW_MARGIN * 100}% 0px` });
    this.#nearView.observe(element);
    for (const type of INTENT_EVENTS) element.addEventListener(type, () => this.start(), { once: true, passive: true });
  }

  /** Promise resolved when Python can run (starts Python if needed); rejects if it cannot start. */
  get ready() {
    this.start();
    return this.#ready;
  }

  /** The latest status: { state: idle|starting|ready|running|error, message, progress }. */
  get status() {
    return this.#status;
  }

  /** Call fn(status) now and on every change; returns a function that unsubscribes. */
  onStatus(fn) {
    this.#listeners.add(fn);
    fn(this.#status);
    return () => this.#listeners.delete(fn);
  }

  /** Call fn({ reason, message }) after every restart (the new interpreter is already starting);
   *  reason: stopped|unresponsive|crashed|requested|engine-edited|engine-restored, or the last two
   *  with "-elsewhere" when another tab of the site changed the engine. Returns a
   *  function that unsubscribes. */
  onRestart(fn) {
    this.#restartListeners.add(fn);
    return () => this.#restartListeners.delete(fn);
  }

  /**
   * Run `code` in the namespace of `page`. onOutput(stream, text) receives stdout/stderr as it comes.
   * Optional: filename (shown in tracebacks), fresh (start the page's namespace anew),
   * onStart() (called when the code actually starts executing).
   * Resolves to { ok: true } or { ok: false, error } — never rejects.
   */
  run({ page, code, onOutput = () => {}, filename = "<python block>", fresh = false, onStart = () => {} }) {
    if (typeof page !== "string" || typeof code !== "string") {
      return Promise.resolve({ ok: false, error: "runtime.run needs { page: string, code: string }" });
    }
    return this.#request({ type: "run", page, code, filename, fresh }, { kind: "run", onOutput, onStart });
  }

  /**
   * The page's one way to call the lesson's Python: `module`.`fn`(**kwargs), where module is a figure
   * model ("tutor.figures.line_fit"), "tutor.exercises" or "tutor.engine_edit" and fn one of the
   * functions tutor.session allows. With `page`, the function also gets that page's namespace (the
   * exercises' checks). onStart() is called when Python starts on the call. Resolves to the function's
   * JSON-able result; rejects with a PythonCallError carrying Python's exception type and message
   * (type "Stopped" when Stop or a restart ended the call, "Crashed" when Python died).
   */
  async call(module, fn, kwargs = {}, { page = null, onStart = () => {} } = {}) {
    const result = await this.#request({ type: "call", module, fn, kwargs, page }, { kind: "call", onStart });
    if (result.ok && result.answer.ok) return result.answer.value;
    throw new PythonCallError(result.ok ? result.answer
      : { type: result.crashed ? "Crashed" : result.stopped ? "Stopped" : "Error", message: result.error });
  }

  /** Stop what Python is running now (interrupt, or restart when interrupts are unavailable). */
  stop() {
    if (!this.#worker || this.#pending.size === 0) return;
    if (this.#interrupt && this.#status.state !== "starting") {
      this.#interrupt[0] = SIGINT;
      Atomics.notify(this.#interrupt, 0); // wakes a time.sleep at once
      const interrupted = [...this.#pending.keys()];
      this.#worker.postMessage({ type: "interrupt", ids: interrupted }); // for a run that waits in an await
      setTimeout(() => {
        if (interrupted.some((id) => this.#pending.has(id))) this.#restart("unresponsive");
      }, INTERRUPT_GRACE_MS);
    } else {
      this.#restart("stopped");
    }
  }

  /** Replace Python by a fresh interpreter (the reader's "Restart Python"); waiting requests end. */
  restart() {
    this.#restart("requested");
  }

  /** The source of the edited engine Python runs (or will run once started), or null for the lesson's. */
  get engineSource() {
    return this.#engineSource;
  }

  /** Run `source` as the engine from now on (null: the lesson's engine). If Python has started on
   *  this page, a fresh interpreter that installs it replaces the current one, and onRestart listeners
   *  hear "engine-edited" or "engine-restored"; if not, Python installs it when it starts. Saving the
   *  choice for later visits is the caller's job (engine-store.mjs). */
  useEngine(source) {
    this.#switchEngine(source, false);
  }

  /** Call fn({ source, fromAnotherTab }) whenever the engine changes: through useEngine() or because
   *  another tab of the site changed the stored engine. Returns a function that unsubscribes. */
  onEngineChange(fn) {
    this.#engineListeners.add(fn);
    return () => this.#engineListeners.delete(fn);
  }

  #switchEngine(source, fromAnotherTab) {
    this.#engineSource = source;
    const reason = `${source === null ? "engine-restored" : "engine-edited"}${fromAnotherTab ? "-elsewhere" : ""}`;
    if (this.session > 0) this.#restart(reason);
    for (const fn of this.#engineListeners) fn({ source, fromAnotherTab });
  }

  #request(message, handlers) {
    this.start();
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve, ...handlers });
      if (this.#interrupt) this.#interrupt[0] = 0; // cleared here, before posting, so no Stop is lost
      this.#worker.postMessage({ ...message, id });
    });
  }

  #receive(data) {
    const request = this.#pending.get(data.id);
    switch (data.type) {
      case "status":
        this.#setStatus(data);
        if (data.boot) document.documentElement.dataset.pythonBoot = data.boot; // "snapshot" or "plain"
        if (data.state === "ready") this.#settleReady.resolve();
        if (data.state === "error") this.#settleReady.reject(new Error(data.message));
        break;
      case "begin":
        request?.onStart?.();
        break;
      case "output":
        request?.onOutput?.(data.stream, data.text);
        break;
      case "result":
        this.#deepGraph = Boolean(data.deepGraph);
        this.#pending.delete(data.id);
        request?.resolve(data);
        break;
      case "deep-graph":
        this.#deepGraph = true;
        break;
      case "fatal":
        this.#restart("crashed", data.message);
        break;
    }
  }

  #setStatus({ state, message, progress = null }) {
    this.#status = { state, message, progress };
    document.documentElement.dataset.pythonState = state;
    for (const fn of this.#listeners) fn(this.#status);
  }

  /** The worker itself failed: report it; the next request tries a fresh worker. */
  #failed(message) {
    this.#setStatus({ state: "error", message: `Python could not start: ${message}` });
    this.#settleReady.reject(new Error(message));
    this.#worker.terminate();
    this.#worker = null;
    this.#finishPending(`Python could not start: ${message}`);
  }

  /** Replace the worker by a fresh one; every request still waiting ends, saying why. */
  #restart(reason, cause = "") {
    const message = reason === "crashed" ? crashMessage(cause, this.#deepGraph) : RESTART_MESSAGES[reason];
    this.#worker?.terminate();
    this.#worker = null;
    this.#interrupt = null;
    this.#finishPending(message, reason === "crashed" ? { crashed: true } : { stopped: true });
    this.start();
    for (const fn of this.#restartListeners) fn({ reason, message });
  }

  #finishPending(message, how = { stopped: true }) {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of waiting) request.resolve({ ok: false, ...how, error: message });
  }
}

/** Why a runtime.call() failed: `type` is Python's exception name (or "Stopped", "Crashed", "Error" when
 *  the call never finished in Python), `message` its message, `traceback` Python's traceback if any. */
export class PythonCallError extends Error {
  constructor({ type, message, traceback = "" }) {
    super(message);
    this.name = "PythonCallError";
    this.type = type;
    this.traceback = traceback;
  }

  /** True when the reader's Stop (an interrupt, or the restart that replaced it) ended the call. */
  get stopped() {
    return this.type === "Stopped" || this.type === "KeyboardInterrupt";
  }
}

/** What to tell the reader when Python died: what is known, and the likely cause. `deepGraph`: Python
 *  said it held, or was building, a chain of Values deep enough to overflow the stack when freed. */
export function crashMessage(cause, deepGraph) {
  const ended = PROCESS_ENDED.exec(cause);
  if (ended) {
    return `The code ended Python's process itself (exit status ${ended[1]}), so Python was restarted `
      + "and everything defined so far was lost.";
  }
  const message = `Python crashed (${cause || "no details"}) and was restarted, so everything defined so far was lost.`;
  if (!STACK_OVERFLOW.test(cause)) return message;
  if (deepGraph) {
    return `${message} The browser's small stack ran out while Python held a very deep chain of Values, `
      + "hundreds or thousands built one on another in a loop: freeing such a chain nests one call per Value. "
      + "Call backward() on such a result before deleting or replacing it: the engine then frees its graph safely.";
  }
  return `${message} The browser's small stack ran out: some code went too deep, one nested call at a time, `
    + "for example a recursion through a very deeply nested structure (lists inside lists, objects that "
    + "hold one another) while printing, comparing or freeing it. Make the structure or the recursion shallower.";
}

export const runtime = new Runtime();
// A worker start-early.js created at load is adopted at once: from here on the page counts it as started.
if (globalThis.lessonPython.hasEarlyWorker()) runtime.start();
