// line_fit.mjs: view of the figure "Fitting a line" (model: line_fit.py).
// What it is: "Step", "Run 100 steps", "Reset", the "Learning rate" slider, a plot of the four
// points with the current line, and the loss history on a logarithmic axis.
// What it is not: the training loop; when the model says "diverged" no line is drawn.
import { drawing, plot } from "./svg.mjs";

export function mountView(figure) {
  const initial = figure.state;
  figure.button("Step", "step", (state) => ({ state, count: 1 }));
  figure.button("Run 100 steps", "step", (state) => ({ state, count: 100 }));
  figure.button("Reset", "reset", (state) => ({ learning_rate: state.learning_rate }));
  const setRate = figure.slider("Learning rate", initial.learning_rate_range, "set_learning_rate",
    (state, rate) => ({ state, learning_rate: rate }));
  return (state) => {
    setRate(state.learning_rate, `learning rate ${state.learning_rate_text}`);
    const svg = drawing(640, 280, `The four points and the line y = w·x + b, and the loss over ${state.steps_text} steps`);
    const points = plot(svg, { xRange: state.plot_x, yRange: state.plot_y, box: [56, 10, 250, 220], xLabel: "x", yLabel: "y" });
    if (!state.diverged_at) points.segment(state.line, "widget__line");
    state.points.forEach((point) => points.dot(point, "widget__point", 4));
    const lastStep = Math.max(1, state.history.length - 1);
    const losses = plot(svg, { xRange: [0, lastStep], yRange: state.history_range, box: [380, 10, 250, 220],
      xLabel: "step", yLabel: "loss", yScale: "log" });
    losses.curve(state.history.map((loss, step) => [step, loss]), "widget__history");
    figure.draw(svg);
    figure.readouts([["w", state.w_text], ["b", state.b_text], ["Loss", state.loss_text], ["Steps", state.steps_text]]);
    figure.messages(state.messages, state.diverged_at !== null);
  };
}
