// other-tab.mjs: the one rule for a text two tabs of the site both keep in storage (a block's saved edit,
// the engine editor's draft). What it is: OtherTab remembers the stored record this tab last read or wrote;
// when storage holds another one (heard through the `storage` event, or found before a save) and the tab
// shows something else, it puts up a notice and the tab saves nothing until the reader keeps this tab's
// version (saved over the other) or uses the other tab's, so neither edit is lost without a word.
// What it is not: storage itself (saved-edits.mjs, engine-store.mjs) or the editor.
import { notice } from "../ui/ui.mjs";

export class OtherTab {
  notice = null; // the notice that another tab changed the text: { element, text, code }

  /** `read()` gives the stored record ({ code, … } or null: the lesson's text, `original()`), `shown()` the
   *  tab's text; the notice goes first in `parent`, about `subject` ("This block", "The engine in this
   *  editor"), `it` ("this block", "it") and `lesson` ("the lesson's code"), showing the other version
   *  under `codeLabel`. The reader's choice calls `use(code)` (the other tab's, stored already) or `keep()`. */
  constructor(parent, { read, original, shown, subject, it, lesson, codeLabel, use, keep }) {
    Object.assign(this, { parent, read, original, shown, subject, it, lesson, codeLabel, use, keep });
    this.known = read();
  }

  /** Whether this tab may save: true unless storage holds what this tab has not seen and does not show,
   *  which the notice then says (and true again once the reader has chosen). */
  check() {
    const stored = this.read();
    if ((stored?.code ?? null) === (this.known?.code ?? null)) return this.notice === null;
    const other = stored?.code ?? this.original();
    if (other === this.shown()) { // the other tab saved (or reset to) what this one shows
      this.known = stored;
      this.settled();
      return true;
    }
    const what = stored === null ? `went back to ${this.lesson} in another tab of this site`
      : "was edited in another tab of this site, and that version is saved now";
    const text = `${this.subject} ${what}. This tab saves nothing more of ${this.it} until you choose: `
      + "keep this tab's version (it replaces the other one) or use the other tab's.";
    if (this.notice) {
      this.notice.text.textContent = text;
      this.notice.code.textContent = other;
    } else {
      this.notice = notice(this.parent, "alert", text, {
        code: other, codeLabel: this.codeLabel, showLabel: "the other tab's version",
        actions: [["Keep this tab's version", () => this.choose(false)],
                  ["Use the other tab's version", () => this.choose(true)]],
      });
    }
    return false;
  }

  /** The reader chose: the other tab's version (`useOther`), or this tab's, which is saved over it. */
  choose(useOther) {
    this.known = this.read(); // what storage holds now is what this tab knows
    this.settled();
    if (useOther) this.use(this.known?.code ?? this.original());
    else this.keep();
  }

  /** No notice any more (chosen, or the reader reset the text). */
  settled() {
    this.notice?.element.remove();
    this.notice = null;
  }
}
