// shown-graph.mjs: the figure that show(value) draws under a runnable block (blocks/block.mjs loads it
// when a run sends a graph: a "graph" event of the contract).
// What it is: a figure frame named after the value ("Graph of loss"), drawn by the view of
// figure 5 (backprop_graph.mjs: the same buttons, boxes, edges and spoken steps). Python
// (tutor.figures.expression_graph) computed every state of the backward pass in advance, so the
// buttons only move through that list: stepping needs no Python and works while Python is busy.
// What it is not: a source of numbers, and not a live link to the Values (re-run to see new ones).
import { FigureFrame } from "./figure.mjs";
import { loadView } from "./figures.mjs";

// The state each button of backprop_graph.mjs leads to, as an index into the precomputed states.
const NEXT_STATE = {
  seed_gradient: () => 1,
  backpropagate_one_operation: (current) => current + 1,
};

class ReplayedFigure extends FigureFrame {
  #states;
  #current = 0;

  constructor(element, states, mountView) {
    super(element, states[0], true);
    this.#states = states;
    this.mount(mountView);
  }

  request(fn) {
    this.#current = Math.min(NEXT_STATE[fn](this.#current), this.#states.length - 1);
    this.showState(this.#states[this.#current]);
  }
}

/** A new figure element for `graph`, what show() sent: { title, states }; rejects when the view of
 *  "Backpropagation on the graph" cannot be loaded. */
export async function shownGraph({ title, states }) {
  const { mountView } = await loadView("backprop_graph");
  const element = document.createElement("div");
  element.className = "figure runnable__graph";
  element.setAttribute("role", "group");
  element.setAttribute("aria-label", title);
  element.appendChild(Object.assign(document.createElement("p"), { className: "figure__title", textContent: title }));
  new ReplayedFigure(element, states, mountView);
  return element;
}
