// engine-editor.mjs: the editor of the page "Edit the engine", where the reader changes tinygrad.py itself.
// What it is: mountEngineEditor(root) turns the page's `<div data-engine-editor>` into a group with
// the lesson's engine in the blocks' CodeMirror editor and the buttons "Use this engine", Reset and
// "Stop the check". The engine's text comes from the site's own download of tinygrad.py (the build
// copies engine/tinygrad.py there unchanged). Every edit is saved as a draft in this browser
// (storage/engine-store.mjs), applied or not. "Use this engine" first checks the text in Python
// (tutor.engine_edit: it must compile, import on its own, still define what the lesson uses, and keep
// every figure, show() and the exercises' checks working, tried on it);
// a text that fails is refused with Python's own message and stays in the editor, and the site
// keeps its engine. A text that passes is stored as the site's engine and runtime.useEngine()
// replaces Python by one running it. An import that never ends is stopped after
// CHECK_TIME_LIMIT_MS, or by the reader. The line saying which engine the site runs follows every
// change of engine; one made in another tab of the site is also said in the editor's status. A draft
// another tab saved is handled as a block's saved edit is (storage/other-tab.mjs).
// What it is not: the banner with "Restore the original engine" (engine-banner.mjs) or the Python
// side of the check and of the switch (engine_edit.py).
import { Lines, button, loadEditor } from "../ui/ui.mjs";
import { fingerprint } from "../storage/saved-edits.mjs";
import { OtherTab } from "../storage/other-tab.mjs";
import { runtime } from "../runtime/runtime.mjs";
import { forgetDraft, forgetStoredEngine, onDraftChangedElsewhere, saveDraft, savedDraft, storeEngine } from "../storage/engine-store.mjs";

const ENGINE_URL = new URL("../../../../tinygrad.py", import.meta.url);
// The page's clock stops a check that never returns. It is the check's only limit in the browser: Pyodide has no
// CPU clock (time.process_time() there is the time on the clock), so Python's own limit of its work
// (tutor.engine_edit.CHECK_SECONDS) applies under CPython only.
const CHECK_TIME_LIMIT_MS = 45_000;
const LABEL = "tinygrad.py, the engine";

/** The check of an engine's text in Python (tutor.engine_edit.check), which the reader can stop; an import
 *  that never ends is stopped after CHECK_TIME_LIMIT_MS. Also used by "Use my engine" (build_own/). */
export class EngineCheck {
  running = false;
  stopRequested = false;
  note = ""; // for the last engine that passed: how its gradients differ from a numerical estimate ("" if they agree)

  /** "" if `code` can serve as the engine, else what is wrong, in words. While Python checks, `onSecond` is
   *  told every second how many seconds the check has taken. */
  async problem(code, onSecond = () => {}) {
    this.stopRequested = false;
    this.running = true;
    this.note = "";
    let timer = null;
    let ticks = null;
    try {
      const verdict = await runtime.call("tutor.engine_edit", "check", { source: code }, {
        label: "the check of your engine",
        onStart: () => {
          const started = performance.now();
          timer = setTimeout(() => this.stop(), CHECK_TIME_LIMIT_MS);
          ticks = setInterval(() => onSecond(Math.round((performance.now() - started) / 1000)), 1000);
        },
      });
      this.note = verdict.ok ? verdict.note : "";
      return verdict.ok ? "" : verdict.problem;
    } catch (error) {
      if (this.stopRequested) {
        // Python says where it was stopped when Stop can interrupt it (the verdict above); here Python was replaced.
        return `The check was stopped before it finished (after ${CHECK_TIME_LIMIT_MS / 1000} seconds, or when you `
          + "pressed Stop the check). A loop that never ends (at the top level of your engine, or in backward()) "
          + "ends this way, and so can an engine much slower than the lesson's, or a computer busy with other "
          + "work. If your engine has no such loop, try again.";
      }
      return `The check could not run: ${error.message}`;
    } finally {
      clearTimeout(timer);
      clearInterval(ticks);
      this.running = false;
    }
  }

  stop() {
    if (!this.running) return;
    this.stopRequested = true;
    runtime.stop();
  }
}

/** Check `code` with `engineCheck` and, if it passes, make it the engine of every block and figure (stored
 *  for later visits when the browser can). `lines` says `saying` meanwhile, with the seconds so far. Answers what is wrong ("" once applied), the sentence that
 *  says what happened and, for an applied engine whose gradients differ from a numerical estimate, the
 *  note that says where ("" otherwise), for the editor here and "Use my engine" (build_own/). */
export async function checkAndApply(engineCheck, code, lines, saying) {
  lines.say(saying);
  const problem = await engineCheck.problem(code, (seconds) => lines.say(
    `${saying} ${seconds} s so far; the check stops after ${CHECK_TIME_LIMIT_MS / 1000} s.`));
  if (problem) return { problem, said: "Not applied: the site keeps the engine it ran before.", note: "" };
  const stored = storeEngine(code);
  runtime.useEngine(code);
  return {
    problem: "",
    note: engineCheck.note,
    said: stored
      ? "Applied: every code block and figure on every page now runs your engine, until you press Restore "
        + "the original engine in the banner at the top."
      : "Applied for this visit only: this browser cannot store your engine (its storage is full or turned "
        + "off), so reloading the page or opening the site again brings back the lesson's engine.",
  };
}

/** Mount the engine editor of the page, if it has one and it is not mounted yet. */
export function mountEngineEditor(root) {
  const element = root.querySelector("[data-engine-editor]");
  if (!element || element.engineEditor) return;
  element.engineEditor = new EngineEditor(element);
}

class EngineEditor {
  editor = null;
  original = null; // the lesson's engine, as the site serves it
  checking = false;
  engineCheck = new EngineCheck();
  draftFailureShown = false;

  constructor(element) {
    this.element = element;
    element.classList.add("engine-editor");
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", `Engine editor: ${LABEL}`);
    this.inUse = element.appendChild(document.createElement("p"));
    this.inUse.className = "engine-editor__in-use";
    this.host = element.appendChild(document.createElement("div"));
    this.host.className = "runnable__editor";
    this.host.textContent = "Loading the engine…";
    const bar = element.appendChild(document.createElement("div"));
    bar.className = "runnable__bar";
    this.applyButton = button(bar, "Use this engine", "runnable__run", () => this.apply());
    this.resetButton = button(bar, "Reset", "engine-editor__reset", () => this.reset());
    this.stopButton = button(bar, "Stop the check", "engine-editor__stop", () => this.stopCheck());
    this.stopButton.hidden = true;
    this.applyButton.disabled = this.resetButton.disabled = true;
    this.lines = new Lines(element, bar);
    this.otherTab = new OtherTab(element, {
      read: savedDraft, original: () => this.original, shown: () => this.editor.getCode(),
      subject: "The engine in this editor", it: "it", lesson: "the lesson's engine",
      codeLabel: "The other tab's version of the engine", keep: () => this.remember(this.editor.getCode()),
      use: (code) => this.editor.setCode(code), // saves nothing new: storage holds it already
    });
    const stopHearingDrafts = onDraftChangedElsewhere(() => {
      if (!element.isConnected) stopHearingDrafts(); // the page was left through instant navigation
      else if (this.editor) this.otherTab.check();
    });
    const unsubscribe = runtime.onEngineChange((change) => {
      if (element.isConnected) this.engineChanged(change);
      else unsubscribe(); // the page was left through instant navigation
    });
    this.showEngineInUse();
    this.open().catch((error) => {
      this.host.textContent = `The engine could not be loaded (${error.message}). Reload the page to try again.`;
    });
  }

  /** Fetch the lesson's engine and mount the editor with the draft, the engine in use, or the lesson's. */
  async open() {
    const response = await fetch(ENGINE_URL, { cache: "no-cache" });
    if (!response.ok) throw new Error(`${ENGINE_URL.pathname} answered ${response.status}`);
    this.original = await response.text();
    const { createEditor } = await loadEditor();
    const draft = savedDraft();
    this.otherTab.known = draft;
    this.host.replaceChildren();
    this.editor = createEditor({
      parent: this.host,
      code: draft?.code ?? runtime.engineSource ?? this.original,
      label: `${LABEL} (Escape then Tab leaves the editor)`,
      onRun: () => this.apply(),
      onChange: (code) => this.remember(code),
    });
    this.applyButton.disabled = this.resetButton.disabled = false;
    this.element.dataset.ready = "true";
    if (draft && draft.original !== fingerprint(this.original)) {
      this.lines.say("The lesson's engine has changed since you edited it. Your version is shown; Reset loads the new one.");
    }
  }

  showEngineInUse() {
    this.inUse.textContent = runtime.engineSource === null
      ? "The site runs the lesson's engine now."
      : "The site runs your edited engine now (the banner above restores the original).";
  }

  /** The site's engine changed, here or in another tab: say which one runs now, and who changed it. */
  engineChanged({ source, fromAnotherTab }) {
    this.showEngineInUse();
    if (!fromAnotherTab) return;
    if (source === null) this.lines.say("Another tab restored the lesson's engine: the site runs it now.");
    else if (source === this.editor?.getCode()) this.lines.say("Another tab applied the engine shown here: the site runs it now.");
    else this.lines.say("Another tab applied an edited engine, not the text shown here: the site runs it now.");
  }

  /** Keep the reader's text for the next visit, whether or not it is applied, unless another tab changed the
   *  draft since this tab read or saved it (this.otherTab says so then, and saves nothing). */
  remember(code) {
    if (!this.otherTab.check()) return;
    if (code === this.original) {
      forgetDraft();
      this.otherTab.known = null;
    } else if (saveDraft(code, this.original)) {
      this.otherTab.known = { code };
    } else if (!this.draftFailureShown) {
      this.draftFailureShown = true;
      this.lines.say("Your edit cannot be saved in this browser (its storage is full or turned off): "
        + "it lasts until you leave this page.");
    }
  }

  reset() {
    this.editor.setCode(this.original);
    this.lines.hideProblem();
    this.lines.say(runtime.engineSource === null
      ? "The editor shows the lesson's engine again."
      : "The editor shows the lesson's engine again. The site keeps running your edited engine until you "
        + "press Use this engine or Restore the original engine.");
  }

  /** Check the editor's text in Python and, if it passes, make it the site's engine. */
  async apply() {
    if (this.checking || !this.editor) return;
    const code = this.editor.getCode();
    this.lines.hideProblem();
    if (code === this.original) {
      forgetStoredEngine();
      if (runtime.engineSource !== null) runtime.useEngine(null);
      this.lines.say("This is the lesson's engine: the site runs it.");
      return;
    }
    this.setChecking(true);
    const { problem, said, note } = await checkAndApply(this.engineCheck, code, this.lines, "Checking your engine in Python…");
    this.setChecking(false);
    if (problem || note) this.lines.showProblem(problem || note);
    this.lines.say(problem ? `${said} Your edit is kept in the editor.` : said);
  }

  stopCheck() {
    this.engineCheck.stop();
  }

  setChecking(checking) {
    this.checking = checking;
    this.element.setAttribute("aria-busy", String(checking));
    this.applyButton.disabled = checking;
    this.stopButton.hidden = !checking;
  }
}
