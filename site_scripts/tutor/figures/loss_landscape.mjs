// loss_landscape.mjs: view of the figure "Loss landscape" (model: loss_landscape.py).
// What it is: the line fit's controls (line_fit.mjs) plus "Start w" and "Start b"; the level lines
// of the loss over (w, b), traced by d3-contour from the grid Python computed (once, in the starting
// state), the path gradient descent has taken, the current point and the arrow of the next step;
// beside it the line and the loss history of line_fit.mjs. Clicking or dragging on the landscape
// chooses the start point (the two sliders do the same from the keyboard).
// What it is not: arithmetic on losses: d3-contour only interpolates where a level line crosses
// between two grid values.
import { contours } from "../../../vendor/d3/contours.mjs";
import { fitDrawings, fitReadouts, trainingControls } from "./line_fit.mjs";
import { drawing, panels, plot, svgElement } from "../../browser/figures/svg.mjs";

const BOX = [50, 10, 256, 240];

/** The level lines of `grid` (rows of equal b) as SVG path data in the plot's pixels. */
function levelLines(grid, levels, area, wRange, bRange) {
  const columns = grid[0].length;
  const rows = grid.length;
  // d3-contour puts value [row][column] at (column + 0.5, row + 0.5) of its own coordinates.
  const w = (c) => wRange.min + ((c - 0.5) / (columns - 1)) * (wRange.max - wRange.min);
  const b = (r) => bRange.min + ((r - 0.5) / (rows - 1)) * (bRange.max - bRange.min);
  return contours().size([columns, rows]).thresholds(levels)(grid.flat()).map((level) => ({
    value: level.value,
    d: level.coordinates.flat().map((ring) => ring.map(([c, r], index) =>
      `${index ? "L" : "M"}${area.x(w(c)).toFixed(1)},${area.y(b(r)).toFixed(1)}`).join("") + "Z").join(""),
  }));
}

export function mountView(figure) {
  const setRate = trainingControls(figure, (state) => ({ state }));
  const first = figure.state;
  const setStartW = figure.slider("Start w", first.w_range, "set_start", (state, w) => ({ state, w }));
  const setStartB = figure.slider("Start b", first.b_range, "set_start", (state, b) => ({ state, b }));
  let grid = null;
  let lines = [];
  let area = null; // the landscape's plot, for turning a click into (w, b)

  const chooseStart = (event) => {
    const svg = figure.picture.querySelector(".figure__landscape");
    if (!svg || !area || figure.controls.querySelector("button").disabled) return;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
    const [w, b] = area.toData([point.x, point.y]);
    const { w_range: wRange, b_range: bRange } = figure.state;
    const snapped = (value, range) => Math.round(Math.min(range.max, Math.max(range.min, value)) / range.step) * range.step;
    figure.request("set_start", (state) => ({ state, w: Number(snapped(w, wRange).toFixed(2)), b: Number(snapped(b, bRange).toFixed(2)) }), "start");
  };
  let dragging = false;
  figure.picture.addEventListener("pointerdown", (event) => {
    if (!event.target.closest?.(".figure__landscape")) return;
    dragging = true;
    figure.picture.setPointerCapture(event.pointerId);
    chooseStart(event);
  });
  figure.picture.addEventListener("pointermove", (event) => { if (dragging) chooseStart(event); });
  for (const end of ["pointerup", "pointercancel"]) figure.picture.addEventListener(end, () => { dragging = false; });

  return (state) => {
    setRate(state.learning_rate, `learning rate ${state.learning_rate_text}`);
    setStartW(state.start[0], `start w = ${state.start_w_text}`);
    setStartB(state.start[1], `start b = ${state.start_b_text}`);
    const svg = drawing(320, 290);
    svg.classList.add("figure__landscape", "figure__small-plot");
    area = plot(svg, { xRange: [state.w_range.min, state.w_range.max], yRange: [state.b_range.min, state.b_range.max],
      box: BOX, xLabel: "w", yLabel: "b" });
    if (state.grid && state.grid !== grid) {
      grid = state.grid;
      lines = levelLines(grid, state.levels, area, state.w_range, state.b_range);
    }
    const layer = svg.lastChild; // the plot's clipped layer
    for (const line of lines) layer.append(svgElement("path", { d: line.d, class: "figure__level", "data-level": line.value }));
    area.dot(state.minimum, "figure__minimum", 4);
    if (state.path.length > 1) area.curve(state.path, "figure__path");
    area.dot(state.start, "figure__path-start", 4);
    const arrowPixels = state.next_point && Math.hypot(area.x(state.next_point[0]) - area.x(state.w), area.y(state.next_point[1]) - area.y(state.b));
    if (arrowPixels > 8) area.arrow([[state.w, state.b], state.next_point], "figure__gradient-arrow");
    if (!state.diverged_at) area.dot([state.w, state.b], "figure__current", 4);
    figure.draw(panels(svg, ...fitDrawings(state)));
    figure.readouts([...fitReadouts(state), ["dL/dw", state.weight_grad_text], ["dL/db", state.bias_grad_text]]);
    figure.messages(state.messages, state.diverged_at !== null);
  };
}
