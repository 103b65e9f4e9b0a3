// gradient_cost.mjs: view of the figure "The cost of a gradient" (model: gradient_cost.py).
// What it is: the "Parameters" slider and, on logarithmic axes, the operations one forward and one
// backward pass take (purple) against what forward mode (blue, dashed: one pass per parameter) and
// central differences (orange) take, for networks from 1 to 1,000 parameters, with the chosen network
// marked. What it is not: a count: the model walked the engine's graphs.
import { drawing, plot, svgElement } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  const setParameters = figure.slider("Parameters", figure.state.parameters_range, "set_parameters",
    (state, parameters) => ({ state, parameters }));
  let curves = null;
  return (state) => {
    if (state.curve_reverse) curves = { reverse: state.curve_reverse, forward: state.curve_forward, finite: state.curve_finite };
    setParameters(state.parameters, `${state.parameters_text} parameter${state.parameters === 1 ? "" : "s"}`);
    const svg = drawing(364, 290, state.description);
    const top = Math.max(...[curves.finite, curves.forward].map((curve) => curve[curve.length - 1][1]));
    const chart = plot(svg, { xRange: [1, 1000], yRange: [1, 10 ** Math.ceil(Math.log10(top))], box: [80, 10, 270, 240],
      xLabel: "parameters", yLabel: "operations", xScale: "log", yScale: "log" });
    chart.curve(curves.finite, "figure__cost--finite");
    chart.curve(curves.forward, "figure__cost--forward");
    chart.curve(curves.reverse, "figure__cost--reverse");
    chart.dot([state.parameters, state.finite], "figure__cost-dot--finite", 5);
    chart.dot([state.parameters, state.forward_mode], "figure__cost-dot--forward", 4);
    chart.dot([state.parameters, state.reverse], "figure__cost-dot--reverse", 5);
    svg.append(svgElement("text", { x: 90, y: 26, class: "figure__legend" }, "orange: central differences"));
    svg.append(svgElement("text", { x: 90, y: 40, class: "figure__legend" }, "blue, dashed: forward mode"));
    svg.append(svgElement("text", { x: 90, y: 54, class: "figure__legend" }, "purple: one forward + one backward pass"));
    figure.draw(svg);
    figure.readouts([
      ["Parameters", state.parameters_text], ["Forward operations", state.forward_text], ["Backward edges", state.backward_text],
      ["Reverse mode", state.reverse_text], ["Forward mode", state.forward_mode_text], ["Central differences", state.finite_text],
      ["Ratio", state.ratio_text],
    ]);
    figure.describe(state.description);
    figure.messages(state.messages);
  };
}
