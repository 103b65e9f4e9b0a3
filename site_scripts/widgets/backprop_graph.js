// backprop_graph.js: view of the figure "Backpropagation on the graph" (model: backprop_graph.py),
// and of "Paths add up" (paths_add_up.js reuses it): the same two buttons over another graph.
// What it is: the buttons and the graph drawing, from the model's state.
// What it is not: arithmetic or layout rules (svg.mjs lays the boxes out from the edges).
import { graphDrawing } from "./svg.mjs";

export function mountView(figure) {
  figure.button("Seed gradient", "seed_gradient");
  const canStep = figure.button("Backpropagate one operation", "backpropagate_one_operation");
  return (state) => {
    canStep(state.can_step);
    const root = state.graph.nodes.find((node) => node.is_root);
    figure.draw(graphDrawing(state.graph, `Computation graph of ${root.symbol} = ${root.formula} with values and gradients`));
    figure.readouts(state.graph.nodes.filter((node) => !node.formula)
      .map((node) => [`grad of ${node.symbol}`, node.grad_text ?? "not reached"]));
    figure.messages(state.messages);
  };
}
