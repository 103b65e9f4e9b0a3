// saved-progress.mjs: how far the reader got with each exercise, kept in this browser's localStorage.
// What it is: read, save and forget { attempted, solved } per exercise name (names are unique across the
// site), under keys that start with the site's root path, so two sites on one origin keep apart; and,
// apart from it, whether the reader opened an exercise's solution (noteSolutionShown), which the
// class overview shows. allProgress() and progressItems() read and store them all for a work file.
// Saving notes a change of the page shown (saved-activity.mjs). Storage that is full, turned off or
// refused never throws: saving then reports false and reading finds no progress (site-storage.mjs).
// What it is not: the exercise's buttons or messages (exercises.mjs shows them).
import { noteChange } from "./saved-activity.mjs";
import { SITE_PATH, forgetItem, readItem, readRecord, storedKeysStartingWith, writeItem } from "./site-storage.mjs";

/** Every key of this site's exercise progress, and of the solutions shown, starts with one of these. */
export const PROGRESS_PREFIX = `lesson-exercise:${SITE_PATH}`;
export const SOLUTION_SHOWN_PREFIX = `lesson-solution-shown:${SITE_PATH}`;

const keyOf = (name) => `${PROGRESS_PREFIX}${name}`;

/** The saved progress of exercise `name`: { attempted, solved }, both false when nothing is saved
 *  (or storage is refused, or what is stored is not JSON). */
export function savedProgress(name) {
  const saved = readRecord(keyOf(name));
  return { attempted: saved?.attempted === true, solved: saved?.solved === true };
}

/** Save the progress of exercise `name`; false if it could not be saved (it then lives on in the
 *  page only). */
export function saveProgress(name, { attempted, solved }) {
  noteChange();
  return writeItem(keyOf(name), JSON.stringify({ attempted, solved }));
}

/** Forget the progress of exercise `name` (whether its solution was shown stays: the class overview reads it). */
export function forgetProgress(name) {
  noteChange();
  forgetItem(keyOf(name));
}

/** The reader opened the solution of exercise `name`. */
export function noteSolutionShown(name) {
  if (readItem(`${SOLUTION_SHOWN_PREFIX}${name}`) !== null) return;
  noteChange();
  writeItem(`${SOLUTION_SHOWN_PREFIX}${name}`, "shown");
}

/** { name: { attempted, solved, solutionShown } } for every exercise with saved progress or a solution shown. */
export function allProgress() {
  const exercises = {};
  for (const key of storedKeysStartingWith(PROGRESS_PREFIX)) {
    const name = key.slice(PROGRESS_PREFIX.length);
    exercises[name] = { ...savedProgress(name), solutionShown: false };
  }
  for (const key of storedKeysStartingWith(SOLUTION_SHOWN_PREFIX)) {
    const name = key.slice(SOLUTION_SHOWN_PREFIX.length);
    exercises[name] = { ...(exercises[name] ?? { attempted: false, solved: false }), solutionShown: true };
  }
  return exercises;
}

/** The items [key, text] that store `exercises` ({ name: { attempted, solved, solutionShown } }). */
export function progressItems(exercises) {
  return Object.entries(exercises).flatMap(([name, { attempted, solved, solutionShown }]) => [
    ...(attempted || solved ? [[keyOf(name), JSON.stringify({ attempted, solved })]] : []),
    ...(solutionShown ? [[`${SOLUTION_SHOWN_PREFIX}${name}`, "shown"]] : []),
  ]);
}
