// backprop_graph.mjs: view of the figure "Backpropagation on the graph" (model: backprop_graph.py),
// and of "Paths add up" (paths_add_up.mjs reuses it) and of the graphs show() draws under a block
// (shown-graph.mjs): the same two buttons over another graph.
// What it is: the buttons and the graph drawing, from the model's state.
// What it is not: arithmetic or layout rules (svg.mjs lays the boxes out from the edges).
import { graphDrawing, nodeHeading } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  figure.button("Seed gradient", "seed_gradient");
  const canStep = figure.button("Backpropagate one operation", "backpropagate_one_operation");
  return (state) => {
    canStep(state.can_step);
    const root = state.graph.nodes.find((node) => node.is_root);
    figure.draw(graphDrawing(state.graph, `Computation graph of ${nodeHeading(root)} with values and gradients`));
    figure.readouts(state.graph.nodes.filter((node) => node.is_leaf)
      .map((node) => [`grad of ${node.symbol}`, node.grad_text ?? "not reached"]));
    figure.messages(state.messages);
  };
}
