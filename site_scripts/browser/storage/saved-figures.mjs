// saved-figures.mjs: how far the reader got in each figure they fill in by hand, kept in this browser's
// localStorage.
// What it is: one record per figure whose model reports its progress (a state with `progress`: { right,
// total }, the boxes "Backpropagate by hand" and "A neuron by hand" take as right): { right, total }, where
// right is the most boxes the reader had right at once (starting again does not lower it) and the figure is
// done when right equals total; under keys that start with the site's root path (figure names are unique).
// allFigureProgress() and figureProgressItems() read and store them all for a work file. Saving notes a
// change of the page shown (saved-activity.mjs). Storage that is full, turned off or refused never throws.
// What it is not: the entries themselves (a figure starts empty on the next visit) or the figure.
import { noteChange } from "./saved-activity.mjs";
import { SITE_PATH, readRecord, storedRecords, writeItem } from "./site-storage.mjs";

/** Every key of this module starts with this. */
export const FIGURES_PREFIX = `lesson-figure-progress:${SITE_PATH}`;

const whole = (number) => Number.isInteger(number) && number >= 0;

/** A stored record read back: { right, total } (whole numbers, right ≤ total), or null. */
function progressRecord(saved) {
  if (!whole(saved?.right) || !whole(saved.total) || saved.right > saved.total) return null;
  return { right: saved.right, total: saved.total };
}

/** The saved progress of figure `name`, or null. */
export function savedFigureProgress(name) {
  return progressRecord(readRecord(`${FIGURES_PREFIX}${name}`));
}

/** Note that figure `name` has `right` of its `total` boxes right; kept only when it is more than before
 *  (or the figure has another number of boxes now). False if it could not be saved. */
export function saveFigureProgress(name, { right, total }) {
  const record = progressRecord({ right, total });
  const before = savedFigureProgress(name);
  if (!record || (before && before.total === total && before.right >= right)) return false;
  noteChange();
  return writeItem(`${FIGURES_PREFIX}${name}`, JSON.stringify(record));
}

/** { name: { right, total } } of every figure with saved progress. */
export function allFigureProgress() {
  return storedRecords(FIGURES_PREFIX, progressRecord);
}

/** The items [key, text] that store `figures` (as allFigureProgress() returns them). */
export function figureProgressItems(figures) {
  return Object.entries(figures).map(([name, { right, total }]) => [`${FIGURES_PREFIX}${name}`, JSON.stringify({ right, total })]);
}
