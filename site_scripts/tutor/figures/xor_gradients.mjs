// xor_gradients.mjs: view of the figure "Gradients of all 17 parameters" (model: xor_gradients.py).
// What it is: "Train 100 steps" and "Reset", and one pair of bars per parameter, grouped by
// neuron: the filled bar is the gradient from one backward(), the outlined bar beside it the same
// number from central differences. What it is not: a gradient computation; both numbers come from
// the model's state.
import { drawing, plot, svgElement } from "../../browser/figures/svg.mjs";

const LEFT = 56;
const SLOT = 15; // pixels per parameter
const GAP = 8; // extra pixels between neurons

export function mountView(figure) {
  figure.button("Train 100 steps", "train_steps");
  figure.button("Reset", "reset");
  return (state) => {
    const groups = [...new Set(state.bars.map((bar) => bar.group))];
    const width = LEFT + state.bars.length * SLOT + groups.length * GAP + 10;
    const svg = drawing(width, 306);
    const chart = plot(svg, { xRange: [0, width - LEFT - 10], yRange: state.bar_range, box: [LEFT, 10, width - LEFT - 10, 220],
      xLabel: "", yLabel: "dL/dparameter", empty: "" });
    let x = GAP / 2;
    for (const group of groups) {
      const members = state.bars.filter((bar) => bar.group === group);
      const start = x;
      for (const bar of members) {
        const label = `${group}, ${bar.name}: backward() ${bar.backward_text}, central differences ${bar.finite_text}`;
        chart.cell([x + 1, 0], [x + 7.5, bar.backward], "figure__bar figure__bar--backward", { "data-bar": "backward" })
          .append(svgElement("title", {}, label));
        chart.cell([x + 7.5, 0], [x + 14, bar.finite], "figure__bar figure__bar--finite", { "data-bar": "finite" });
        svg.append(svgElement("text", { x: chart.x(x + 7.5), y: 246, "text-anchor": "middle", class: "figure__group-label" }, bar.name));
        x += SLOT;
      }
      svg.append(svgElement("text", { x: chart.x((start + x) / 2), y: 262, "text-anchor": "middle", class: "figure__group-label" },
        group.replace("hidden neuron ", "h")));
      x += GAP;
    }
    svg.append(svgElement("text", { x: LEFT + (width - LEFT - 10) / 2, y: 284, "text-anchor": "middle", class: "figure__axis-label" },
      "parameters, grouped by neuron"));
    svg.append(svgElement("text", { x: LEFT + (width - LEFT - 10) / 2, y: 300, "text-anchor": "middle", class: "figure__legend" },
      "filled: backward(), outlined: central differences"));
    figure.draw(svg);
    figure.readouts([
      ["Steps", state.steps_text], ["Loss", state.loss_text], ["Gradients from one backward()", state.count_text],
      ["Extra loss evaluations", state.evaluations_text], ["Largest difference", state.largest_gap_text],
    ]);
    figure.messages(state.messages);
  };
}
