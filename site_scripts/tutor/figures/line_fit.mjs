// line_fit.mjs: view of the figure "Fitting a line" (model: line_fit.py).
// What it is: "Step", "Run 100 steps", "Reset", the "Learning rate" slider, a plot of the four
// points with the current line, and the loss history on a logarithmic axis. loss_landscape.mjs
// draws the same two plots beside its landscape (fitDrawings).
// What it is not: the training loop; when the model says "diverged" no line is drawn.
import { drawing, panels, plot } from "../../browser/figures/svg.mjs";

/** The controls both line-fit figures share: the buttons, then the "Learning rate" slider. */
export function trainingControls(figure, resetKwargs) {
  figure.button("Step", "step", (state) => ({ state, count: 1 }));
  figure.button("Run 100 steps", "step", (state) => ({ state, count: 100 }));
  figure.button("Reset", "reset", resetKwargs);
  return figure.slider("Learning rate", figure.state.learning_rate_range, "set_learning_rate",
    (state, rate) => ({ state, learning_rate: rate }));
}

/** Two drawings of a line-fit state: the points with the line, and the loss over the steps (small plots: two to
 *  a row on a laptop, see figures.css). */
export function fitDrawings(state) {
  const fit = drawing(320, 270, `The four points and the line y = ${state.w_text}·x + ${state.b_text}`);
  const points = plot(fit, { xRange: state.plot_x, yRange: state.plot_y, box: [50, 10, 256, 220], xLabel: "x", yLabel: "y" });
  if (!state.diverged_at) points.segment(state.line, "figure__line");
  state.points.forEach((point) => points.dot(point, "figure__point", 4));
  const history = drawing(320, 270, `The loss over ${state.steps_text} steps, now ${state.loss_text}`);
  for (const svg of [fit, history]) svg.classList.add("figure__small-plot");
  const losses = plot(history, { xRange: [0, Math.max(1, state.steps)], yRange: state.history_range, box: [56, 10, 250, 220],
    xLabel: "step", yLabel: "loss", yScale: "log", empty: state.steps ? null : "no steps yet" });
  losses.curve(state.history.map((loss, step) => [step, loss]), "figure__history");
  if (!state.steps) losses.dot([0, state.history[0]], "figure__current", 3);
  return [fit, history];
}

/** The readouts of a line-fit state. */
export const fitReadouts = (state) => [["w", state.w_text], ["b", state.b_text], ["Loss", state.loss_text], ["Steps", state.steps_text]];

export function mountView(figure) {
  const setRate = trainingControls(figure, (state) => ({ learning_rate: state.learning_rate }));
  return (state) => {
    setRate(state.learning_rate, `learning rate ${state.learning_rate_text}`);
    figure.draw(panels(...fitDrawings(state)));
    figure.readouts(fitReadouts(state));
    figure.messages(state.messages, state.diverged_at !== null);
  };
}
