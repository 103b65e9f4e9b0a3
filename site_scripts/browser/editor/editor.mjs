// editor.mjs: the source of the code editor bundle (CodeMirror 6 with Python), built by esbuild.
// What it is: one function, createEditor, that the runnable blocks import lazily from the bundle
// assets/vendor/codemirror/editor.mjs (site_scripts/hooks/vendor.py builds it at every site build).
// What it is not: a browser file of its own; it imports npm packages, so it only works bundled.
// Colours come from Material's code CSS variables, so the editor follows the light/dark toggle.
// Text typed over a selection of several lines is put in by the editor itself (replaceAcrossLines): the
// browser's own editing would merge the selected lines and give the merged line a style="..." attribute,
// which the site's Content-Security-Policy (style-src-attr 'none') refuses, with an error in the console.
import { EditorView, minimalSetup } from "codemirror";
import { python } from "@codemirror/lang-python";
import { bracketMatching, HighlightStyle, indentOnInput, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { indentWithTab } from "@codemirror/commands";
import { EditorState, Prec } from "@codemirror/state";
import { keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";

const materialColours = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword], color: "var(--md-code-hl-keyword-color)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--md-code-hl-string-color)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--md-code-hl-number-color)" },
  { tag: tags.comment, color: "var(--md-code-hl-comment-color)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--md-code-hl-function-color)" },
  { tag: [tags.definition(tags.variableName), tags.className], color: "var(--md-code-hl-name-color)" },
  { tag: [tags.operator, tags.punctuation], color: "var(--md-code-hl-punctuation-color)" },
  { tag: [tags.self, tags.constant(tags.variableName)], color: "var(--md-code-hl-constant-color)" },
]);

const materialTheme = EditorView.theme({
  "&": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-fg-color)" },
  // Line numbers in the comment colour, which contrast.css keeps readable (axe: 4.5:1) in both schemes.
  ".cm-gutters": { backgroundColor: "var(--md-code-bg-color)", color: "var(--md-code-hl-comment-color)", border: "none" },
  ".cm-content": { caretColor: "var(--md-code-fg-color)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--md-code-fg-color)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground": { backgroundColor: "var(--md-accent-fg-color--transparent)" },
});

/** Typing over a selection that spans lines: the editor makes the change (as its own typing would), so the
 *  browser's editing never merges the lines' elements (see the header). Other input is left to CodeMirror. */
const replaceAcrossLines = EditorView.domEventHandlers({
  beforeinput(event, view) {
    if (event.inputType !== "insertText" || !event.data || view.composing) return false;
    const { doc, selection } = view.state;
    if (!selection.ranges.some((range) => !range.empty && doc.lineAt(range.from).number !== doc.lineAt(range.to).number)) return false;
    event.preventDefault();
    view.dispatch(view.state.replaceSelection(event.data), { scrollIntoView: true, userEvent: "input.type" });
    return true;
  },
});

/**
 * Mount an editor holding `code` inside `parent`.
 * `onRun` is called on Ctrl+Enter / Shift+Enter; `label` names the editor for screen readers;
 * `onChange(code)`, if given, after every change of the text (typing, undo, setCode).
 * Returns { getCode(), setCode(text), focus() }.
 */
export function createEditor({ parent, code, onRun, label, onChange = () => {} }) {
  const runKeys = Prec.highest(keymap.of([
    { key: "Mod-Enter", run: () => { onRun(); return true; } },
    { key: "Shift-Enter", run: () => { onRun(); return true; } },
  ]));
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: code,
      extensions: [
        runKeys,
        replaceAcrossLines,
        minimalSetup,
        lineNumbers(),
        indentOnInput(),
        bracketMatching(),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        keymap.of([indentWithTab]),
        python(),
        syntaxHighlighting(materialColours),
        materialTheme,
        // tabindex: axe counts a scrolled editor's text as reachable by keyboard only with it
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    getCode: () => view.state.doc.toString(),
    setCode: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    focus: () => view.focus(),
  };
}
