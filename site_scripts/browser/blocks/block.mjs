// block.mjs: one runnable block on the page: its buttons, editor, status line and output.
// What it is: a Block gives a <div class="runnable"> (written by the runnable_fence hook) a group role
// named "Python: <title>" (or "Python block N"), the buttons Run, Reset, Stop and Restart Python, a
// status line and an output log; Ctrl+Enter or Shift+Enter runs it. The CodeMirror editor is imported
// only when the reader clicks or focuses the code, once a run of the block has ended, or when the reader
// comes back to a block they edited before. Edits are saved in the browser (storage/saved-edits.mjs) and restored on the next visit,
// with a notice when the lesson's own code changed since; a save that fails right after text was removed
// puts back the edit from before the removal (storage never keeps a cut-off edit). When another tab of the site saved or forgot
// this block's edit, the block says so and saves nothing more until the reader chooses (storage/other-tab.mjs). Reset tells whoever listens (the exercise
// panel) with a `block-reset` event. A block waiting for Python says, after SLOW_ANSWER_MS (ui.mjs),
// what Python is busy with. A run's graphs (from show(value), the
// runtime's onGraph) become figures under the output log, in order (shown-graph.mjs, loaded on first use);
// running the block again clears them. The lesson's output, which the build writes into the block
// (runnable_fence.py: what the lesson's code printed under CPython), stays under the code until the
// reader runs the block or edits its code (a saved edit included), and comes back with Reset.
// What it is not: the order of runs (page-runs.mjs decides it) or Python (runtime.mjs runs the code,
// tutor/runtime/output.py caps its output).
import { endedByStop, runtime } from "../runtime/runtime.mjs";
import { fingerprint, forgetEdit, onEditChangedElsewhere, putBackEdit, saveEdit, savedEdit } from "../storage/saved-edits.mjs";
import { OtherTab } from "../storage/other-tab.mjs";
import { noteRun } from "../storage/saved-activity.mjs";
import { SLOW_ANSWER_MS, button, loadEditor, notice } from "../ui/ui.mjs";
import { loadFailure } from "../offline/register.mjs";

const SHOWN_GRAPH_URL = new URL("../figures/shown-graph.mjs", import.meta.url);
const GRAPH = Symbol("graph"); // a graph among the pending output, which is otherwise [stream, text]

/** One runnable block: its controls, editor, status line and output. */
export class Block {
  editor = null;
  editorOpening = null; // the promise of the editor being mounted, once asked for
  state = "idle";
  stateBeforeRestoring = "idle";
  pendingOutput = [];
  flushScheduled = false;
  lessonChanged = null; // the notice shown when the lesson's code changed after the reader's edit
  lastResult = null; // how the last run ended: runtime.run's { ok, report, error, engineChanged }
  ranHere = false; // the output under the block is the reader's own run, not the lesson's
  plainRestart = null; // the notice offering a restart without re-running blocks
  removal = null; // the last save, when it removed text: { code it saved, before: the edit stored before it or null }
  waitingTimer = null; // while queued: renders what Python is busy with, once a second

  /** The block `element` (number `number` on its page), run by `runs` (the page's PageRuns);
   *  onStorageFailed() is called when an edit cannot be saved. */
  constructor(element, number, runs, { onStorageFailed = () => {} } = {}) {
    this.element = element;
    this.number = number;
    this.runs = runs;
    this.onStorageFailed = onStorageFailed;
    this.original = element.dataset.source ?? element.querySelector("pre")?.textContent ?? "";
    this.otherTab = new OtherTab(element, {
      read: () => savedEdit(runs.key, number), original: () => this.original, shown: () => this.code(),
      subject: "This block", it: "this block", lesson: "the lesson's code",
      codeLabel: "The other tab's version of this block", keep: () => this.remember(this.code()),
      use: (code) => {
        if (this.editor) this.editor.setCode(code); // saves nothing new: storage holds it already
        else this.codeView.querySelector("code").textContent = code;
        this.showLessonOutput();
      },
    });
    const title = element.dataset.title;
    this.label = title ? `Python: ${title}` : `Python block ${number}`;
    this.about = title ? `the block “${title}”` : `block ${number}`; // who runs, in the reader's words
    this.filename = title ? `<${title}>` : `<block ${number}>`;
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", this.label);
    element.dataset.runs = "0";
    element.runnableCode = () => this.code(); // the code as the reader left it, for tests that read it

    this.codeView = element.querySelector("pre");
    this.codeView.tabIndex = 0;
    this.codeView.addEventListener("click", () => this.openEditor({ focus: true }));
    this.codeView.addEventListener("focus", () => this.openEditor({ focus: true }));

    const bar = element.appendChild(document.createElement("div"));
    bar.className = "runnable__bar";
    this.runButton = button(bar, "Run", "runnable__run", () => this.runs.request(this));
    this.resetButton = button(bar, "Reset", "runnable__reset", () => this.reset());
    this.stopButton = button(bar, "Stop", "runnable__stop", () => this.runs.stop());
    button(bar, "Restart Python", "runnable__restart", () => this.runs.restartPython(this));
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
    this.lessonOutput = element.querySelector(":scope > .runnable__lesson-output");
    if (this.lessonOutput) element.insertBefore(this.lessonOutput, this.output); // under the buttons

    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey || event.shiftKey) && !this.editor) {
        event.preventDefault();
        this.runs.request(this);
      }
    });
    const unsubscribe = runtime.onStatus(() => {
      if (!element.isConnected && element.dataset.mounted === "true") unsubscribe?.();
      else this.renderStatus();
    });
    this.setState("idle");
    if (this.saved) this.showSavedEdit();
    this.showLessonOutput();
    const stopListening = onEditChangedElsewhere(runs.key, number, () => {
      if (element.isConnected) this.otherTab.check();
      else stopListening(); // a page left through instant navigation
    });
    element.dataset.mounted = "true";
  }

  get busy() {
    return this.state === "queued" || this.state === "running" || this.state === "restoring";
  }

  /** The saved edit as this tab last read or wrote it ({ code, original }, or null). */
  get saved() { return this.otherTab.known; }
  set saved(edit) { this.otherTab.known = edit; }

  code() {
    return this.editor ? this.editor.getCode() : this.saved?.code ?? this.original;
  }

  /** The lesson's output only while the block shows the lesson's code and the reader has not run it. */
  showLessonOutput() {
    if (this.lessonOutput) this.lessonOutput.hidden = this.ranHere || this.code() !== this.original;
  }

  /** The reader edited this block on an earlier visit: show that code, and say if the lesson changed since. */
  showSavedEdit() {
    this.codeView.querySelector("code").textContent = this.saved.code; // plain until the editor mounts
    this.openEditor({ focus: false });
    if (this.saved.original !== fingerprint(this.original)) this.showLessonChanged();
  }

  showLessonChanged() {
    const { element } = this.notice("note", "The lesson's code for this block has changed since you edited it. "
      + "Your version is shown; Reset replaces it with the lesson's new code.", {
      code: this.original, codeLabel: "The lesson's code for this block", showLabel: "the original" });
    this.lessonChanged = element;
  }

  /** A notice at the top of the block (ui.mjs's notice()). */
  notice(role, text, options) {
    return notice(this.element, role, text, options);
  }

  /** Python broke when this page's blocks were re-run: say `text` and offer a restart that re-runs none. */
  offerPlainRestart(text) {
    this.plainRestart?.remove();
    const { element } = this.notice("alert", text, { actions: [["Restart Python without re-running blocks", () => {
      element.remove();
      this.plainRestart = null;
      this.runs.restartPython(this);
    }]] });
    this.plainRestart = element;
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
        onRun: () => this.runs.request(this),
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

  /** Save the reader's code for the next visit (or forget it once it is the lesson's code again), unless
   *  another tab changed the saved edit since this tab read or wrote it (this.otherTab says so then). */
  remember(code) {
    if (!this.otherTab.check()) {
      this.showLessonOutput();
      return;
    }
    if (code === this.original) {
      this.forget();
      this.showLessonOutput();
      return;
    }
    const before = this.saved;
    if (saveEdit(this.runs.key, this.number, code, this.original)) {
      this.saved = { code, original: fingerprint(this.original) };
      this.removal = code.length < (before?.code ?? this.original).length ? { code, before } : null;
    } else {
      this.putBackBeforeRemoval();
      this.onStorageFailed(); // this.saved stays what storage holds, so no other tab seems to have changed it
    }
    this.showLessonOutput();
  }

  /** After a save that failed: text removed to be replaced (select all, delete, paste) is one change to the
   *  reader, so while storage still holds that removal, it gets back the edit from before it (or none) rather
   *  than keeping a cut-off edit. */
  putBackBeforeRemoval() {
    const { removal } = this;
    this.removal = null;
    if (removal && this.saved?.code === removal.code && putBackEdit(this.runs.key, this.number, removal.before)) {
      this.saved = removal.before;
    }
  }

  forget() {
    forgetEdit(this.runs.key, this.number);
    this.saved = null;
  }

  /** The lesson's code again, and no saved edit (the reader asked: an edit another tab saved goes too, and
   *  that tab says so); the exercise panel hears of it (`block-reset`). */
  reset() {
    const showedEdit = this.code() !== this.original;
    this.forget();
    this.lessonChanged?.remove();
    this.lessonChanged = null;
    this.otherTab.settled();
    if (this.editor) this.editor.setCode(this.original);
    else if (showedEdit) this.codeView.querySelector("code").textContent = this.original;
    if (!this.busy) {
      this.clearOutput();
      this.ranHere = false;
    }
    this.showLessonOutput();
    this.element.dispatchEvent(new CustomEvent("block-reset"));
  }

  /** Run `code` as this block's run; with `check`, Python then checks its own machinery (error broken). */
  async execute(pageKey, code, fresh, notes = () => [], check = false) {
    this.clearOutput();
    this.ranHere = true;
    this.showLessonOutput();
    const result = await runtime.run({
      page: pageKey, code, fresh, check, filename: this.filename, label: this.about,
      onStart: () => this.setState("running"),
      onOutput: (stream, text) => this.write(stream, text),
      onGraph: (graph) => this.write(GRAPH, graph),
    });
    this.finish(result, notes(result));
    noteRun(pageKey); // for "Your work" and the class overview: this page had something run, and when
    // The code becomes editable once the run's result is on screen: starting the editor (it parses the
    // code) before the next paint would hold back the reader's first result, and meanwhile would compete
    // with Python's start for the processor.
    requestAnimationFrame(() => setTimeout(() => this.openEditor({ focus: false })));
    return result;
  }

  /** Show how a run ended; what Python reported already arrived in the output, other errors are shown here,
   *  then `notes`, the scheduler's remarks on the run: all of it before the block shows the run as finished. */
  finish(result, notes = []) {
    this.lastResult = result;
    const stopped = endedByStop(result.error);
    if (!result.ok && !result.report) this.write(stopped ? "note" : "stderr", `${result.error.message}\n`);
    for (const text of notes) this.note(text);
    this.flushOutput();
    this.element.dataset.runs = String(Number(this.element.dataset.runs) + 1);
    this.setState(result.ok ? "done" : stopped ? "stopped" : "error");
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
    if (state === "queued") {
      this.waitingTimer ??= setInterval(() => (this.element.isConnected ? this.renderStatus() : this.setState("idle")), 1000);
    }
    else {
      clearInterval(this.waitingTimer);
      this.waitingTimer = null;
    }
    this.renderStatus();
  }

  renderStatus() {
    const { state, message, progress } = runtime.status;
    const starting = state === "starting" || (state === "error" && this.state !== "done");
    this.progress.hidden = state !== "starting";
    if (progress !== null) this.progress.value = progress;
    this.statusText.textContent = starting ? message : this.state === "queued" ? this.waitingFor() : BLOCK_STATUS[this.state];
  }

  /** The status of a queued block: what Python is busy with, once that has taken a while. */
  waitingFor() {
    const answering = runtime.answering;
    const busyFor = answering ? performance.now() - answering.since : 0;
    if (busyFor < SLOW_ANSWER_MS) return BLOCK_STATUS.queued;
    return `Waiting for Python, which has been busy with ${answering.label} for ${Math.round(busyFor / 1000)} seconds.`;
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
      if (stream === GRAPH) {
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

  /** Draw a graph that show() sent ({ title, states }) after the figures before it; its module loads on
   *  first use. */
  showGraph(graph) {
    const place = this.figures.appendChild(document.createElement("div"));
    import(SHOWN_GRAPH_URL.href)
      .then(({ shownGraph }) => shownGraph(graph))
      .then((figure) => place.replaceWith(figure))
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
