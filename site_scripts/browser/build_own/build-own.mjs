// build-own.mjs: the chapter "Build your own engine": the reader's progress, "Use my engine", "Download my engine".
// What it is: mountBuildOwn(root) finds the chapter's two placeholders (written in its Markdown):
// `<div data-build-own-progress>` becomes the list of steps, each "done", "tried, not solved yet" or
// "not started" (from the saved progress of its exercise, updated on every `exercise-progress` event
// of exercises.mjs), and `<div data-build-own>` the group with "Use my engine" and "Download my
// engine". The reader's file, tinygrad.py, is the code of every block of the page, in page order,
// exactly as the reader left it (their steps and the lesson's block with train_line): nothing is
// generated. "Use my engine" runs the last step's checks (which test every step; they count as the
// last step solved when they pass, and as no attempt of it when they do not) and then the check
// of "Edit the engine" (checkAndApply of engine-editor.mjs: tutor.engine_edit.check); a file that
// passes both is stored as the site's engine and every block and figure runs on it, with the site's
// banner to restore the original. The chapter's page is `chained`
// (isBuildOwnChapter, which main.mjs asks when it makes the page's LessonPage): its steps build on each
// other, so after one runs, the later ones run again before they are next needed.
// What it is not: the checks (tutor/build_own/) or the exercise panels (exercises/exercises.mjs).
import { EngineCheck, checkAndApply } from "../engine_edit/engine-editor.mjs";
import { savedProgress } from "../storage/saved-progress.mjs";
import { Lines, button, saveAsFile } from "../ui/ui.mjs";

const LABEL = "Your engine";
const STATES = { done: "done", tried: "tried, not solved yet", new: "not started" };

const mounted = new WeakSet(); // the pages (LessonPage) whose chapter parts are mounted

/** Whether the document under `root` is the chapter "Build your own engine" (its blocks are chained). */
export function isBuildOwnChapter(root) {
  return root.querySelector("[data-build-own]") !== null;
}

/** Mount the chapter's progress list and engine buttons on `page` (a LessonPage whose exercises are
 *  mounted: "Use my engine" runs the last step's checks), if it is the chapter, once. */
export function mountBuildOwn(page) {
  page.require("exercises", "mountBuildOwn");
  const element = page.root.querySelector("[data-build-own]");
  if (!element || mounted.has(page) || page.blocks.length === 0) return;
  mounted.add(page);
  new BuildOwn(element, page.root.querySelector("[data-build-own-progress]"), page);
}

class BuildOwn {
  busy = false;
  engineCheck = new EngineCheck();

  constructor(element, progressElement, page) {
    this.page = page;
    this.steps = page.blocks.filter((block) => block.element.dataset.exercise);

    if (progressElement) {
      progressElement.classList.add("build-own__progress");
      const heading = progressElement.appendChild(document.createElement("p"));
      heading.id = "build-own-progress-heading";
      heading.textContent = "Your progress, saved in this browser:";
      this.progressList = progressElement.appendChild(document.createElement("ul"));
      this.progressList.setAttribute("aria-labelledby", heading.id);
      (progressElement.closest("article") ?? document.body)
        .addEventListener("exercise-progress", () => this.renderProgress());
      this.renderProgress();
    }

    element.classList.add("build-own");
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", LABEL);
    const bar = element.appendChild(document.createElement("div"));
    bar.className = "runnable__bar";
    this.useButton = button(bar, "Use my engine", "runnable__run build-own__use", () => this.useMyEngine());
    this.stopButton = button(bar, "Stop", "build-own__stop", () => this.stop());
    this.stopButton.disabled = true;
    button(bar, "Download my engine", "build-own__download", () => this.download());
    this.lines = new Lines(element);
  }

  /** One line per step: its title and whether it is done, tried or not started. */
  renderProgress() {
    const items = this.steps.map((block) => {
      const { attempted, solved } = savedProgress(block.element.dataset.exercise);
      const state = solved ? "done" : attempted ? "tried" : "new";
      const item = document.createElement("li");
      item.dataset.state = state;
      item.textContent = `${stepName(block)}: ${STATES[state]}`;
      return item;
    });
    this.progressList.replaceChildren(...items);
  }

  /** The reader's tinygrad.py: every block of the page as the reader left it, in page order. */
  joined() {
    return `${this.page.blocks.map((block) => block.code().trimEnd()).join("\n\n\n")}\n`;
  }

  /** Check the reader's steps and then their file; if both pass, make the file the site's engine. */
  async useMyEngine() {
    if (this.busy) return;
    this.setBusy(true);
    this.lines.hideProblem();
    try {
      const last = this.page.exercises.get(this.steps.at(-1));
      this.lines.say(`Running your steps, then the checks of ${stepName(this.steps.at(-1)).toLowerCase()}, `
        + "which test every step (training XOR takes a few seconds)…");
      const outcome = await last.runBlockThenChecks();
      if (outcome.solved) last.record(true); // a press of Use my engine is no attempt at the last step (its solution stays locked)
      last.showSummary(outcome.summary, outcome.results);
      if (!outcome.solved) {
        const failed = outcome.results.filter((result) => !result.passed);
        this.lines.showProblem(failed.length ? failed.map(({ check, message }) => `${check}: ${message}`).join("\n\n")
          : outcome.summary);
        this.lines.say("Not applied: your steps do not pass their checks yet (see below). The site keeps the engine it ran.");
        return;
      }
      const { problem, said, note } = await checkAndApply(this.engineCheck, this.joined(), this.lines,
        "Your steps pass. Checking your tinygrad.py as the page Edit the engine does…");
      if (problem || note) this.lines.showProblem(problem || note);
      this.lines.say(said);
    } finally {
      this.setBusy(false);
    }
  }

  stop() {
    if (this.engineCheck.running) this.engineCheck.stop();
    else this.page.runs.stop();
  }

  /** Save the reader's tinygrad.py as a file. */
  download() {
    saveAsFile("tinygrad.py", this.joined(), "text/x-python");
    this.lines.say("Saved as tinygrad.py (in your downloads). In a terminal there: python3 tinygrad.py");
  }

  setBusy(busy) {
    this.busy = busy;
    this.useButton.disabled = busy;
    this.stopButton.disabled = !busy;
    this.useButton.closest("[role=group]").setAttribute("aria-busy", String(busy));
  }
}

/** "Step 3, powers and tanh", from the block's title "Exercise: step 3, powers and tanh". */
function stepName(block) {
  const title = (block.element.dataset.title ?? "").replace(/^Exercise:\s*/, "");
  return title.charAt(0).toUpperCase() + title.slice(1);
}
