// secant_tangent.mjs: view of the figure "Secant and tangent" on f(x) = x² (model: secant_tangent.py).
// What it is: two sliders ("Small change h" picks one of the model's h settings by index) and a
// plot of the parabola, the orange secant and the purple tangent. What it is not: arithmetic.
import { drawing, plot } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  const initial = figure.state;
  const hRange = { min: 0, max: initial.h_texts.length - 1, step: 1 };
  const setH = figure.slider("Small change h", hRange, "change", (state, index) => ({ state, h_index: index }));
  const setX = figure.slider("Position x", initial.x_range, "change", (state, x) => ({ state, x }));
  return (state) => {
    setH(state.h_index, `h = ${state.h_text}`);
    setX(state.x, `x = ${state.x_text}`);
    const svg = drawing(560, 320, `Parabola f(x) = x² with the secant over [x, x + h] and the tangent at x = ${state.x_text}`);
    const area = plot(svg, { xRange: state.plot_x, yRange: state.plot_y, box: [48, 10, 496, 260], xLabel: "x", yLabel: "f(x) = x²" });
    area.curve(state.curve, "figure__curve");
    area.segment(state.tangent, "figure__tangent figure__tangent--under"); // wider, so the secant on top leaves it visible
    area.segment(state.secant, "figure__secant");
    state.points.forEach((point) => area.dot(point, "figure__point", 4));
    figure.draw(svg);
    figure.readouts([
      ["Secant slope (f(x + h) − f(x)) / h", state.secant_slope_text],
      ["Tangent slope 2x", state.tangent_slope_text],
      ["Secant minus tangent", state.difference_text],
    ]);
    figure.messages([`Orange: the secant. Purple: the tangent. At x = ${state.x_text} the function ${state.direction}.`]);
  };
}
