// saved-activity.mjs: what the reader did on each page and when, kept in this browser's localStorage.
// What it is: one small record per page, { runs, lastRun, lastChange }: how many times a block of that
// page ran (Run, or Check, which runs the block), when one last ran, and when anything of that page was
// last saved (an edit, a run, a check, an answer). noteRun() and noteChange() are called where those
// happen (block.mjs and the other storage modules); allActivity() reads them all for a work file, keyed
// by the page's path relative to the site's root ("derivatives/", "" for the home page), and
// activityItems() gives the items that store a work file's records again. The class overview's
// "chapters with something run" and "last change" come from here. Storage that is full, turned off or
// refused never throws: nothing is noted then (site-storage.mjs).
// What it is not: a log of what was run (only counts and times), or anything sent anywhere.
import { SITE_PATH, readRecord, storedRecords, writeItem } from "./site-storage.mjs";

/** Every key of this module starts with this. */
export const ACTIVITY_PREFIX = `lesson-activity:${SITE_PATH}`;

/** `pathname` (a page's location.pathname) relative to the site's root, or null for a page of another site. */
export function sitePage(pathname) {
  return pathname.startsWith(SITE_PATH) ? pathname.slice(SITE_PATH.length) : null;
}

function activityRecord(saved) {
  if (!Number.isInteger(saved?.runs) || typeof saved.lastChange !== "string") return null;
  return { runs: saved.runs, lastRun: typeof saved.lastRun === "string" ? saved.lastRun : null, lastChange: saved.lastChange };
}

function update(pathname, change) {
  const page = sitePage(pathname);
  if (page === null) return;
  const key = `${ACTIVITY_PREFIX}${page}`;
  const now = new Date().toISOString();
  const record = activityRecord(readRecord(key)) ?? { runs: 0, lastRun: null, lastChange: now };
  writeItem(key, JSON.stringify({ ...change(record, now), lastChange: now }));
}

/** A block of the page at `pathname` ran (the reader's Run or Check, not a quiet replay). */
export function noteRun(pathname) {
  update(pathname, (record, now) => ({ ...record, runs: record.runs + 1, lastRun: now }));
}

/** Something of the page at `pathname` (by default the page shown now) was saved or forgotten. */
export function noteChange(pathname = globalThis.location?.pathname ?? "") {
  update(pathname, (record) => record);
}

/** Every page's record: { "derivatives/": { runs, lastRun, lastChange } }. */
export function allActivity() {
  return storedRecords(ACTIVITY_PREFIX, activityRecord);
}

/** The items [key, text] that store `pages` (as allActivity() returns them). */
export function activityItems(pages) {
  return Object.entries(pages).map(([page, record]) => [`${ACTIVITY_PREFIX}${page}`, JSON.stringify(record)]);
}
