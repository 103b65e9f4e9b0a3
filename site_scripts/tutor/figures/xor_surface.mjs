// xor_surface.mjs: view of the figure "XOR decision surface" (model: xor_surface.py).
// What it is: "Train 100 steps", "Reset", the "Seed" and "Hidden neurons" sliders; the network's
// output over the input square as coloured cells (blue towards +1, orange towards −1, paler near 0),
// the four training points coloured by their target, the loss curve on a logarithmic axis, and a
// table of the hidden neurons' outputs at the four inputs, coloured the same way (rows of inputs the
// model found the hidden layer cannot tell apart are outlined), under a one-line key of the colours.
// What it is not: the network: every output, loss and prediction comes from the model's state.
import { drawing, panels, plot, svgElement } from "../../browser/figures/svg.mjs";

const side = (value) => (value >= 0 ? "positive" : "negative");

const CELL = { width: 40, height: 30, left: 74, top: 36 };

/** The hidden neurons' outputs at the four inputs: a row per input (with its target), a column per neuron. */
function hiddenTable(state) {
  const neurons = state.hidden_outputs[0].length;
  const width = CELL.left + neurons * CELL.width + 8;
  const svg = drawing(width, CELL.top + 4 * CELL.height + 12,
    `Hidden neurons' outputs at the four inputs: ${state.points.map(([x1, x2], row) =>
      `(${x1}, ${x2}): ${state.hidden_texts[row].join(", ")}`).join("; ")}`);
  svg.classList.add("figure__hidden");
  svg.append(svgElement("text", { x: width / 2, y: 12, "text-anchor": "middle", class: "figure__axis-label" }, "hidden outputs"));
  for (let k = 0; k < neurons; k += 1) {
    svg.append(svgElement("text", { x: CELL.left + (k + 0.5) * CELL.width, y: CELL.top - 6, "text-anchor": "middle" }, `h${k + 1}`));
  }
  state.points.forEach(([x1, x2, target], row) => {
    const y = CELL.top + row * CELL.height;
    svg.append(svgElement("text", { x: CELL.left - 6, y: y + 19, "text-anchor": "end" }, `(${x1}, ${x2}) ${target > 0 ? "+" : "−"}1`));
    state.hidden_outputs[row].forEach((output, k) => {
      const group = svgElement("g", { "data-hidden": `${row}-${k}` });
      group.append(svgElement("rect", { x: CELL.left + k * CELL.width, y, width: CELL.width, height: CELL.height,
        class: `figure__hidden-cell figure__surface--${side(output)}`, "fill-opacity": Math.min(1, Math.abs(output)).toFixed(3) }));
      group.append(svgElement("text", { x: CELL.left + (k + 0.5) * CELL.width, y: y + 19, "text-anchor": "middle",
        class: "figure__hidden-value" }, state.hidden_texts[row][k]));
      svg.append(group);
    });
    if (state.hidden_same_rows.includes(row)) {
      svg.append(svgElement("rect", { x: CELL.left, y, width: neurons * CELL.width, height: CELL.height, class: "figure__hidden-same" }));
    }
  });
  return svg;
}

/** "Colours: ■ blue towards +1, ■ orange towards −1, paler near 0": the targets' values, from the state. */
function colourKey(state) {
  const targets = state.points.map((point) => point[2]);
  const signed = (value) => (value > 0 ? `+${value}` : `\u2212${-value}`);
  const key = Object.assign(document.createElement("p"), { className: "figure__key" });
  const swatch = (name) => Object.assign(document.createElement("span"), { className: `figure__swatch figure__surface--${name}` });
  key.append("Colours: ", swatch("positive"), ` blue towards ${signed(Math.max(...targets))}, `, swatch("negative"),
    ` orange towards ${signed(Math.min(...targets))}, paler near 0 (the output, the targets and the hidden outputs).`);
  return key;
}

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
    const surface = drawing(300, 290);
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
    const picture = document.createElement("div");
    picture.append(colourKey(state), panels(surface, curve, hiddenTable(state)));
    figure.draw(picture);
    figure.readouts([
      ["Steps", state.steps_text], ["Loss", state.loss_text], ["Parameters", state.parameter_count_text],
      ...state.points.map(([x1, x2], index) => [`Output at (${x1}, ${x2})`, state.prediction_texts[index]]),
    ]);
    figure.messages(state.messages);
  };
}
