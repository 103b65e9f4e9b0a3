// edits-panel.mjs: after a chapter's content, "Clear my saved edits" and what happened to the reader's edits.
// What it is: EditsPanel(page) (a LessonPage whose blocks are mounted) puts a note, the button and a status
// line after the page's last block. The button asks first, in the page: it says how many of this page's
// blocks it would put back to the lesson's code and that nothing else goes, offers "Download my work"
// (the same file as on "Your work", under the name in its field; with none it asks for one), and clears more only when the reader ticks it: this page's exercise
// progress and prediction answers, or their saved edits on the other pages. Cancel clears nothing.
// What it is not: the blocks (block.mjs), the storage (storage/), or "Your work"'s fresh start.
import { forgetAllEdits, allEdits } from "../storage/saved-edits.mjs";
import { forgetProgress } from "../storage/saved-progress.mjs";
import { forgetPrediction } from "../storage/saved-predictions.mjs";
import { sitePage } from "../storage/saved-activity.mjs";
import { saveLearner, savedLearner } from "../storage/saved-settings.mjs";
import { button, buttonRow, question } from "../ui/ui.mjs";

const counted = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

export class EditsPanel {
  status = null;
  storageFailureShown = false;

  constructor(page) {
    this.page = page;
  }

  /** After the page's content: the note, "Clear my saved edits", its question (hidden) and the status. */
  mount(lastBlockElement) {
    if (this.status?.isConnected) return;
    const container = lastBlockElement.closest("article") ?? lastBlockElement.parentElement;
    const panel = container.appendChild(document.createElement("div"));
    panel.className = "runnable-edits";
    const explanation = panel.appendChild(document.createElement("p"));
    explanation.textContent = "Your edits to the code blocks are saved in this browser, so they are still "
      + "here when you come back. Reset puts back one block's original code.";
    this.clearButton = button(panel, "Clear my saved edits", "runnable-edits__clear", () => this.ask());
    this.status = panel.appendChild(document.createElement("span"));
    this.status.className = "runnable-edits__status";
    this.status.setAttribute("role", "status");

    ({ element: this.question, words: this.words } = question(panel, "Clear your saved edits?"));
    [this.pageWork, this.pageWorkLabel] = this.option("runnable-edits__page-work");
    [this.otherPages, this.otherPagesLabel] = this.option("runnable-edits__other-pages");
    this.question.appendChild(document.createElement("p")).textContent = "Clearing cannot be undone. To keep a copy, "
      + "download your work first (a file you can load again on the page \"Your work\").";
    const nameLabel = this.question.appendChild(document.createElement("p")).appendChild(document.createElement("label"));
    nameLabel.textContent = "Your name (it names the file): ";
    this.name = nameLabel.appendChild(document.createElement("input"));
    this.name.type = "text";
    this.name.maxLength = 100;
    this.name.autocomplete = "name";
    buttonRow(this.question, [["Download my work", "runnable-edits__download", () => this.download()],
                              ["Clear", "runnable-edits__confirm-clear", () => this.clear()],
                              ["Cancel", "runnable-edits__cancel", () => this.cancel()]]);
  }

  /** A checkbox of the question, unticked: [input, the text after it]. */
  option(className) {
    const label = this.question.appendChild(document.createElement("p")).appendChild(document.createElement("label"));
    label.className = className;
    const input = label.appendChild(document.createElement("input"));
    input.type = "checkbox";
    return [input, label.appendChild(document.createElement("span"))];
  }

  /** What this page holds: the blocks that show an edit, the exercises with progress, the answered predictions;
   *  and how many saved edits the other pages have. */
  held() {
    const here = sitePage(this.page.runs.key);
    return {
      blocks: this.page.blocks.filter((block) => block.code() !== block.original || block.saved),
      exercises: [...this.page.exercises.values()].filter(({ progress }) => progress.attempted || progress.solved),
      predictions: (this.page.predictions ?? []).filter((prediction) => prediction.saved),
      elsewhere: Object.keys(allEdits()).filter((place) => !place.startsWith(`${here}#`)).length,
    };
  }

  /** Say what would be cleared and how much, and wait for Clear or Cancel. */
  ask() {
    const { blocks, exercises, predictions, elsewhere } = this.held();
    if (!blocks.length && !exercises.length && !predictions.length && !elsewhere) {
      this.status.textContent = "There are no saved edits to clear.";
      return;
    }
    this.words.textContent = (blocks.length ? `This clears your edits of ${counted(blocks.length, "block")} on this `
      + "page: they show the lesson's code again." : "No block of this page has an edit.")
      + " Your exercises' progress, your answers to the predictions and your edits on other pages stay, unless you tick them below.";
    const parts = [...(exercises.length ? [`your progress in ${counted(exercises.length, "exercise")}`] : []),
                   ...(predictions.length ? [`your answers to ${counted(predictions.length, "prediction")}`] : [])];
    this.pageWork.checked = this.otherPages.checked = false;
    this.name.value = savedLearner();
    this.pageWork.closest("p").hidden = parts.length === 0;
    this.pageWorkLabel.textContent = ` Also clear ${parts.join(" and ")} on this page`;
    this.otherPages.closest("p").hidden = elsewhere === 0;
    this.otherPagesLabel.textContent = ` Also clear your saved edits of ${counted(elsewhere, "block")} on the other pages`;
    this.status.textContent = "";
    this.question.hidden = false;
    this.words.focus();
  }

  /** "Download my work" from the chapter: the file "Your work" saves, under the name typed there or here. */
  async download() {
    const learner = this.name.value.trim().slice(0, 100);
    if (!learner) { // unnamed, every learner's file was "backprop-work.json": the teacher could not tell them apart
      this.status.textContent = "Type your name first: it names the file, and your teacher's table shows it. "
        + "Then press \"Download my work\" again.";
      this.name.focus();
      return;
    }
    saveLearner(learner);
    try {
      const { downloadWork, loadLesson } = await import("../work/work-file.mjs");
      this.status.textContent = `Saved as ${downloadWork(await loadLesson(), learner)} (in your downloads).`;
    } catch (error) {
      this.status.textContent = `Your work could not be downloaded here (${error.message}); try the page "Your work".`;
    }
  }

  clear() {
    const { blocks, exercises, predictions } = this.held();
    const pageWork = this.pageWork.checked;
    const others = this.otherPages.checked;
    this.question.hidden = true;
    for (const block of blocks) block.reset();
    const done = blocks.length ? [`your edits of ${counted(blocks.length, "block")} on this page`] : [];
    if (pageWork) {
      for (const exercise of exercises) {
        forgetProgress(exercise.name);
        exercise.forgetProgress();
      }
      for (const prediction of predictions) {
        forgetPrediction(prediction.id);
        prediction.forget();
      }
      if (exercises.length) done.push(`this page's progress in ${counted(exercises.length, "exercise")}`);
      if (predictions.length) done.push(`this page's answers to ${counted(predictions.length, "prediction")}`);
    }
    if (others) done.push(`your saved edits of ${counted(forgetAllEdits(), "block")} on the other pages`);
    this.status.textContent = done.length ? `Cleared ${done.join(", ")}.` : "Nothing was cleared.";
  }

  cancel() {
    this.question.hidden = true;
    this.status.textContent = "Nothing was cleared.";
    this.clearButton.focus();
  }

  /** Say, once, that edits cannot be saved in this browser. */
  storageFailed() {
    if (this.storageFailureShown) return;
    this.storageFailureShown = true;
    this.status.textContent = "Your edits cannot be saved in this browser (its storage is full or turned "
      + "off): they last until you leave this page.";
  }
}
