// your-work.mjs: the page "Your work": download this browser's work as one file, or load such a file.
// What it is: mountYourWork(root) fills the page's `<div data-your-work>` (docs/your-work.md) with what
// this browser keeps ("Saved in this browser: ..."), a name field, "Download my work" (saves
// <name>-backprop-work.json, work-file.mjs; with no name typed it asks for one instead), "Load my work" (a file chooser; the file is checked first,
// then the page says what it would replace and waits for "Replace my work" or "Cancel"), and the
// switch that turns the exercises' solutions off in this browser. A file's engine that differs from the
// lesson's is code from someone else: the question shows its first changed lines and how many lines
// differ, and asks on its own ("Run the file's engine too", unticked); unticked, the work loads with the
// lesson's engine and the file's engine is kept only as the draft of "Edit the engine", never run.
// After a load, the engine chosen so is what Python runs from then on (runtime.useEngine), and the page
// remembers whose file it was: a later download says that it holds work loaded from that file.
// "I am a new learner on this computer" says what this browser holds, offers to download it first, and
// on "Start empty" forgets the name and all of the work (the solutions switch stays: it is the room's).
// Everything from a file is shown as text; a file that fails its checks changes nothing.
// What it is not: the format or its checks (work-file.mjs), or the counting (work-summary.mjs).
import { runtime } from "../runtime/runtime.mjs";
import { noteWorkLoadedFrom, saveLearner, savedLearner, setSolutionsAllowed, solutionsAllowed, workLoadedFrom }
  from "../storage/saved-settings.mjs";
import { Lines, buttonRow, question } from "../ui/ui.mjs";
import { fingerprint } from "../storage/saved-edits.mjs";
import { SHOWN_LINES, engineDifference, lessonEngine } from "./engine-difference.mjs";
import { downloadWork, forgetWork, loadLesson, readWorkFile, restoreWork, workFromStorage } from "./work-file.mjs";
import { describe, summarize } from "./work-summary.mjs";

/** Mount the page's controls, if it has the placeholder and they are not mounted yet. */
export function mountYourWork(root) {
  const element = root.querySelector("[data-your-work]");
  if (!element || element.yourWork) return;
  element.yourWork = new YourWork(element);
}

class YourWork {
  pending = null; // a checked work file waiting for "Replace my work"

  constructor(element) {
    element.classList.add("your-work");
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", "Your work");
    this.saved = element.appendChild(document.createElement("p"));
    this.saved.className = "your-work__saved";

    const nameRow = element.appendChild(document.createElement("p"));
    const label = nameRow.appendChild(document.createElement("label"));
    label.textContent = "Your name (it names the file): ";
    this.name = label.appendChild(document.createElement("input"));
    this.name.type = "text";
    this.name.maxLength = 100;
    this.name.autocomplete = "name";
    this.name.value = savedLearner();
    // kept as it is typed (not only when the field is left), so a reload or another page keeps it too
    this.name.addEventListener("input", () => saveLearner(this.name.value.trim()));

    [this.downloadButton, this.loadButton, this.newLearnerButton] = buttonRow(element, [
      ["Download my work", "your-work__download", () => this.download()],
      ["Load my work", "your-work__load", () => this.chooser.click()],
      ["I am a new learner on this computer", "your-work__new-learner", () => this.askNewLearner()]]);
    this.chooser = element.appendChild(document.createElement("input"));
    this.chooser.type = "file";
    this.chooser.accept = ".json,application/json";
    this.chooser.hidden = true;
    this.chooser.setAttribute("aria-label", "Work file to load");
    this.chooser.addEventListener("change", () => this.check(this.chooser.files[0]));

    ({ element: this.fresh, words: this.freshWords } = question(element, "Start as a new learner?"));
    buttonRow(this.fresh, [["Download this work first", "your-work__download-first", () => this.download()],
                           ["Start empty", "your-work__start-empty", () => this.startEmpty()],
                           ["Cancel", "your-work__cancel-fresh", () => this.cancel()]]);

    ({ element: this.confirmation, words: this.question } = question(element, "Load this work file?"));
    this.engineQuestion = this.confirmation.appendChild(document.createElement("div"));
    this.engineQuestion.className = "your-work__engine";
    this.engineQuestion.hidden = true;
    this.engineWords = this.engineQuestion.appendChild(document.createElement("p"));
    this.engineLines = this.engineQuestion.appendChild(document.createElement("pre"));
    this.engineLines.setAttribute("aria-label", "The file's engine, from its first change");
    const runLabel = this.engineQuestion.appendChild(document.createElement("p")).appendChild(document.createElement("label"));
    this.runEngine = runLabel.appendChild(document.createElement("input"));
    this.runEngine.type = "checkbox";
    runLabel.append(" Run the file's engine too");
    this.engineQuestion.appendChild(document.createElement("p")).textContent = "Unticked, the work is loaded with the "
      + "lesson's engine, and the file's engine is only kept as your draft on the page \"Edit the engine\", where you "
      + "can read it (it does not run until you apply it there).";
    buttonRow(this.confirmation, [["Replace my work", "your-work__replace", () => this.replace()],
                                  ["Cancel", "your-work__cancel", () => this.cancel()]]);

    this.lines = new Lines(element);

    const switchRow = element.appendChild(document.createElement("p"));
    const switchLabel = switchRow.appendChild(document.createElement("label"));
    this.solutionsOff = switchLabel.appendChild(document.createElement("input"));
    this.solutionsOff.type = "checkbox";
    this.solutionsOff.checked = !solutionsAllowed();
    this.solutionsOff.addEventListener("change", () => setSolutionsAllowed(!this.solutionsOff.checked));
    switchLabel.append(" Turn the exercises' solutions off in this browser");

    const buttons = [this.downloadButton, this.loadButton, this.newLearnerButton];
    for (const each of buttons) each.disabled = true;
    loadLesson().then((lesson) => {
      this.lesson = lesson;
      for (const each of buttons) each.disabled = false;
      this.showSaved();
    }, (error) => {
      this.lines.showProblem(`This page could not load the lesson's list of exercises (${error.message}). `
        + "Are you offline before the lesson was saved for offline use? Try again with a connection.");
    });
  }

  current() {
    return summarize(workFromStorage(this.lesson), this.lesson.map);
  }

  showSaved() {
    const what = describe(this.current());
    this.saved.textContent = what ? `Saved in this browser: ${what}.` : "Nothing is saved in this browser yet.";
  }

  download() {
    const learner = this.name.value.trim().slice(0, 100);
    if (!learner) { // unnamed, every learner's file was "backprop-work.json": the teacher could not tell them apart
      this.lines.showProblem("Type your name first: it names the file, and your teacher's table shows it. "
        + "Then press \"Download my work\" again.");
      this.name.focus();
      return;
    }
    saveLearner(learner);
    const name = downloadWork(this.lesson, learner);
    const from = workLoadedFrom();
    const whose = from && `${from.learner ? `${from.learner}'s` : "someone's"} work file ${from.file}`;
    this.lines.hideProblem();
    this.lines.say(`Saved as ${name} (in your downloads). Load it here or in another browser with "Load my work".`
      + (from ? ` Note: the work here was loaded from ${whose}, so this file holds that work too, with anything `
        + `done here since. If it is not yours, press "I am a new learner on this computer" to start your own.` : ""));
  }

  /** Check the chosen file; if it is a work file, say what loading it would replace and ask. */
  async check(file) {
    this.chooser.value = ""; // choosing the same file again still counts
    if (!file) return;
    this.cancel();
    const { work, problem } = await readWorkFile(file, this.lesson);
    if (problem) {
      this.lines.showProblem(`${file.name} was not loaded, and nothing here changed. ${problem}`);
      return;
    }
    this.pending = work;
    this.pendingFile = file.name;
    const incoming = describe(summarize(work, this.lesson.map), "the file's") || "no work at all";
    const replaced = describe(this.current());
    const whose = work.learner ? `${work.learner}'s work` : "work";
    this.question.textContent = `${file.name} holds ${whose}: ${incoming}. `
      + (replaced ? `Loading it replaces ${replaced} in this browser.` : "Nothing saved in this browser is replaced.");
    this.lessonEngine = work.engine.active === null ? null : await lessonEngine().catch(() => null);
    if (this.pending !== work) return; // another file was chosen meanwhile
    this.askAboutEngine(work.engine.active);
    this.confirmation.hidden = false;
    this.question.focus();
  }

  /** A file's engine that is not the lesson's: say how it differs and ask, unticked, whether to run it. */
  askAboutEngine(source) {
    this.runEngine.checked = false;
    this.engineQuestion.hidden = source === null || source === this.lessonEngine;
    if (this.engineQuestion.hidden) return;
    const plural = (count) => `${count} line${count === 1 ? "" : "s"}`;
    let size = "The lesson's engine could not be read here to compare them; the file's engine begins:";
    this.engineLines.textContent = source.split("\n").slice(0, SHOWN_LINES).join("\n");
    if (this.lessonEngine !== null) {
      const { added, removed, firstChange, firstLines } = engineDifference(this.lessonEngine, source);
      size = `Compared with the lesson's engine, ${plural(added)} ${added === 1 ? "was" : "were"} added and `
        + `${plural(removed)} removed; its first changed lines (from line ${firstChange}) are:`;
      this.engineLines.textContent = firstLines;
    }
    this.engineWords.textContent = "This file also carries its own engine (tinygrad.py), which is not the lesson's. "
      + "An engine is Python code that every code block and figure of the lesson would run in this browser, "
      + "so run it only if you trust whoever made this file and know what they changed. " + size;
  }

  /** The work to keep: the file's, with its engine only if the learner ticked "Run the file's engine too". */
  chosen(work) {
    if (this.engineQuestion.hidden || this.runEngine.checked) return work;
    const draft = { code: work.engine.active, original: fingerprint(this.lessonEngine ?? "") };
    return { ...work, engine: { active: null, draft } };
  }

  replace() {
    const work = this.pending && this.chosen(this.pending);
    if (!work) return;
    const withEngine = work === this.pending;
    const file = this.pendingFile;
    this.cancel();
    if (!restoreWork(work)) {
      this.lines.showProblem("This browser refused to keep the work (its storage is full or turned off): nothing here changed.");
      return;
    }
    noteWorkLoadedFrom(work.learner, file);
    if (runtime.engineSource !== work.engine.active) runtime.useEngine(work.engine.active);
    this.name.value = work.learner;
    this.showSaved();
    this.lines.say(withEngine ? "Loaded: your edits, exercises, answers and engine are back, on every page of the lesson."
      : "Loaded: your edits, exercises and answers are back, on every page of the lesson. The file's engine was not run: "
        + "the lesson's engine runs, and the file's is your draft on the page \"Edit the engine\".");
  }

  /** Say what this browser holds, and that starting empty forgets it; wait for "Start empty" or "Cancel". */
  askNewLearner() {
    this.cancel();
    const what = describe(this.current(), "the");
    const name = this.name.value.trim();
    this.freshWords.textContent = `This browser holds ${what ? `${name ? `${name}'s` : "the"} work: ${what}`
      : name ? `the name ${name} and no work yet` : "no work yet"}. Starting as a new learner forgets the name and all `
      + "of the work (edits, exercises' progress, answers, figures and edited engine) on every page of this lesson "
      + "in this browser; the switch for the exercises' solutions stays as it is. Download the work first to keep it.";
    this.fresh.hidden = false;
    this.freshWords.focus();
  }

  startEmpty() {
    this.cancel();
    forgetWork();
    if (runtime.engineSource !== null) runtime.useEngine(null);
    this.name.value = "";
    this.showSaved();
    this.lines.say("This browser now starts empty, for a new learner. Type your name above.");
    this.name.focus();
  }

  cancel() {
    this.pending = null;
    this.confirmation.hidden = this.fresh.hidden = true;
    this.lines.say("");
    this.lines.hideProblem();
  }
}
