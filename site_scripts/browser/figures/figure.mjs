// figure.mjs: what every figure shares: its frame, its controls, and its conversation with Python.
// What it is: a FigureFrame adds to an element a picture area, readouts, messages and controls
// (real buttons, radios, range inputs and number fields, labelled exactly as the view says) and lets the view
// draw each state; its subclass decides where a control's request goes. A Figure wraps one
// `[data-widget]` element that the build filled with a title, a status line and the model's
// initial state (data-initial), and sends every input (a number field's once read as a number) to the
// Python model through runtime.call(), one request at a time, with the latest state. Controls stay disabled until
// Python is ready. The starting state was computed with the lesson's engine; whenever Python
// becomes ready with another engine than the one the figure shows (the reader's edited engine, or
// the lesson's again after a restore), the Figure asks the model for its starting state anew.
// A call Python has not answered within SLOW_ANSWER_MS (ui.mjs) is said in the figure, with what
// Python works on meanwhile (this figure, or what it waits behind), a Stop button and, while the
// reader's edited engine runs, "Restore the original engine" (an engine whose backward() never returns
// would otherwise leave the figure silent). What a call printed (a print in the reader's engine) is
// said in the figure too: how many lines, and the first ones, which Python kept from the console. A state
// computed with an edited engine whose gradients differ here from a numerical estimate carries a note, shown.
// (shown-graph.mjs answers requests from states Python computed in advance.)
// What it is not: a figure. Each <name>.mjs view creates its controls and draws the state it gets.
import { readNumber } from "../ui/numbers.mjs";
import { SLOW_ANSWER_MS, button } from "../ui/ui.mjs";

const STATUS_TEXT = {
  idle: "Showing the starting state. The figure becomes interactive when Python is ready.",
  starting: "Showing the starting state. The figure becomes interactive when Python is ready (starting…).",
  ready: "Interactive: every number here is computed by Python in your browser.",
};

let nextControlId = 0;

/** The parts of a figure a view fills, and its controls. A subclass defines request(fn, kwargs, key),
 *  where a control's input goes (and, if it queues requests, pending(key)), calls mount(mountView)
 *  once its own fields are set, and shows each answer with showState(state). */
export class FigureFrame {
  #controls = [];
  #unavailable = new Set(); // controls the state keeps disabled even while the figure is interactive
  #numberInputs = [];
  #interactive;
  #render; // the view's render(state)

  /** Add the parts inside `element`, to show `state` once mounted. Controls are usable when
   *  `interactive`, or once setInteractive(true). */
  constructor(element, state, interactive) {
    this.element = element;
    this.state = state;
    this.#interactive = interactive;
    this.picture = this.#part("div", "figure__picture");
    this.description = this.#part("p", "figure__description"); // what the picture shows, for screen readers
    this.description.id = `figure-description-${nextControlId++}`;
    this.readoutList = this.#part("dl", "figure__readouts");
    this.engineNote = this.#part("p", "figure__engine-note"); // the state's engine_note: see showState
    this.engineNote.hidden = true;
    this.messageList = this.#part("div", "figure__messages");
    this.messageList.setAttribute("aria-live", "polite");
    this.controls = this.#part("div", "figure__controls");
    element.setAttribute("aria-busy", "false");
  }

  /** `mountView(frame)` adds the view's controls and returns render(state); the state is drawn at once. */
  mount(mountView) {
    this.#render = mountView(this);
    this.#render(this.state);
  }

  #part(tag, className) {
    const part = document.createElement(tag);
    part.className = className;
    this.element.append(part);
    return part;
  }

  /** Make `state` the current state and let the view draw it. A number field that had the focus and is
   *  now closed (its entry was right) hands the focus on to the field the state opened. */
  showState(state) {
    this.state = state;
    // With the reader's edited engine, a figure whose own gradients differ from a numerical estimate says so with
    // each state (tutor.runtime.page_calls adds engine_note): shown above its messages for as long as that lasts.
    this.engineNote.textContent = state?.engine_note ?? "";
    this.engineNote.hidden = !state?.engine_note;
    const focused = this.#numberInputs.find((input) => input === document.activeElement || input.nextSibling === document.activeElement);
    this.#render(state);
    if (focused && (focused.disabled || focused.readOnly)) this.#numberInputs.find((input) => !input.disabled && !input.readOnly)?.focus();
  }

  /** True while a request with this `key` (a slider's or radio group's) waits to be answered: its
   *  control then keeps the reader's latest input instead of the state's. A frame that answers at
   *  once never waits. */
  pending(_key) {
    return false;
  }

  setInteractive(interactive) {
    this.#interactive = interactive;
    for (const control of this.#controls) control.disabled = !interactive || this.#unavailable.has(control);
  }

  #setAvailable(control, available) {
    if (available) this.#unavailable.delete(control); else this.#unavailable.add(control);
    control.disabled = !this.#interactive || !available;
  }

  // ---- Parts a view fills ---------------------------------------------------------------

  /** Replace the picture with `node` (an <svg>), said to screen readers by the state's `description` (the
   *  model's sentence of what the picture shows): it names a drawing without a name of its own, describes any other. */
  draw(node) {
    this.description.textContent = this.state?.description ?? "";
    for (const svg of node.matches("svg") ? [node] : node.querySelectorAll("svg")) {
      svg.setAttribute(svg.hasAttribute("aria-label") ? "aria-describedby" : "aria-labelledby", this.description.id);
    }
    const scrolled = [...this.picture.querySelectorAll(".figure__scroll")].map((frame) => frame.scrollLeft);
    this.picture.replaceChildren(node);
    // A graph wider than a phone's column scrolls sideways: it opens at its right end, where the output is (the
    // backward pass starts there), and keeps where the reader scrolled it while it is drawn anew, unless the box
    // the pass is at (or the reader fills) is out of view: then that box comes to the middle.
    this.picture.querySelectorAll(".figure__scroll").forEach((frame, index) => {
      frame.scrollLeft = scrolled[index] ?? frame.scrollWidth;
      const active = frame.querySelector(".figure__node--active")?.getBoundingClientRect();
      const shown = frame.getBoundingClientRect();
      if (active && (active.left < shown.left || active.right > shown.right)) {
        frame.scrollLeft += (active.left + active.right) / 2 - (shown.left + shown.right) / 2;
      }
    });
  }

  /** Show [label, text] pairs; each value is findable by [data-readout="label"]. */
  readouts(pairs) {
    this.readoutList.replaceChildren(...pairs.map(([label, text]) => {
      const pair = document.createElement("div");
      const value = Object.assign(document.createElement("dd"), { textContent: text });
      value.dataset.readout = label;
      pair.append(Object.assign(document.createElement("dt"), { textContent: label }), value);
      return pair;
    }));
  }

  /** Show the model's sentences (announced politely to screen readers); `warning` marks them as a problem. */
  messages(lines, warning = false) {
    const className = warning ? "figure__error" : "";
    this.messageList.replaceChildren(...lines.map((line) => Object.assign(document.createElement("p"), { className, textContent: line })));
  }

  showError(text) {
    const problem = Object.assign(document.createElement("p"), { className: "figure__error", textContent: text });
    problem.setAttribute("role", "alert");
    this.messageList.replaceChildren(problem);
  }

  // ---- Controls -------------------------------------------------------------------------

  #register(control) {
    control.disabled = !this.#interactive;
    this.#controls.push(control);
    return control;
  }

  /** A button labelled `label` that calls `fn` with kwargs(state) (default: {state}). Returns
   *  setAvailable(flag): an unavailable button stays focusable but is marked aria-disabled. */
  button(label, fn, kwargs = (state) => ({ state }), parent = this.controls) {
    const element = this.#register(button(parent, label, "figure__button", () => {
      if (element.getAttribute("aria-disabled") !== "true") this.request(fn, kwargs);
    }));
    return (available) => element.setAttribute("aria-disabled", String(!available));
  }

  /** A range input labelled `label` over range {min, max, step}; moving it calls `fn` with
   *  kwargs(state, value). Returns set(value, valueText) for the view's render. */
  slider(label, range, fn, kwargs) {
    const id = `figure-control-${nextControlId++}`;
    const wrapper = Object.assign(document.createElement("div"), { className: "figure__slider" });
    const caption = Object.assign(document.createElement("label"), { htmlFor: id, textContent: label });
    const input = this.#register(Object.assign(document.createElement("input"), { type: "range", id, min: range.min, max: range.max, step: range.step }));
    const shown = Object.assign(document.createElement("output"), { htmlFor: id });
    shown.setAttribute("aria-hidden", "true"); // the input's aria-valuetext says the same
    const key = `slider-${id}`;
    input.addEventListener("input", () => this.request(fn, (state) => kwargs(state, Number(input.value)), key));
    wrapper.append(caption, input, shown);
    this.controls.append(wrapper);
    return (value, valueText) => {
      if (!this.pending(key) && Number(input.value) !== value) input.value = value;
      input.setAttribute("aria-valuetext", valueText);
      shown.textContent = valueText;
    };
  }

  /** Radio buttons under the legend `legend`, one per [value, label]; choosing one calls `fn`
   *  with kwargs(state, value). Returns set(value) for the view's render. */
  radios(legend, options, fn, kwargs) {
    const group = `figure-choice-${nextControlId++}`;
    const fieldset = Object.assign(document.createElement("fieldset"), { className: "figure__choice" });
    fieldset.append(Object.assign(document.createElement("legend"), { textContent: legend }));
    const inputs = options.map(([value, label]) => {
      const input = this.#register(Object.assign(document.createElement("input"), { type: "radio", name: group, value }));
      input.addEventListener("change", () => { if (input.checked) this.request(fn, (state) => kwargs(state, value), group); });
      const caption = document.createElement("label");
      caption.append(input, ` ${label}`);
      fieldset.append(caption);
      return input;
    });
    this.controls.append(fieldset);
    return (value) => {
      if (!this.pending(group)) for (const input of inputs) input.checked = input.value === value;
    };
  }

  /** A text field for a number the reader works out, labelled `label` (such as "Gradient of a"), with a
   *  "Check" button after it. Enter in the field or the button reads the text with readNumber (numbers.mjs): text
   *  that is not a number gets its sentence in the messages (`what` names the field in the one for an empty field,
   *  "the gradient of a") and goes no further; a number calls `fn` with kwargs(state, text, number), the text
   *  exactly as typed. Returns set({ text, open, done, invalid, note }) for the view's render: `text` replaces the
   *  field's content only while the reader has typed nothing since it was last checked or set, so typing is never
   *  lost; an open field can be edited and checked, a done one is read-only (its number was right), any other is
   *  disabled; `invalid` marks its last entry as wrong; `note` is a short text shown after the button. */
  numberField(label, what, fn, kwargs, parent = this.controls) {
    const id = `figure-control-${nextControlId++}`;
    const row = Object.assign(document.createElement("div"), { className: "figure__number" });
    const caption = Object.assign(document.createElement("label"), { htmlFor: id, textContent: label });
    const input = this.#register(Object.assign(document.createElement("input"), {
      type: "text", id, autocomplete: "off", spellcheck: false, enterKeyHint: "done", size: 8 }));
    input.setAttribute("autocapitalize", "off");
    const check = this.#register(button(row, "Check", "figure__button", () => submit()));
    check.setAttribute("aria-label", `Check: ${label}`);
    const mark = Object.assign(document.createElement("span"), { className: "figure__number-mark" });
    const note = Object.assign(document.createElement("span"), { className: "figure__number-note" });
    let last = ""; // the text last checked or set from a state
    const submit = () => {
      if (input.disabled || input.readOnly) return;
      const text = (last = input.value);
      const read = readNumber(text, what);
      if (!read.ok) {
        input.setAttribute("aria-invalid", "true");
        this.messages([read.message], true);
        return;
      }
      this.request(fn, (state) => kwargs(state, text, read.value), `number-${id}`);
    };
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) { event.preventDefault(); submit(); }
    });
    row.append(caption, input, check, mark, note);
    parent.append(row);
    this.#numberInputs.push(input);
    return ({ text, open, done = false, invalid = false, note: noteText = "" }) => {
      if (text !== undefined && input.value === last && !this.pending(`number-${id}`)) {
        input.value = text;
        last = text;
      }
      this.#setAvailable(input, open || done);
      this.#setAvailable(check, open);
      input.readOnly = done;
      row.classList.toggle("figure__number--done", done);
      input.setAttribute("aria-invalid", String(Boolean(invalid) && open));
      mark.textContent = done ? "✓ right" : "";
      note.textContent = noteText;
    };
  }
}

/** A figure of the lesson: a `[data-widget]` element the build filled in, driven by its Python model. */
export class Figure extends FigureFrame {
  #queue = []; // pending requests: { fn, kwargs: (state) => object, key }
  #draining = false;
  #pythonReady = false;
  #engineShown = null; // the edited engine's source the state was computed with; null: the lesson's
  #runtime;
  #restoreEngine;
  #asked = null; // performance.now() when the call in flight was sent, and when Python began it
  #begun = null;
  #watch = null; // the timer that says so when Python takes long to answer
  #waiting = null; // the notice of a slow answer: { element, text, restore }
  #printed = null; // the note of what the last call printed

  /** Build the figure inside `element`, asking `runtime` (runtime.mjs) for Python; `mountView(figure)` adds
   *  its controls and returns render(state). `restoreEngine()` goes back to the lesson's engine (the
   *  banner's, engine-banner.mjs). */
  constructor(element, mountView, runtime, { restoreEngine = () => runtime.useEngine(null) } = {}) {
    if (!element.dataset.initial) {
      throw new Error("its starting state is missing from the page (the build's figures.py hook fills it in)");
    }
    super(element, JSON.parse(element.dataset.initial), false);
    this.name = element.dataset.widget;
    this.#runtime = runtime;
    this.#restoreEngine = restoreEngine;
    const title = document.getElementById(element.getAttribute("aria-labelledby") ?? "")?.textContent.trim();
    this.about = title ? `the figure “${title}”` : "a figure";
    this.status = element.querySelector(".figure__status");
    this.mount(mountView);
    const unsubscribe = runtime.onStatus((status) => {
      if (!element.isConnected) { queueMicrotask(() => unsubscribe()); return; } // the page was left
      this.#statusChanged(status);
    });
    runtime.startWhenNear(element);
  }

  #statusChanged({ state, message }) {
    if (state === "error") {
      this.status.textContent = `${message.replace(/\.$/, "")}. This figure shows its starting state only.`;
      this.element.dataset.python = "error";
      return;
    }
    if (state === "ready" || state === "running") this.#pythonReady = true;
    // The build computed the starting state with the lesson's engine: with the reader's, it is asked for
    // again as soon as the figure can be used, so it is the first request and no reader's input follows it.
    if (this.#pythonReady && this.#engineShown !== this.#runtime.engineSource) {
      this.#engineShown = this.#runtime.engineSource;
      this.request("initial", () => ({}));
    }
    this.element.dataset.python = this.#pythonReady ? "ready" : "starting";
    this.status.textContent = STATUS_TEXT[this.#pythonReady ? "ready" : state] ?? STATUS_TEXT.starting;
    this.setInteractive(this.#pythonReady);
  }

  /** Queue a call of the model's `fn` with kwargs(state) evaluated when it is sent. A new
   *  request with the same `key` replaces a queued one (a slider sends only its latest value). */
  request(fn, kwargs, key = null) {
    if (key !== null) this.#queue = this.#queue.filter((item) => item.key !== key);
    this.#queue.push({ fn, kwargs, key });
    this.element.setAttribute("aria-busy", "true");
    if (!this.#draining) this.#drain();
  }

  pending(key) {
    return this.#queue.some((item) => item.key === key);
  }

  async #drain() {
    this.#draining = true;
    this.#watch ??= setInterval(() => this.#sayIfSlow(), 1000);
    while (this.#queue.length) {
      const { fn, kwargs } = this.#queue.shift();
      let printed = null;
      this.#asked = performance.now();
      this.#begun = null;
      try {
        this.showState(await this.#runtime.call(`tutor.figures.${this.name}`, fn, kwargs(this.state), {
          label: this.about,
          onStart: () => { this.#begun = performance.now(); },
          onPrinted: (what) => { printed = what; },
        }));
      } catch (error) {
        this.showError(error.message); // Python's message (a PythonCallError), or why the call could not run
      }
      this.#showPrinted(printed);
      this.#sayIfSlow();
    }
    clearInterval(this.#watch);
    this.#watch = null;
    this.#asked = null;
    this.#sayIfSlow();
    this.#draining = false;
    this.element.setAttribute("aria-busy", "false");
  }

  /** While a call waits longer than SLOW_ANSWER_MS, say so: what Python works on, Stop, and the way back
   *  to the lesson's engine while the reader's runs. */
  #sayIfSlow() {
    const now = performance.now();
    const waited = this.#asked === null ? 0 : now - this.#asked;
    if (waited < SLOW_ANSWER_MS || !this.element.isConnected) {
      this.#waiting?.element.remove();
      this.#waiting = null;
      if (!this.element.isConnected) clearInterval(this.#watch);
      return;
    }
    this.#waiting ??= this.#waitingNotice();
    const answering = this.#runtime.answering;
    // In steps of five seconds: the notice is a live region, and a count changing every second would be
    // read out every second.
    const seconds = (since) => `${Math.max(SLOW_ANSWER_MS / 1000, 5 * Math.floor((now - since) / 5000))} seconds`;
    let text = this.#begun !== null
      ? `Python has been computing this figure for ${seconds(this.#begun)} and has not answered yet.`
      : answering ? `This figure has waited ${seconds(this.#asked)} for Python, which is busy with ${answering.label}.`
        : `This figure has waited ${seconds(this.#asked)} for Python.`;
    const edited = this.#runtime.engineSource !== null;
    if (edited) {
      text += " Your edited engine runs now: if some of its code never ends (a loop in backward(), say), "
        + "restore the original engine.";
    }
    text += " Stop ends what Python is doing.";
    this.#waiting.text.textContent = text;
    this.#waiting.restore.hidden = !edited;
  }

  #waitingNotice() {
    const element = Object.assign(document.createElement("div"), { className: "figure__waiting" });
    element.setAttribute("role", "status");
    const text = element.appendChild(document.createElement("p"));
    button(element, "Stop", "figure__button", () => this.#runtime.stop());
    const restore = button(element, "Restore the original engine", "figure__button", () => this.#restoreEngine());
    this.messageList.before(element);
    return { element, text, restore };
  }

  /** Say what the last call printed ({ lines, first }), or nothing when it printed nothing. The text is
   *  Python's, shown as text. */
  #showPrinted(printed) {
    if (printed === null) {
      this.#printed?.remove();
      this.#printed = null;
      return;
    }
    if (!this.#printed) {
      this.#printed = Object.assign(document.createElement("div"), { className: "figure__printed" });
      this.messageList.after(this.#printed);
    }
    const count = printed.lines === 1 ? "a line" : `${printed.lines.toLocaleString("en")} lines`;
    const note = Object.assign(document.createElement("p"), {
      textContent: `While computing this figure, Python printed ${count} (a print in the engine, perhaps). `
        + (printed.lines === 1 ? "The page keeps it out of the browser's console:"
          : "The page keeps them out of the browser's console; the first of them:") });
    const lines = Object.assign(document.createElement("pre"), { textContent: printed.first });
    this.#printed.replaceChildren(note, lines);
  }
}
