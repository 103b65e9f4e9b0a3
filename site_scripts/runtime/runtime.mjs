// runtime.mjs: the page's handle on Python, a thin layer over the worker in worker.mjs.
// What it is: one shared `runtime` object (start, onStatus, ready, run, call, stop) used by the
// runnable blocks and the figures. It creates the module worker, forwards requests, streams
// output back and reports the state of Python; it also mirrors that state on <html
// data-python-state="...">. The page never waits on Python: everything is a message.
// What it is not: Python logic (tutor/session.py) or rendering (blocks, widgets).
//
// Stop: on a cross-origin isolated page a shared interrupt flag raises KeyboardInterrupt and keeps
// every namespace. Otherwise (a plain static host) the worker is terminated and a fresh one
// boots; `runtime.session` then changes, which tells callers that earlier definitions are gone.

const WORKER_URL = new URL("./worker.mjs", import.meta.url);
const INTERRUPT_GRACE_MS = 1500; // an interrupt not honoured by then falls back to a restart
const SIGINT = 2;

class Runtime {
  #worker = null;
  #interrupt = null; // Int32Array over a SharedArrayBuffer, when the page is cross-origin isolated
  #pending = new Map(); // request id -> { resolve, onOutput, onStart, kind }
  #nextId = 1;
  #listeners = new Set();
  #status = { state: "idle", message: "Python has not started", progress: null };
  #ready = null;
  #settleReady = null;

  /** A number that changes whenever a new interpreter replaces the old one (all namespaces lost). */
  session = 0;

  /** Create the worker and boot Python, unless that has already happened. Idempotent. */
  start() {
    if (this.#worker) return;
    this.session += 1;
    this.#ready = new Promise((resolve, reject) => { this.#settleReady = { resolve, reject }; });
    this.#ready.catch(() => {}); // a failed start is reported through onStatus as well
    this.#worker = new Worker(WORKER_URL, { type: "module", name: "python" });
    this.#worker.onmessage = ({ data }) => this.#receive(data);
    this.#worker.onerror = (event) => this.#failed(`the Python worker failed to load (${event.message || "no details"})`);
    if (globalThis.crossOriginIsolated) {
      this.#interrupt = new Int32Array(new SharedArrayBuffer(4));
      this.#worker.postMessage({ type: "interrupt-buffer", buffer: this.#interrupt });
    }
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

  /** Call tutor.widgets.<widget>.<fn>(**kwargs); resolves to its JSON result, rejects with an Error. */
  async call(widget, fn, kwargs = {}) {
    const result = await this.#request({ type: "call", widget, fn, kwargs }, { kind: "call" });
    if (!result.ok) throw new Error(result.error);
    return result.value;
  }

  /** Stop what Python is running now (interrupt, or restart when interrupts are unavailable). */
  stop() {
    if (!this.#worker || this.#pending.size === 0) return;
    if (this.#interrupt && this.#status.state !== "starting") {
      this.#interrupt[0] = SIGINT;
      const session = this.session;
      setTimeout(() => { if (this.session === session && this.#pending.size > 0) this.#restart(); }, INTERRUPT_GRACE_MS);
    } else {
      this.#restart();
    }
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
        this.#pending.delete(data.id);
        request?.resolve(data);
        break;
      case "fatal":
        this.#restart(`Python crashed (${data.message}) and was restarted; earlier definitions are gone.`);
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

  /** Replace the worker by a fresh one; every request still waiting ends with `reason`. */
  #restart(reason = "Stopped. Python was restarted, so definitions from earlier blocks are gone.") {
    this.#worker?.terminate();
    this.#worker = null;
    this.#interrupt = null;
    this.#finishPending(reason);
    this.start();
  }

  #finishPending(reason) {
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const request of waiting) request.resolve({ ok: false, stopped: true, error: reason });
  }
}

export const runtime = new Runtime();
