// blocks.mjs: turns the static runnable blocks of a page into editable, runnable ones.
// What it is: mountBlocks(page) finds the <div class="runnable"> of a page visit (a LessonPage,
// lesson-page.mjs; written by the runnable_fence hook), makes each one a Block (block.mjs) run by the
// page's PageRuns (page-runs.mjs), puts both into the page object, and adds after the page's content
// "Clear my saved edits" with the saving status (edits-panel.mjs).
// Mounting a page twice does nothing more, so Material's document$ (first load and every instant
// navigation) can call it freely; each visit of a page starts that page's namespace afresh. Python
// starts when a block nears the view.
// What it is not: a block's look (block.mjs), the order of runs (page-runs.mjs) or Python (runtime.mjs).
import { runtime } from "../runtime/runtime.mjs";
import { Block } from "./block.mjs";
import { EditsPanel } from "./edits-panel.mjs";
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
