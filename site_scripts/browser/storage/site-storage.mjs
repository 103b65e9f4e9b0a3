// site-storage.mjs: this site's items in the browser's localStorage (the reader's edits, engine, progress).
// What it is: read, write and forget one item, and read or forget every item whose key starts with a prefix.
// None of them throws: storage that is full, turned off or refused means reading finds nothing,
// writing reports false and forgetting does nothing. SITE_PATH, the site's root path, goes into the
// keys, so two sites on one origin (GitHub Pages project sites) keep their items apart.
// What it is not: what is stored (the other modules of storage/ decide; work/work-file.mjs gathers it).

// This file is <site root>/assets/lesson/browser/storage/.
export const SITE_PATH = new URL("../../../../", import.meta.url).pathname;

/** This browser's localStorage; reading it throws when the browser refuses storage to this site. */
const storage = () => globalThis.localStorage;

/** The text stored under `key`, or null. */
export function readItem(key) {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** The JSON value stored under `key`, or null when there is none or it is not JSON. */
export function readRecord(key) {
  try {
    return JSON.parse(readItem(key) ?? "null");
  } catch {
    return null;
  }
}

/** Store `text` under `key`; false if it could not be stored (quota exceeded, storage turned off). */
export function writeItem(key, text) {
  try {
    storage().setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

export function forgetItem(key) {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing to forget when storage is refused
  }
}

/** The keys of every stored item whose key starts with `prefix` (none when storage is refused). */
export function storedKeysStartingWith(prefix) {
  try {
    const store = storage();
    const keys = [];
    for (let index = 0; index < (store?.length ?? 0); index += 1) keys.push(store.key(index));
    return keys.filter((key) => key?.startsWith(prefix));
  } catch {
    return [];
  }
}

/** { rest of key: record } for every stored item whose key starts with `prefix` and whose JSON `read(value)`
 *  makes a record of (read returns null for a value of another shape, which is left out). */
export function storedRecords(prefix, read) {
  const records = {};
  for (const key of storedKeysStartingWith(prefix)) {
    const record = read(readRecord(key));
    if (record) records[key.slice(prefix.length)] = record;
  }
  return records;
}

/** Forget every item whose key starts with `prefix`; returns how many there were. */
export function forgetItemsStartingWith(prefix) {
  const matching = storedKeysStartingWith(prefix);
  for (const key of matching) forgetItem(key);
  return matching.length;
}
