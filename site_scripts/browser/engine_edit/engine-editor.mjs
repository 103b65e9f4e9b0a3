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
// change of engine; one made in another tab of the site is also said in the editor's status. When
// another tab saves a different draft, this tab says so and saves nothing until the reader chooses
// which version to keep (as a block does with its saved edit).
// What it is not: the banner with "Restore the original engine" (engine-banner.mjs) or the Python
// side of the check and of the switch (engine_edit.py).
import { button, loadEditor, notice } from "../ui/ui.mjs";
import { fingerprint } from "../storage/saved-edits.mjs";
import { runtime } from "../runtime/runtime.mjs";
import { forgetDraft, forgetStoredEngine, onDraftChangedElsewhere, saveDraft, savedDraft, storeEngine } from "../storage/engine-store.mjs";

const ENGINE_URL = new URL("../../../../tinygrad.py", import.meta.url);
// The page's clock stops a check that never returns; Python limits its own work (CPU time) to 15 s itself
// (tutor.engine_edit.CHECK_SECONDS), so a busy computer does not cut a sound engine's check short.
const CHECK_TIME_LIMIT_MS = 45_000;
const LABEL = "tinygrad.py, the engine";

/** The check of an engine's text in Python (tutor.engine_edit.check), which the reader can stop; an import
 *  that never ends is stopped after CHECK_TIME_LIMIT_MS. Also used by "Use my engine" (build_own/). */
export class EngineCheck {
  running = false;
  stopRequested = false;
  note = ""; // for the last engine that passed: how its gradients differ from a numerical estimate ("" if they agree)

  /** "" if `code` can serve as the engine, else what is wrong, in words. */
  async problem(code) {
    this.stopRequested = false;
    this.running = true;
    this.note = "";
    let timer = null;
    try {
      const verdict = await runtime.call("tutor.engine_edit", "check", { source: code }, {
        label: "the check of your engine",
        onStart: () => { timer = setTimeout(() => this.stop(), CHECK_TIME_LIMIT_MS); },
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
 *  for later visits when the browser can). Answers what is wrong ("" once applied), the sentence that
 *  says what happened and, for an applied engine whose gradients differ from a numerical estimate, the
 *  note that says where ("" otherwise), for the editor here and "Use my engine" (build_own/). */
export async function checkAndApply(engineCheck, code) {
  const problem = await engineCheck.problem(code);
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
  draftKnown = null; // the draft's code as this tab last read or saved it (null: none, the lesson's engine)
  elsewhere = null; // the notice that another tab changed the draft: { element, text, code }

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
    this.message = bar.appendChild(document.createElement("span"));
    this.message.className = "runnable__status";
    this.message.setAttribute("role", "status");
    this.problem = element.appendChild(document.createElement("div"));
    this.problem.className = "engine-editor__problem";
    this.problem.setAttribute("role", "alert");
    this.problem.hidden = true;
    const stopHearingDrafts = onDraftChangedElsewhere(() => {
      if (!element.isConnected) stopHearingDrafts(); // the page was left through instant navigation
      else if (this.editor) this.checkStoredDraft();
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
    this.draftKnown = draft?.code ?? null;
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
      this.say("The lesson's engine has changed since you edited it. Your version is shown; Reset loads the new one.");
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
    if (source === null) this.say("Another tab restored the lesson's engine: the site runs it now.");
    else if (source === this.editor?.getCode()) this.say("Another tab applied the engine shown here: the site runs it now.");
    else this.say("Another tab applied an edited engine, not the text shown here: the site runs it now.");
  }

  /** Keep the reader's text for the next visit, whether or not it is applied, unless another tab changed the
   *  draft since this tab read or saved it (checkStoredDraft says so then, and saves nothing). */
  remember(code) {
    if (!this.checkStoredDraft()) return;
    if (code === this.original) {
      forgetDraft();
      this.draftKnown = null;
    } else if (saveDraft(code, this.original)) {
      this.draftKnown = code;
    } else if (!this.draftFailureShown) {
      this.draftFailureShown = true;
      this.say("Your edit cannot be saved in this browser (its storage is full or turned off): "
        + "it lasts until you leave this page.");
    }
  }

  /** Whether this tab may save its draft: true unless another tab saved or forgot a draft this tab has not
   *  seen, which is then said in a notice that asks which version to keep (and true once it is settled). */
  checkStoredDraft() {
    const stored = savedDraft()?.code ?? null;
    if (stored === this.draftKnown) return this.elsewhere === null;
    if ((stored ?? this.original) === this.editor.getCode()) { // the other tab saved what this one shows
      this.draftKnown = stored;
      this.settled();
      return true;
    }
    const what = stored === null ? "went back to the lesson's engine in another tab of this site"
      : "was edited in another tab of this site, and that version is saved now";
    const text = `The engine in this editor ${what}. This tab saves nothing more of it until you choose: `
      + "keep this tab's version (it replaces the other one) or use the other tab's.";
    if (this.elsewhere) {
      this.elsewhere.text.textContent = text;
      this.elsewhere.code.textContent = stored ?? this.original;
    } else {
      this.elsewhere = notice(this.element, "alert", text, {
        code: stored ?? this.original, codeLabel: "The other tab's version of the engine",
        showLabel: "the other tab's version",
        actions: [["Keep this tab's version", () => this.settleElsewhere(false)],
                  ["Use the other tab's version", () => this.settleElsewhere(true)]],
      });
    }
    return false;
  }

  /** The reader chose after another tab changed the draft: the other tab's version (`useOther`), or this
   *  tab's, which is saved over it. */
  settleElsewhere(useOther) {
    const stored = savedDraft()?.code ?? null;
    this.draftKnown = stored; // what storage holds now is what this tab knows
    this.settled();
    if (useOther) this.editor.setCode(stored ?? this.original); // saves nothing new: storage holds it already
    else this.remember(this.editor.getCode());
  }

  settled() {
    this.elsewhere?.element.remove();
    this.elsewhere = null;
  }

  reset() {
    this.editor.setCode(this.original);
    this.hideProblem();
    this.say(runtime.engineSource === null
      ? "The editor shows the lesson's engine again."
      : "The editor shows the lesson's engine again. The site keeps running your edited engine until you "
        + "press Use this engine or Restore the original engine.");
  }

  /** Check the editor's text in Python and, if it passes, make it the site's engine. */
  async apply() {
    if (this.checking || !this.editor) return;
    const code = this.editor.getCode();
    this.hideProblem();
    if (code === this.original) {
      forgetStoredEngine();
      if (runtime.engineSource !== null) runtime.useEngine(null);
      this.say("This is the lesson's engine: the site runs it.");
      return;
    }
    this.setChecking(true);
    this.say("Checking your engine in Python…");
    const { problem, said, note } = await checkAndApply(this.engineCheck, code);
    this.setChecking(false);
    if (problem || note) this.showProblem(problem || note);
    this.say(problem ? `${said} Your edit is kept in the editor.` : said);
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

  say(text) {
    this.message.textContent = text;
  }

  showProblem(text) {
    const report = document.createElement("pre");
    report.textContent = text;
    this.problem.replaceChildren(report);
    this.problem.hidden = false;
  }

  hideProblem() {
    this.problem.hidden = true;
    this.problem.replaceChildren();
  }
}
