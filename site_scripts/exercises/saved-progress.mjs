// saved-progress.mjs: how far the reader got with each exercise, kept in this browser's localStorage.
// What it is: read and save { attempted, solved } per exercise name (names are unique across the
// site), under keys that start with the site's root path, so two sites on one origin keep apart.
// Storage that is full, turned off or refused never throws: saving then reports false and reading
// finds no progress.
// What it is not: the exercise's buttons or messages (exercises.mjs shows them).
import { storage } from "../blocks/saved-edits.mjs";

const KEY_PREFIX = "lesson-exercise:";
// This file is <site root>/assets/lesson/exercises/.
const SITE_PATH = new URL("../../../", import.meta.url).pathname;
const NO_PROGRESS = Object.freeze({ attempted: false, solved: false });

const keyOf = (name) => `${KEY_PREFIX}${SITE_PATH}${name}`;

/** The saved progress of exercise `name`: { attempted, solved }, both false when nothing is saved. */
export function savedProgress(name) {
  try {
    const saved = JSON.parse(storage()?.getItem(keyOf(name)) ?? "null");
    return { attempted: saved?.attempted === true, solved: saved?.solved === true };
  } catch {
    return NO_PROGRESS; // refused, or not JSON: as good as nothing saved
  }
}

/** Save the progress of exercise `name`; false if it could not be saved. */
export function saveProgress(name, { attempted, solved }) {
  try {
    storage().setItem(keyOf(name), JSON.stringify({ attempted, solved }));
    return true;
  } catch {
    return false; // quota exceeded or storage turned off: the progress lives on in the page only
  }
}
