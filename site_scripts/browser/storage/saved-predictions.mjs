// saved-predictions.mjs: the reader's answers to the lesson's checked predictions, kept in this
// browser's localStorage.
// What it is: read, save and forget one record per prediction, { answer, correct, revealed, first, firstRight },
// under keys that start with the site's root path (prediction ids are unique across the site): the latest
// answer and whether it is right, whether the reader asked to be shown the answer, and their first answer
// and whether it was right before the answer was shown (a record saved before first tries were kept has
// neither: their first try is not known); and read them all
// (for "Download my work"; predictionItems() stores a work file's answers again). Saving notes a change of
// the page shown (saved-activity.mjs). Storage that is full, turned off or refused never throws: saving
// then reports false and reading finds nothing (site-storage.mjs).
// What it is not: the question, its check or its feedback (the predictions' view shows those).
import { noteChange } from "./saved-activity.mjs";
import { SITE_PATH, forgetItem, readRecord, storedRecords, writeItem } from "./site-storage.mjs";

const KEY_PREFIX = `lesson-prediction:${SITE_PATH}`;
/** Every key of this site's answers starts with this. */
export const PREDICTIONS_PREFIX = KEY_PREFIX;

/** A stored record read back: { answer: string, correct: boolean, revealed: boolean } with, when it was
 *  kept, { first: string, firstRight: boolean }; or null. */
function predictionRecord(saved) {
  if (typeof saved?.answer !== "string") return null;
  const record = { answer: saved.answer, correct: saved.correct === true, revealed: saved.revealed === true };
  if (typeof saved.first === "string") Object.assign(record, { first: saved.first, firstRight: saved.firstRight === true });
  return record;
}

/** The text that stores `record` (the fields predictionRecord reads, no others). */
function recordText({ answer, correct, revealed, first, firstRight }) {
  return JSON.stringify({ answer: String(answer), correct: correct === true, revealed: revealed === true,
                          ...(typeof first === "string" ? { first, firstRight: firstRight === true } : {}) });
}

/** The saved answer to prediction `id`, or null when the reader has not answered it here. */
export function savedPrediction(id) {
  return predictionRecord(readRecord(`${KEY_PREFIX}${id}`));
}

/** Save the reader's `answer` (the text they entered or the choice they picked) to prediction `id`,
 *  whether it was `correct`, whether they asked to be shown the answer, and (once they checked one) their
 *  `first` answer and whether it was right before the answer was shown (`firstRight`); false if it could
 *  not be saved. */
export function savePrediction(id, record) {
  noteChange();
  return writeItem(`${KEY_PREFIX}${id}`, recordText(record));
}

/** Every saved answer of this site: { id: { answer, correct, revealed[, first, firstRight] } }. */
export function allPredictions() {
  return storedRecords(KEY_PREFIX, predictionRecord);
}

/** Forget the saved answer to prediction `id`. */
export function forgetPrediction(id) {
  noteChange();
  forgetItem(`${KEY_PREFIX}${id}`);
}

/** The items [key, text] that store `answers` (as allPredictions() returns them). */
export function predictionItems(answers) {
  return Object.entries(answers).map(([id, record]) => [`${KEY_PREFIX}${id}`, recordText(record)]);
}
