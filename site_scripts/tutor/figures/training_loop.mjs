// training_loop.mjs: view of the figure "The loop, once around" (model: training_loop.py).
// What it is: the four steps of one training pass as four boxes in a cycle (forward → loss → backward → update,
// and back to forward), each with the model's lines of text, plus "Next pass" and "Start again" buttons.
// What it is not: a source of numbers: every line comes from the model, computed by the engine.
import { drawing, svgElement } from "../../browser/figures/svg.mjs";

const WIDTH = 460;
const HEIGHT = 260;
const BOX = { width: 206, height: 92 };
// Top left, top right, bottom right, bottom left: the loop reads clockwise.
const CORNERS = [[10, 10], [244, 10], [244, 158], [10, 158]];
const ARROWS = [[[216, 56], [244, 56]], [[347, 102], [347, 158]], [[244, 204], [216, 204]], [[113, 158], [113, 102]]];

export function mountView(figure) {
  figure.button("Next pass", "next_pass");
  figure.button("Start again", "reset");
  return (state) => {
    const svg = drawing(WIDTH, HEIGHT, state.description);
    const defs = svgElement("defs");
    const marker = svgElement("marker", { id: "training-loop-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" });
    marker.append(svgElement("path", { d: "M0,0L10,5L0,10z", class: "figure__arrow-head" }));
    defs.append(marker);
    svg.append(defs);
    state.boxes.forEach((box, index) => {
      const [x, y] = CORNERS[index];
      const group = svgElement("g", { class: "figure__node" });
      group.append(svgElement("rect", { x, y, width: BOX.width, height: BOX.height, rx: 6 }));
      group.append(svgElement("text", { x: x + 10, y: y + 20, class: "figure__node-name" }, box.heading));
      box.lines.forEach((line, row) => group.append(svgElement("text", { x: x + 10, y: y + 42 + 17 * row }, line)));
      svg.append(group);
    });
    for (const [[x1, y1], [x2, y2]] of ARROWS) {
      const edge = svgElement("g", { class: "figure__edge" });
      edge.append(svgElement("path", { d: `M${x1},${y1}L${x2},${y2}`, "marker-end": "url(#training-loop-arrow)" }));
      svg.append(edge);
    }
    figure.draw(svg);
    figure.readouts([["Pass", state.pass_text], ["Loss", state.loss_text]]);
    figure.describe(state.description);
    figure.messages(state.messages);
  };
}
