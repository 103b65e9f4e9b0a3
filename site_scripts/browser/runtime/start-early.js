// start-early.js: the rule for when Python starts, the one way its worker is created, and, on a full
// page load, that worker created as early as the page allows.
// What it is: a classic script that main.html places right after the page's content, before Material's
// bundle and before every module of the lesson. It defines `lessonPython` on the page's global object:
//   PYTHON_ELEMENTS   the page elements that use Python, as the build's hooks write them;
//   isNearView(el)    the rule: Python (about 12 MB to download) starts only for a reader who may use
//                     it, when a block or figure is within NEAR_VIEW_MARGIN viewport heights above or
//                     below the viewport (or the reader points at, touches or focuses one: runtime.mjs);
//   createWorker()    a new module Web Worker running worker.mjs, already sent its first messages: the
//                     token that tells its messages from forged ones, with the page's build, and, on a cross-origin isolated
//                     page, the shared interrupt flag. Returns { worker, token, interrupt }.
//   takeEarlyWorker() the worker this script created at load, with what it said meanwhile, or null
//                     (hasEarlyWorker() says whether there is one to take).
// runtime.mjs takes all of them from here (it is the page's handle on Python). Then this script applies
// the rule at once: when a block or figure is near the view, it creates the worker right away, so that
// Python's download and start-up begin before Material's bundle and the lesson's modules have even
// loaded; the worker keeps its messages and errors until runtime.mjs adopts it, and it waits for the
// page's "configure" message (which engine to run) before it runs any lesson code. It also imports
// runtime.mjs, so the page has its runtime even if main.mjs never arrives.
// Why: on a first visit the lesson's modules arrive one import level after another, behind Material's
// bundle, and only then did the worker start downloading Python (about 12 MB). Measured on the 2-core
// test machine through a 40 Mbit/s link with 40 ms per request (./dev.sh bench, "link" rows): the
// worker is now created about 0.8 s after navigation instead of 1.3-1.5 s, and a first visit's first
// result comes about 0.3-0.5 s sooner (5.3 against 5.6-5.8 s). From a local server, where the start-up
// is bound by the processor rather than the downloads, the first result comes no sooner.
// What it is not: the page's API (runtime.mjs), nor a second rule: pages reached by instant navigation
// are left to main.mjs, which mounts their blocks and figures and applies the same rule.
(() => {
  const script = document.currentScript;
  const WORKER_URL = new URL("./worker.mjs", script.src);
  const PYTHON_ELEMENTS = "div.runnable, [data-widget]";
  const NEAR_VIEW_MARGIN = 0.75;
  // The build of Python's files this page belongs to (overrides/main.html; null on a page without it).
  const PAGE_BUILD = document.querySelector('meta[name="lesson-python-build"]')?.content ?? null;

  /** Whether `element` is displayed within NEAR_VIEW_MARGIN of the viewport: what runtime.mjs's
   *  IntersectionObserver reports later, asked now. */
  function isNearView(element) {
    if (element.getClientRects().length === 0) return false; // not displayed
    const box = element.getBoundingClientRect();
    const margin = innerHeight * NEAR_VIEW_MARGIN;
    return box.bottom >= -margin && box.top <= innerHeight + margin && box.right >= 0 && box.left <= innerWidth;
  }

  function createWorker() {
    performance.mark("lesson-python-worker"); // when the page created Python's worker (the benchmark reads it)
    const worker = new Worker(WORKER_URL, { type: "module", name: "python" });
    const token = newToken();
    worker.postMessage({ type: "token", token, build: PAGE_BUILD }); // the worker refuses another build's Python
    let interrupt = null;
    // WebKitGTK isolates a page yet has no SharedArrayBuffer: there Stop replaces the worker, as elsewhere.
    if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
      interrupt = new Int32Array(new SharedArrayBuffer(4));
      worker.postMessage({ type: "interrupt-buffer", buffer: interrupt });
    }
    return { worker, token, interrupt };
  }

  /** A random string no code in the worker can guess. */
  function newToken() {
    return [...crypto.getRandomValues(new Uint32Array(4))].map((part) => part.toString(36)).join("-");
  }

  let early = null;
  function takeEarlyWorker() {
    const taken = early;
    early = null;
    if (taken) taken.worker.onmessage = taken.worker.onerror = null;
    return taken;
  }

  const hasEarlyWorker = () => early !== null;
  globalThis.lessonPython = Object.freeze({ PYTHON_ELEMENTS, NEAR_VIEW_MARGIN, isNearView, createWorker,
                                            takeEarlyWorker, hasEarlyWorker });

  if ([...document.querySelectorAll(PYTHON_ELEMENTS)].some(isNearView)) {
    const created = { ...createWorker(), missed: [] }; // missed: its messages and errors until adopted
    created.worker.onmessage = created.worker.onerror = (event) => created.missed.push(event);
    early = created;
  }
  import(new URL("./runtime.mjs", script.src).href).then(({ runtime }) => {
    for (const element of document.querySelectorAll(PYTHON_ELEMENTS)) runtime.startWhenNear(element);
  });
})();
