// saved-edits.mjs: the reader's edits of runnable blocks, kept in this browser's localStorage.
// What it is: small functions to read, save and forget the edit of one block (keyed by the page's
// path and the block's number), with a fingerprint of the lesson's original code saved alongside,
// so a page can tell when the lesson changed after the edit was made; and one to forget every
// edit made on this site. Storage that is full, turned off or refused never throws: saving then
// reports false and reading finds nothing.
// What it is not: the block's editor or its messages (blocks.mjs shows them).
const KEY_PREFIX = "lesson-edit:";
// This file is <site root>/assets/lesson/blocks/: keys of this site start with its root path, so two
// sites on one origin (GitHub Pages project sites) never clear each other's edits.
const SITE_PATH = new URL("../../../", import.meta.url).pathname;

const keyOf = (page, number) => `${KEY_PREFIX}${page}#${number}`;

/** This browser's localStorage, or null when the browser refuses storage to this site. */
export function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // reading localStorage itself throws when the browser refuses storage to this site
  }
}

/** A short fingerprint of a text (32-bit FNV-1a), enough to notice that a lesson's code changed. */
export function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The saved edit of block `number` on `page`: { code, original } (original = fingerprint), or null. */
export function savedEdit(page, number) {
  try {
    const saved = JSON.parse(storage()?.getItem(keyOf(page, number)) ?? "null");
    return typeof saved?.code === "string" && typeof saved.original === "string" ? saved : null;
  } catch {
    return null; // refused, or not JSON: as good as nothing saved
  }
}

/** Save `code` as the edit of a block whose lesson code is `original`; false if it could not be saved. */
export function saveEdit(page, number, code, original) {
  try {
    const store = storage();
    store.setItem(keyOf(page, number), JSON.stringify({ code, original: fingerprint(original) }));
    return true;
  } catch {
    return false; // quota exceeded or storage turned off: the edit lives on in the page only
  }
}

/** Forget the saved edit of one block. */
export function forgetEdit(page, number) {
  try {
    storage()?.removeItem(keyOf(page, number));
  } catch {
    // nothing to forget when storage is refused
  }
}

/** Forget the saved edits of every page of this site; returns how many there were. */
export function forgetAllEdits() {
  try {
    const store = storage();
    const keys = [];
    for (let index = 0; index < (store?.length ?? 0); index += 1) keys.push(store.key(index));
    const ours = keys.filter((key) => key?.startsWith(`${KEY_PREFIX}${SITE_PATH}`));
    for (const key of ours) store.removeItem(key);
    return ours.length;
  } catch {
    return 0;
  }
}
