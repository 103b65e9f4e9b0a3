// predictions.mjs: the lesson's checked predictions: the reader answers, the page checks and explains.
// What it is: mountPredictions(page) turns each <div class="prediction"> of a page visit (a LessonPage) the build wrote (hook
// site_scripts/hooks/predictions.py: the question, the answer in a <details>, and hidden, the expected
// answer and the feedback for each likely slip) into a small form: a number field or a few choices,
// "Check answer" and "Show me". An answer is judged at once against the build's answer (judge.mjs),
// with no Python needed; a wrong one gets the feedback of the slip it matches. "Show me" reveals the
// answer with its reason. Answers are saved (storage/saved-predictions.mjs), with the reader's first one
// and whether it was right before the answer was shown (what the class overview counts), and shown again, judged
// afresh, on the next visit; input that is not a number gets a plain message and changes nothing
// saved. A prediction about a block (data-check "observe", such as "x.grad") reads that name in the
// page's namespace once the reader's run of the next block has ended (tutor.predictions.observed,
// through runtime.call) and says whether it confirms the answer. A block output the build folded because
// predictions ask about it (details.runnable__lesson-fold) opens once each of them is answered or shown,
// and folds again when the reader clears their work. The predictions go into the page
// object (page.predictions), which "Clear my saved edits" uses. Mounting a page twice does nothing more,
// like mountBlocks, so document$ can call it after every navigation.
// What it is not: the answers (computed at build time with the engine) or Python (runtime.mjs).
import { button } from "../ui/ui.mjs";
import { runtime } from "../runtime/runtime.mjs";
import { savePrediction, savedPrediction } from "../storage/saved-predictions.mjs";
import { readNumber } from "../ui/numbers.mjs";
import { judgeChoice, judgeNumber } from "./judge.mjs";

/** Make the predictions of `page` (a LessonPage whose blocks are mounted) answerable, once. */
export function mountPredictions(page) {
  if (page.predictions) return;
  page.require("blocks", "mountPredictions");
  page.predictions = [...page.root.querySelectorAll("div.prediction[data-prediction]")]
    .map((element) => new Prediction(element, page));
  unfoldAnswered(page);
}

/** The folded lesson outputs of `page` (the build's details.runnable__lesson-fold), with the ids they wait for. */
function folds(page) {
  return [...page.root.querySelectorAll("details.runnable__lesson-fold[data-predictions]")]
    .map((fold) => ({ fold, ids: fold.dataset.predictions.split(" ") }));
}

/** Open each folded lesson output whose predictions are all answered or shown (the reader may open one sooner). */
function unfoldAnswered(page) {
  if (!page.predictions) return; // still mounting: mountPredictions calls it once all are there
  const settled = new Set(page.predictions.filter((prediction) => prediction.settled).map((prediction) => prediction.id));
  for (const { fold, ids } of folds(page)) if (ids.every((id) => settled.has(id))) fold.open = true;
}

/** The block a prediction is about: the first block of `page` after `element`, or null. */
function nextBlock(page, element) {
  return page.blocks.find((block) => element.compareDocumentPosition(block.element) & Node.DOCUMENT_POSITION_FOLLOWING)
    ?? null;
}

class Prediction {
  revealed = false;
  saved = null;

  constructor(element, page) {
    this.element = element;
    this.page = page;
    this.id = element.dataset.prediction;
    const data = element.querySelector(":scope > .prediction__data");
    this.check = JSON.parse(data.dataset.check);
    this.slipTexts = [...data.querySelectorAll(".prediction__feedback-texts > li[data-values]")];
    this.slipValues = this.slipTexts.map((item) => JSON.parse(item.dataset.values));
    this.choiceTexts = new Map([...data.querySelectorAll(".prediction__feedback-texts > li[data-choice]")]
      .map((item) => [item.dataset.choice, item]));
    this.otherwise = data.querySelector(".prediction__otherwise");
    const details = element.querySelector(":scope > details.prediction__answer");
    const question = element.querySelector(":scope > .prediction__question");

    const form = document.createElement("div");
    form.className = "prediction__form";
    if (this.check.kind === "choice") this.buildChoices(form);
    else this.buildNumberField(form, question);
    const bar = form.appendChild(document.createElement("div"));
    bar.className = "prediction__bar";
    button(bar, "Check answer", "prediction__check", () => this.checkAnswer());
    this.showButton = button(bar, "Show me", "prediction__show", () => this.reveal());
    this.feedback = form.appendChild(document.createElement("p"));
    this.feedback.className = "prediction__feedback";
    this.feedback.setAttribute("role", "status");
    this.answer = form.appendChild(document.createElement("div"));
    this.answer.className = "prediction__revealed";
    this.answer.hidden = true;
    this.answer.append(...[...details.childNodes].filter((node) => node.nodeName !== "SUMMARY"));
    this.confirmation = form.appendChild(document.createElement("p"));
    this.confirmation.className = "prediction__confirmation";
    this.confirmation.setAttribute("role", "status");
    this.confirmation.hidden = true;
    details.replaceWith(form);
    element.querySelector(":scope > .prediction__choices")?.remove();
    element.dataset.mounted = "true";

    this.restore();
    if (this.check.observe) this.watchBlock();
  }

  /** Answered (checked, right or not) or shown: what the page asked about may now be seen. */
  get settled() {
    return this.revealed || (this.saved?.answer ?? "") !== "";
  }

  buildNumberField(form, question) {
    const label = form.appendChild(document.createElement("label"));
    label.className = "prediction__field";
    label.append("Your answer ");
    this.input = label.appendChild(document.createElement("input"));
    this.input.type = "text";
    this.input.inputMode = "decimal";
    this.input.autocomplete = "off";
    this.input.spellcheck = false;
    this.input.setAttribute("aria-describedby", question.id);
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        this.checkAnswer();
      }
    });
  }

  buildChoices(form) {
    const fieldset = form.appendChild(document.createElement("fieldset"));
    fieldset.className = "prediction__choices-field";
    fieldset.appendChild(document.createElement("legend")).textContent = "Your answer";
    this.radios = [];
    for (const item of this.element.querySelectorAll(":scope > .prediction__choices > li")) {
      const label = fieldset.appendChild(document.createElement("label"));
      const radio = label.appendChild(document.createElement("input"));
      radio.type = "radio";
      radio.name = `prediction-${this.id}`;
      radio.value = item.dataset.choice;
      label.append(" ", ...item.childNodes);
      this.radios.push(radio);
    }
  }

  /** What the reader entered: the typed text, or the key of the chosen choice ("" if none). */
  entered() {
    if (this.input) return this.input.value;
    return this.radios.find((radio) => radio.checked)?.value ?? "";
  }

  /** { correct, says: [nodes] } for `answer`, or { message } when it cannot be judged. */
  judged(answer) {
    if (this.check.kind === "choice") {
      if (!answer) return { message: "Choose one of the answers first." };
      const { correct } = judgeChoice(answer, this.check);
      return { correct, says: correct ? [] : this.copyOf(this.choiceTexts.get(answer)) };
    }
    const read = readNumber(answer);
    if (!read.ok) return { message: read.message };
    const { correct, slip } = judgeNumber(read.value, this.check, this.slipValues);
    return { correct, says: correct ? [] : this.copyOf(slip >= 0 ? this.slipTexts[slip] : this.otherwise) };
  }

  copyOf(element) {
    return element ? [...element.cloneNode(true).childNodes] : [];
  }

  checkAnswer() {
    const answer = this.entered();
    const verdict = this.judged(answer);
    if (verdict.message) {
      this.show(verdict.message, "unreadable"); // nothing saved changes, and the field keeps its text
      return;
    }
    this.saved = { ...this.saved, ...this.firstTry(answer, verdict.correct), answer, correct: verdict.correct,
                   revealed: this.revealed };
    const stored = savePrediction(this.id, this.saved);
    this.showVerdict(verdict, stored);
    unfoldAnswered(this.page);
    if (verdict.correct) this.answer.hidden = false; // the reason, now that it is theirs
  }

  /** { first, firstRight } when `answer` is the reader's first checked answer (right only if it came before
   *  the answer was shown); {} once a first answer is kept, or for a record saved before first tries were
   *  kept (it had an answer but no `first`: that first try is not known). */
  firstTry(answer, correct) {
    if (this.saved && (typeof this.saved.first === "string" || this.saved.answer !== "")) return {};
    return { first: answer, firstRight: correct && !this.revealed };
  }

  showVerdict({ correct, says }, stored = true) {
    const unsaved = stored ? [] : [" (This browser cannot save your answer.)"];
    if (correct) this.show(["Right. ", ...unsaved], "right");
    else if (says.length) this.show(["Not quite: ", ...says, " Try again, or press Show me.", ...unsaved], "wrong");
    else this.show(["Not quite. Try again, or press Show me.", ...unsaved], "wrong");
  }

  show(content, verdict) {
    this.feedback.replaceChildren(...[content].flat());
    this.element.dataset.verdict = verdict;
  }

  reveal() {
    this.revealed = true;
    this.answer.hidden = false;
    this.showButton.disabled = true;
    this.saved = { ...this.saved, answer: this.saved?.answer ?? "", correct: this.saved?.correct ?? false, revealed: true };
    savePrediction(this.id, this.saved);
    unfoldAnswered(this.page);
  }

  /** The reader's saved answer, back in the field and judged again (the lesson may have changed since). */
  restore() {
    const saved = savedPrediction(this.id);
    this.saved = saved;
    if (!saved) return;
    if (this.input) this.input.value = saved.answer;
    else for (const radio of this.radios) radio.checked = radio.value === saved.answer;
    if (saved.answer !== "") {
      const verdict = this.judged(saved.answer);
      if (!verdict.message) {
        this.showVerdict(verdict);
        if (verdict.correct) this.answer.hidden = false;
      }
    }
    if (saved.revealed) {
      this.revealed = true;
      this.answer.hidden = false;
      this.showButton.disabled = true;
    }
  }

  /** The reader cleared their saved work: an empty, unanswered question again. */
  forget() {
    this.saved = null;
    this.revealed = false;
    if (this.input) this.input.value = "";
    else for (const radio of this.radios) radio.checked = false;
    this.feedback.replaceChildren();
    delete this.element.dataset.verdict;
    this.answer.hidden = true;
    this.showButton.disabled = false;
    this.confirmation.hidden = true;
    for (const { fold, ids } of folds(this.page)) if (ids.includes(this.id)) fold.open = false;
  }

  /** After each run of the next block that ends well, read `observe` in the page's namespace. */
  watchBlock() {
    const block = nextBlock(this.page, this.element);
    if (!block) return;
    new MutationObserver(() => {
      if (block.element.dataset.state !== "done" || !block.lastResult?.ok) return;
      this.page.runs.after(() => this.confirm(this.page.key));
    }).observe(block.element, { attributes: true, attributeFilter: ["data-runs"] });
  }

  async confirm(pageKey) {
    const name = this.check.observe;
    let found;
    try {
      found = await runtime.call("tutor.predictions", "observed", { path: name }, { page: pageKey,
                                                                                  label: "a prediction's check" });
    } catch (error) {
      this.showConfirmation([`The block ran, but `, code(name), ` could not be read: ${error.message}`]);
      return;
    }
    const computed = [`The block computed `, code(found.label), ` = ${found.value}`]; // "len(network.layers)" for a list
    const read = this.check.kind === "number" && this.saved?.answer ? readNumber(this.saved.answer) : null;
    if (!read?.ok) this.showConfirmation([...computed, "."]);
    else if (judgeNumber(found.value, { answer: read.value, tolerance: this.check.tolerance }).correct) {
      this.showConfirmation([...computed, ", as you predicted."]);
    } else this.showConfirmation([...computed, `; you predicted ${this.saved.answer}.`]);
  }

  showConfirmation(content) {
    this.confirmation.replaceChildren(...content);
    this.confirmation.hidden = false;
  }
}

function code(text) {
  const element = document.createElement("code");
  element.textContent = text;
  return element;
}
