// work-file.mjs: the learner's work file: made from this browser's storage, read back, checked, restored.
// What it is: the one place that knows the format (FORMAT, VERSION; work-file.schema.json describes it
// and ARCHITECTURE.md's section "Work files" explains it):
//   loadLesson()              the build's list of chapters, exercises, checked predictions and figures
//                             filled in by hand (lesson.json, written by
//                             hooks/work_files.py) and the schema, fetched once from the site itself;
//   workFromStorage(lesson)   everything this browser keeps of the lesson, as a work file's value;
//   workFileName(learner)     "<name>-backprop-work.json";
//   downloadWork(lesson, learner) that work saved as a file in the reader's downloads (from "Your work"
//                             and from a chapter's "Clear my saved edits"); returns the file's name;
//   readWorkFile(file, lesson) a File checked before anything is kept: { work } or { problem } with a
//                             sentence for the reader (too large, empty, not JSON, cut short, JSON of
//                             another shape, a newer version, another site's file, damaged, a date
//                             that does not exist such as month 13);
//   restoreWork(work)         this browser's work replaced by the file's, all or nothing;
//   forgetWork()              every item of the lesson this browser keeps forgotten, but the solutions
//                             switch (a new learner on this computer starts empty).
// The exercises' solutions switch is this browser's (a teacher's choice for the room): a file records
// it for the class overview, and loading a file leaves the browser's own switch as it is.
// What it is not: the pages (your-work.mjs, class/class-overview.mjs) or the key names of each kind of
// item (the storage modules own those).
import { problemWith } from "./schema-check.mjs";
import { ACTIVITY_PREFIX, activityItems, allActivity } from "../storage/saved-activity.mjs";
import { EDITS_PREFIX, allEdits, editItems } from "../storage/saved-edits.mjs";
import { ENGINE_KEYS, engineItems, savedDraft, storedEngine } from "../storage/engine-store.mjs";
import { PREDICTIONS_PREFIX, allPredictions, predictionItems } from "../storage/saved-predictions.mjs";
import { FIGURES_PREFIX, allFigureProgress, figureProgressItems } from "../storage/saved-figures.mjs";
import { PROGRESS_PREFIX, SOLUTION_SHOWN_PREFIX, allProgress, progressItems } from "../storage/saved-progress.mjs";
import { SETTINGS_KEYS, allSettings, savedLearner, settingsItems } from "../storage/saved-settings.mjs";
import { forgetItem, readItem, storedKeysStartingWith, writeItem } from "../storage/site-storage.mjs";
import { saveAsFile } from "../ui/ui.mjs";

export const FORMAT = "slope-to-backprop-work";
export const VERSION = 1;
export const MAX_FILE_BYTES = 2_000_000; // a class's work is a few hundred kilobytes at most
const LESSON_URL = new URL("lesson.json", import.meta.url);
const SCHEMA_URL = new URL("work-file.schema.json", import.meta.url);

let lessonLoading = null;

/** { map, schema }: the build's lesson.json ({ site, chapters, exercises, buildYourOwn }) and the schema. */
export function loadLesson() {
  lessonLoading ??= Promise.all([LESSON_URL, SCHEMA_URL].map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
    return response.json();
  })).then(([map, schema]) => ({ map, schema }), (error) => {
    lessonLoading = null; // try again next time
    throw error;
  });
  return lessonLoading;
}

/** Everything this browser keeps of the lesson, as a work file's value. */
export function workFromStorage({ map }, learner = savedLearner()) {
  const edits = allEdits();
  const progress = allProgress();
  const exercises = {};
  for (const { name, chapter, block, title } of map.exercises) {
    const { attempted = false, solved = false, solutionShown = false } = progress[name] ?? {};
    exercises[name] = { chapter, title, attempted, solved, solutionShown, code: edits[`${chapter}#${block}`]?.code ?? null };
  }
  const draft = savedDraft();
  return {
    format: FORMAT,
    version: VERSION,
    site: { name: map.site.name, build: map.site.build },
    saved: new Date().toISOString(),
    learner: learner.slice(0, 100),
    settings: allSettings(),
    pages: allActivity(),
    edits,
    exercises,
    predictions: allPredictions(),
    figures: allFigureProgress(),
    engine: { active: storedEngine(), draft: draft && { code: draft.code, original: draft.original } },
  };
}

/** The file's name: "<name>-backprop-work.json", the name reduced to letters, digits, - and _. */
export function workFileName(learner) {
  const name = learner.normalize("NFKD").replace(/[^\w\s-]/g, "").trim().replace(/[\s_]+/g, "-").slice(0, 40);
  return `${name ? `${name}-` : ""}backprop-work.json`;
}

/** Save this browser's work as "<name>-backprop-work.json" in the reader's downloads; returns the file's name. */
export function downloadWork(lesson, learner = savedLearner()) {
  const work = workFromStorage(lesson, learner);
  const name = workFileName(work.learner);
  saveAsFile(name, `${JSON.stringify(work, null, 1)}\n`, "application/json");
  return name;
}

/** A File read and checked: { work } or { problem }, a sentence saying what is wrong. */
export async function readWorkFile(file, lesson) {
  if (file.size > MAX_FILE_BYTES) {
    return { problem: `This file is ${megabytes(file.size)} MB; a work file is much smaller (at most `
      + `${megabytes(MAX_FILE_BYTES)} MB). It is not a work file of this lesson.` };
  }
  let text;
  try {
    text = await file.text();
  } catch (error) {
    return { problem: `The file could not be read (${error.message}).` };
  }
  return parseWork(text, lesson);
}

/** A work file's text checked: { work } or { problem }. */
export function parseWork(text, { map, schema }) {
  if (text.trim() === "") return { problem: "The file is empty." };
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: endsTooEarly(text)
      ? "The file ends too early: it was cut off while it was saved or copied. Download the work again in the browser that holds it."
      : "This is not a work file: its text is not JSON." };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value) || value.format !== FORMAT) {
    return { problem: `This file is JSON, but not a work file of this lesson (it has no "format": "${FORMAT}").` };
  }
  if (Number.isInteger(value.version) && value.version > VERSION) {
    return { problem: `This work file has version ${value.version}: a newer version of the lesson made it, and this `
      + `site reads version ${VERSION}. Open it on the site that made it.` };
  }
  const site = value.site?.name;
  if (typeof site === "string" && site !== map.site.name) {
    return { problem: `This work file is from another site ("${site.slice(0, 80)}"), not from "${map.site.name}".` };
  }
  const problem = problemWith(value, schema);
  if (problem) return { problem: `This work file is damaged or was changed by hand: ${problem}.` };
  const impossible = impossibleDate(value);
  if (impossible) return { problem: `This work file is damaged or was changed by hand: it has the date ${impossible}, which does not exist.` };
  return { work: value };
}

/** The first of a checked file's times that is no real date or time ("2026-13-02 08:00:00"), or null. */
function impossibleDate(work) {
  const times = [work.saved, work.settings.solutionsChanged,
    ...Object.values(work.pages).flatMap((page) => [page.lastRun, page.lastChange])].filter((time) => time !== null);
  return times.find((time) => {
    const [year, month, day, hours, minutes, seconds] = time.match(/\d+/g).map(Number);
    const date = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
    return date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day
      || date.getUTCHours() !== hours || date.getUTCMinutes() !== minutes || date.getUTCSeconds() !== seconds;
  })?.replace("T", " ").slice(0, 19) ?? null;
}

/** True when `text` opens a JSON object or list that never closes (a file cut off part way). */
function endsTooEarly(text) {
  const start = text.trimStart();
  if (!start.startsWith("{") && !start.startsWith("[")) return false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const character of start) {
    if (inString) {
      if (escaped) escaped = false;
      else if (character === "\\") escaped = true;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{" || character === "[") depth += 1;
    else if (character === "}" || character === "]") {
      depth -= 1;
      if (depth <= 0) return false; // closed (anything after it is another problem)
    }
  }
  return true;
}

function megabytes(bytes) {
  return (bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0);
}

/** The keys of every item of the lesson this browser keeps for this site. */
function workKeys() {
  const prefixes = [EDITS_PREFIX, PROGRESS_PREFIX, SOLUTION_SHOWN_PREFIX, PREDICTIONS_PREFIX, FIGURES_PREFIX, ACTIVITY_PREFIX];
  return [...prefixes.flatMap((prefix) => storedKeysStartingWith(prefix)),
          ...[...ENGINE_KEYS, ...SETTINGS_KEYS].filter((key) => readItem(key) !== null)];
}

/** Forget the name, edits, progress, answers, figures, activity and edited engine kept here for this
 *  site; the solutions switch (the teacher's choice for the room) stays. */
export function forgetWork() {
  const switchKept = settingsItems("", allSettings());
  for (const key of workKeys()) forgetItem(key);
  for (const [key, text] of switchKept) writeItem(key, text);
}

/** Replace this browser's work by `work` (a checked work file's value), keeping this browser's solutions
 *  switch. All or nothing: if storage refuses an item (full, turned off), what was there before is put
 *  back and it returns false. */
export function restoreWork(work) {
  const settings = allSettings();
  const items = [
    ...editItems(work.edits),
    ...progressItems(work.exercises),
    ...predictionItems(work.predictions),
    ...figureProgressItems(work.figures ?? {}), // a file made before figures were saved has none
    ...activityItems(work.pages),
    ...engineItems(work.engine),
    ...settingsItems(work.learner, settings),
  ];
  const before = workKeys().map((key) => [key, readItem(key)]);
  for (const [key] of before) forgetItem(key);
  for (const [key, text] of items) {
    if (writeItem(key, text)) continue;
    for (const [written] of items) forgetItem(written);
    for (const [key, text] of before) writeItem(key, text);
    return false;
  }
  return true;
}
