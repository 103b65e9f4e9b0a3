// blocks.mjs: turns the static runnable blocks of a page into editable, runnable ones.
// What it is: mountBlocks(root) finds <div class="runnable"> (written by the runnable_fence hook)
// and gives each one a group role named "Python: <title>" (or "Python block N"), the buttons Run,
// Reset, Stop and Restart Python, a status line and an output log; after the page's content it
// adds a "Clear my saved edits" button. The CodeMirror editor is imported only when the reader
// clicks or focuses the code, runs it, or comes back to a block they edited before.
// All blocks of a page share one Python namespace in page order: running a block first runs, once,
// the earlier blocks not yet run. When Python is restarted (Stop on a page that cannot interrupt,
// a crash, Restart Python), the blocks whose last run succeeded are re-run quietly, in page order,
// to restore the reader's definitions, and the block concerned says so.
// Edits are saved in the browser (saved-edits.mjs) and restored on the next visit, with a notice
// when the lesson's own code changed since. Mounting is idempotent, so Material's document$ (first
// load and every instant navigation) can call it freely; each visit of a page starts that page's
// namespace afresh.
// A run's "graph" output items (from show(value)) become figures under the output log, in order
// (shown_graph.mjs, loaded on first use); running the block again clears them.
// What it is not: Python (runtime.mjs and tutor/session.py run the code, and cap its output).
import { runtime } from "../runtime/runtime.mjs";
import { fingerprint, forgetAllEdits, forgetEdit, saveEdit, savedEdit } from "./saved-edits.mjs";
import { loadFailure } from "../offline/register.mjs";

const EDITOR_URL = new URL("../../../vendor/codemirror/editor.mjs", import.meta.url);
const SHOWN_GRAPH_URL = new URL("../../tutor/widgets/shown_graph.mjs", import.meta.url);

let editorBundle = null;
/** The CodeMirror bundle (createEditor), imported once; the engine editor uses it too. */
export const loadEditor = () => (editorBundle ??= import(EDITOR_URL.href));

/** Mount every not-yet-mounted runnable block under `root`; Python starts when one nears the view. */
export function mountBlocks(root) {
  const elements = [...root.querySelectorAll("div.runnable")];
  if (!elements.some((element) => !element.runnableBlock)) return;
  const page = elements.find((element) => element.runnableBlock)?.runnableBlock.page
    ?? new PageBlocks(location.pathname);
  elements.forEach((element, index) => {
    element.runnableBlock ??= new Block(element, index + 1, page);
  });
  page.blocks = elements.map((element) => element.runnableBlock);
  page.mountEditsPanel(elements.at(-1));
  for (const element of elements) runtime.startWhenNear(element);
}

/** The blocks of one page visit, the ones that have run, and the queue of runs. */
class PageBlocks {
  blocks = [];
  ran = new Set(); // blocks that ran in the current interpreter (they are not run again as predecessors)
  succeeded = new Map(); // block -> the code of its last run, when that run succeeded (replayed after a restart)
  stoppedWith = new Map(); // block -> the code of its last run, when Stop ended that run
  session = null; // runtime.session the ran blocks belong to
  queue = Promise.resolve();
  stops = 0; // Stop presses so far: a queued request made before a Stop does not run
  running = null; // the block Python is running now
  lastRun = null; // the block that ran last: it reports restarts that no block caused
  restartRequestedBy = null;
  replaying = false;
  editsStatus = null;
  storageFailureShown = false;

  constructor(key) {
    this.key = key;
    const unsubscribe = runtime.onRestart((restart) => {
      if (this.blocks[0]?.element.isConnected) this.restartHappened(restart);
      else unsubscribe(); // a page left through instant navigation
    });
  }

  /** Run `target` after any earlier blocks that have not run in the current interpreter. */
  request(target) {
    if (target.state === "queued" || target.state === "running") return;
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

  restartPython(block) {
    this.restartRequestedBy = block;
    runtime.restart();
  }

  async runUpTo(target, stopsSoFar) {
    runtime.start();
    let fresh = this.session !== runtime.session;
    if (fresh) {
      this.ran.clear();
      this.session = runtime.session;
    }
    const earlier = this.blocks.slice(0, this.blocks.indexOf(target)).filter((block) => this.needsRun(block));
    for (const block of earlier) block.setState("queued");
    let interrupted = false;
    for (const block of [...earlier, target]) {
      if (interrupted || this.stops !== stopsSoFar) {
        block.finish({ ok: false, stopped: true, error: "Not run: Stop was pressed." });
        continue;
      }
      const code = block.code();
      this.running = block;
      const result = await block.execute(this.key, code, fresh);
      this.running = null;
      this.lastRun = block;
      fresh = false;
      if (result.ok) this.succeeded.set(block, code);
      else this.succeeded.delete(block);
      const stopped = result.stopped || this.stops !== stopsSoFar;
      if (stopped) this.stoppedWith.set(block, code);
      else this.stoppedWith.delete(block);
      const restarted = runtime.session !== this.session; // restore() follows
      if (!restarted) this.ran.add(block);
      if (stopped || restarted) interrupted = true;
    }
  }

  /** An earlier block runs before a later one unless it ran already. A block that was stopped counts as
   *  run (its loop is not repeated) until the reader changes its code: then it runs again first. */
  needsRun(block) {
    return !this.ran.has(block) || (this.stoppedWith.has(block) && this.stoppedWith.get(block) !== block.code());
  }

  /** Python was replaced by a fresh interpreter: queue the restoring of this page's definitions. */
  restartHappened(restart) {
    const reporter = (restart.reason === "requested" && this.restartRequestedBy) || this.running || this.lastRun;
    this.restartRequestedBy = null;
    const context = {
      reporter,
      reporterWasRunning: reporter !== null && reporter === this.running, // its run's result told it why
      ranBefore: new Set([...this.ran, ...(this.running ? [this.running] : [])]),
      cutReplay: this.replaying,
    };
    this.queue = this.queue.then(() => this.restore(restart, context));
  }

  /** Re-run, quietly and in page order, the blocks whose last run succeeded; tell `reporter` how it went.
   *  Blocks that ran before the restart count as run again (as an interrupt would have left them), except
   *  those whose re-run failed or did not happen: they run again before the next block the reader runs. */
  async restore(restart, { reporter, reporterWasRunning, ranBefore, cutReplay }) {
    this.session = runtime.session;
    this.ran.clear();
    if (restart.reason === "requested") reporter?.startNote(restart.message);
    else if (!reporterWasRunning) reporter?.note(restart.message);
    if (cutReplay) {
      this.succeeded.clear();
      reporter?.note("Python was restarted again while your earlier blocks were being re-run. "
        + "They will run again before the next block you run.");
      return;
    }
    const replayed = this.blocks.filter((block) => this.succeeded.has(block));
    const notReplayed = new Set(replayed);
    if (replayed.length > 0) {
      reporter?.beginRestoring(`Re-running ${blockNumbers(replayed)} to restore your definitions…`);
      this.replaying = true;
    }
    const stopsBefore = this.stops;
    const failed = [];
    let fresh = true;
    for (const block of replayed) {
      const result = await runtime.run({ page: this.key, code: this.succeeded.get(block), fresh, filename: block.filename });
      fresh = false;
      if (runtime.session !== this.session || this.stops !== stopsBefore) break;
      notReplayed.delete(block);
      if (result.ok) {
        this.ran.add(block);
      } else {
        failed.push(block);
        this.succeeded.delete(block);
      }
    }
    this.replaying = false;
    if (runtime.session !== this.session) return reporter?.endRestoring(); // the next restore() says why
    for (const block of ranBefore) if (!notReplayed.has(block) && !failed.includes(block)) this.ran.add(block);
    if (replayed.length === 0) return;
    if (this.stops !== stopsBefore) {
      reporter?.endRestoring("Re-running was stopped: the blocks not re-run will run before the next block you run.");
      return;
    }
    const done = `Re-ran ${blockNumbers(replayed)}: your definitions are back.`;
    reporter?.endRestoring(failed.length === 0 ? done
      : `${done} But ${blockNumbers(failed)} failed this time; run ${failed.length > 1 ? "them" : "it"} to see why.`);
  }

  /** After the page's content: the "Clear my saved edits" button and the saving status. */
  mountEditsPanel(lastBlockElement) {
    if (this.editsStatus?.isConnected) return;
    const container = lastBlockElement.closest("article") ?? lastBlockElement.parentElement;
    const panel = container.appendChild(document.createElement("div"));
    panel.className = "runnable-edits";
    const explanation = panel.appendChild(document.createElement("p"));
    explanation.textContent = "Your edits to the code blocks are saved in this browser, so they are still "
      + "here when you come back. Reset puts back one block's original code.";
    button(panel, "Clear my saved edits", "runnable-edits__clear", () => this.clearSavedEdits());
    this.editsStatus = panel.appendChild(document.createElement("span"));
    this.editsStatus.className = "runnable-edits__status";
    this.editsStatus.setAttribute("role", "status");
  }

  clearSavedEdits() {
    const cleared = forgetAllEdits();
    for (const block of this.blocks) if (block.code() !== block.original || block.saved) block.reset();
    this.editsStatus.textContent = cleared === 0 ? "There were no saved edits to clear."
      : `Cleared ${cleared} saved edit${cleared === 1 ? "" : "s"}; the code blocks show the lesson's code again.`;
  }

  storageFailed() {
    if (this.storageFailureShown) return;
    this.storageFailureShown = true;
    this.editsStatus.textContent = "Your edits cannot be saved in this browser (its storage is full or turned "
      + "off): they last until you leave this page.";
  }
}

/** "block 2", "blocks 1–3", "blocks 1, 2 and 4": how the notes name blocks. */
function blockNumbers(blocks) {
  const numbers = blocks.map((block) => block.number);
  if (numbers.length === 1) return `block ${numbers[0]}`;
  const consecutive = numbers.every((number, index) => index === 0 || number === numbers[index - 1] + 1);
  if (consecutive && numbers.length > 2) return `blocks ${numbers[0]}–${numbers.at(-1)}`;
  return `blocks ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}

/** One runnable block: its controls, editor, status line and output. */
class Block {
  editor = null;
  editorOpening = null; // the promise of the editor being mounted, once asked for
  state = "idle";
  stateBeforeRestoring = "idle";
  pendingOutput = [];
  flushScheduled = false;
  lessonChanged = null; // the notice shown when the lesson's code changed after the reader's edit

  constructor(element, number, page) {
    this.element = element;
    this.number = number;
    this.page = page;
    this.original = element.dataset.source ?? element.querySelector("pre")?.textContent ?? "";
    this.saved = savedEdit(page.key, number);
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
    button(bar, "Restart Python", "runnable__restart", () => this.page.restartPython(this));
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
    this.figures = element.appendChild(document.createElement("div"));
    this.figures.className = "runnable__figures";

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
    if (this.saved) this.showSavedEdit();
    element.dataset.mounted = "true";
  }

  get busy() {
    return this.state === "queued" || this.state === "running" || this.state === "restoring";
  }

  code() {
    return this.editor ? this.editor.getCode() : this.saved?.code ?? this.original;
  }

  /** The reader edited this block on an earlier visit: show that code, and say if the lesson changed since. */
  showSavedEdit() {
    this.codeView.querySelector("code").textContent = this.saved.code; // plain until the editor mounts
    this.openEditor({ focus: false });
    if (this.saved.original !== fingerprint(this.original)) this.showLessonChanged();
  }

  showLessonChanged() {
    const notice = document.createElement("div");
    notice.className = "runnable__notice";
    notice.setAttribute("role", "note");
    notice.appendChild(document.createElement("p")).textContent = "The lesson's code for this block has "
      + "changed since you edited it. Your version is shown; Reset replaces it with the lesson's new code.";
    const original = document.createElement("pre");
    original.className = "runnable__original";
    original.setAttribute("aria-label", "The lesson's code for this block");
    original.textContent = this.original;
    original.hidden = true;
    const compare = button(notice, "Show the original", "runnable__compare", () => {
      original.hidden = !original.hidden;
      compare.textContent = original.hidden ? "Show the original" : "Hide the original";
      compare.setAttribute("aria-expanded", String(!original.hidden));
    });
    compare.setAttribute("aria-expanded", "false");
    notice.appendChild(original);
    this.element.prepend(notice);
    this.lessonChanged = notice;
  }

  /** Import the editor bundle once and put an editor where the static code was. */
  openEditor({ focus }) {
    this.editorOpening ??= loadEditor().then(({ createEditor }) => {
      // The editor loads asynchronously: a keyboard reader may have tabbed on meanwhile, and
      // keeps their place; only a reader still on the code moves into the editor.
      const readerOnCode = this.codeView.contains(document.activeElement);
      const host = document.createElement("div");
      host.className = "runnable__editor";
      this.codeView.replaceWith(host);
      this.editor = createEditor({
        parent: host,
        code: this.code(),
        label: `${this.label}, code (Escape then Tab leaves the editor)`,
        onRun: () => this.page.request(this),
        onChange: (code) => this.remember(code),
      });
      return readerOnCode;
    }).catch((error) => {
      this.editorOpening = null;
      this.statusText.textContent = `The editor could not load (${error.message}); the code still runs.`;
    });
    if (focus) this.editorOpening.then((readerOnCode) => { if (readerOnCode) this.editor?.focus(); });
    return this.editorOpening;
  }

  /** Save the reader's code for the next visit (or forget it once it is the lesson's code again). */
  remember(code) {
    if (code === this.original) {
      this.forget();
      return;
    }
    this.saved = { code, original: fingerprint(this.original) };
    if (!saveEdit(this.page.key, this.number, code, this.original)) this.page.storageFailed();
  }

  forget() {
    forgetEdit(this.page.key, this.number);
    this.saved = null;
  }

  reset() {
    const showedEdit = this.saved !== null;
    this.forget();
    this.lessonChanged?.remove();
    this.lessonChanged = null;
    if (this.editor) this.editor.setCode(this.original);
    else if (showedEdit) this.codeView.querySelector("code").textContent = this.original;
    if (!this.busy) this.clearOutput();
  }

  async execute(pageKey, code, fresh) {
    this.clearOutput();
    this.openEditor({ focus: false });
    const result = await runtime.run({
      page: pageKey, code, fresh, filename: this.filename,
      onStart: () => this.setState("running"),
      onOutput: (stream, text) => this.write(stream, text),
    });
    this.finish(result);
    return result;
  }

  /** Show how a run ended; a Python traceback already arrived on stderr, other errors are shown here. */
  finish(result) {
    if (!result.ok && !result.reported) this.write(result.stopped ? "note" : "stderr", `${result.error}\n`);
    this.flushOutput();
    this.element.dataset.runs = String(Number(this.element.dataset.runs) + 1);
    this.setState(result.ok ? "done" : result.stopped ? "stopped" : "error");
  }

  /** A remark of the page's own (not the code's output) at the end of the output. */
  note(text) {
    this.write("note", `${text}\n`);
  }

  /** A note that starts the output afresh (unless a run is filling it). */
  startNote(text) {
    if (!this.busy) this.clearOutput();
    this.note(text);
  }

  beginRestoring(text) {
    this.note(text);
    if (this.busy) return; // a run of this block is already queued: it shows its own state
    this.stateBeforeRestoring = this.state;
    this.setState("restoring");
  }

  endRestoring(text = "") {
    if (text) this.note(text);
    if (this.state === "restoring") this.setState(this.stateBeforeRestoring);
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
    this.figures.replaceChildren();
    this.pendingOutput = [];
  }

  write(stream, text) {
    this.pendingOutput.push([stream, text]);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    requestAnimationFrame(() => this.flushOutput());
  }

  /** Append what arrived since the last frame, as text (never as HTML), one span per stream change. */
  flushOutput() {
    this.flushScheduled = false;
    for (const [stream, text] of this.pendingOutput) {
      if (stream === "graph") {
        this.showGraph(text);
        continue;
      }
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

  /** Draw a graph that show() sent (JSON) after the figures before it; its module loads on first use. */
  showGraph(json) {
    const place = this.figures.appendChild(document.createElement("div"));
    import(SHOWN_GRAPH_URL.href)
      .then(({ shownGraph }) => place.replaceWith(shownGraph(json)))
      .catch((error) => {
        place.className = "runnable__stderr";
        place.textContent = loadFailure("The drawing of this graph", error);
      });
  }
}

const BLOCK_STATUS = {
  idle: "",
  queued: "Waiting for Python…",
  running: "Running…",
  restoring: "Restoring earlier definitions…",
  done: "",
  error: "Finished with an error",
  stopped: "Stopped",
};

/** A Material-styled <button> named `name`, appended to `parent` (the engine editor and the exercises use it too);
 *  class "lesson-button" gives every such button the same size and outline (blocks.css). */
export function button(parent, name, className, onClick) {
  const element = parent.appendChild(document.createElement("button"));
  element.type = "button";
  element.className = `md-button lesson-button ${className}`;
  element.textContent = name;
  element.addEventListener("click", onClick);
  return element;
}
