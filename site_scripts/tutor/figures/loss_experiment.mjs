// loss_experiment.mjs: view of the figure "The loss experiment" (model: loss_experiment.py).
// What it is: the loss choice, the "Weight w" slider, "Reset" and "Take one step", and a plot of
// the loss against w with the current point and its tangent. What it is not: arithmetic.
import { drawing, plot } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  const initial = figure.state;
  const setLoss = figure.radios("Loss", Object.entries(initial.loss_names), "choose_loss",
    (state, lossKind) => ({ state, loss_kind: lossKind }));
  const setW = figure.slider("Weight w", initial.w_range, "move_weight", (state, w) => ({ state, w }));
  figure.button("Reset", "reset");
  figure.button("Take one step", "take_one_step");
  return (state) => {
    setLoss(state.loss_kind);
    setW(state.w, `w = ${state.w_text}`);
    const svg = drawing(560, 300, `${state.loss_names[state.loss_kind]} against the weight w, at w = ${state.w_text}`);
    const area = plot(svg, { xRange: [state.w_range.min, state.w_range.max], yRange: state.plot_y,
      box: [48, 10, 496, 240], xLabel: "w", yLabel: "loss" });
    area.curve(state.curve, "figure__curve");
    area.segment(state.tangent, "figure__tangent");
    area.dot(state.point, "figure__point");
    figure.draw(svg);
    figure.readouts([
      ["Weight w", state.w_text],
      ["Prediction", state.prediction_text],
      ["Loss", state.loss_text],
      ["Prediction gradient", state.prediction_gradient_text],
      ["Weight gradient", state.weight_gradient_text],
    ]);
    figure.messages(state.messages);
  };
}
