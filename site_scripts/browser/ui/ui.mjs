// ui.mjs: small helpers every part of the lesson's page UI shares.
// What it is: button(), the one way the blocks, the exercises and the engine editor and banner make
// a button (Material's look, one size and outline for all: class "lesson-button" in blocks.css),
// loadEditor(), the CodeMirror bundle imported once, on first use, for the blocks and the engine editor,
// saveAsFile(), which hands a text to the browser as a download (your engine, your work, a CSV),
// notice(), a message with buttons (and a text to show on request) put at the top of a block or the
// engine editor, and SLOW_ANSWER_MS, how long Python may take to answer a figure or a waiting block before the page says so.
// What it is not: a component library; each part builds its own layout with these.
const EDITOR_URL = new URL("../../../vendor/codemirror/editor.mjs", import.meta.url);

/** "A few seconds": a figure or a block that has waited this long for Python says what it waits for. */
export const SLOW_ANSWER_MS = 4000;

let editorBundle = null;
/** The CodeMirror bundle ({ createEditor }), imported once. */
export const loadEditor = () => (editorBundle ??= import(EDITOR_URL.href));

/** A Material-styled <button> named `name`, appended to `parent`, calling `onClick` when pressed. */
export function button(parent, name, className, onClick) {
  const element = parent.appendChild(document.createElement("button"));
  element.type = "button";
  element.className = `md-button lesson-button ${className}`;
  element.textContent = name;
  element.addEventListener("click", onClick);
  return element;
}

/** Save `text` as a file named `name` (in the reader's downloads): made in the page, nothing is sent. */
export function saveAsFile(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.body.appendChild(document.createElement("a"));
  link.href = url;
  link.download = name;
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A notice with `role` ("note" or "alert") saying `text`, put first in `parent`: a button per action
 *  [name, onClick], and with `code` a text shown on request ("Show `showLabel`", labelled `codeLabel`).
 *  Returns { element, text, code }: the notice, its paragraph and the shown text (or null) to update. */
export function notice(parent, role, text, { code = null, codeLabel = "", showLabel = "", actions = [] } = {}) {
  const element = document.createElement("div");
  element.className = "runnable__notice";
  element.setAttribute("role", role);
  const paragraph = element.appendChild(document.createElement("p"));
  paragraph.textContent = text;
  for (const [name, onClick] of actions) button(element, name, "runnable__notice-action", onClick);
  let shown = null;
  if (code !== null) {
    shown = document.createElement("pre");
    shown.className = "runnable__original";
    shown.setAttribute("aria-label", codeLabel);
    shown.textContent = code;
    shown.hidden = true;
    const compare = button(element, `Show ${showLabel}`, "runnable__compare", () => {
      shown.hidden = !shown.hidden;
      compare.textContent = `${shown.hidden ? "Show" : "Hide"} ${showLabel}`;
      compare.setAttribute("aria-expanded", String(!shown.hidden));
    });
    compare.setAttribute("aria-expanded", "false");
    element.appendChild(shown);
  }
  parent.prepend(element);
  return { element, text: paragraph, code: shown };
}
