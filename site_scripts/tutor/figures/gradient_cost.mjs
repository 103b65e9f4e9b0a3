// gradient_cost.mjs: view of the figure "The cost of a gradient" (model: gradient_cost.py).
// What it is: the "Parameters" slider, which steps through the model's parameter_steps (about evenly on the
// logarithmic axis: 1, 2, ..., 10, 12, 15, 17, 20, ..., 1,000) and, on logarithmic axes, the operations one
// forward and one backward pass take (purple) against what forward mode (blue, dashed: one pass per
// parameter) and central differences (orange) take, for networks from 1 to 1,000 parameters, with the
// chosen network marked and a legend with a sample of each line. What it is not: a count: the model walked
// the engine's graphs.
import { drawing, plot, svgElement } from "../../browser/figures/svg.mjs";

/** The slider's position for `parameters`: its step, or the nearest step above it. */
const positionOf = (steps, parameters) => {
  const index = steps.findIndex((step) => step >= parameters);
  return index < 0 ? steps.length - 1 : index;
};

const LEGEND = [["figure__cost--finite", "orange: central differences"], ["figure__cost--forward", "blue, dashed: forward mode"],
  ["figure__cost--reverse", "purple: one forward + one backward pass"]];

export function mountView(figure) {
  const steps = figure.state.parameter_steps;
  const setParameters = figure.slider("Parameters", { min: 0, max: steps.length - 1, step: 1 }, "set_parameters",
    (state, position) => ({ state, parameters: steps[position] }));
  let curves = null;
  return (state) => {
    if (state.curve_reverse) curves = { reverse: state.curve_reverse, forward: state.curve_forward, finite: state.curve_finite };
    setParameters(positionOf(steps, state.parameters), `${state.parameters_text} parameter${state.parameters === 1 ? "" : "s"}`);
    const svg = drawing(364, 340);
    const top = Math.max(...[curves.finite, curves.forward].map((curve) => curve[curve.length - 1][1]));
    const chart = plot(svg, { xRange: [1, 1000], yRange: [1, 10 ** Math.ceil(Math.log10(top))], box: [80, 10, 270, 240],
      xLabel: "parameters", yLabel: "operations", xScale: "log", yScale: "log" });
    chart.curve(curves.finite, "figure__cost--finite");
    chart.curve(curves.forward, "figure__cost--forward");
    chart.curve(curves.reverse, "figure__cost--reverse");
    chart.dot([state.parameters, state.finite], "figure__cost-dot--finite", 5);
    chart.dot([state.parameters, state.forward_mode], "figure__cost-dot--forward", 4);
    chart.dot([state.parameters, state.reverse], "figure__cost-dot--reverse", 5);
    LEGEND.forEach(([line, words], row) => { // under the plot: inside its frame the longest ran into the border
      const y = 304 + 15 * row;
      svg.append(svgElement("line", { x1: 80, x2: 100, y1: y - 4, y2: y - 4, class: `${line} figure__legend-sample` }));
      svg.append(svgElement("text", { x: 104, y, class: "figure__legend" }, words));
    });
    figure.draw(svg);
    figure.readouts([
      ["Parameters", state.parameters_text], ["Forward operations", state.forward_text], ["Backward edges", state.backward_text],
      ["Reverse mode", state.reverse_text], ["Forward mode", state.forward_mode_text], ["Central differences", state.finite_text],
      ["Central differences ÷ reverse mode", state.ratio_text],
    ]);
    figure.messages(state.messages);
  };
}
