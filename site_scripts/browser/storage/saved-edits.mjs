// saved-edits.mjs: the reader's edits of runnable blocks, kept in this browser's localStorage.
// What it is: small functions to read, save, put back and forget the edit of one block (keyed by the page's
// path and the block's number), with a fingerprint of the lesson's original code saved alongside,
// so a page can tell when the lesson changed after the edit was made; and one to forget every
// edit made on this site; allEdits() and editItems() read and store them all for a work file (with
// page paths relative to the site's root). Saving or forgetting an edit notes a change of its page
// (saved-activity.mjs). onEditChangedElsewhere() reports when another tab of the site saved or forgot
// the edit of a block (the browser's `storage` event), so that tab's block can say so before it
// overwrites it. Storage that is full, turned off or refused never throws: saving then
// reports false and reading finds nothing (site-storage.mjs).
// What it is not: the block's editor or its messages (blocks/block.mjs shows them).
import { noteChange } from "./saved-activity.mjs";
import { SITE_PATH, forgetItem, forgetItemsStartingWith, readRecord, storedRecords, writeItem } from "./site-storage.mjs";

const KEY_PREFIX = "lesson-edit:";
/** Every key of this site's edits starts with this. */
export const EDITS_PREFIX = `${KEY_PREFIX}${SITE_PATH}`;

// A page's path starts with SITE_PATH, so this site's keys start with KEY_PREFIX + SITE_PATH.
const keyOf = (page, number) => `${KEY_PREFIX}${page}#${number}`;

/** A short fingerprint of a text (32-bit FNV-1a), enough to notice that a lesson's code changed. */
export function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The stored text of `code`, edited from the lesson's code `original` (the engine editor's draft too). */
export function editText(code, original) {
  return JSON.stringify({ code, original: fingerprint(original) });
}

/** A stored edit read back, { code, original } (original = fingerprint of the lesson's code), or null. */
export function editRecord(saved) {
  return typeof saved?.code === "string" && typeof saved.original === "string" ? saved : null;
}

/** The saved edit of block `number` on `page`: { code, original }, or null. */
export function savedEdit(page, number) {
  return editRecord(readRecord(keyOf(page, number)));
}

/** Save `code` as the edit of a block whose lesson code is `original`; false if it could not be saved
 *  (the edit then lives on in the page only). */
export function saveEdit(page, number, code, original) {
  noteChange(page);
  return writeItem(keyOf(page, number), editText(code, original));
}

/** Store again an edit read or saved earlier ({ code, original }, or null: no edit); false if it could not be. */
export function putBackEdit(page, number, edit) {
  if (edit === null) {
    forgetEdit(page, number);
    return true;
  }
  noteChange(page);
  return writeItem(keyOf(page, number), JSON.stringify({ code: edit.code, original: edit.original }));
}

/** Forget the saved edit of one block. */
export function forgetEdit(page, number) {
  if (readRecord(keyOf(page, number)) !== null) noteChange(page);
  forgetItem(keyOf(page, number));
}

/** Every saved edit of this site: { "derivatives/#2": { code, original } } (the page's path relative to
 *  the site's root, then the block's number). */
export function allEdits() {
  return storedRecords(EDITS_PREFIX, (value) => {
    const record = editRecord(value);
    return record && { code: record.code, original: record.original };
  });
}

/** The items [key, text] that store `edits` (as allEdits() returns them). */
export function editItems(edits) {
  return Object.entries(edits).map(([place, { code, original }]) => [`${EDITS_PREFIX}${place}`,
    JSON.stringify({ code, original })]);
}

const elsewhere = new Map(); // key of a block's edit -> what to call when another tab changes it
addEventListener("storage", (event) => {
  const keys = event.key === null ? [...elsewhere.keys()] : [event.key]; // null: the whole storage was cleared
  for (const key of keys) elsewhere.get(key)?.();
});

/** Call fn() whenever another tab of this site saves or forgets the edit of block `number` on `page` (only
 *  the tabs that did not make the change hear of it); one listener per block: a later call for the same
 *  block replaces it. Returns a function that stops listening. */
export function onEditChangedElsewhere(page, number, fn) {
  const key = keyOf(page, number);
  elsewhere.set(key, fn);
  return () => { if (elsewhere.get(key) === fn) elsewhere.delete(key); };
}

/** Whether two saved edits ({ code, original } or null) are the same edit of the same code. */
export function sameEdit(one, other) {
  return one === other || (one !== null && other !== null && one.code === other.code);
}

/** Forget the saved edits of every page of this site; returns how many there were. */
export function forgetAllEdits() {
  return forgetItemsStartingWith(EDITS_PREFIX);
}
