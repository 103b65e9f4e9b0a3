// lesson-page.mjs: what one visit of a lesson page shares between its blocks, exercises and chapter parts.
// What it is: a LessonPage per page visit (lessonPage(root) answers the same one for the same content,
// so Material's document$ may mount again freely; each instant navigation brings new content and a
// new visit): its key (the page's address, which names its Python namespace and its saved edits),
// whether its blocks are `chained` (each builds on all earlier ones: the chapter "Build your own
// engine" says so when main.mjs creates the page), and what the mount functions put into it, in
// order: `runs` and `blocks` (blocks.mjs), then `exercises` (exercises.mjs: Block -> its panel). The
// modules pass this object to each other instead of keeping state on DOM elements.
// What it is not: behaviour. Running is page-runs.mjs's job, a block's look block.mjs's.

const visits = new WeakMap(); // content element -> its LessonPage

export class LessonPage {
  runs = null; // the page's PageRuns, once its blocks are mounted
  blocks = []; // its Blocks, in page order
  exercises = new Map(); // Block -> ExercisePanel, once the exercises are mounted
  exercisesMounted = false;

  constructor(root, key, { chained = false } = {}) {
    this.root = root;
    this.key = key;
    this.chained = chained;
  }

  /** Throw unless `part` of the page is mounted: the mount functions need what earlier ones made. */
  require(part, by) {
    const mounted = part === "blocks" ? this.runs !== null : this.exercisesMounted;
    if (!mounted) throw new Error(`${by} needs the page's ${part} mounted first`);
  }
}

/** The LessonPage of the content shown now under `root` (a document), made on first use with `options`. */
export function lessonPage(root, options = {}) {
  const content = root.querySelector("article") ?? root.body;
  if (!visits.has(content)) visits.set(content, new LessonPage(root, location.pathname, options));
  return visits.get(content);
}
