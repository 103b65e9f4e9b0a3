// blocks.mjs: turns the static runnable blocks of a page into editable, runnable ones.
// What it is: mountBlocks(root) finds <div class="runnable"> (written by the runnable_fence hook)
// and gives each one a group role named "Python: <title>" (or "Python block N"), the buttons Run,
// Reset and Stop, a status line and an output log. The CodeMirror editor is imported only when
// the reader clicks or focuses the code, or runs it. All blocks of a page share one Python
// namespace in page order: running a block first runs, once, the earlier blocks not yet run.
// Mounting is idempotent, so Material's document$ (first load and every instant navigation) can
// call it freely; each visit of a page starts that page's namespace afresh.
// What it is not: Python (runtime.mjs and tutor/session.py run the code); it only renders.
import { runtime } from "../runtime/runtime.mjs";

const EDITOR_URL = new URL("../../vendor/codemirror/editor.js", import.meta.url);
const OUTPUT_LIMIT = 100_000; // characters of output kept per run; the rest is dropped with a note
const IDLE_START_TIMEOUT_MS = 2000;

let editorBundle = null;
const loadEditor = () => (editorBundle ??= import(EDITOR_URL.href));

/** Mount every not-yet-mounted runnable block under `root`, then start Python when the page is idle. */
export function mountBlocks(root) {
  const elements = [...root.querySelectorAll("div.runnable")];
  if (!elements.some((element) => !element.runnableBlock)) return;
  const page = elements.find((element) => element.runnableBlock)?.runnableBlock.page
    ?? new PageBlocks(location.pathname);
  elements.forEach((element, index) => {
    element.runnableBlock ??= new Block(element, index + 1, page);
  });
  page.blocks = elements.map((element) => element.runnableBlock);
  startPythonWhenIdle();
}

function startPythonWhenIdle() {
  const startSoon = () => {
    if (window.requestIdleCallback) requestIdleCallback(() => runtime.start(), { timeout: IDLE_START_TIMEOUT_MS });
    else setTimeout(() => runtime.start(), 0);
  };
  if (document.readyState === "complete") startSoon();
  else window.addEventListener("load", startSoon, { once: true });
}

/** The blocks of one page visit, the ones that have run, and the queue of runs. */
class PageBlocks {
  blocks = [];
  ran = new Set();
  session = null; // runtime.session the ran blocks belong to
  queue = Promise.resolve();
  stops = 0; // Stop presses so far: a queued request made before a Stop does not run

  constructor(key) {
    this.key = key;
  }

  /** Run `target` after any earlier blocks that have not run in the current interpreter. */
  request(target) {
    if (target.busy) return;
    target.setState("queued");
    const stopsSoFar = this.stops;
    this.queue = this.queue.then(() => this.runUpTo(target, stopsSoFar)).catch((error) => {
      if (target.busy) target.finish({ ok: false, error: `The block could not run: ${error.message}` });
    });
  }

  stop() {
    this.stops += 1;
    runtime.stop();
  }

  async runUpTo(target, stopsSoFar) {
    runtime.start();
    let fresh = this.session !== runtime.session;
    if (fresh) {
      this.ran.clear();
      this.session = runtime.session;
    }
    const earlier = this.blocks.slice(0, this.blocks.indexOf(target)).filter((block) => !this.ran.has(block));
    for (const block of earlier) block.setState("queued");
    let interrupted = false;
    for (const block of [...earlier, target]) {
      if (interrupted || this.stops !== stopsSoFar) {
        block.finish({ ok: false, stopped: true, error: "Not run: Stop was pressed." });
        continue;
      }
      const result = await block.execute(this.key, fresh);
      fresh = false;
      if (runtime.session !== this.session) {
        interrupted = true; // Python was restarted under us: what ran is gone
        this.ran.clear();
      } else {
        this.ran.add(block);
      }
      if (result.stopped) interrupted = true;
    }
  }
}

/** One runnable block: its controls, editor, status line and output. */
class Block {
  editor = null;
  editorOpening = null; // the promise of the editor being mounted, once asked for
  state = "idle";
  outputLength = 0;
  pendingOutput = [];
  flushScheduled = false;

  constructor(element, number, page) {
    this.element = element;
    this.page = page;
    this.original = element.dataset.source ?? element.querySelector("pre")?.textContent ?? "";
    const title = element.dataset.title;
    this.label = title ? `Python: ${title}` : `Python block ${number}`;
    this.filename = title ? `<${title}>` : `<block ${number}>`;
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", this.label);
    element.dataset.runs = "0";
    element.runnableCode = () => this.code();

    this.codeView = element.querySelector("pre");
    this.codeView.tabIndex = 0;
    this.codeView.addEventListener("click", () => this.openEditor({ focus: true }));
    this.codeView.addEventListener("focus", () => this.openEditor({ focus: true }));

    const bar = element.appendChild(document.createElement("div"));
    bar.className = "runnable__bar";
    this.runButton = button(bar, "Run", "runnable__run", () => this.page.request(this));
    this.resetButton = button(bar, "Reset", "runnable__reset", () => this.reset());
    this.stopButton = button(bar, "Stop", "runnable__stop", () => this.page.stop());
    this.statusText = bar.appendChild(document.createElement("span"));
    this.statusText.className = "runnable__status";
    this.progress = bar.appendChild(document.createElement("progress"));
    this.progress.max = 1;
    this.progress.hidden = true;
    this.progress.setAttribute("aria-label", "Python starting");

    this.output = element.appendChild(document.createElement("div"));
    this.output.className = "runnable__output";
    this.output.setAttribute("role", "log");
    this.output.setAttribute("aria-live", "polite");
    this.output.setAttribute("aria-label", `Output of ${this.label}`);

    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey || event.shiftKey) && !this.editor) {
        event.preventDefault();
        this.page.request(this);
      }
    });
    const unsubscribe = runtime.onStatus(() => {
      if (!element.isConnected && element.dataset.mounted === "true") unsubscribe?.();
      else this.renderStatus();
    });
    this.setState("idle");
    element.dataset.mounted = "true";
  }

  get busy() {
    return this.state === "queued" || this.state === "running";
  }

  code() {
    return this.editor ? this.editor.getCode() : this.original;
  }

  /** Import the editor bundle once and put an editor where the static code was. */
  openEditor({ focus }) {
    this.editorOpening ??= loadEditor().then(({ createEditor }) => {
      const host = document.createElement("div");
      host.className = "runnable__editor";
      this.codeView.replaceWith(host);
      this.editor = createEditor({
        parent: host,
        code: this.original,
        label: `${this.label}, code (Escape then Tab leaves the editor)`,
        onRun: () => this.page.request(this),
      });
    }).catch((error) => {
      this.editorOpening = null;
      this.statusText.textContent = `The editor could not load (${error.message}); the code still runs.`;
    });
    if (focus) this.editorOpening.then(() => this.editor?.focus());
    return this.editorOpening;
  }

  reset() {
    this.editor?.setCode(this.original);
    if (!this.busy) this.clearOutput();
  }

  async execute(pageKey, fresh) {
    this.clearOutput();
    this.openEditor({ focus: false });
    const result = await runtime.run({
      page: pageKey, code: this.code(), fresh, filename: this.filename,
      onStart: () => this.setState("running"),
      onOutput: (stream, text) => this.write(stream, text),
    });
    this.finish(result);
    return result;
  }

  /** Show how a run ended; a Python traceback already arrived on stderr, other errors are shown here. */
  finish(result) {
    if (!result.ok && !result.reported) this.write("stderr", `${result.error}\n`);
    this.flushOutput();
    this.element.dataset.runs = String(Number(this.element.dataset.runs) + 1);
    this.setState(result.ok ? "done" : result.stopped ? "stopped" : "error");
  }

  setState(state) {
    this.state = state;
    this.element.dataset.state = state;
    this.element.setAttribute("aria-busy", String(this.busy));
    this.stopButton.disabled = !this.busy;
    this.renderStatus();
  }

  renderStatus() {
    const { state, message, progress } = runtime.status;
    const starting = state === "starting" || (state === "error" && this.state !== "done");
    this.progress.hidden = state !== "starting";
    if (progress !== null) this.progress.value = progress;
    this.statusText.textContent = starting ? message : BLOCK_STATUS[this.state];
  }

  clearOutput() {
    this.output.replaceChildren();
    this.pendingOutput = [];
    this.outputLength = 0;
  }

  write(stream, text) {
    this.pendingOutput.push([stream, text]);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    requestAnimationFrame(() => this.flushOutput());
  }

  flushOutput() {
    this.flushScheduled = false;
    for (let [stream, text] of this.pendingOutput) {
      if (this.outputLength >= OUTPUT_LIMIT) continue;
      if (this.outputLength + text.length >= OUTPUT_LIMIT) {
        text = `${text.slice(0, OUTPUT_LIMIT - this.outputLength)}\n[output truncated: more than ${OUTPUT_LIMIT} characters]\n`;
      }
      this.outputLength += text.length;
      const last = this.output.lastElementChild;
      if (last?.dataset.stream === stream) last.append(text);
      else {
        const piece = this.output.appendChild(document.createElement("span"));
        piece.dataset.stream = stream;
        piece.className = `runnable__${stream}`;
        piece.textContent = text;
      }
    }
    this.pendingOutput = [];
  }
}

const BLOCK_STATUS = {
  idle: "",
  queued: "Waiting for Python…",
  running: "Running…",
  done: "",
  error: "Finished with an error",
  stopped: "Stopped",
};

function button(parent, name, className, onClick) {
  const element = parent.appendChild(document.createElement("button"));
  element.type = "button";
  element.className = `md-button ${className}`;
  element.textContent = name;
  element.addEventListener("click", onClick);
  return element;
}
