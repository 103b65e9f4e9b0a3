// ui.mjs: small helpers every part of the lesson's page UI shares: button(), the one way the page makes a
// button (one look for all: "lesson-button" in blocks.css), buttonRow(), question() (asked in the page
// before a change), Lines (a part's status and problem lines), notice() (a message with buttons at the
// top of a block or the engine editor), loadEditor() (CodeMirror, imported once), saveAsFile(), and
// SLOW_ANSWER_MS, how long Python may take to answer before the page says what it waits for.
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

/** A row of buttons, one per [name, className, onClick], appended to `parent`; returns the buttons. */
export function buttonRow(parent, buttons) {
  const row = parent.appendChild(document.createElement("div"));
  row.className = "lesson-buttons";
  return buttons.map(([name, className, onClick]) => button(row, name, className, onClick));
}

/** A question the page asks before doing what cannot be undone, hidden until asked: a group labelled
 *  `label`, appended to `parent`, whose first paragraph `words` (focusable) says what would happen.
 *  The caller adds the rest (its options, then its buttonRow). Returns { element, words }. */
export function question(parent, label) {
  const element = parent.appendChild(document.createElement("div"));
  element.className = "lesson-question";
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", label);
  element.hidden = true;
  const words = element.appendChild(document.createElement("p"));
  words.tabIndex = -1;
  return { element, words };
}

/** The two lines a part of the page speaks with: what it did (`status`, role "status", a paragraph appended
 *  to `parent`, or a span in `bar` when given) and what went wrong (`problem`, role "alert", kept as written,
 *  hidden while there is none); neither clears the other. */
export class Lines {
  constructor(parent, bar = null) {
    this.status = (bar ?? parent).appendChild(document.createElement(bar ? "span" : "p"));
    if (bar) this.status.className = "runnable__status";
    this.status.setAttribute("role", "status");
    this.problem = parent.appendChild(document.createElement("div"));
    this.problem.className = "lesson-problem";
    this.problem.setAttribute("role", "alert");
    this.problem.hidden = true;
  }

  say(text) {
    this.status.textContent = text;
  }

  showProblem(text) {
    this.problem.replaceChildren(Object.assign(document.createElement("pre"), { textContent: text }));
    this.problem.hidden = false;
  }

  hideProblem() {
    this.problem.hidden = true;
    this.problem.replaceChildren();
  }
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
