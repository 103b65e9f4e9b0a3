// xor_surface.mjs: view of the figure "XOR decision surface" (model: xor_surface.py).
// What it is: "Train 100 steps", "Reset", the "Seed" and "Hidden neurons" sliders; the network's
// output over the input square as coloured cells (blue towards +1, orange towards −1, paler near 0),
// the four training points coloured by their target, and the loss curve on a logarithmic axis.
// What it is not: the network: every output, loss and prediction comes from the model's state.
import { drawing, panels, plot } from "../../browser/figures/svg.mjs";

const side = (value) => (value >= 0 ? "positive" : "negative");

export function mountView(figure) {
  const first = figure.state;
  const canTrain = figure.button("Train 100 steps", "train_steps");
  figure.button("Reset", "reset");
  const setSeed = figure.slider("Seed", first.seed_range, "set_seed", (state, seed) => ({ state, seed }));
  const setHidden = figure.slider("Hidden neurons", first.hidden_range, "set_hidden", (state, hidden) => ({ state, hidden }));
  return (state) => {
    canTrain(state.can_train);
    setSeed(state.seed, `seed ${state.seed}`);
    setHidden(state.hidden, `${state.hidden} hidden neuron${state.hidden === 1 ? "" : "s"}`);
    const [low, high] = state.input_range;
    const surface = drawing(300, 290, state.description);
    const square = plot(surface, { xRange: [low, high], yRange: [low, high], box: [44, 10, 240, 240], xLabel: "x₁", yLabel: "x₂" });
    const cell = (high - low) / state.grid.length;
    state.grid.forEach((row, r) => row.forEach((output, c) => {
      const corner = [low + c * cell, low + r * cell];
      square.cell(corner, [corner[0] + cell, corner[1] + cell], `figure__surface figure__surface--${side(output)}`,
        { "fill-opacity": Math.min(1, Math.abs(output)).toFixed(3) });
    }));
    state.points.forEach(([x1, x2, target]) => square.dot([x1, x2], `figure__target figure__target--${side(target)}`, 7));
    const curve = drawing(320, 290, `The loss over ${state.steps_text} training steps, now ${state.loss_text}`);
    const losses = plot(curve, { xRange: [0, Math.max(1, state.steps)], yRange: state.history_range, box: [56, 10, 250, 240],
      xLabel: "step", yLabel: "loss", yScale: "log", empty: state.steps ? null : "not trained yet" });
    losses.curve(state.history.map((loss, step) => [step, loss]), "figure__history");
    if (!state.steps) losses.dot([0, state.history[0]], "figure__current", 3);
    figure.draw(panels(surface, curve));
    figure.readouts([
      ["Steps", state.steps_text], ["Loss", state.loss_text], ["Parameters", state.parameter_count_text],
      ...state.points.map(([x1, x2], index) => [`Output at (${x1}, ${x2})`, state.prediction_texts[index]]),
    ]);
    figure.describe(state.description);
    figure.messages(state.messages);
  };
}
