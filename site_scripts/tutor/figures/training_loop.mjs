// training_loop.mjs: view of the figure "The loop, once around" (model: training_loop.py).
// What it is: the four steps of one training pass as four boxes in a cycle (forward → loss → backward → update,
// and back to forward), each with the model's lines of text, plus "Next pass" and "Start again" buttons. Two
// boxes a row where the figure is wide enough to draw them at full size, else one column (a phone), so the
// text never shrinks below its size.
// What it is not: a source of numbers: every line comes from the model, computed by the engine.
import { drawing, svgElement } from "../../browser/figures/svg.mjs";

const BOX = { width: 206, height: 92 };
const LAYOUTS = {
  // Two by two, read clockwise: top left, top right, bottom right, bottom left.
  square: { width: 460, height: 260, corners: [[10, 10], [244, 10], [244, 158], [10, 158]],
    arrows: [[[216, 56], [244, 56]], [[347, 102], [347, 158]], [[244, 204], [216, 204]], [[113, 158], [113, 102]]] },
  // One column, read downwards, with the way back to the top drawn on the left.
  column: { width: 250, height: 476, corners: [[34, 10], [34, 138], [34, 266], [34, 394]],
    arrows: [[[137, 102], [137, 138]], [[137, 230], [137, 266]], [[137, 358], [137, 394]],
      [[34, 440], [14, 440], [14, 56], [34, 56]]] },
};

export function mountView(figure) {
  figure.button("Next pass", "next_pass");
  figure.button("Start again", "reset");
  return (state) => {
    const layout = figure.picture.clientWidth >= LAYOUTS.square.width ? LAYOUTS.square : LAYOUTS.column;
    const svg = drawing(layout.width, layout.height);
    const defs = svgElement("defs");
    const marker = svgElement("marker", { id: "training-loop-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5,
      markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" });
    marker.append(svgElement("path", { d: "M0,0L10,5L0,10z", class: "figure__arrow-head" }));
    defs.append(marker);
    svg.append(defs);
    state.boxes.forEach((box, index) => {
      const [x, y] = layout.corners[index];
      const group = svgElement("g", { class: "figure__node" });
      group.append(svgElement("rect", { x, y, width: BOX.width, height: BOX.height, rx: 6 }));
      group.append(svgElement("text", { x: x + 10, y: y + 20, class: "figure__node-name" }, box.heading));
      box.lines.forEach((line, row) => group.append(svgElement("text", { x: x + 10, y: y + 42 + 17 * row }, line)));
      svg.append(group);
    });
    for (const points of layout.arrows) {
      const edge = svgElement("g", { class: "figure__edge" });
      const path = points.map(([x, y], index) => `${index ? "L" : "M"}${x},${y}`).join("");
      edge.append(svgElement("path", { d: path, "marker-end": "url(#training-loop-arrow)" }));
      svg.append(edge);
    }
    figure.draw(svg);
    figure.readouts([["Pass", state.pass_text], ["Loss", state.loss_text]]);
    figure.messages(state.messages);
  };
}
