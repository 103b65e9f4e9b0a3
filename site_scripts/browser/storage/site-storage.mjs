// site-storage.mjs: this site's items in the browser's localStorage (the reader's edits, engine, progress).
// What it is: read, write and forget one item, and read or forget every item whose key starts with a prefix.
// None of them throws: storage that is full, turned off or refused means reading finds nothing,
// writing reports false and forgetting does nothing. SITE_PATH, the site's root path, goes into the
// keys, so two sites on one origin (GitHub Pages project sites) keep their items apart. A key prefix
// that ends with the site's path also matches the items of a copy of the lesson served below it (`/` and
// `/course/`), so every copy notes its root in the item "sites-of-the-lesson", and the keys of the copies
// below this one are never this site's (storedKeysStartingWith leaves them out).
// What it is not: what is stored (the other modules of storage/ decide; work/work-file.mjs gathers it).

// This file is <site root>/assets/lesson/browser/storage/.
export const SITE_PATH = new URL("../../../../", import.meta.url).pathname;

/** This browser's localStorage; reading it throws when the browser refuses storage to this site. */
const storage = () => globalThis.localStorage;

const SITES_KEY = "sites-of-the-lesson"; // ["/", "/course/"]: the roots of the copies of the lesson on this origin

/** The roots of the other copies of the lesson below this one on this origin; notes this one's root. */
function sitesBelow() {
  let sites = readRecord(SITES_KEY);
  if (!Array.isArray(sites)) sites = [];
  if (!sites.includes(SITE_PATH)) writeItem(SITES_KEY, JSON.stringify([...sites, SITE_PATH]));
  return sites.filter((site) => typeof site === "string" && site !== SITE_PATH && site.startsWith(SITE_PATH));
}
sitesBelow(); // noted on every page load, before this copy keeps anything a copy above it could take for its own

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

/** The keys of every stored item whose key starts with `prefix` (none when storage is refused); for a
 *  prefix that ends with the site's path ("lesson-edit:/"), never those of a copy of the lesson below it
 *  ("lesson-edit:/course/..."). */
export function storedKeysStartingWith(prefix) {
  const kind = prefix.endsWith(SITE_PATH) ? prefix.slice(0, prefix.length - SITE_PATH.length) : null;
  const others = kind === null ? [] : sitesBelow().map((site) => kind + site);
  try {
    const store = storage();
    const keys = [];
    for (let index = 0; index < (store?.length ?? 0); index += 1) keys.push(store.key(index));
    return keys.filter((key) => key?.startsWith(prefix) && !others.some((other) => key.startsWith(other)));
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
