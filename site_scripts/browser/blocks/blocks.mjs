// blocks.mjs: turns the static runnable blocks of a page into editable, runnable ones.
// What it is: mountBlocks(page) finds the <div class="runnable"> of a page visit (a LessonPage,
// lesson-page.mjs; written by the runnable_fence hook), makes each one a Block (block.mjs) run by the
// page's PageRuns (page-runs.mjs), puts both into the page object, and adds after the page's content a
// "Clear my saved edits" button (which also forgets the exercises' progress and the answers to the
// predictions) with the saving status.
// Mounting a page twice does nothing more, so Material's document$ (first load and every instant
// navigation) can call it freely; each visit of a page starts that page's namespace afresh. Python
// starts when a block nears the view.
// What it is not: a block's look (block.mjs), the order of runs (page-runs.mjs) or Python (runtime.mjs).
import { runtime } from "../runtime/runtime.mjs";
import { forgetAllEdits } from "../storage/saved-edits.mjs";
import { forgetAllProgress } from "../storage/saved-progress.mjs";
import { forgetAllPredictions } from "../storage/saved-predictions.mjs";
import { forgetAllFigureProgress } from "../storage/saved-figures.mjs";
import { button } from "../ui/ui.mjs";
import { Block } from "./block.mjs";
import { PageRuns } from "./page-runs.mjs";

/** Mount the runnable blocks of `page` (a LessonPage) once: page.runs and page.blocks; Python starts
 *  when a block nears the view. */
export function mountBlocks(page) {
  if (page.runs) return;
  const elements = [...page.root.querySelectorAll("div.runnable")];
  page.runs = new PageRuns(page);
  if (elements.length === 0) return;
  const editsPanel = new EditsPanel(page);
  page.blocks = elements.map((element, index) => new Block(element, index + 1, page.runs,
                                                               { onStorageFailed: () => editsPanel.storageFailed() }));
  editsPanel.mount(elements.at(-1));
  for (const element of elements) runtime.startWhenNear(element);
}

/** After the page's content: "Clear my saved edits" and what happened to the reader's edits. */
class EditsPanel {
  status = null;
  storageFailureShown = false;

  constructor(page) {
    this.page = page;
  }

  /** After the page's content: the "Clear my saved edits" button and the saving status. */
  mount(lastBlockElement) {
    if (this.status?.isConnected) return;
    const container = lastBlockElement.closest("article") ?? lastBlockElement.parentElement;
    const panel = container.appendChild(document.createElement("div"));
    panel.className = "runnable-edits";
    const explanation = panel.appendChild(document.createElement("p"));
    explanation.textContent = "Your edits to the code blocks are saved in this browser, so they are still "
      + "here when you come back. Reset puts back one block's original code.";
    button(panel, "Clear my saved edits", "runnable-edits__clear", () => this.clearSavedEdits());
    this.status = panel.appendChild(document.createElement("span"));
    this.status.className = "runnable-edits__status";
    this.status.setAttribute("role", "status");
  }

  clearSavedEdits() {
    const cleared = forgetAllEdits();
    const progress = forgetAllProgress() + forgetAllPredictions() + forgetAllFigureProgress(); // progress and answers go too
    for (const block of this.page.blocks) {
      if (block.code() !== block.original || block.saved) block.reset();
      this.page.exercises.get(block)?.forgetProgress();
    }
    for (const prediction of this.page.predictions) prediction.forget();
    const andProgress = progress === 0 ? "" : " and your exercises' progress and predictions";
    this.status.textContent = cleared === 0 && progress === 0 ? "There were no saved edits to clear."
      : `Cleared ${cleared} saved edit${cleared === 1 ? "" : "s"}${andProgress}; the code blocks show the lesson's code again.`;
  }

  /** Say, once, that edits cannot be saved in this browser. */
  storageFailed() {
    if (this.storageFailureShown) return;
    this.storageFailureShown = true;
    this.status.textContent = "Your edits cannot be saved in this browser (its storage is full or turned "
      + "off): they last until you leave this page.";
  }
}
