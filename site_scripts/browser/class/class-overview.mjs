// class-overview.mjs: the teacher's page "Class overview": the work files of a class, one row per learner.
// What it is: mountClassOverview(root) fills the page's `<div data-class-overview>` (docs/class-overview.md)
// with a file field "Students' work files" (many files at once, or dropped onto it), a table with one
// row per learner, at first compact enough to project (compactColumns(): one short column per chapter),
// and with "Show every column" in full (columns(): what the file says of chapters, exercises, predictions,
// steps, figures, solutions (turned off, or switched back on), its last change, whether it carries an
// edited engine, what it holds that was not counted, the exercises passed when checked here, then one column
// per chapter), sortable by any column, "Download as CSV" for a gradebook (csv.mjs; "," or ";" as the
// spreadsheet's language wants), and, for the learner whose name is clicked, every exercise with its state
// and code. Each file is read and checked in the page (work-file.mjs, the same checks as "Load my work"); a
// file that fails is listed with its reason and the others still show. Only what the lesson has is counted,
// under its own titles (work-summary.mjs); names show their hidden characters written out, isolated in
// <bdi>, and names that look alike are listed (names.mjs). "Check the exercises in Python" runs each
// learner's code against the exercises' checks (recheck.mjs), with a progress bar and Stop. Nothing is sent
// anywhere, and everything from the files is shown as text.
// What it is not: the counting (work/work-summary.mjs) or the format (work/work-file.mjs).
import { button, saveAsFile } from "../ui/ui.mjs";
import { loadLesson, readWorkFile } from "../work/work-file.mjs";
import { summarize } from "../work/work-summary.mjs";
import { csvText } from "./csv.mjs";
import { lookAlikeGroups, oddLetters, visibleName } from "./names.mjs";
import { exercisesWithCode, recheck, stopChecks } from "./recheck.mjs";

const MAX_FILES = 1000;
const ENGINE_URL = new URL("../../../../tinygrad.py", import.meta.url); // the lesson's engine, as the build copied it
const of = (count, total) => `${count} of ${total}`;
const counted = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const sameEngine = (a, b) => a.replace(/\r\n?/g, "\n").trimEnd() === b.replace(/\r\n?/g, "\n").trimEnd();

/** A <bdi> holding `text` as text: a name written right to left cannot turn the words around it. */
function isolated(text) {
  const element = document.createElement("bdi");
  element.textContent = text;
  return element;
}

/** Mount the overview, if the page has its placeholder and it is not mounted yet. */
export function mountClassOverview(root) {
  const element = root.querySelector("[data-class-overview]");
  if (!element || element.classOverview) return;
  element.classOverview = new ClassOverview(element);
}

/** "2026-12-02 09:41" in the teacher's time zone, or "—". */
function localTime(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  const two = (number) => String(number).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** A figure filled in by hand, in a chapter's cell: "Backpropagate by hand done" or "... 5 of 11 boxes". */
function figureText({ title, progress }) {
  return `${title} ${progress.right === progress.total ? "done" : `${of(progress.right, progress.total)} boxes`}`;
}

/** What a chapter's cell says: "—", or what of it has something: "ran", "1 of 2 solved", "3 of 5 predictions
 *  answered, 2 right first time", "Backpropagate by hand 5 of 11 boxes", joined by "; ". */
function chapterText({ runs, exercises, solved, predictions, answered, rightFirst, figures }) {
  const parts = [...(runs > 0 ? ["ran"] : []), ...(exercises && (runs > 0 || solved) ? [`${of(solved, exercises)} solved`] : []),
    ...(answered ? [`${of(answered, predictions)} predictions answered, ${rightFirst} right first time`] : []),
    ...figures.filter(({ progress }) => progress?.right > 0).map(figureText)];
  return parts.join("; ") || "—";
}

/** The predictions' cell: "3 of 5 answered right first time", then how many answers were shown and how many
 *  first tries a file made before they were kept cannot tell. */
function predictionsText(s) {
  return `${of(s.predictionsRightFirst, s.predictionsAnswered)} answered right first time`
    + (s.predictionsShown ? `; ${s.predictionsShown} shown the answer` : "")
    + (s.predictionsFirstUnknown ? `; ${s.predictionsFirstUnknown} first ${s.predictionsFirstUnknown === 1 ? "try" : "tries"} not recorded` : "");
}

/** What a file holds that was not counted: "14 marked solved with no code; 900 predictions this lesson does not have". */
function notCountedText({ solvedWithoutCode, ignored }) {
  const unknown = [[ignored.predictions, "prediction"], [ignored.exercises, "exercise"], [ignored.figures, "figure"]]
    .filter(([count]) => count).map(([count, kind]) => counted(count, kind));
  return [...(solvedWithoutCode ? [`${solvedWithoutCode} marked solved with no code`] : []),
    ...(unknown.length ? [`${unknown.join(", ")} this lesson does not have`] : [])].join("; ") || "—";
}

/** A chapter's cell in the compact table: "ran, 1/2 solved, 2/5 right first, 1/2 by hand" or "—". */
function compactChapterText({ runs, exercises, solved, predictions, rightFirst, figures }) {
  const byHand = figures.filter(({ progress }) => progress?.right > 0);
  return [...(runs > 0 ? ["ran"] : []), ...(exercises && (runs > 0 || solved) ? [`${solved}/${exercises} solved`] : []),
    ...(rightFirst ? [`${rightFirst}/${predictions} right first`] : []),
    ...(byHand.length ? [`${byHand.filter(({ progress }) => progress.right === progress.total).length}/${byHand.length} by hand`] : []),
  ].join(", ") || "—";
}

/** The solutions' cell: how many were shown, and whether they were turned off, or turned off and switched back on. */
function solutionsText(s) {
  return `${s.solutionsShown}${s.solutionsOff ? " (turned off)" : s.solutionsBackOn ? ` (switched back on ${localTime(s.solutionsBackOn)})` : ""}`;
}

/** The solutions switch, for the gradebook: "off", "switched back on <time>" or "on". */
const solutionsSwitch = (s) => (s.solutionsOff ? "off" : s.solutionsBackOn ? `switched back on ${localTime(s.solutionsBackOn)}` : "on");

/** Whether the file carries an engine other than the lesson's: "yes", "a draft, not run" or "no". */
function engineText(engine, lessonEngine) {
  if (engine.active !== null && !sameEngine(engine.active, lessonEngine)) return "yes";
  return engine.draft !== null && !sameEngine(engine.draft.code, lessonEngine) ? "a draft, not run" : "no";
}

/** How many exercises the checks run here found solved. */
const solvedChecked = (checked) => [...checked.values()].filter((verdict) => verdict.solved).length;

/** What the checks run here found of a learner's exercises: "not checked", or "3 of 14" (and how many were not reached). */
function checkedText(row, map) {
  if (!row.checked) return "not checked";
  const missed = exercisesWithCode(row, map).length - row.checked.size;
  return of(solvedChecked(row.checked), map.exercises.length) + (missed ? `; ${missed} not checked` : "");
}

/** The table's columns: a heading, the cell's text and the value it sorts by. */
function columns(map) {
  return [
    { heading: "Learner", text: (row) => row.shown, sort: (row) => row.shown.toLowerCase() },
    { heading: "Chapters with something run", text: ({ s }) => of(s.chaptersRun, s.chaptersTotal), sort: ({ s }) => s.chaptersRun },
    { heading: "Exercises passed (says the file)", text: ({ s }) => of(s.exercisesSolved, s.exercisesTotal), sort: ({ s }) => s.exercisesSolved },
    { heading: "Predictions right first time", text: ({ s }) => predictionsText(s), sort: ({ s }) => s.predictionsRightFirst },
    { heading: "Build-your-own steps passed", text: ({ s }) => of(s.stepsSolved, s.stepsTotal), sort: ({ s }) => s.stepsSolved },
    { heading: "Figures done by hand", text: ({ s }) => of(s.figuresDone, s.figuresTotal), sort: ({ s }) => s.figuresDone },
    { heading: "Solutions shown", text: ({ s }) => solutionsText(s), sort: ({ s }) => s.solutionsShown },
    { heading: "Last change", text: ({ s }) => localTime(s.lastChange), sort: ({ s }) => s.lastChange ?? "" },
    { heading: "Edited engine", text: (row) => row.engine, sort: (row) => row.engine },
    { heading: "Not counted", text: ({ s }) => notCountedText(s), sort: ({ s }) => notCountedText(s) },
    { heading: "Exercises passed (checked)", text: (row) => checkedText(row, map),
      sort: (row) => (row.checked ? solvedChecked(row.checked) : -1) },
    ...map.chapters.map((chapter, index) => ({
      heading: chapter.title,
      text: ({ s }) => chapterText(s.chapters[index]),
      sort: ({ s }) => s.chapters[index].solved * 1e9 + s.chapters[index].rightFirst * 1e6 + s.chapters[index].runs,
    })),
  ];
}

/** The projected table's columns: the learner, then one short column per chapter; the rest is in the full table
 *  ("Show every column") and in each learner's detail. */
function compactColumns(map) {
  const [learner] = columns(map);
  return [learner, ...map.chapters.map((chapter, index) => ({
    heading: chapter.title,
    text: ({ s }) => compactChapterText(s.chapters[index]),
    sort: ({ s }) => s.chapters[index].solved * 1e9 + s.chapters[index].rightFirst * 1e6 + s.chapters[index].runs,
  }))];
}

/** The gradebook's columns: numbers apart from their totals, so a spreadsheet can add them up. */
function csvRows(rows, map) {
  const header = ["Learner", "File", "Chapters with something run", "Chapters", "Exercises passed (says the file)", "Exercises",
    "Predictions right first time", "Predictions answered", "Predictions whose answer was shown",
    "Predictions whose first try was not recorded", "Predictions", "Build-your-own steps passed", "Build-your-own steps",
    "Figures done by hand", "Figures by hand", "Solutions shown", "Solutions", "Last change",
    "Edited engine", "Not counted", "Exercises passed (checked)", ...map.chapters.map((chapter) => chapter.title)];
  return [header, ...rows.map(({ shown, file, engine, checked, s }) => [shown, visibleName(file), s.chaptersRun,
    s.chaptersTotal, s.exercisesSolved, s.exercisesTotal, s.predictionsRightFirst, s.predictionsAnswered, s.predictionsShown,
    s.predictionsFirstUnknown, s.predictionsTotal, s.stepsSolved, s.stepsTotal, s.figuresDone, s.figuresTotal, s.solutionsShown,
    solutionsSwitch(s), localTime(s.lastChange), engine, notCountedText(s), checked ? solvedChecked(checked) : "",
    ...s.chapters.map(chapterText)])];
}

class ClassOverview {
  rows = []; // { name, shown (visibleName), file, key, engine (engineText), s (the summary), work }
  problems = []; // { file, problem }
  sortBy = 0;
  descending = false;
  compact = true; // one column per chapter, to fit a projector; "Show every column" for the rest

  constructor(element) {
    element.classList.add("class-overview");
    this.drop = element.appendChild(document.createElement("div"));
    this.drop.className = "class-overview__drop";
    const label = this.drop.appendChild(document.createElement("label"));
    label.className = "class-overview__label";
    label.textContent = "Students' work files";
    this.input = label.appendChild(document.createElement("input"));
    this.input.type = "file";
    this.input.multiple = true;
    this.input.accept = ".json,application/json";
    this.input.disabled = true;
    this.input.addEventListener("change", () => {
      this.add([...this.input.files]);
      this.input.value = "";
    });
    this.drop.appendChild(document.createElement("p")).textContent = "Choose the files, or drop them here. "
      + "They are read in this browser only: nothing is sent anywhere.";
    this.drop.addEventListener("dragover", (event) => {
      event.preventDefault();
      this.drop.classList.add("class-overview__drop--over");
    });
    this.drop.addEventListener("dragleave", () => this.drop.classList.remove("class-overview__drop--over"));
    this.drop.addEventListener("drop", (event) => {
      event.preventDefault();
      this.drop.classList.remove("class-overview__drop--over");
      this.add([...(event.dataTransfer?.files ?? [])]);
    });

    const bar = element.appendChild(document.createElement("div"));
    bar.className = "class-overview__bar";
    this.fullButton = button(bar, "Show every column", "class-overview__full", () => {
      this.compact = !this.compact;
      this.sortBy = 0;
      this.descending = false;
      this.render();
    });
    this.fullButton.setAttribute("aria-pressed", "false");
    this.csvButton = button(bar, "Download as CSV", "class-overview__csv", () => this.downloadCSV());
    const separatorLabel = bar.appendChild(document.createElement("label"));
    separatorLabel.className = "class-overview__separator";
    separatorLabel.textContent = "CSV separator ";
    this.separator = separatorLabel.appendChild(document.createElement("select"));
    for (const [value, text] of [[",", "comma (,)"], [";", "semicolon (;), for a spreadsheet that writes 0,5"]]) {
      const option = this.separator.appendChild(document.createElement("option"));
      option.value = value;
      option.textContent = text;
    }
    this.clearButton = button(bar, "Clear the table", "class-overview__clear", () => this.clear());
    this.checkButton = button(bar, "Check the exercises in Python", "class-overview__check", () => this.check());
    this.stopButton = button(bar, "Stop the checks", "class-overview__stop", () => this.stop());
    this.progress = bar.appendChild(document.createElement("progress"));
    this.progress.setAttribute("aria-label", "Exercises checked");
    this.progress.hidden = true;
    this.status = element.appendChild(document.createElement("p"));
    this.status.setAttribute("role", "status");
    this.problemList = element.appendChild(document.createElement("ul"));
    this.problemList.className = "class-overview__problems";
    this.problemList.setAttribute("aria-label", "Files that could not be read");
    this.alikeList = element.appendChild(document.createElement("ul"));
    this.alikeList.className = "class-overview__alike";
    this.alikeList.setAttribute("aria-label", "Names that look alike");
    this.tableBox = element.appendChild(document.createElement("div"));
    this.tableBox.className = "class-overview__table";
    this.detail = element.appendChild(document.createElement("section"));
    this.detail.className = "class-overview__detail";
    this.detail.hidden = true;
    this.render();

    Promise.all([loadLesson(), fetch(ENGINE_URL).then((response) => {
      if (!response.ok) throw new Error(`${ENGINE_URL.pathname} answered ${response.status}`);
      return response.text();
    })]).then(([lesson, engine]) => {
      this.lesson = lesson;
      this.lessonEngine = engine;
      this.allColumns = columns(lesson.map);
      this.compactColumns = compactColumns(lesson.map);
      this.input.disabled = false;
      this.render();
    }, (error) => {
      this.status.textContent = `This page could not load the lesson's list of exercises or its engine (${error.message}).`;
    });
  }

  /** Read and check `files` one by one, then show them with the rows already there. */
  async add(files) {
    if (!this.lesson || files.length === 0) return;
    if (files.length > MAX_FILES) {
      this.status.textContent = `That is ${files.length} files at once; choose at most ${MAX_FILES}.`;
      return;
    }
    this.status.textContent = `Reading ${files.length} file${files.length === 1 ? "" : "s"}…`;
    let added = 0;
    for (const file of files) {
      const { work, problem } = await readWorkFile(file, this.lesson);
      if (problem) {
        this.problems.push({ file: file.name, problem });
        continue;
      }
      const key = `${work.learner}\u0000${work.saved}\u0000${file.name}`;
      if (this.rows.some((row) => row.key === key)) continue; // the same file twice
      const name = work.learner || file.name.replace(/(-backprop-work)?\.json$/i, "");
      this.rows.push({ name, shown: visibleName(name), file: file.name, key, work, s: summarize(work, this.lesson.map),
                       engine: engineText(work.engine, this.lessonEngine) });
      added += 1;
    }
    this.render();
    const unread = this.problems.length;
    this.status.textContent = `Added ${added} learner${added === 1 ? "" : "s"}: ${this.rows.length} in the table.`
      + (unread ? ` ${unread} file${unread === 1 ? "" : "s"} could not be read (listed below).` : "")
      + (this.alikeList.hidden ? "" : " Some names look alike (listed below).");
  }

  clear() {
    this.rows = [];
    this.problems = [];
    this.detail.hidden = true;
    this.shownRow = null;
    this.status.textContent = "";
    this.render();
  }

  get columns() {
    return this.compact ? this.compactColumns : this.allColumns;
  }

  sorted() {
    const { sort } = this.columns[this.sortBy];
    const rows = [...this.rows].sort((a, b) => (sort(a) < sort(b) ? -1 : sort(a) > sort(b) ? 1 : 0));
    return this.descending ? rows.reverse() : rows;
  }

  render() {
    this.csvButton.disabled = this.fullButton.disabled = this.rows.length === 0;
    this.fullButton.setAttribute("aria-pressed", String(!this.compact));
    this.clearButton.disabled = this.checkButton.disabled = this.rows.length === 0 || Boolean(this.checking);
    this.stopButton.disabled = !this.checking;
    if (this.lesson) this.input.disabled = Boolean(this.checking);
    this.problemList.replaceChildren(...this.problems.map(({ file, problem }) => {
      const item = document.createElement("li");
      item.appendChild(document.createElement("strong")).append(isolated(visibleName(file)), ": ");
      item.append(problem);
      return item;
    }));
    this.problemList.hidden = this.problems.length === 0;
    const groups = lookAlikeGroups(this.rows.map((row) => row.name)).map((indexes) => indexes.map((index) => this.rows[index]));
    this.alikeList.replaceChildren(...groups.map((rows) => {
      const item = document.createElement("li");
      item.append(`${rows.length} rows have names that look alike; check whose work each file is: `);
      rows.forEach((row, index) => {
        const odd = oddLetters(row.name);
        item.append(index ? "; " : "", isolated(row.shown), " from ", isolated(visibleName(row.file)), odd.length ? ` (${odd.join(", ")})` : "");
      });
      item.append(".");
      return item;
    }));
    this.alikeList.hidden = groups.length === 0;
    const alike = new Set(groups.flat());
    if (!this.columns || this.rows.length === 0) {
      this.tableBox.replaceChildren();
      return;
    }
    const table = document.createElement("table");
    table.appendChild(document.createElement("caption")).textContent = "One row per learner. Sort by a column with its heading."
      + (this.compact ? " A learner's name opens their work; \u201cShow every column\u201d shows the rest." : "");
    const headings = table.appendChild(document.createElement("thead")).appendChild(document.createElement("tr"));
    this.columns.forEach((column, index) => {
      const cell = headings.appendChild(document.createElement("th"));
      cell.scope = "col";
      if (index === this.sortBy) cell.setAttribute("aria-sort", this.descending ? "descending" : "ascending");
      button(cell, column.heading, "class-overview__sort", () => {
        this.descending = this.sortBy === index ? !this.descending : false;
        this.sortBy = index;
        this.render();
      });
    });
    const body = table.appendChild(document.createElement("tbody"));
    for (const row of this.sorted()) {
      const line = body.appendChild(document.createElement("tr"));
      this.columns.forEach((column, index) => {
        const cell = line.appendChild(document.createElement(index === 0 ? "th" : "td"));
        if (index > 0) {
          cell.textContent = column.text(row);
          return;
        }
        cell.scope = "row";
        const name = button(cell, "", "class-overview__learner", () => this.showLearner(row));
        name.replaceChildren(isolated(row.shown));
        name.setAttribute("aria-controls", "class-overview-detail");
        if (!alike.has(row)) return;
        const odd = oddLetters(row.name);
        cell.appendChild(document.createElement("small")).textContent = ` looks like another name${odd.length ? `, with ${odd.join(", ")}` : ""}`;
      });
    }
    this.detail.id = "class-overview-detail";
    this.tableBox.replaceChildren(table);
  }

  /** Every exercise of one learner: its state and, opened, their code as text. */
  showLearner(row, focus = true) {
    this.shownRow = row;
    const heading = document.createElement("h3");
    heading.tabIndex = -1;
    heading.append(isolated(row.shown), ": exercises and code");
    const note = document.createElement("p");
    note.append("From ", isolated(visibleName(row.file)), `, saved ${localTime(row.work.saved)}.`
      + (row.engine === "yes" ? " The file carries an edited engine." : ""));
    const titles = new Map(this.lesson.map.chapters.map((chapter) => [chapter.path, chapter.title]));
    const list = document.createElement("ul");
    list.className = "class-overview__exercises";
    for (const exercise of row.s.exercises) {
      const details = list.appendChild(document.createElement("li")).appendChild(document.createElement("details"));
      const state = exercise.solved ? "solved" : exercise.solvedWithoutCode ? "marked solved with no code, not counted"
        : exercise.attempted ? "tried, not solved yet" : "not tried";
      const verdict = row.checked?.get(exercise.name);
      const checked = !row.checked ? "" : verdict ? `; ${verdict.text} (checked)`
        : `; ${exercise.code === null ? "no code to check" : "not checked"}`;
      details.appendChild(document.createElement("summary")).textContent = `${exercise.title} (${titles.get(exercise.chapter)
        ?? exercise.chapter}): ${state}${exercise.solutionShown ? ", solution shown" : ""} (says the file)${checked}`;
      if (exercise.code === null) {
        details.appendChild(document.createElement("p")).textContent = "The starter code, not edited.";
      } else {
        const code = details.appendChild(document.createElement("pre"));
        code.setAttribute("aria-label", `${row.shown}'s code for ${exercise.title}`);
        code.textContent = exercise.code;
      }
    }
    this.detail.setAttribute("aria-label", `Work of ${row.shown}`);
    this.detail.replaceChildren(heading, note, list);
    this.detail.hidden = false;
    if (focus) heading.focus();
  }

  /** Run every learner's code against the exercises' checks, in Python in this page; Stop ends it. */
  async check() {
    if (this.checking || this.rows.length === 0) return;
    this.checking = { stopped: false };
    this.progress.hidden = false;
    this.progress.removeAttribute("value");
    this.status.textContent = "Starting Python to check the exercises…";
    this.render();
    const checking = this.checking;
    const map = this.lesson.map;
    try {
      await recheck(this.sorted(), map, {
        isStopped: () => checking.stopped,
        onProgress: ({ done, total, now }) => {
          this.progress.max = Math.max(total, 1);
          this.progress.value = done;
          if (now) this.status.textContent = `Checking ${now.number} of ${total}: ${now.row.shown}'s code for “${now.exercise.title}”…`;
        },
      });
      const count = this.rows.reduce((sum, row) => sum + (row.checked?.size ?? 0), 0);
      this.status.textContent = checking.stopped ? `Stopped after ${counted(count, "exercise")}; the others say “not checked”.`
        : `Checked ${counted(count, "exercise")} in Python: see “Exercises passed (checked)” and each learner's list.`;
    } catch (error) {
      this.status.textContent = `The exercises could not be checked (${error.message}).`;
    } finally {
      this.checking = null;
      this.progress.hidden = true;
      this.render();
      if (!this.detail.hidden && this.shownRow) this.showLearner(this.shownRow, false);
    }
  }

  stop() {
    if (!this.checking) return;
    this.checking.stopped = true;
    stopChecks();
  }

  downloadCSV() {
    const day = localTime(new Date().toISOString()).slice(0, 10);
    saveAsFile(`class-overview-${day}.csv`, csvText(csvRows(this.sorted(), this.lesson.map), this.separator.value), "text/csv");
    this.status.textContent = `Saved as class-overview-${day}.csv (in your downloads).`;
  }
}
