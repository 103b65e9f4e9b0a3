// engine-banner.mjs: the banner at the top of every page while the site runs the reader's edited engine.
// What it is: mountEngineBanner(root), called by main.mjs on every page Material shows, puts one
// region named "Edited engine" at the top of the page's article. While an edited engine is in use it
// says so, links to the page "Edit the engine" and offers "Restore the original engine", which
// forgets the edited engine and replaces Python, if it has started, by one with the lesson's engine.
// It needs no Python, so it works even when Python cannot start with the edited engine (it then says
// so). It shows or hides itself whenever the engine changes, also when another tab of the site
// applied or restored one. It sits at the top of the page and scrolls away with it, never over a control.
// restoreOriginalEngine() is that button's action, which a figure that waits long for Python offers too.
// What it is not: the editor (engine-editor.mjs) or the runtime's switch (runtime.useEngine), which
// also follows the other tabs.
import { button } from "../ui/ui.mjs";
import { runtime } from "../runtime/runtime.mjs";
import { forgetStoredEngine } from "../storage/engine-store.mjs";

const EDIT_PAGE = new URL("../../../../edit-engine/", import.meta.url);
const IN_USE = "This site runs your edited engine: every code block and figure on every page uses it.";
const CANNOT_START = "Python could not start with your edited engine. Restore the original engine to run code again.";
const RESTORED = "The lesson's original engine is back: every code block and figure uses it again.";

let banner = null; // the banner of the page shown now: { element, text, editLink, restore }
let restoredHere = false; // the reader restored the engine from this page (its banner, or a figure)

/** Add the banner to the page's article (once per page); it shows itself while an edited engine runs. */
export function mountEngineBanner(root) {
  if (banner?.element.isConnected) return;
  const article = root.querySelector("article.md-content__inner");
  if (!article) return;
  const element = document.createElement("div");
  element.className = "engine-banner";
  element.setAttribute("role", "region");
  element.setAttribute("aria-label", "Edited engine");
  const text = element.appendChild(document.createElement("p"));
  text.setAttribute("role", "status");
  text.tabIndex = -1; // focus lands here after a restore, when the button is gone
  const editLink = element.appendChild(document.createElement("a"));
  editLink.href = EDIT_PAGE.href;
  editLink.textContent = "Edit the engine";
  const restore = button(element, "Restore the original engine", "engine-banner__restore", () => {
    restoreOriginalEngine();
    banner?.text.focus();
  });
  article.prepend(element);
  banner = { element, text, editLink, restore };
  restoredHere = false;
  render();
}

/** Forget the edited engine and run the lesson's (replacing Python, if it has started); the banner then
 *  says the original is back. */
export function restoreOriginalEngine() {
  forgetStoredEngine();
  restoredHere = true;
  runtime.useEngine(null);
}

function render() {
  if (!banner?.element.isConnected) return;
  const edited = runtime.engineSource !== null;
  banner.element.hidden = !edited && !restoredHere;
  banner.restore.hidden = !edited;
  banner.editLink.hidden = !edited || location.pathname === EDIT_PAGE.pathname;
  banner.text.textContent = !edited ? RESTORED : runtime.status.state === "error" ? CANNOT_START : IN_USE;
}

runtime.onEngineChange(render);
runtime.onStatus(render);
