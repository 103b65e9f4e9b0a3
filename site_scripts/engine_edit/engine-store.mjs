// engine-store.mjs: the reader's edited engine, kept in this browser's localStorage.
// What it is: small functions to read, save and forget two texts of this site: the engine the
// site runs (the "active" edited engine, or none for the lesson's own) and the draft in the engine
// editor, which is kept even when it was never applied. The draft carries a fingerprint of the
// lesson's engine it started from, so the editor can tell when the lesson's engine changed since.
// Storage that is full, turned off or refused never throws: saving reports false, reading finds
// nothing.
// What it is not: the editor, the banner or the runtime (they call these functions).
import { fingerprint, storage } from "../blocks/saved-edits.mjs";

// This file is <site root>/assets/lesson/engine_edit/: the keys carry the site's root path, so two
// sites on one origin (GitHub Pages project sites) keep separate engines.
const SITE_PATH = new URL("../../../", import.meta.url).pathname;
const ACTIVE_KEY = `lesson-engine:active:${SITE_PATH}`;
const DRAFT_KEY = `lesson-engine:draft:${SITE_PATH}`;

function read(key) {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key, text) {
  try {
    storage().setItem(key, text);
    return true;
  } catch {
    return false; // quota exceeded or storage turned off
  }
}

function forget(key) {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing to forget when storage is refused
  }
}

/** The source of the edited engine the site should run, or null for the lesson's engine. */
export function storedEngine() {
  return read(ACTIVE_KEY);
}

/** Keep `source` as the engine of every page of this site; false if it could not be saved. */
export function storeEngine(source) {
  return write(ACTIVE_KEY, source);
}

/** Go back to the lesson's engine on every page. */
export function forgetStoredEngine() {
  forget(ACTIVE_KEY);
}

/** The editor's saved draft: { code, original } (original = fingerprint of the lesson's engine), or null. */
export function savedDraft() {
  try {
    const draft = JSON.parse(read(DRAFT_KEY) ?? "null");
    return typeof draft?.code === "string" && typeof draft.original === "string" ? draft : null;
  } catch {
    return null;
  }
}

/** Save the editor's text, edited from the lesson's engine `original`; false if it could not be saved. */
export function saveDraft(code, original) {
  return write(DRAFT_KEY, JSON.stringify({ code, original: fingerprint(original) }));
}

export function forgetDraft() {
  forget(DRAFT_KEY);
}
