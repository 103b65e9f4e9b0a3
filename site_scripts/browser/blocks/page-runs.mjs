// page-runs.mjs: the run scheduler of one page: which block runs when, in one shared namespace.
// What it is: a PageRuns per page visit (its LessonPage, lesson-page.mjs, gives the blocks and whether
// they are chained). All blocks of a page share one Python namespace in page
// order: request(block) first runs, once, the earlier blocks not yet run in this interpreter, then
// the block, and resolves to its result (on a `chained` page, whose blocks each build on all earlier
// ones, an earlier block also runs again when its code changed since its last good run, and running a
// block makes every later block run again before it is next needed); after(task) runs a task once the runs queued so far have
// ended (the exercises' checks). stop() and restartPython() act on Python for the whole page. Restart
// Python runs nothing: the next block the reader runs runs first, visibly, the earlier blocks it needs
// (named in its output). When Python is replaced otherwise (Stop on a page that cannot interrupt, a
// crash, another engine), the blocks whose last run succeeded are re-run quietly, in page order, with the code they
// hold now (after a Reset, the lesson's), to restore the reader's definitions, and the block
// concerned says so (or, when nothing is re-run, that the definitions are gone); a run that changed
// the lesson's engine (tinygrad.Value = None, a rewritten tinygrad.py) or left an asyncio task that
// ignores its cancellation is not re-run, or Restart Python could not fix it. Each re-run asks Python
// to check its own machinery afterwards (runtime.run's `check`, the contract's one check): when a
// re-run broke it (error broken), re-running stops there, the block concerned names the block that
// broke it and offers "Restart Python without re-running blocks". An earlier block that runs first for
// a later one is checked the same way: when it broke Python, the later block does not run and names it.
// A block whose last run was stopped, changed the lesson's engine, left such a task or, re-run, broke
// Python never runs first for a later block until its code changes: the later block names it instead;
// and one that runs first again in a fresh Python is named too.
// What it is not: a block's look (block.mjs) or Python (runtime.mjs runs the code).
import { ERROR } from "../runtime/contract.mjs";
import { endedByStop, runtime } from "../runtime/runtime.mjs";

const ENGINE_CHANGED = "its last run changed what the lesson's engine and figures compute with";
const TASKS_LEFT = "its last run left an asyncio task running that ignored its cancellation";
const BROKE_PYTHON = "its re-run broke the page's Python";

/** The runs of one page visit: the blocks that have run, and the queue of runs. */
export class PageRuns {
  ran = new Set(); // blocks that ran in the current interpreter (they are not run again as predecessors)
  succeeded = new Map(); // block -> the code of its last run, when that run succeeded (replayed after a restart)
  // block -> { code, why }: a block whose last run (with that code) was stopped, changed the lesson's engine or,
  // re-run, broke Python: it never runs first for a later block until its code changes (a later block says so)
  notRunFirst = new Map();
  ranIn = new Map(); // block -> { interpreter, code }: the runtime.interpreter its last run ran in, and its code
  interpreterRanIn = null; // the runtime.interpreter the blocks of `ran` ran in
  queue = Promise.resolve();
  stops = 0; // Stop presses so far: a queued request made before a Stop does not run
  running = null; // the block Python is running now
  lastRun = null; // the block that ran last: it reports restarts that no block caused
  restartRequestedBy = null;
  breaker = null; // the block whose re-run broke Python's machinery, until a restart without re-running
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
   *  the result of `target`'s run (runtime.run's { ok, report, error, engineChanged, tasksLeft }) once it ended;
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

  /** Restart Python for `block`'s Restart button: no block runs until the reader runs one. */
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
    const notRunFirst = this.keptBack(target);
    const again = earlier.filter((block) => { // the same code again, in a fresh Python
      const last = this.ranIn.get(block);
      return last !== undefined && last.interpreter !== runtime.interpreter && last.code === block.code();
    });
    for (const block of earlier) block.setState("queued");
    let interrupted = false;
    let broke = null; // an earlier block that, run first again, broke Python: the later ones do not run
    for (const block of [...earlier, target]) {
      if (broke) {
        block.finish({ ok: false, report: "", engineChanged: false, error: { kind: ERROR.BROKEN,
          message: `Not run: ${blockNumbers([broke])}, run first, broke the page's Python. Press Restart Python: `
            + `then no block runs ${blockNumbers([broke])} first until you change it or press its Reset.` } });
        continue;
      }
      if (interrupted || this.stops !== stopsSoFar) {
        block.finish({ ok: false, report: "", engineChanged: false,
                       error: { kind: ERROR.STOPPED, message: "Not run: Stop was pressed." } });
        continue;
      }
      const code = block.code();
      this.running = block;
      // The target's notes are part of its run: written before it shows as finished, never after.
      const notes = block === target ? (result) => this.notesAfter(result, stopsSoFar, again, notRunFirst) : undefined;
      const result = await block.execute(this.key, code, fresh, notes, again.includes(block));
      this.running = null;
      this.lastRun = block;
      fresh = false;
      // replaying it would break the engine again, or start again a task that ignores its cancellation
      if (result.ok && !result.engineChanged && !result.tasksLeft) this.succeeded.set(block, code);
      else this.succeeded.delete(block);
      const stopped = endedByStop(result.error) || this.stops !== stopsSoFar;
      this.ranIn.set(block, { interpreter: runtime.interpreter, code });
      if (stopped) this.notRunFirst.set(block, { code, why: "its last run was stopped" });
      else if (result.engineChanged) this.notRunFirst.set(block, { code, why: ENGINE_CHANGED });
      else if (result.tasksLeft) this.notRunFirst.set(block, { code, why: TASKS_LEFT });
      else if (block !== target && result.error?.kind === ERROR.BROKEN) {
        this.notRunFirst.set(block, { code, why: BROKE_PYTHON });
        broke = block;
      } else this.notRunFirst.delete(block);
      const restarted = runtime.interpreter !== this.interpreterRanIn; // restore() follows
      if (!restarted) this.ran.add(block);
      if (this.chained) for (const later of this.blocks.slice(this.blocks.indexOf(block) + 1)) this.ran.delete(later);
      if (stopped || restarted) interrupted = true;
    }
  }

  /** The target's notes once its run gave `result`: the earlier blocks that ran first again in a fresh
   *  Python (`again`) and those that did not run first (`keptBack`); none when Stop or a restart ended it. */
  notesAfter(result, stopsSoFar, again, keptBack) {
    if (endedByStop(result.error) || this.stops !== stopsSoFar || runtime.interpreter !== this.interpreterRanIn) return [];
    const notes = [];
    if (again.length > 0) {
      const one = again.length === 1;
      notes.push(`Python was restarted since ${blockNumbers(again)} last ran: re-ran ${one ? "it" : "them"} first, `
        + `for what ${one ? "it defines" : "they define"}.`);
    }
    for (const block of keptBack) {
      notes.push(`${capitalized(blockNumbers([block]))} did not run first: ${this.notRunFirst.get(block).why}. `
        + "Run it again, or press its Reset, if this block needs what it defines.");
    }
    return notes;
  }

  /** An earlier block runs before a later one unless it ran already. A block of `notRunFirst` (stopped,
   *  changed the engine, broke Python) never runs first, whatever restarts came since, until the reader
   *  changes its code: then it runs again first. */
  needsRun(block) {
    if (this.notRunFirst.has(block)) return this.notRunFirst.get(block).code !== block.code();
    if (this.chained && this.succeeded.get(block) !== block.code()) return true; // changed, or failed, since it ran
    return !this.ran.has(block);
  }

  /** The earlier blocks `target` may need that do not run first (notRunFirst) and whose definitions this
   *  Python lacks: their last run was in another interpreter. */
  keptBack(target) {
    return this.blocks.slice(0, this.blocks.indexOf(target)).filter((block) =>
      this.notRunFirst.get(block)?.code === block.code() && this.ranIn.get(block)?.interpreter !== runtime.interpreter);
  }

  /** Python was replaced by a fresh interpreter: queue the restoring of this page's definitions. */
  restartHappened(restart) {
    const reporter = (restart.reason === "requested" && this.restartRequestedBy) || this.running || this.lastRun;
    const replay = restart.reason !== "requested"; // Restart Python runs nothing
    this.restartRequestedBy = null;
    const context = {
      reporter,
      reporterWasRunning: reporter !== null && reporter === this.running, // its run's result told it why
      ranBefore: new Set([...this.ran, ...(this.running ? [this.running] : [])]),
      cutReplay: this.replaying,
      replay,
    };
    this.queue = this.queue.then(() => this.restore(restart, context));
  }

  /** Re-run, quietly and in page order, the blocks whose last run succeeded, with the code they hold now;
   *  tell `reporter` how it went. Blocks that ran before the restart count as run again (as an interrupt
   *  would have left them), except those whose re-run failed or did not happen: they run again before
   *  the next block the reader runs. Without `replay` (Restart Python), nothing is re-run: the earlier
   *  blocks run again before the next block the reader runs. */
  async restore(restart, { reporter, reporterWasRunning, ranBefore, cutReplay, replay }) {
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
    if (!replay) { // the blocks whose last run succeeded run again before the next block the reader runs
      for (const block of ranBefore) if (!this.succeeded.has(block)) this.ran.add(block); // as a replay leaves them
      this.succeeded.clear();
      const breaker = this.breaker;
      this.breaker = null;
      if (ranBefore.size > 0 || breaker) {
        reporter?.note("No block was re-run. When you run a block, the earlier blocks it needs run again first.");
      }
      if (breaker) {
        reporter?.note(`${capitalized(blockNumbers([breaker]))} broke Python when it was re-run: change it or press `
          + "its Reset before you run it again (until then, no later block runs it first).");
      }
      return;
    }
    const replayed = this.blocks.filter((block) => this.succeeded.has(block));
    const notReplayed = new Set(replayed);
    if (replayed.length === 0) {
      for (const block of ranBefore) this.ran.add(block);
      if (ranBefore.size > 0) reporter?.note("No block was re-run: what the blocks had defined is gone with that Python.");
      return;
    }
    reporter?.beginRestoring(`Re-running ${blockNumbers(replayed)} to restore your definitions…`);
    this.replaying = true;
    const stopsBefore = this.stops;
    const failed = [];
    let broke = null; // { block, error }: the re-run after which even an empty block failed
    let fresh = true;
    const replayedCode = new Map();
    for (const block of replayed) {
      const code = block.code();
      replayedCode.set(block, code);
      const result = await runtime.run({ page: this.key, code, fresh, filename: block.filename, check: true,
                                         label: `${block.about} (re-run to restore your definitions)` });
      fresh = false;
      if (runtime.interpreter !== this.interpreterRanIn || this.stops !== stopsBefore) break;
      notReplayed.delete(block);
      this.ranIn.set(block, { interpreter: runtime.interpreter, code });
      if (result.ok && !result.engineChanged && !result.tasksLeft) {
        this.ran.add(block);
        this.succeeded.set(block, code);
      } else {
        failed.push(block);
        this.succeeded.delete(block);
      }
      if (result.error?.kind === ERROR.BROKEN) {
        broke = { block, error: result.error };
        break;
      }
    }
    this.replaying = false;
    if (runtime.interpreter !== this.interpreterRanIn) return reporter?.endRestoring(); // the next restore() says why
    for (const block of ranBefore) if (!notReplayed.has(block) && !failed.includes(block)) this.ran.add(block);
    if (this.stops !== stopsBefore) {
      reporter?.endRestoring("Re-running was stopped: the blocks not re-run will run before the next block you run.");
      return;
    }
    if (broke) {
      this.breaker = broke.block;
      this.notRunFirst.set(broke.block, { code: replayedCode.get(broke.block), why: BROKE_PYTHON });
      const rest = replayed.slice(replayed.indexOf(broke.block) + 1);
      reporter?.endRestoring();
      reporter?.offerPlainRestart(`Re-running ${blockNumbers([broke.block])} broke the page's Python: after it, even `
        + `an empty block fails (${broke.error.type ?? "an error"}), so every run would fail.`
        + (rest.length ? ` ${capitalized(blockNumbers(rest))} ${rest.length > 1 ? "were" : "was"} not re-run.` : "")
        + ` Restart Python without re-running blocks; then change ${blockNumbers([broke.block])} or press its Reset `
        + "before you run it again.");
      return;
    }
    const done = `Re-ran ${blockNumbers(replayed)}: your definitions are back.`;
    reporter?.endRestoring(failed.length === 0 ? done
      : `${done} But ${blockNumbers(failed)} failed this time; run ${failed.length > 1 ? "them" : "it"} to see why.`);
  }
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "block 2", "blocks 1–3", "blocks 1, 2 and 4": how the notes name blocks. */
function blockNumbers(blocks) {
  const numbers = blocks.map((block) => block.number);
  if (numbers.length === 1) return `block ${numbers[0]}`;
  const consecutive = numbers.every((number, index) => index === 0 || number === numbers[index - 1] + 1);
  if (consecutive && numbers.length > 2) return `blocks ${numbers[0]}–${numbers.at(-1)}`;
  return `blocks ${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}
