// engine-store.mjs: the reader's edited engine, kept in this browser's localStorage.
// What it is: small functions to read, save and forget two texts of this site: the engine the
// site runs (the "active" edited engine, or none for the lesson's own) and the draft in the engine
// editor, which is kept even when it was never applied. The draft carries a fingerprint of the
// lesson's engine it started from, so the editor can tell when the lesson's engine changed since.
// onStoredEngineChange() reports when another tab of the site applies or restores an engine, and
// onDraftChangedElsewhere() when another tab saves or forgets the editor's draft;
// engineItems() stores a work file's engine and draft again. Saving notes a change of the page shown
// (saved-activity.mjs).
// Storage that is full, turned off or refused never throws (site-storage.mjs): saving reports
// false, reading finds nothing.
// What it is not: the editor, the banner or the runtime (they call these functions; the runtime is
// the one that follows another tab's change).
import { editRecord, editText } from "./saved-edits.mjs";
import { noteChange } from "./saved-activity.mjs";
import { SITE_PATH, forgetItem, readItem, readRecord, writeItem } from "./site-storage.mjs";

const ACTIVE_KEY = `lesson-engine:active:${SITE_PATH}`;
const DRAFT_KEY = `lesson-engine:draft:${SITE_PATH}`;
/** The keys of this module. */
export const ENGINE_KEYS = [ACTIVE_KEY, DRAFT_KEY];

/** The source of the edited engine the site should run, or null for the lesson's engine. */
export function storedEngine() {
  return readItem(ACTIVE_KEY);
}

/** Call fn(source) whenever another tab of this site changes the stored engine: source is the edited
 *  engine stored now, or null for the lesson's. The browser's `storage` event fires only in the tabs
 *  that did not make the change; a key of null means the site's storage was cleared. */
export function onStoredEngineChange(fn) {
  addEventListener("storage", (event) => {
    if (event.key === ACTIVE_KEY || event.key === null) fn(storedEngine());
  });
}

/** Call fn() whenever another tab of this site saves or forgets the editor's draft (or clears storage).
 *  Returns a function that stops listening. */
export function onDraftChangedElsewhere(fn) {
  const heard = (event) => {
    if (event.key === DRAFT_KEY || event.key === null) fn();
  };
  addEventListener("storage", heard);
  return () => removeEventListener("storage", heard);
}

/** Keep `source` as the engine of every page of this site; false if it could not be saved. */
export function storeEngine(source) {
  noteChange();
  return writeItem(ACTIVE_KEY, source);
}

/** Go back to the lesson's engine on every page. */
export function forgetStoredEngine() {
  noteChange();
  forgetItem(ACTIVE_KEY);
}

/** The editor's saved draft: { code, original } (original = fingerprint of the lesson's engine), or null. */
export function savedDraft() {
  return editRecord(readRecord(DRAFT_KEY));
}

/** Save the editor's text, edited from the lesson's engine `original`; false if it could not be saved. */
export function saveDraft(code, original) {
  noteChange();
  return writeItem(DRAFT_KEY, editText(code, original));
}

export function forgetDraft() {
  forgetItem(DRAFT_KEY);
}

/** The items [key, text] that store `active` (an engine's source, or null) and `draft` ({ code, original }, or null). */
export function engineItems({ active, draft }) {
  return [...(active === null ? [] : [[ACTIVE_KEY, active]]),
          ...(draft === null ? [] : [[DRAFT_KEY, JSON.stringify({ code: draft.code, original: draft.original })]])];
}
