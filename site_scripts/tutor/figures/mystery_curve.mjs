// mystery_curve.mjs: view of the figure "A formula you can evaluate but not picture" (model: mystery_curve.py).
// What it is: the "Known evaluation point x" slider, the "Reveal full curve" button and a plot
// of the known point, its tangent, every point asked about before and (once revealed) the curve the model sampled.
// What it is not: the formula; the view never evaluates it.
import { drawing, plot } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  const initial = figure.state;
  const setX = figure.slider("Known evaluation point x", initial.x_range, "move_point", (state, x) => ({ state, x }));
  const canReveal = figure.button("Reveal full curve", "reveal_full_curve");
  return (state) => {
    setX(state.x, `x = ${state.x_text}`);
    canReveal(!state.revealed);
    const svg = drawing(560, 300, `Plot of ${state.formula} near x = ${state.x_text}${state.revealed ? ", with the full curve" : ""}`);
    const area = plot(svg, { xRange: [state.x_range.min, state.x_range.max], yRange: state.y_range,
      box: [48, 10, 496, 240], xLabel: "x", yLabel: "f(x)" });
    if (state.revealed) area.curve(state.curve, "figure__curve");
    for (const point of state.asked_points) area.dot(point, "figure__asked-point");
    area.segment(state.tangent, "figure__tangent");
    area.dot([state.x, state.value], "figure__point");
    figure.draw(svg);
    figure.readouts([["Formula", state.formula], ["f(x)", state.value_text], ["f'(x) from backward()", state.slope_text]]);
    figure.messages([state.revealed ? "The full curve, sampled by the model."
      : `The ${state.asked_points.length === 1 ? "point" : `${state.asked_points.length} points`} you asked about, `
        + "with the tangent at the last: the curve between them is not drawn."]);
  };
}
