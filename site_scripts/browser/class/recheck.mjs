// recheck.mjs: the class overview's "Check the exercises in Python": learners' code run again against the exercises' own checks.
// What it is: recheck(rows, map, { onProgress, isStopped }) takes each learner in a fresh Python (the lesson's
// runtime and worker, sandboxed as on every chapter, with the lesson's engine, so nothing one learner's code
// does reaches the next) and, chapter by chapter, runs its blocks in page order (the learner's edit of a block
// where the file has one, else the lesson's code, read from the chapter's page) and, after each exercise block
// the learner wrote code for, the checks "Check" runs on the chapter (tutor.exercises results). It sets
// row.checked: exercise name -> { solved, text } (empty for a learner not reached before Stop). A block that runs longer than RUN_LIMIT_MS is stopped.
// What it is not: proof against a learner who writes code to fool the checks in their own Python: it shows
// that the code passes the lesson's checks here, not who wrote it or how.
import { ERROR } from "../runtime/contract.mjs";
import { endedByStop, runtime } from "../runtime/runtime.mjs";

const SITE_ROOT = new URL("../../../../", import.meta.url);
const RUN_LIMIT_MS = 60_000;
const chapterSources = new Map(); // chapter path -> promise of its blocks' lesson code, in page order

/** The lesson's code of every block of `chapter`, from its page (as the build wrote it). */
function lessonBlocks(chapter) {
  if (!chapterSources.has(chapter.path)) {
    chapterSources.set(chapter.path, fetch(new URL(chapter.path, SITE_ROOT)).then(async (response) => {
      if (!response.ok) throw new Error(`the page ${chapter.title} answered ${response.status}`);
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      const sources = [...page.querySelectorAll("div.runnable[data-source]")].map((block) => block.dataset.source);
      if (sources.length !== chapter.blocks) throw new Error(`the page ${chapter.title} has ${sources.length} blocks, not ${chapter.blocks}`);
      return sources;
    }).catch((error) => {
      chapterSources.delete(chapter.path); // try again next time
      throw error;
    }));
  }
  return chapterSources.get(chapter.path);
}

/** The exercises of `row` that its file has code for, in the lesson's order. */
export function exercisesWithCode(row, map) {
  return map.exercises.filter(({ name }) => typeof row.work.exercises[name]?.code === "string");
}

/** Run `code` in `page`'s namespace, stopped if it runs longer than RUN_LIMIT_MS. */
async function run(page, code, fresh, label) {
  const limit = setTimeout(() => runtime.stop(), RUN_LIMIT_MS);
  try {
    return await runtime.run({ page, code, fresh, label });
  } finally {
    clearTimeout(limit);
  }
}

/** What the checks say of `exercise` once its block ran (`ran`) with `code` (which some checks run again): { solved, text }. */
async function verdict(ran, exercise, page, code) {
  if (!ran.ok) {
    return { solved: false, text: endedByStop(ran.error) ? "stopped before its checks ran" : "not solved: its code did not run cleanly" };
  }
  try {
    const results = await runtime.call("tutor.exercises", "results", { name: exercise.name, code },
                                       { page, label: `the checks of “${exercise.title}”` });
    const passed = results.filter((result) => result.passed).length;
    return passed === results.length ? { solved: true, text: "solved" }
      : { solved: false, text: `not solved: ${passed} of ${results.length} checks pass` };
  } catch (error) {
    return { solved: false, text: endedByStop(error) ? "stopped before its checks ended" : `the checks could not run (${error.message})` };
  }
}

/** Stop the block or checks running now (recheck() then ends once its isStopped() says so). */
export function stopChecks() {
  runtime.stop();
}

/** Check every exercise the learners of `rows` wrote code for; onProgress(done, total, row, exercise) before each. */
export async function recheck(rows, map, { onProgress, isStopped }) {
  const total = rows.reduce((sum, row) => sum + exercisesWithCode(row, map).length, 0);
  let done = 0;
  if (runtime.engineSource !== null) runtime.useEngine(null); // the lesson's engine, whatever this browser runs
  for (const row of rows) row.checked = new Map();
  for (const row of rows) {
    const mine = exercisesWithCode(row, map);
    if (mine.length === 0) continue;
    if (isStopped()) return;
    if (runtime.interpreter > 0) runtime.restart(); // a fresh Python for each learner
    for (const chapter of map.chapters) {
      const exercises = mine.filter((exercise) => exercise.chapter === chapter.path);
      if (exercises.length === 0) continue;
      const sources = await lessonBlocks(chapter);
      const page = `class-overview-check/${chapter.path}`;
      const last = Math.max(...exercises.map((exercise) => exercise.block));
      for (let number = 1; number <= last; number += 1) {
        if (isStopped()) return;
        const exercise = exercises.find((item) => item.block === number);
        if (exercise) onProgress(done, total, row, exercise);
        const code = exercise ? row.work.exercises[exercise.name].code
          : row.work.edits[`${chapter.path}#${number}`]?.code ?? sources[number - 1];
        const ran = await run(page, code, number === 1, `block ${number} of ${chapter.title}, for the class overview`);
        if (ran.error?.kind === ERROR.NOT_STARTED) throw new Error(ran.error.message);
        if (!exercise) continue;
        row.checked.set(exercise.name, await verdict(ran, exercise, page, code));
        done += 1;
      }
    }
  }
  onProgress(done, total, null, null);
}
