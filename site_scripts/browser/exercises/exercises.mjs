// exercises.mjs: Check, hints and solution under the runnable blocks that are exercises.
// What it is: mountExercises(page) finds each block of a page visit (a LessonPage, lesson-page.mjs,
// whose blocks must be mounted first) with data-exercise="<name>" (written by the runnable_fence hook,
// followed by its hidden hints and solution), adds a panel under it and keeps it in page.exercises:
// "Check" runs the block through the page's scheduler (so earlier blocks run first, as for Run),
// then calls tutor.exercises.results("<name>", code) with the page's namespace (runtime.call) and shows each
// check's result in a status region ("Stop the checks" stops checks that never end); "Show a
// hint" reveals the hints one at a time; "Show the solution" unlocks after the first Check and
// can put the solution into the editor, unless solutions are turned off in this browser (a teacher's
// ?solutions=off, storage/saved-settings.mjs); opening it is noted for the reader's work file
// (noteSolutionShown). Whether the reader attempted or solved the exercise is
// saved (storage/saved-progress.mjs) and shown on the next visit; every change of the panel's state is
// announced with an `exercise-progress` event that bubbles up the page. Reset of the block (its
// `block-reset` event) clears the results of the code it replaced and closes the solution, as a reload
// would. Mounting a page twice does nothing more, like mountBlocks, so document$ can call it after every navigation.
// What it is not: the checks themselves (site_scripts/tutor/exercises/<name>.py judge the reader's code
// in Python and return plain results; this module only renders them).
import { button } from "../ui/ui.mjs";
import { endedByStop, runtime } from "../runtime/runtime.mjs";
import { noteSolutionShown, saveProgress, savedProgress } from "../storage/saved-progress.mjs";
import { solutionsAllowed } from "../storage/saved-settings.mjs";

/** Add an exercise panel under every exercise block of `page` (its blocks mounted), once: page.exercises. */
export function mountExercises(page) {
  page.require("blocks", "mountExercises"); // an exercise panel drives its block
  if (page.exercisesMounted) return;
  page.exercisesMounted = true;
  for (const block of page.blocks) {
    const data = block.element.nextElementSibling;
    if (block.element.dataset.exercise && data?.matches(".exercise-data")) {
      page.exercises.set(block, new ExercisePanel(block, data));
    }
  }
}

class ExercisePanel {
  checking = false;
  hintsShown = 0;

  constructor(block, data) {
    const element = block.element;
    this.block = block;
    this.name = element.dataset.exercise;
    this.hints = [...data.querySelectorAll(".exercise-data__hints > li")];
    this.solutionCode = data.dataset.solution ?? "";
    this.progress = savedProgress(this.name);
    const title = element.dataset.title ?? "Exercise";
    this.title = title;

    const panel = document.createElement("div");
    panel.className = "exercise";
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", `Checks of ${title}`);
    element.after(panel);
    this.panel = panel;

    const bar = panel.appendChild(document.createElement("div"));
    bar.className = "exercise__bar";
    this.checkButton = button(bar, "Check", "exercise__check", () => this.check());
    // Checks call the reader's functions, which may never return: Stop works as on the block.
    this.stopButton = button(bar, "Stop the checks", "exercise__stop", () => this.block.runs.stop());
    this.stopButton.disabled = true;
    this.hintButton = button(bar, "Show a hint", "exercise__hint", () => this.showHint());
    this.solutionButton = button(bar, "Show the solution", "exercise__show-solution", () => this.toggleSolution());
    this.solutionButton.setAttribute("aria-expanded", "false");
    this.stateText = bar.appendChild(document.createElement("span"));
    this.stateText.className = "exercise__state";

    this.lockNote = panel.appendChild(document.createElement("p"));
    this.lockNote.className = "exercise__lock-note";
    this.lockNote.id = `exercise-${this.name}-lock-note`;

    this.results = panel.appendChild(document.createElement("div"));
    this.results.className = "exercise__results";
    this.results.setAttribute("role", "status");
    this.results.setAttribute("aria-label", `Check results of ${title}`);

    this.hintList = panel.appendChild(document.createElement("ol"));
    this.hintList.className = "exercise__hints";
    this.hintList.setAttribute("aria-label", "Hints");
    this.hintList.hidden = true;

    this.solution = panel.appendChild(document.createElement("div"));
    this.solution.className = "exercise__solution";
    this.solution.id = `exercise-${this.name}-solution`;
    this.solution.hidden = true;
    const solutionCode = data.querySelector(".exercise-data__solution");
    if (solutionCode) this.solution.append(...solutionCode.childNodes);
    button(this.solution, "Put the solution in the editor", "exercise__use-solution", () => this.useSolution());
    this.solutionButton.setAttribute("aria-controls", this.solution.id);
    element.addEventListener("block-reset", () => this.blockReset());

    this.render();
  }

  /** The block went back to the lesson's code: the results of the reader's code and an open solution go,
   *  as after a reload (the saved progress stays). */
  blockReset() {
    if (this.checking) return; // the check under way reports on the code it ran
    this.results.replaceChildren();
    this.solution.hidden = true;
    this.render();
  }

  /** Run the reader's block, then the hidden checks on what it defined, and show the results. */
  async check() {
    if (this.checking) return; // the button stays enabled (and focused); a second press meanwhile does nothing
    this.checking = true;
    this.stopButton.disabled = false;
    this.panel.setAttribute("aria-busy", "true");
    this.showSummary("Running your code, then the checks…");
    try {
      const outcome = await this.runBlockThenChecks();
      this.record(outcome.solved);
      this.showSummary(outcome.summary, outcome.results);
    } finally {
      this.checking = false;
      this.stopButton.disabled = true;
      this.panel.setAttribute("aria-busy", "false");
    }
  }

  /** { solved, summary, results }: the reader's block must run cleanly before its checks run. */
  async runBlockThenChecks() {
    const runs = this.block.runs;
    const code = this.block.code(); // what runs now; the checks run it once more at other numbers (run_again)
    const ran = runs.request(this.block); // after the earlier blocks, as Run does
    const outcome = await runs.after(async () => {
      const result = await ran;
      if (!result?.ok) return { ran: result };
      try {
        return { results: await runtime.call("tutor.exercises", "results", { name: this.name, code },
                                             { page: runs.key, label: `the checks of “${this.title}”` }) };
      } catch (error) {
        return { error };
      }
    });
    if ("ran" in outcome && endedByStop(outcome.ran?.error)) {
      return { solved: false, results: [], summary: "Your code was stopped before it finished, so the checks did "
        + "not run. If it never ends by itself, look at its loops and their exits, then press Check again." };
    }
    if ("ran" in outcome) {
      return { solved: false, results: [], summary: "Your code did not finish cleanly (see its output above). "
        + "Make it run without an error, then press Check again." };
    }
    if (outcome.error?.stopped) {
      return { solved: false, results: [], summary: "The checks were stopped before they finished. If they "
        + "never end, your code may loop forever for some input: look at your loops and their exits." };
    }
    if (outcome.error) {
      return { solved: false, results: [], summary: `The checks could not run (${outcome.error.message}). `
        + "Press Check again; if that does not help, press Restart Python." };
    }
    const { results } = outcome;
    const passed = results.filter((entry) => entry.passed).length;
    const solved = passed === results.length;
    const summary = solved ? `All ${results.length} checks pass: solved!`
      : `${passed} of ${results.length} checks pass. Not solved yet.`;
    return { solved, summary, results };
  }

  record(solved) {
    this.progress = { attempted: true, solved: this.progress.solved || solved };
    this.storageFailed = !saveProgress(this.name, this.progress);
    this.render();
  }

  /** The reader cleared their saved edits and progress: back to "not tried". */
  forgetProgress() {
    this.progress = { attempted: false, solved: false };
    this.solution.hidden = true;
    this.render();
  }

  /** A summary line and one list item per check (text only, never HTML). */
  showSummary(summary, results = []) {
    const paragraph = document.createElement("p");
    paragraph.className = "exercise__summary";
    paragraph.textContent = summary;
    const list = document.createElement("ul");
    list.className = "exercise__result-list";
    for (const { check, passed, message } of results) {
      const item = list.appendChild(document.createElement("li"));
      item.dataset.passed = String(passed);
      item.appendChild(document.createElement("strong")).textContent = passed ? "Passed: " : "Not yet: ";
      item.append(passed ? check : `${check}. ${message}`);
    }
    this.results.replaceChildren(paragraph, ...(results.length ? [list] : []));
  }

  showHint() {
    if (this.hintsShown >= this.hints.length) return;
    this.hintList.append(this.hints[this.hintsShown]);
    this.hintsShown += 1;
    this.hintList.hidden = false;
    this.render();
  }

  toggleSolution() {
    if (!this.progress.attempted || !solutionsAllowed()) return;
    this.solution.hidden = !this.solution.hidden;
    if (!this.solution.hidden) noteSolutionShown(this.name);
    this.render();
  }

  /** Replace the block's code by the solution, in its editor (which saves it like any edit). */
  async useSolution() {
    await this.block.openEditor({ focus: false });
    this.block.editor?.setCode(this.solutionCode);
  }

  /** Buttons and state line from the current progress, hints shown and solution visibility. */
  render() {
    const { attempted, solved } = this.progress;
    this.panel.dataset.solved = String(solved);
    const more = this.hintsShown < this.hints.length;
    this.hintButton.textContent = !more ? "No more hints" : this.hintsShown === 0 ? "Show a hint" : "Show another hint";
    this.hintButton.disabled = !more;
    const allowed = solutionsAllowed();
    if (!allowed) this.solution.hidden = true;
    this.solutionButton.disabled = !attempted || !allowed;
    this.lockNote.hidden = attempted && allowed;
    this.lockNote.textContent = allowed ? "The solution unlocks after your first Check."
      : "The solutions are turned off in this browser for now.";
    if (attempted && allowed) this.solutionButton.removeAttribute("aria-describedby");
    else this.solutionButton.setAttribute("aria-describedby", this.lockNote.id);
    this.solutionButton.textContent = this.solution.hidden ? "Show the solution" : "Hide the solution";
    this.solutionButton.setAttribute("aria-expanded", String(!this.solution.hidden));
    const state = solved ? "Solved" : attempted ? "Not solved yet" : "";
    this.stateText.textContent = this.storageFailed && state
      ? `${state} (this browser cannot save your progress)` : state;
    // Whoever shows the page's progress (the chapter "Build your own engine") listens for this.
    this.panel.dispatchEvent(new CustomEvent("exercise-progress", { bubbles: true, detail: { name: this.name } }));
  }
}
