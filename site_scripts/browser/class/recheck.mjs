// recheck.mjs: the class overview's "Check the exercises in Python": learners' code run again against the exercises' own checks.
// What it is: recheck(rows, map, { onProgress, isStopped }) takes each learner in a Python of their own (a fresh
// worker of the lesson's runtime, sandboxed as on every chapter, with the lesson's engine, closed once the learner
// is checked, so nothing one learner's code does reaches another's) and, chapter by chapter, runs its blocks in
// page order (the learner's edit of a block where the file has one, else the lesson's code, read from the
// chapter's page) and, after each exercise block the learner wrote code for, the checks "Check" runs on the
// chapter (tutor.exercises results). Up to LANES learners are checked at once, each in their own worker, on the
// computer's cores. It sets row.checked: exercise name -> { solved, text } (empty for a learner not reached
// before Stop). A block that runs longer than RUN_LIMIT_MS is stopped; Stop ends every worker at once.
// What it is not: proof against a learner who writes code to fool the checks in their own Python: it shows
// that the code passes the lesson's checks here, not who wrote it or how.
import { ERROR } from "../runtime/contract.mjs";
import { endedByStop, separateRuntime } from "../runtime/runtime.mjs";

const SITE_ROOT = new URL("../../../../", import.meta.url);
const RUN_LIMIT_MS = 60_000;
// Learners checked at once: one Python each, about as many as the computer has cores (each one also hides
// another's start-up), at most 4 (each holds some 100 MB).
const LANES = Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));
const working = new Set(); // the Pythons checking a learner now
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

/** Run `code` in `page`'s namespace of `python`, stopped if it runs longer than RUN_LIMIT_MS. */
async function run(python, page, code, fresh, label) {
  const limit = setTimeout(() => python.stop(), RUN_LIMIT_MS);
  try {
    return await python.run({ page, code, fresh, label });
  } finally {
    clearTimeout(limit);
  }
}

/** What the checks say of `exercise` once its block ran (`ran`) with `code` (which some checks run again): { solved, text }. */
async function verdict(python, ran, exercise, page, code) {
  if (!ran.ok) {
    return { solved: false, text: endedByStop(ran.error) ? "stopped before its checks ran" : "not solved: its code did not run cleanly" };
  }
  try {
    const results = await python.call("tutor.exercises", "results", { name: exercise.name, code },
                                      { page, label: `the checks of “${exercise.title}”` });
    const passed = results.filter((result) => result.passed).length;
    return passed === results.length ? { solved: true, text: "solved" }
      : { solved: false, text: `not solved: ${passed} of ${results.length} checks pass` };
  } catch (error) {
    return { solved: false, text: endedByStop(error) ? "stopped before its checks ended" : `the checks could not run (${error.message})` };
  }
}

/** The blocks of each chapter of `chapters` that the checks need (tutor.needed_blocks), asked of `python` before
 *  any of the learner's code runs there: { chapter path: [block numbers] }, or null (then every block runs). */
async function neededBlocks(python, chapters) {
  const asked = Object.fromEntries(chapters.map(({ chapter, blocks }) => [chapter.path, blocks.map(({ code, lesson, exercise }) =>
    ({ code, lesson, exercise: exercise?.name ?? null }))]));
  try {
    return await python.call("tutor.needed_blocks", "plan", { chapters: asked }, { label: "the blocks the checks need" });
  } catch {
    return null;
  }
}

/** Stop every block or check running now (recheck() then ends once its isStopped() says so). */
export function stopChecks() {
  for (const python of working) python.close();
}

/** Check every exercise the learners of `rows` wrote code for. onProgress({ done, total, now }) as each exercise
 *  starts or ends: `now` is the check that started last of those still running ({ number, row, exercise }, the
 *  `number`th to start), or null when none runs. */
export async function recheck(rows, map, { onProgress, isStopped }) {
  const total = rows.reduce((sum, row) => sum + exercisesWithCode(row, map).length, 0);
  const count = { started: 0, done: 0 };
  const running = []; // the checks running now, in the order they started
  const progress = () => onProgress({ done: count.done, total, now: running.at(-1) ?? null });
  let failure = null; // what ended the checks early, besides Stop
  const ended = () => isStopped() || failure !== null;
  for (const row of rows) row.checked = new Map();
  const waiting = rows.filter((row) => exercisesWithCode(row, map).length > 0);

  /** Check `row`'s exercises in `python`, a fresh Python of its own. */
  async function checkLearner(python, row) {
    const mine = exercisesWithCode(row, map);
    const chapters = [];
    for (const chapter of map.chapters) {
      const exercises = mine.filter((exercise) => exercise.chapter === chapter.path);
      if (exercises.length === 0) continue;
      const last = Math.max(...exercises.map((exercise) => exercise.block));
      const blocks = (await lessonBlocks(chapter)).slice(0, last).map((lesson, index) => {
        const exercise = exercises.find((item) => item.block === index + 1) ?? null;
        const code = exercise ? row.work.exercises[exercise.name].code
          : row.work.edits[`${chapter.path}#${index + 1}`]?.code ?? lesson;
        return { code, lesson, exercise };
      });
      chapters.push({ chapter, blocks });
    }
    const plan = await neededBlocks(python, chapters);
    for (const { chapter, blocks } of chapters) {
      const every = blocks.map((_, index) => index + 1);
      const failed = await checkChapter(python, row, chapter, blocks, plan?.[chapter.path] ?? every, 0);
      // A block that failed before it defined all it would have: the blocks left out may count, so again with every one.
      if (failed !== null && blocks.slice(failed).some((block) => block.exercise)) {
        await checkChapter(python, row, chapter, blocks, every, failed);
      }
    }
  }

  /** Run the blocks `numbers` of `chapter` in a fresh namespace and check each exercise after block `after`;
   *  the number of the first block that failed (not stopped) when some blocks were left out, else null. */
  async function checkChapter(python, row, chapter, blocks, numbers, after) {
    const page = `class-overview-check/${chapter.path}`;
    for (const number of numbers) {
      if (ended()) return null;
      const { code, exercise } = number > after ? blocks[number - 1] : { ...blocks[number - 1], exercise: null };
      const check = exercise && { number: (count.started += 1), row, exercise };
      if (check) {
        running.push(check);
        progress();
      }
      const ran = await run(python, page, code, number === numbers[0], `block ${number} of ${chapter.title}, for the class overview`);
      if (ran.error?.kind === ERROR.NOT_STARTED) throw new Error(ran.error.message);
      if (check) {
        row.checked.set(exercise.name, await verdict(python, ran, exercise, page, code));
        count.done += 1;
        running.splice(running.indexOf(check), 1);
        progress();
      }
      if (!ran.ok && !endedByStop(ran.error) && numbers.length < blocks.length) return number;
    }
    return null;
  }

  /** One lane: the next learner waiting, in a Python of their own, until none is left. */
  async function lane() {
    for (let row = waiting.shift(); row && !ended(); row = waiting.shift()) {
      const python = separateRuntime();
      working.add(python);
      try {
        await checkLearner(python, row);
      } catch (error) {
        failure ??= error;
        stopChecks();
      } finally {
        working.delete(python);
        python.close();
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(LANES, waiting.length) }, lane));
  if (failure) throw failure;
  progress();
}
