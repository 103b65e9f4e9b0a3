// work-summary.mjs: what a work file holds, counted against the lesson, and said in words.
// What it is: summarize(work, map) counts one learner's work (a checked work file's value) against this
// build's chapters, exercises, predictions and figures filled in by hand (lesson.json): chapters with
// something run, exercises solved of all, predictions answered, right at the first try (before the
// answer was shown) and shown, with those whose first try a file made before first tries were kept
// cannot tell, build-your-own steps solved, solutions shown, figures done by hand, the last change, and
// per chapter what ran, which of its exercises are solved, its predictions answered and right first
// time, and how far each of its figures by hand got. Only what the lesson has counts, by the lesson's own
// ids, titles and chapters: a file's other entries are only counted as ignored, and an exercise marked
// solved with no code of the learner's is not solved. describe(summary) says what it holds
// in a phrase ("your edits of 3 blocks, 2 exercises tried, ...") for "Your work", every answer kept
// included (what loading a file would replace). The class overview's
// rows and CSV come from summarize() too, so the page and the gradebook cannot disagree.
// What it is not: the reading or checking of a file (work-file.mjs) or any rendering.

/** One learner's counts; see the header. */
export function summarize(work, map) {
  const result = (name) => {
    const { attempted = false, solved = false, solutionShown = false, code = null } = work.exercises[name] ?? {};
    return { attempted, solved: solved && code !== null, solutionShown, code, solvedWithoutCode: solved && code === null };
  };
  const answered = (id) => { // the learner's record of prediction `id` if they checked an answer, else null
    const record = work.predictions[id];
    return record && (record.answer !== "" || typeof record.first === "string") ? record : null;
  };
  const figure = (name) => { // files made before figures were saved have none; more right than boxes is no progress
    const progress = work.figures?.[name] ?? null;
    return progress && progress.right <= progress.total ? progress : null;
  };
  const done = (progress) => progress !== null && progress.total > 0 && progress.right === progress.total;
  const unknown = (entries, known) => { // how many of a file's entries the lesson does not have
    const names = new Set(known);
    return Object.keys(entries ?? {}).filter((key) => !names.has(key)).length;
  };
  const chapters = map.chapters.map(({ path, title }) => {
    const exercises = map.exercises.filter((exercise) => exercise.chapter === path);
    const asked = (map.predictions ?? []).filter((prediction) => prediction.chapter === path).map(({ id }) => answered(id));
    return { path, title, runs: work.pages[path]?.runs ?? 0, exercises: exercises.length,
             solved: exercises.filter(({ name }) => result(name).solved).length,
             predictions: asked.length, answered: asked.filter(Boolean).length,
             rightFirst: asked.filter((record) => record?.firstRight === true).length,
             figures: (map.figures ?? []).filter((item) => item.chapter === path)
               .map(({ name, title: heading }) => ({ name, title: heading, progress: figure(name) })) };
  });
  const steps = map.exercises.filter((exercise) => exercise.chapter === map.buildYourOwn);
  const asked = (map.predictions ?? []).map(({ id }) => id).filter((id) => Object.hasOwn(work.predictions, id));
  const predictions = asked.map(answered).filter(Boolean);
  const changes = Object.values(work.pages).map((page) => page.lastChange).sort();
  return {
    learner: work.learner,
    saved: work.saved,
    chaptersRun: chapters.filter((chapter) => chapter.runs > 0).length,
    chaptersTotal: chapters.length,
    editedBlocks: Object.keys(work.edits).length,
    exercisesTried: map.exercises.filter(({ name }) => result(name).attempted).length,
    exercisesSolved: map.exercises.filter(({ name }) => result(name).solved).length,
    exercisesTotal: map.exercises.length,
    predictionsAnswered: predictions.length,
    predictionsKept: Object.keys(work.predictions).filter(answered).length, // also of ids this lesson no longer has
    predictionsRightFirst: predictions.filter((record) => record.firstRight === true).length,
    predictionsFirstUnknown: predictions.filter((record) => typeof record.first !== "string").length,
    predictionsShown: asked.filter((id) => work.predictions[id].revealed).length,
    predictionsTotal: (map.predictions ?? []).length,
    figuresDone: (map.figures ?? []).filter(({ name }) => done(figure(name))).length,
    figuresTotal: (map.figures ?? []).length,
    stepsSolved: steps.filter(({ name }) => result(name).solved).length,
    stepsTotal: steps.length,
    solvedWithoutCode: map.exercises.filter(({ name }) => result(name).solvedWithoutCode).length,
    ignored: { predictions: unknown(work.predictions, (map.predictions ?? []).map(({ id }) => id)),
               exercises: unknown(work.exercises, map.exercises.map(({ name }) => name)),
               figures: unknown(work.figures, (map.figures ?? []).map(({ name }) => name)) },
    solutionsShown: map.exercises.filter(({ name }) => result(name).solutionShown).length,
    solutionsOff: work.settings.solutions === "off",
    // on, with a time it changed: turned off once, then on again (?solutions=on or the switch on "Your work")
    solutionsBackOn: work.settings.solutions === "on" && work.settings.solutionsChanged !== null ? work.settings.solutionsChanged : null,
    engineEdited: work.engine.active !== null,
    lastChange: changes.at(-1) ?? null,
    chapters,
    exercises: map.exercises.map((exercise) => ({ ...result(exercise.name), ...exercise })), // the lesson's titles
  };
}

const counted = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The work in a phrase, or "" when there is none: "your edits of 3 blocks, 2 exercises tried (1 solved),
 *  your answers to 4 predictions and your edited engine" (`owner` is "your" or "the file's"). */
export function describe(summary, owner = "your") {
  const parts = [];
  if (summary.editedBlocks) parts.push(`${owner} edits of ${counted(summary.editedBlocks, "block")}`);
  if (summary.exercisesTried) parts.push(`${owner} progress in ${counted(summary.exercisesTried, "exercise")} (${summary.exercisesSolved} solved)`);
  if (summary.predictionsKept) parts.push(`${owner} answers to ${counted(summary.predictionsKept, "prediction")}`);
  const byHand = summary.chapters.flatMap((chapter) => chapter.figures).filter(({ progress }) => progress?.right > 0).length;
  if (byHand) parts.push(`${owner} progress in ${counted(byHand, "figure")} filled in by hand`);
  if (summary.engineEdited) parts.push(`${owner} edited engine`);
  if (summary.chaptersRun && !parts.length) parts.push(`${owner} runs in ${counted(summary.chaptersRun, "chapter")}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0] ?? "";
}
