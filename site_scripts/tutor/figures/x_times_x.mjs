// x_times_x.mjs: view of the figure "x × x, traced" (model: x_times_x.py).
// What it is: three buttons and a drawing of the engine's graph for q = x · x, whose two edges
// both lead to x. What it is not: arithmetic; every number comes from the model's state.
import { graphDrawing } from "../../browser/figures/svg.mjs";

export function mountView(figure) {
  figure.button("Evaluate x × x", "evaluate");
  const canSeed = figure.button("Seed output gradient", "seed_output_gradient");
  const canFollow = figure.button("Follow next operand", "follow_next_operand");
  return (state) => {
    canSeed(state.can_seed);
    canFollow(state.can_follow);
    figure.draw(graphDrawing(state.graph, "Computation graph of q = x × x with values and gradients"));
    const [x, q] = state.graph.nodes;
    figure.readouts([
      ["q = x × x", q ? q.data_text : "not evaluated"],
      ["dq/dq", q?.grad_text ?? "not seeded"],
      ["x.grad", x.grad_text ?? "not reached"],
    ]);
    figure.messages(state.messages);
  };
}
