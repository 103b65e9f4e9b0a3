// saved-settings.mjs: the reader's name for their work file, and whether the exercises' solutions are
// turned off, kept in this browser's localStorage.
// What it is: the name typed on "Your work" (it names the downloaded file and heads the teacher's class
// overview), and the solutions switch a teacher turns off for a class: an address with `?solutions=off`
// (any page) turns the solutions off in that browser until `?solutions=on` or the switch on "Your work"
// turns them on again; when that last changed is kept too, and both go into the work file, so the class
// overview can tell. allSettings() and settingsItems() read and store them for a work file. When the work
// here was loaded from a work file, whose file it was is kept too (workLoadedFrom), so a download can say
// so: the person at the keyboard may not be the one the file names. Storage that is full, turned off or
// refused never throws: the solutions are then on, the name empty and no file noted.
// What it is not: the exercise panel that obeys the switch (exercises.mjs) or the page "Your work".
import { SITE_PATH, forgetItem, readItem, readRecord, writeItem } from "./site-storage.mjs";

const LEARNER_KEY = `lesson-work:learner:${SITE_PATH}`;
const SOLUTIONS_KEY = `lesson-work:solutions:${SITE_PATH}`;
const LOADED_FROM_KEY = `lesson-work:loaded-from:${SITE_PATH}`;
/** The keys of this module. */
export const SETTINGS_KEYS = [LEARNER_KEY, SOLUTIONS_KEY, LOADED_FROM_KEY];
/** The query parameter that turns the solutions off or on: ?solutions=off, ?solutions=on. */
export const SOLUTIONS_PARAMETER = "solutions";

/** The name the reader typed for their work file, or "". */
export function savedLearner() {
  return readItem(LEARNER_KEY) ?? "";
}

export function saveLearner(name) {
  if (name) writeItem(LEARNER_KEY, name);
  else forgetItem(LEARNER_KEY);
}

/** The work here was loaded from `file` (its name), which holds the work of `learner`. */
export function noteWorkLoadedFrom(learner, file) {
  writeItem(LOADED_FROM_KEY, JSON.stringify({ learner, file }));
}

/** { learner, file } of the work file the work here was loaded from, or null. */
export function workLoadedFrom() {
  const saved = readRecord(LOADED_FROM_KEY);
  return typeof saved?.learner === "string" && typeof saved.file === "string" ? saved : null;
}

/** { solutions: "on" | "off", solutionsChanged: ISO time or null } */
export function allSettings() {
  const saved = readRecord(SOLUTIONS_KEY);
  return { solutions: saved?.solutions === "off" ? "off" : "on",
           solutionsChanged: typeof saved?.changed === "string" ? saved.changed : null };
}

/** Whether "Show the solution" may open the exercises' solutions in this browser. */
export function solutionsAllowed() {
  return allSettings().solutions !== "off";
}

/** Turn the solutions on or off in this browser (from now on, on every page); false if it could not be saved. */
export function setSolutionsAllowed(allowed) {
  return writeItem(SOLUTIONS_KEY, JSON.stringify({ solutions: allowed ? "on" : "off", changed: new Date().toISOString() }));
}

/** Obey ?solutions=off or ?solutions=on in the address `search` (location.search), if it has one. */
export function applySolutionsParameter(search) {
  const wanted = new URLSearchParams(search).get(SOLUTIONS_PARAMETER);
  if ((wanted === "off" || wanted === "on") && (wanted === "on") !== solutionsAllowed()) setSolutionsAllowed(wanted === "on");
}

/** The items [key, text] that store a work file's `learner` and `settings` again. */
export function settingsItems(learner, { solutions, solutionsChanged }) {
  return [...(learner ? [[LEARNER_KEY, learner]] : []),
          ...(solutionsChanged === null && solutions === "on" ? []
            : [[SOLUTIONS_KEY, JSON.stringify({ solutions, changed: solutionsChanged })]])];
}
