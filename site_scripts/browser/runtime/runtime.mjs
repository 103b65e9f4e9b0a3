// runtime.mjs: the page's handle on Python: the worker in worker.mjs, and when it starts, restarts and runs which engine.
// What it is: one shared `runtime` object (start, startWhenNear, onStatus, ready, run, call,
// answering, stop, restart, close, onRestart, useEngine, engineSource, onEngineChange) used by the runnable blocks, the
// figures and the engine's editor and banner. It starts the module worker (or, on a full page load
// that opens near a block or figure, adopts the one start-early.js already created, with the messages
// it sent meanwhile), and is the page's one adapter of the contract (contract.mjs, written from
// tutor/runtime/contract.py): it sends the requests, reads the events, and turns every way a request
// can end into a value with an error kind, never text to match. It reports the state of Python and
// mirrors it on
// <html data-python-state="..." data-python-interpreter="N" data-python-boot="snapshot|plain"> (the
// last: how the current interpreter started, once ready).
// The page never waits on Python: everything is a message. Each request may carry a `label` saying
// who asked, in the reader's words ("the figure “Loss landscape”"): `answering` names the request
// Python works on now and since when, so what waits behind it can say what it waits for.
// What it is not: Python logic (tutor/runtime/) or rendering (blocks, figures).
//
// Stop: on a cross-origin isolated page a shared interrupt flag raises KeyboardInterrupt and keeps
// every namespace. Otherwise (a plain static host), or when the request Python was working on ignores
// the interrupt for INTERRUPT_GRACE_MS (one long C-level operation), the worker is terminated and a
// fresh one boots.
// A worker whose Python died (a fatal Pyodide error) is replaced the same way, and so is one the
// reader asks to restart. `runtime.interpreter` then changes and onRestart listeners hear why, so the
// blocks can replay their definitions and tell the reader (whether the definitions are back or lost is
// theirs to say: the restart's message only says why Python was replaced). The crash message says what is known (the
// worker's kind of the fatal error: the browser's stack ran out, or the process was ended) and names a
// deep graph of Values as the cause only when Python said, before it died, that it held or was
// building one.
// Forged messages: code in a block can post messages to this page from the worker. Each worker gets a
// random token as its first message and tags everything it sends with it; anything else is ignored.
//
// Engine: the site runs the lesson's engine unless the reader applied an edited one (page "Edit the
// engine", engine-store.mjs keeps it). Every worker is sent a "configure" request with that source
// (null for the lesson's engine) as soon as the runtime has it, first, so Python installs it before
// it answers anything else; if it cannot, Python counts as not started. useEngine() switches engines by replacing the
// worker, like a restart, or, while Python has not started on this page, only remembers the engine
// for when it starts (a reader who only reads never downloads Python). When another tab of the site applies or restores an
// engine, the runtime follows it the same way, so every open tab runs the stored engine.
//
// A separate Python (separateRuntime()): another Runtime with a worker of its own, for the class overview's
// checks of learners' code. It always runs the lesson's engine, never follows other tabs, shows nothing on
// <html>, never takes start-early.js's worker, and close() ends it for good.

import { onStoredEngineChange, storedEngine } from "../storage/engine-store.mjs";
import { ERROR, EVENT, REQUEST } from "./contract.mjs";

// The page elements that use Python, the rule for when it starts (near the viewport) and the creation of
// its worker come from start-early.js, a classic script every page loads before its modules.
if (!globalThis.lessonPython) throw new Error("runtime.mjs needs start-early.js, loaded before it");
const { NEAR_VIEW_MARGIN, isNearView, createWorker, takeEarlyWorker } = globalThis.lessonPython;
const INTERRUPT_GRACE_MS = 800; // an interrupt not honoured by then falls back to a restart (Stop < 1 s)
// Besides a block or figure near the view, the reader pointing at, touching or focusing one starts Python.
const INTENT_EVENTS = ["pointerenter", "touchstart", "focusin"];
const SIGINT = 2;
const RESTART_MESSAGES = {
  stopped: "Stopped. Python had to be restarted to stop this code.",
  unresponsive: "Stopped. The code did not answer the interrupt (it was inside one long operation), "
    + "so Python was restarted.",
  requested: "Python was restarted.",
  "engine-edited": "Python was restarted with your edited engine.",
  "engine-restored": "Python was restarted with the lesson's original engine.",
  "engine-edited-elsewhere": "Python was restarted with the edited engine you applied in another tab.",
  "engine-restored-elsewhere": "Python was restarted with the lesson's original engine, restored in another tab.",
};
// The error kind of a request that a restart for this reason ended (Python never answered it).
const RESTART_ERRORS = { stopped: ERROR.STOPPED, unresponsive: ERROR.STOPPED, crashed: ERROR.CRASHED };

class Runtime {
  #worker = null;
  #interrupt = null; // Int32Array over a SharedArrayBuffer, when the page is cross-origin isolated
  #interrupted = new Set(); // ids of the requests a Stop interrupted that Python has not answered yet
  #token = ""; // what tells the current worker's messages from forged ones
  #deepGraph = false; // the worker's Python holds (or a run is building) a chain of Values deep enough to crash it
  #pending = new Map(); // request id -> { resolve, onOutput, onGraph, onStart, onPrinted, kind, label, since }
  #nextId = 1;
  #listeners = new Set();
  #restartListeners = new Set();
  #engineListeners = new Set();
  #status = { state: "idle", message: "Python has not started", progress: null };
  #ready = null;
  #settleReady = null;
  #nearView = null; // IntersectionObserver of startWhenNear(), until Python starts
  #engineSource; // the reader's edited engine, or null for the lesson's own
  #forPage; // the page's own Python (else a separate one: see the header)

  /** A number that changes whenever a new interpreter replaces the old one (all namespaces lost);
   *  0 until Python starts on this page. */
  interpreter = 0;

  constructor({ forPage = true } = {}) {
    this.#forPage = forPage;
    this.#engineSource = forPage ? storedEngine() : null;
    if (!forPage) return;
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
    this.interpreter += 1;
    if (this.#forPage) {
      document.documentElement.dataset.pythonInterpreter = String(this.interpreter);
      delete document.documentElement.dataset.pythonBoot; // set again when this interpreter is ready
    }
    this.#ready = new Promise((resolve, reject) => { this.#settleReady = { resolve, reject }; });
    this.#ready.catch(() => {}); // a failed start is reported through onStatus as well
    const { worker, token, interrupt, missed = [] } = (this.#forPage ? takeEarlyWorker() : null) ?? createWorker();
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
      if (this.#status.state === "ready" || this.#status.state === "running") {
        this.#restart("crashed", { kind: ERROR.FATAL, message: details });
      }
      else this.#failed(`the Python worker failed to load (${details})`);
    };
    this.#configure(worker);
    for (const event of missed) (event.type === "error" ? worker.onerror : worker.onmessage)(event);
  }

  /** The first request of every worker: which engine Python runs. If Python cannot install it, Python
   *  counts as not started (the reader can still restore the lesson's engine). */
  #configure(worker) {
    this.#request({ kind: REQUEST.CONFIGURE, engineSource: this.#engineSource }, { kind: REQUEST.CONFIGURE })
      .then((result) => {
        if (!result.ok && worker === this.#worker && result.error.kind !== ERROR.NOT_STARTED) {
          this.#failed(result.error.message);
        }
      });
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

  /** The latest status: { state: idle|starting|ready|running|error, message, progress, newBuild }
   *  (newBuild: Python refused to start because the site now serves a newer build than this page's). */
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
   * Run `code` in the namespace of `page`. onOutput(stream, text) receives stdout, stderr and the page's
   * notes as they come, onGraph(graph) each graph show() draws ({ title, states }), in order with them.
   * Optional: filename (shown in tracebacks), fresh (start the page's namespace anew), check (Python then
   * checks its own machinery still answers, even after a run that succeeded: error broken when it does not),
   * onStart() (called when the code actually starts executing), label (who runs it, for `answering`).
   * Resolves to { ok, report, error, engineChanged, tasksLeft }, never rejects: report is what the output already
   * showed of an error ("" if nothing), error null or { kind, message, ... } (contract.mjs ERROR: exception,
   * stopped, exit, restarted, crashed, not-started, ...), engineChanged whether the run changed the
   * lesson's engine, tasksLeft whether an asyncio task it started ignored its cancellation and goes on (a
   * restart replays neither).
   */
  async run({ page, code, onOutput = () => {}, onGraph = () => {}, filename = "<python block>", fresh = false,
              check = false, onStart = () => {}, label = "a code block" }) {
    if (typeof page !== "string" || typeof code !== "string") {
      return { ok: false, report: "", engineChanged: false,
               error: { kind: ERROR.BAD_REQUEST, message: "runtime.run needs { page: string, code: string }" } };
    }
    const result = await this.#request({ kind: REQUEST.RUN, page, code, filename, fresh, check },
                                       { kind: REQUEST.RUN, onOutput, onGraph, onStart, label });
    return { ok: result.ok, report: result.report ?? "", error: result.error ?? null,
             engineChanged: result.engineChanged === true, tasksLeft: result.tasksLeft === true };
  }

  /**
   * The page's one way to call the lesson's Python: `module`.`fn`(**kwargs), where module is a module
   * of the tutor package that lists fn in its PAGE_CALLS (a figure model "tutor.figures.line_fit",
   * "tutor.exercises", "tutor.engine_edit"). With `page`, the function also gets that page's namespace
   * (the exercises' checks). onStart() is called when Python starts on the call; onPrinted({ lines,
   * first }) when the function printed something (how many lines, and the first few: Python keeps them
   * from the console); label says who calls, for `answering`. Resolves to the function's JSON-able
   * value; rejects with a PythonCallError carrying the error's kind (contract.mjs ERROR), Python's
   * exception type for an exception, the message, and what the function printed.
   */
  async call(module, fn, kwargs = {}, { page = null, onStart = () => {}, onPrinted = () => {}, label = "the page" } = {}) {
    const result = await this.#request({ kind: REQUEST.CALL, module, fn, kwargs, page }, { kind: REQUEST.CALL, onStart, label });
    if (result.printedLines > 0) onPrinted({ lines: result.printedLines, first: result.printed ?? "" });
    if (result.ok) return result.value;
    throw new PythonCallError({ ...result.error, printed: result.printed ?? "" });
  }

  /** The request Python works on now, if any besides the first configure: { label, since } (since:
   *  performance.now() when Python began it), else null. */
  get answering() {
    for (const request of this.#pending.values()) {
      if (request.since !== null && request.kind !== REQUEST.CONFIGURE) return { label: request.label, since: request.since };
    }
    return null;
  }

  /** Stop what Python is running now (interrupt, or restart when interrupts are unavailable). */
  stop() {
    const running = [...this.#pending].filter(([, request]) => request.kind !== REQUEST.CONFIGURE);
    if (!this.#worker || running.length === 0) return;
    // A second Stop (a double-click) while the first one's interrupt is under way is ignored: it would
    // interrupt Python once it has answered, in its own code or in the next request.
    if (running.every(([id]) => this.#interrupted.has(id))) return;
    if (this.#interrupt && this.#status.state !== "starting") {
      this.#interrupt[0] = SIGINT;
      Atomics.notify(this.#interrupt, 0); // wakes a time.sleep at once
      const interrupted = running.map(([id]) => id);
      for (const id of interrupted) this.#interrupted.add(id);
      this.#worker.postMessage({ kind: REQUEST.STOP, ids: interrupted }); // for a run that waits in an await
      // The interrupt reaches the request Python works on now; those queued behind it start afterwards
      // and may take long in their turn without having ignored anything.
      const begun = running.filter(([, request]) => request.since !== null).map(([id]) => id);
      const watched = begun.length > 0 ? begun : interrupted;
      setTimeout(() => {
        if (watched.some((id) => this.#pending.has(id))) this.#restart("unresponsive");
      }, INTERRUPT_GRACE_MS);
    } else {
      this.#restart("stopped");
    }
  }

  /** Replace Python by a fresh interpreter (the reader's "Restart Python"); waiting requests end. */
  restart() {
    this.#restart("requested");
  }

  /** End this Python for good (a separate one, once done): its worker ends at once and every waiting request
   *  ends as stopped; a later request would start a fresh one. */
  close() {
    this.#worker?.terminate();
    this.#worker = null;
    this.#interrupt = null;
    this.#interrupted.clear();
    this.#finishPending({ kind: ERROR.STOPPED, message: "Stopped." });
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
    if (this.interpreter > 0) this.#restart(reason);
    for (const fn of this.#engineListeners) fn({ source, fromAnotherTab });
  }

  #request(message, handlers) {
    this.start();
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve, label: "a request of the page", ...handlers, since: null });
      if (this.#interrupt) this.#interrupt[0] = 0; // cleared here, before posting, so no Stop is lost
      this.#worker.postMessage({ ...message, id });
    });
  }

  #receive(data) {
    const request = this.#pending.get(data.id);
    switch (data.kind) {
      case EVENT.STATUS:
        this.#setStatus(data);
        if (data.boot && this.#forPage) document.documentElement.dataset.pythonBoot = data.boot; // "snapshot" or "plain"
        if (data.state === "ready") this.#settleReady.resolve();
        if (data.state === "error") this.#settleReady.reject(new Error(data.message));
        break;
      case EVENT.BEGIN:
        if (request) request.since = performance.now();
        if (request && request.kind !== REQUEST.CONFIGURE) this.#setStatus({ state: "running", message: "Running…" });
        request?.onStart?.();
        break;
      case EVENT.OUTPUT:
        request?.onOutput?.(data.stream, data.text);
        break;
      case EVENT.GRAPH:
        request?.onGraph?.(data.graph);
        break;
      case EVENT.RESULT:
        this.#deepGraph = Boolean(data.deepGraph);
        this.#pending.delete(data.id);
        // An interrupt Python has not taken by the time the interrupted requests are answered would stop the next one.
        if (this.#interrupted.delete(data.id) && this.#interrupted.size === 0 && this.#interrupt) this.#interrupt[0] = 0;
        if (this.#status.state === "running") this.#setStatus({ state: "ready", message: "Python is ready" });
        request?.resolve(data);
        break;
      case EVENT.DEEP_GRAPH:
        this.#deepGraph = true;
        break;
      case EVENT.FATAL:
        this.#restart("crashed", data.error);
        break;
    }
  }

  #setStatus({ state, message, progress = null, newBuild = false }) {
    this.#status = { state, message, progress, newBuild };
    if (this.#forPage) document.documentElement.dataset.pythonState = state;
    for (const fn of this.#listeners) fn(this.#status);
  }

  /** The worker itself failed: report it; the next request tries a fresh worker. */
  #failed(message) {
    this.#setStatus({ state: "error", message: `Python could not start: ${message}` });
    this.#settleReady.reject(new Error(message));
    this.#worker.terminate();
    this.#worker = null;
    this.#finishPending({ kind: ERROR.NOT_STARTED, message: `Python could not start: ${message}` });
  }

  /** Replace the worker by a fresh one; every request still waiting ends, saying why. `fatal`: for a
   *  crash, the fatal event's error ({ kind: stack-overflow | process-exit | fatal, message, status }). */
  #restart(reason, fatal = null) {
    const message = reason === "crashed" ? crashMessage(fatal, this.#deepGraph) : RESTART_MESSAGES[reason];
    this.#worker?.terminate();
    this.#worker = null;
    this.#interrupt = null;
    this.#interrupted.clear();
    const kind = RESTART_ERRORS[reason] ?? ERROR.RESTARTED;
    this.#finishPending(kind === ERROR.CRASHED ? { kind, message, cause: fatal?.kind ?? ERROR.FATAL } : { kind, message });
    this.start();
    for (const fn of this.#restartListeners) fn({ reason, message });
  }

  /** End every request still waiting with `error` (an error value), as if Python had answered it. */
  #finishPending(error) {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of waiting) request.resolve({ kind: EVENT.RESULT, ok: false, report: "", error });
  }
}

/** Why a runtime.call() failed: `kind` is the error's kind (contract.mjs ERROR), `type` Python's exception
 *  name for an exception (else the kind), `message` its message, `traceback` Python's traceback if any,
 *  `printed` what the called function printed. */
export class PythonCallError extends Error {
  constructor({ kind, type = kind, message, traceback = "", printed = "" }) {
    super(message);
    this.name = "PythonCallError";
    this.kind = kind;
    this.type = type;
    this.traceback = traceback;
    this.printed = printed;
  }

  /** True when the reader's Stop (an interrupt, or the restart that replaced it) or a restart ended the call. */
  get stopped() {
    return endedByStop(this);
  }
}

/** Whether the error value `error` (null for success) says the request ended by Stop (an interrupt, or
 *  a restart that replaced it) or by another restart (Restart Python, another engine) before Python
 *  answered: what the reader asked for, not a failure of their code. */
export function endedByStop(error) {
  return error?.kind === ERROR.STOPPED || error?.kind === ERROR.RESTARTED;
}

/** What to tell the reader when Python died: what is known, and the likely cause. `fatal`: the worker's
 *  error value of what killed it; `deepGraph`: Python said it held, or was building, a chain of Values
 *  deep enough to overflow the stack when freed. */
export function crashMessage(fatal, deepGraph) {
  if (fatal?.kind === ERROR.PROCESS_EXIT) {
    return `The code ended Python's process itself (exit status ${fatal.status}), so Python was restarted.`;
  }
  const message = `Python crashed (${fatal?.message || "no details"}) and was restarted.`;
  if (fatal?.kind !== ERROR.STACK_OVERFLOW) return message;
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

/** A Python of its own beside the page's (see the header), started by its first request. */
export function separateRuntime() {
  return new Runtime({ forPage: false });
}
// A worker start-early.js created at load is adopted at once: from here on the page counts it as started.
if (globalThis.lessonPython.hasEarlyWorker()) runtime.start();
