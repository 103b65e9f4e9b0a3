// ui.mjs: small helpers every part of the lesson's page UI shares.
// What it is: button(), the one way the blocks, the exercises and the engine editor and banner make
// a button (Material's look, one size and outline for all: class "lesson-button" in blocks.css),
// loadEditor(), the CodeMirror bundle imported once, on first use, for the blocks and the engine editor,
// saveAsFile(), which hands a text to the browser as a download (your engine, your work, a CSV), and
// SLOW_ANSWER_MS, how long Python may take to answer a figure or a waiting block before the page says so.
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
