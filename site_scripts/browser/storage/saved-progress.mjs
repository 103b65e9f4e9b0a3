// saved-progress.mjs: how far the reader got with each exercise, kept in this browser's localStorage.
// What it is: read, save and forget { attempted, solved } per exercise name (names are unique across the
// site), under keys that start with the site's root path, so two sites on one origin keep apart.
// Storage that is full, turned off or refused never throws: saving then reports false and reading
// finds no progress (site-storage.mjs).
// What it is not: the exercise's buttons or messages (exercises.mjs shows them).
import { SITE_PATH, forgetItemsStartingWith, readRecord, writeItem } from "./site-storage.mjs";

const KEY_PREFIX = "lesson-exercise:";

const keyOf = (name) => `${KEY_PREFIX}${SITE_PATH}${name}`;

/** The saved progress of exercise `name`: { attempted, solved }, both false when nothing is saved
 *  (or storage is refused, or what is stored is not JSON). */
export function savedProgress(name) {
  const saved = readRecord(keyOf(name));
  return { attempted: saved?.attempted === true, solved: saved?.solved === true };
}

/** Save the progress of exercise `name`; false if it could not be saved (it then lives on in the
 *  page only). */
export function saveProgress(name, { attempted, solved }) {
  return writeItem(keyOf(name), JSON.stringify({ attempted, solved }));
}

/** Forget the progress of every exercise of this site; returns how many had some. */
export function forgetAllProgress() {
  return forgetItemsStartingWith(`${KEY_PREFIX}${SITE_PATH}`);
}
