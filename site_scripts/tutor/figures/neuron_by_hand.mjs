// neuron_by_hand.mjs: view of the figure "A neuron by hand" (model: neuron_by_hand.py).
// What it is: a drawing of the neuron (the inputs and weights, the sum with its bias, tanh, the output)
// in which each number the reader has got right appears where it belongs and the open one shows "?";
// under it one number field per quantity, in the order they are filled, "Start again", and once all are
// right the engine's number beside each field. What it is not: a check or a computation: every number
// and sentence comes from the model's state (why a text is not a number: figure.mjs's numberField).
import { drawing, svgElement } from "../../browser/figures/svg.mjs";

const UNKNOWN = "?";
const LATER = "…";

function text(svg, x, y, content, className = "", anchor = "middle") {
  svg.append(svgElement("text", { x, y, "text-anchor": anchor, class: className }, content));
}

function neuronDrawing(state) {
  const shown = (key) => state.shown[key] ?? (state.open === key ? UNKNOWN : LATER);
  const input = Object.fromEntries(state.inputs);
  const gradClass = (key) => `figure__node-grad figure__neuron-grad${state.shown[key] ? " figure__neuron-grad--known" : ""}`;
  const svg = drawing(400, 190);
  const line = (points) => svg.append(svgElement("polyline", { points, class: "figure__neuron-edge" }));
  // each input's edge runs level (its weight and that weight's gradient above and below it), then into the sum
  for (const [y, x, w, key, into] of [[30, "x₁", "w₁", "w1", 74], [160, "x₂", "w₂", "w2", 116]]) {
    svg.append(svgElement("rect", { x: 4, y: y - 15, width: 62, height: 30, rx: 6, class: "figure__neuron-box" }));
    text(svg, 35, y + 4, `${x} = ${input[x]}`, "figure__node-value");
    line(`66,${y} 176,${y} 202,${into}`);
    text(svg, 121, y - 6, `${w} = ${input[w]}`, "figure__node-value");
    text(svg, 121, y + 15, `grad ${shown(key)}`, gradClass(key));
  }
  text(svg, 222, 14, `b = ${input.b}`, "figure__node-value");
  text(svg, 222, 28, `grad ${shown("b")}`, gradClass("b"));
  line("222,33 222,69");
  svg.append(svgElement("circle", { cx: 222, cy: 95, r: 26, class: "figure__neuron-box" }));
  text(svg, 222, 100, "Σ", "figure__node-name");
  text(svg, 272, 130, `n = ${shown("n")}`, "figure__node-value");
  line("248,95 278,95");
  svg.append(svgElement("rect", { x: 278, y: 78, width: 56, height: 34, rx: 6, class: "figure__neuron-box" }));
  text(svg, 306, 100, "tanh", "figure__node-name");
  text(svg, 306, 68, `1 − t² = ${shown("local")}`, gradClass("local"));
  line("334,95 350,95");
  text(svg, 353, 100, `t = ${shown("t")}`, "figure__node-value", "start");
  return svg;
}

export function mountView(figure) {
  const list = Object.assign(document.createElement("div"), { className: "figure__numbers" });
  figure.controls.append(list);
  const fields = Object.fromEntries(figure.state.form.map((row) => [row.key,
    figure.numberField(row.label, row.label[0].toLowerCase() + row.label.slice(1), "check_entry",
      (state, text, number) => ({ state, box: row.key, text, number }), list)]));
  figure.button("Start again", "start_again");
  return (state) => {
    for (const row of state.form) {
      fields[row.key]({ text: row.text, open: row.open, done: row.right, invalid: row.invalid,
        note: state.engine ? `engine: ${state.engine[row.key]}` : "" });
    }
    figure.draw(neuronDrawing(state));
    figure.readouts([["Fields right", state.right_text]]);
    figure.messages(state.messages, state.warning);
  };
}
