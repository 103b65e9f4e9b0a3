// page-runs.mjs: the run scheduler of one page: which block runs when, in one shared namespace.
// What it is: a PageRuns per page visit (its LessonPage, lesson-page.mjs, gives the blocks and whether
// they are chained). All blocks of a page share one Python namespace in page
// order: request(block) first runs, once, the earlier blocks not yet run in this interpreter, then
// the block, and resolves to its result (on a `chained` page, whose blocks each build on all earlier
// ones, an earlier block also runs again when its code changed since its last good run, and running a
// block makes every later block run again before it is next needed); after(task) runs a task once the runs queued so far have
// ended (the exercises' checks). stop() and restartPython() act on Python for the whole page. When
// Python is restarted (Stop on a page that cannot interrupt, a crash, Restart Python, another
// engine), the blocks whose last run succeeded are re-run quietly, in page order, to restore the
// reader's definitions, and the block concerned says so; a run that changed the lesson's engine
// (tinygrad.Value = None, a rewritten tinygrad.py) is not re-run, or Restart Python could not fix it.
// What it is not: a block's look (block.mjs) or Python (runtime.mjs runs the code).
import { ERROR } from "../runtime/contract.mjs";
import { endedByStop, runtime } from "../runtime/runtime.mjs";

/** The runs of one page visit: the blocks that have run, and the queue of runs. */
export class PageRuns {
  ran = new Set(); // blocks that ran in the current interpreter (they are not run again as predecessors)
  succeeded = new Map(); // block -> the code of its last run, when that run succeeded (replayed after a restart)
  stoppedWith = new Map(); // block -> the code of its last run, when Stop ended that run
  interpreterRanIn = null; // the runtime.interpreter the blocks of `ran` ran in
  queue = Promise.resolve();
  stops = 0; // Stop presses so far: a queued request made before a Stop does not run
  running = null; // the block Python is running now
  lastRun = null; // the block that ran last: it reports restarts that no block caused
  restartRequestedBy = null;
  replaying = false;

  /** The runs of `page` (a LessonPage): its key names the Python namespace of its blocks. */
  constructor(page) {
    this.page = page;
    this.key = page.key;
    this.chained = page.chained; // each block builds on all earlier ones: after a block runs, the later ones run again first
    const unsubscribe = runtime.onRestart((restart) => {
      if (this.blocks[0]?.element.isConnected) this.restartHappened(restart);
      else unsubscribe(); // a page left through instant navigation
    });
  }

  /** The page's blocks, in page order. */
  get blocks() {
    return this.page.blocks;
  }

  /** Run `target` after any earlier blocks that have not run in the current interpreter. Resolves to
   *  the result of `target`'s run (runtime.run's { ok, report, error, engineChanged }) once it ended;
   *  never rejects. */
  request(target) {
    if (target.state !== "queued" && target.state !== "running") {
      target.setState("queued");
      const stopsSoFar = this.stops;
      this.queue = this.queue.then(() => this.runUpTo(target, stopsSoFar)).catch((error) => {
        if (target.busy) {
          target.finish({ ok: false, report: "", engineChanged: false,
                          error: { kind: ERROR.EXCEPTION, type: error.name, message: `The block could not run: ${error.message}` } });
        }
      });
    }
    return this.queue.then(() => target.lastResult);
  }

  /** Run `task()` once every run queued so far has ended (and before runs queued later): the exercises'
   *  checks use it, so they see what the reader's block defined. Resolves to what `task` resolves to. */
  after(task) {
    const done = this.queue.then(task);
    this.queue = done.then(() => {}, () => {});
    return done;
  }

  stop() {
    this.stops += 1;
    runtime.stop();
  }

  restartPython(block) {
    this.restartRequestedBy = block;
    runtime.restart();
  }

  async runUpTo(target, stopsSoFar) {
    runtime.start();
    let fresh = this.interpreterRanIn !== runtime.interpreter;
    if (fresh) {
      this.ran.clear();
      this.interpreterRanIn = runtime.interpreter;
    }
    const earlier = this.blocks.slice(0, this.blocks.indexOf(target)).filter((block) => this.needsRun(block));
    for (const block of earlier) block.setState("queued");
    let interrupted = false;
    for (const block of [...earlier, target]) {
      if (interrupted || this.stops !== stopsSoFar) {
        block.finish({ ok: false, report: "", engineChanged: false,
                       error: { kind: ERROR.STOPPED, message: "Not run: Stop was pressed." } });
        continue;
      }
      const code = block.code();
      this.running = block;
      const result = await block.execute(this.key, code, fresh);
      this.running = null;
      this.lastRun = block;
      fresh = false;
      if (result.ok && !result.engineChanged) this.succeeded.set(block, code); // replaying it would break the engine again
      else this.succeeded.delete(block);
      const stopped = endedByStop(result.error) || this.stops !== stopsSoFar;
      if (stopped) this.stoppedWith.set(block, code);
      else this.stoppedWith.delete(block);
      const restarted = runtime.interpreter !== this.interpreterRanIn; // restore() follows
      if (!restarted) this.ran.add(block);
      if (this.chained) for (const later of this.blocks.slice(this.blocks.indexOf(block) + 1)) this.ran.delete(later);
      if (stopped || restarted) interrupted = true;
    }
  }

  /** An earlier block runs before a later one unless it ran already. A block that was stopped counts as
   *  run (its loop is not repeated) until the reader changes its code: then it runs again first. */
  needsRun(block) {
    if (this.chained && this.succeeded.get(block) !== block.code()) return true; // changed, or failed, since it ran
    return !this.ran.has(block) || (this.stoppedWith.has(block) && this.stoppedWith.get(block) !== block.code());
  }

  /** Python was replaced by a fresh interpreter: queue the restoring of this page's definitions. */
  restartHappened(restart) {
    const reporter = (restart.reason === "requested" && this.restartRequestedBy) || this.running || this.lastRun;
    this.restartRequestedBy = null;
    const context = {
      reporter,
      reporterWasRunning: reporter !== null && reporter === this.running, // its run's result told it why
      ranBefore: new Set([...this.ran, ...(this.running ? [this.running] : [])]),
      cutReplay: this.replaying,
    };
    this.queue = this.queue.then(() => this.restore(restart, context));
  }

  /** Re-run, quietly and in page order, the blocks whose last run succeeded; tell `reporter` how it went.
   *  Blocks that ran before the restart count as run again (as an interrupt would have left them), except
   *  those whose re-run failed or did not happen: they run again before the next block the reader runs. */
  async restore(restart, { reporter, reporterWasRunning, ranBefore, cutReplay }) {
    this.interpreterRanIn = runtime.interpreter;
    this.ran.clear();
    if (restart.reason === "requested") reporter?.startNote(restart.message);
    else if (!reporterWasRunning) reporter?.note(restart.message);
    if (cutReplay) {
      this.succeeded.clear();
      reporter?.note("Python was restarted again while your earlier blocks were being re-run. "
        + "They will run again before the next block you run.");
      return;
    }
    const replayed = this.blocks.filter((block) => this.succeeded.has(block));
    const notReplayed = new Set(replayed);
    if (replayed.length > 0) {
      reporter?.beginRestoring(`Re-running ${blockNumbers(replayed)} to restore your definitions…`);
      this.replaying = true;
    }
    const stopsBefore = this.stops;
    const failed = [];
    let fresh = true;
    for (const block of replayed) {
      const result = await runtime.run({ page: this.key, code: this.succeeded.get(block), fresh, filename: block.filename });
      fresh = false;
      if (runtime.interpreter !== this.interpreterRanIn || this.stops !== stopsBefore) break;
      notReplayed.delete(block);
      if (result.ok) {
        this.ran.add(block);
      } else {
        failed.push(block);
        this.succeeded.delete(block);
      }
    }
    this.replaying = false;
    if (runtime.interpreter !== this.interpreterRanIn) return reporter?.endRestoring(); // the next restore() says why
    for (const block of ranBefore) if (!notReplayed.has(block) && !failed.includes(block)) this.ran.add(block);
    if (replayed.length === 0) return;
    if (this.stops !== stopsBefore) {
      reporter?.endRestoring("Re-running was stopped: the blocks not re-run will run before the next block you run.");
      return;
    }
    const done = `Re-ran ${blockNumbers(replayed)}: your definitions are back.`;
    reporter?.endRestoring(failed.length === 0 ? done
      : `${done} But ${blockNumbers(failed)} failed this time; run ${failed.length > 1 ? "them" : "it"} to see why.`);
  }
}

/** "block 2", "blocks 1–3", "blocks 1, 2 and 4": how the notes name blocks. */
function blockNumbers(blocks) {
  const numbers = blocks.map((block) => block.number);
  if (numbers.length === 1) return `block ${numbers[0]}`;
  const consecutive = numbers.every((number, index) => index === 0 || number === numbers[index - 1] + 1);
  if (consecutive && numbers.length > 2) return `blocks ${numbers[0]}–${numbers.at(-1)}`;
  return `blocks ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}
