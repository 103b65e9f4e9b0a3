// svg.mjs: the drawing helpers shared by every figure: SVG elements, plots with axes and curves,
// and computation graphs (laid out by dagre: graph-layout.mjs) from the engine's edges.
// What it is: pure rendering of numbers the Python models computed; colours come from CSS
// classes (figures.css), so light and dark mode follow Material's palette.
// What it is not: a source of numbers. Apart from axis tick positions, nothing here computes
// what a figure shows, and nothing here talks to Python (see figure.mjs).

import { BOX, LABEL, graphLayout, labelLines, nodeHeading } from "../../../vendor/dagre/graph-layout.mjs";
import { tenToThe } from "../ui/numbers.mjs";

export { nodeHeading };

const SVG_NS = "http://www.w3.org/2000/svg";
const PIXEL_LIMIT = 1e5; // far outside any plot: keeps huge values drawable and clipped
let nextId = 0; // unique ids for clip paths and arrow heads, however many figures a page holds

/** A new SVG element with attributes; `text` sets its text content. */
export function svgElement(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== null) element.textContent = text;
  return element;
}

/** An empty, responsive <svg> of the given drawing size, named `label` for screen readers (without one, the
 *  figure names it by the state's description: figure.mjs's draw). */
export function drawing(width, height, label = null) {
  return svgElement("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "figure__drawing", role: "img",
    ...(label === null ? {} : { "aria-label": label }) });
}

const clamp = (pixel) => Math.max(-PIXEL_LIMIT, Math.min(PIXEL_LIMIT, pixel));

/** Linear scale from [low, high] onto [start, end] pixels. */
function linear([low, high], [start, end]) {
  return (value) => clamp(start + ((value - low) / (high - low)) * (end - start));
}

/** Logarithmic scale (base 10) from [low, high] (both > 0) onto [start, end]. */
function logarithmic([low, high], [start, end]) {
  const toLinear = linear([Math.log10(low), Math.log10(high)], [start, end]);
  return (value) => toLinear(Math.log10(Math.max(value, low)));
}

/** About `count` round tick values covering [low, high]. */
function niceTicks([low, high], count = 6) {
  const rough = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough);
  const ticks = [];
  for (let tick = Math.ceil(low / step) * step; tick <= high + step / 1e6; tick += step) {
    ticks.push(Math.abs(tick) < step / 1e6 ? 0 : Number(tick.toPrecision(12)));
  }
  return ticks;
}

const tickLabel = (tick) => String(tick).replace("-", "\u2212");
/** 10 to the `exponent` as a reader writes it: 0.01, 0.1, 1, 10, 100, 1000, then 10⁴, 10⁻⁵. */
export const powerLabel = (exponent) => (Math.abs(exponent) <= 3
  ? tickLabel(Number((10 ** exponent).toPrecision(1)))
  : tenToThe(exponent));

/**
 * A plot area inside `svg`: axes with ticks and labels, and a clip region, for data in
 * x ∈ xRange, y ∈ yRange (xScale or yScale "log" for a logarithmic axis). With `empty` (a
 * sentence), the x axis has no ticks yet and the sentence stands in the plot: there is no data
 * to scale it by. Returns helpers that draw data: curve(points, className), segment([p, q],
 * className), arrow([p, q], className), dot([x, y], className), cell([x0, y0], [x1, y1],
 * className, attributes), the scales x(value) and y(value) in pixels, and toData([px, py]),
 * the inverse of both linear scales.
 */
export function plot(svg, { xRange, yRange, box, xLabel, yLabel, xScale = "linear", yScale = "linear", empty = null }) {
  const [left, top, width, height] = box;
  const x = (xScale === "log" ? logarithmic : linear)(xRange, [left, left + width]);
  const y = (yScale === "log" ? logarithmic : linear)(yRange, [top + height, top]);
  const clipId = `figure-clip-${nextId++}`;
  const clip = svgElement("clipPath", { id: clipId });
  clip.append(svgElement("rect", { x: left, y: top, width, height }));
  svg.append(clip);

  const axes = svgElement("g", { class: "figure__axes" });
  axes.append(svgElement("rect", { x: left, y: top, width, height, class: "figure__frame" }));
  const xTicks = empty !== null ? [] : xScale === "log" ? powersOfTen(xRange) : niceTicks(xRange);
  for (const tick of xTicks) {
    axes.append(svgElement("line", { x1: x(tick), x2: x(tick), y1: top + height, y2: top + height + 4 }));
    const label = xScale === "log" ? powerLabel(Math.round(Math.log10(tick))) : tickLabel(tick);
    axes.append(svgElement("text", { x: x(tick), y: top + height + 16, "text-anchor": "middle" }, label));
  }
  if (empty) {
    axes.append(svgElement("text", { x: left + width / 2, y: top + height / 2, "text-anchor": "middle", class: "figure__empty" }, empty));
  }
  const yTicks = yScale === "log" ? powersOfTen(yRange) : niceTicks(yRange, 5);
  for (const tick of yTicks) {
    axes.append(svgElement("line", { x1: left - 4, x2: left, y1: y(tick), y2: y(tick) }));
    const label = yScale === "log" ? powerLabel(Math.round(Math.log10(tick))) : tickLabel(tick);
    axes.append(svgElement("text", { x: left - 7, y: y(tick) + 4, "text-anchor": "end" }, label));
  }
  if (yRange[0] < 0 && yRange[1] > 0 && yScale !== "log") {
    axes.append(svgElement("line", { x1: left, x2: left + width, y1: y(0), y2: y(0), class: "figure__zero" }));
  }
  axes.append(svgElement("text", { x: left + width / 2, y: top + height + 32, "text-anchor": "middle", class: "figure__axis-label" }, xLabel));
  // left of the widest tick label ("1000" is wider than the 34 px left for three characters), in the drawing
  const widest = Math.max(0, ...yTicks.map((tick) => (yScale === "log" ? powerLabel(Math.round(Math.log10(tick))) : tickLabel(tick)).length));
  const labelX = Math.max(12, Math.min(left - 34, left - 14 - widest * 6.6));
  axes.append(svgElement("text", { x: labelX, y: top + height / 2, "text-anchor": "middle", class: "figure__axis-label",
    transform: `rotate(-90 ${labelX} ${top + height / 2})` }, yLabel));
  svg.append(axes);

  const layer = svgElement("g", { "clip-path": `url(#${clipId})` });
  svg.append(layer);
  const add = (element) => { layer.append(element); return element; };
  let arrowId = null;
  const segment = ([[x1, y1], [x2, y2]], className, extra = {}) =>
    add(svgElement("line", { x1: x(x1), y1: y(y1), x2: x(x2), y2: y(y2), class: className, ...extra }));
  return {
    x,
    y,
    toData: ([px, py]) => [xRange[0] + ((px - left) / width) * (xRange[1] - xRange[0]),
      yRange[0] + ((top + height - py) / height) * (yRange[1] - yRange[0])],
    curve: (points, className) => add(svgElement("path", { d: pathData(points.map(([px, py]) => [x(px), y(py)])), class: className })),
    segment,
    arrow: (points, className) => {
      if (arrowId === null) {
        arrowId = `figure-arrow-${nextId++}`;
        svg.append(arrowHead(arrowId, className));
      }
      return segment(points, className, { "marker-end": `url(#${arrowId})` });
    },
    dot: ([px, py], className, radius = 5) => add(svgElement("circle", { cx: x(px), cy: y(py), r: radius, class: className })),
    cell: ([x0, y0], [x1, y1], className, attributes = {}) => add(svgElement("rect", {
      x: Math.min(x(x0), x(x1)), y: Math.min(y(y0), y(y1)), width: Math.abs(x(x1) - x(x0)), height: Math.abs(y(y1) - y(y0)),
      class: className, ...attributes })),
  };
}

/** A row of drawings that wraps onto several lines on a narrow screen (each keeps its own size). */
export function panels(...drawings) {
  const row = document.createElement("div");
  row.className = "figure__panels";
  row.append(...drawings);
  return row;
}

/** Powers of ten from low to high (at most about eight of them, evenly thinned). */
function powersOfTen([low, high]) {
  const first = Math.round(Math.log10(low));
  const last = Math.round(Math.log10(high));
  const stride = Math.max(1, Math.ceil((last - first) / 8));
  const ticks = [];
  for (let exponent = first; exponent <= last; exponent += stride) ticks.push(10 ** exponent);
  return ticks;
}

function pathData(pixels) {
  return pixels.map(([px, py], index) => `${index ? "L" : "M"}${px.toFixed(1)},${py.toFixed(1)}`).join("");
}

// ---- Computation graphs ------------------------------------------------------------------

// The smallest text of a graph (its edge labels, 13 px in figures.css) is never drawn smaller than 11 px: a
// graph keeps at least 11/13 of its size, and a column too narrow for that (a phone) scrolls it sideways.
const SMALLEST_TEXT = 13;
const READABLE_TEXT = 11;

/**
 * An <svg> showing `graph`: one box per value (data and gradient), one arrow per engine edge, each edge's
 * labels on its route, drawn over the lines with a halo (dagre lays it out: graph-layout.mjs). It comes
 * inside a frame that scrolls sideways when the column is too narrow to draw its text at 11 px or more (the
 * frame can take the focus, for the arrow keys).
 */
export function graphDrawing(graph, label) {
  const layout = graphLayout(graph);
  const svg = drawing(layout.width, layout.height, label);
  svg.classList.add("figure__graph");
  const arrowId = `figure-arrow-${nextId++}`;
  svg.append(arrowHead(arrowId));
  const labels = svgElement("g", { class: "figure__edge-labels" });
  graph.edges.forEach((edge, index) => {
    const { points, label: [left, top, right] } = layout.edges[index];
    const group = svgElement("g", { class: `figure__edge figure__edge--${edge.state}${edge.active ? " figure__edge--active" : ""}`,
      "data-edge": `${edge.parent}-${edge.child}` });
    group.append(svgElement("path", { d: smoothPath(points), "marker-end": `url(#${arrowId})` }));
    svg.append(group);
    const texts = svgElement("g", { class: "figure__edge-label", "data-label-of": `${edge.parent}-${edge.child}` });
    labelLines(edge).forEach((line, row) => texts.append(svgElement("text", { x: (left + right) / 2,
      y: top + LABEL.room + LABEL.ascent + row * LABEL.lineHeight, "text-anchor": "middle",
      class: row ? "figure__edge-contribution" : "figure__edge-local" }, line)));
    labels.append(texts);
  });
  for (const node of graph.nodes) svg.append(nodeDrawing(node, layout.nodes.get(node.id), layout.box));
  svg.append(labels); // over the boxes and every line
  svg.style.minWidth = `${Math.ceil((layout.width * READABLE_TEXT) / SMALLEST_TEXT)}px`; // a style set by a script: the CSP allows it
  const frame = document.createElement("div");
  frame.className = "figure__scroll";
  frame.tabIndex = 0;
  frame.setAttribute("role", "group");
  frame.setAttribute("aria-label", `${label} (scrolls sideways on a narrow screen)`);
  frame.append(svg);
  return frame;
}

/** A smooth path through every one of `points` (a Catmull-Rom spline): through each label's middle, between its
 *  two lines. */
function smoothPath(points) {
  const at = (index) => points[Math.max(0, Math.min(points.length - 1, index))];
  const segments = points.slice(1).map((end, index) => {
    const [before, start, after] = [at(index - 1), at(index), at(index + 2)];
    const first = [start[0] + (end[0] - before[0]) / 6, start[1] + (end[1] - before[1]) / 6];
    const second = [end[0] - (after[0] - start[0]) / 6, end[1] - (after[1] - start[1]) / 6];
    return `C${first} ${second} ${end}`;
  });
  return `M${points[0]}${segments.join("")}`;
}

function arrowHead(id, className = "") {
  const defs = svgElement("defs");
  const marker = svgElement("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 10, markerHeight: 10, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }); // one size for thin and thick lines
  marker.append(svgElement("path", { d: "M0,0L10,5L0,10z", class: `figure__arrow-head ${className}`.trim() }));
  defs.append(marker);
  return defs;
}


function nodeDrawing(node, [x, y], box) {
  const reached = node.grad_text !== null;
  const group = svgElement("g", { class: `figure__node${reached ? " figure__node--reached" : ""}${node.is_active ? " figure__node--active" : ""}`,
    "data-node": node.symbol });
  group.append(svgElement("rect", { x, y, width: box.width, height: box.height, rx: 6 }));
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 18, "text-anchor": "middle", class: "figure__node-name" }, nodeHeading(node)));
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 38, "text-anchor": "middle", "data-field": "data", class: "figure__node-value" }, `value ${node.data_text}`));
  const grad = `grad ${reached ? node.grad_text : "–"}`;
  const squeezed = [...grad].length * BOX.characterWidth > box.width - 8 ? { textLength: box.width - 8, lengthAdjust: "spacingAndGlyphs" } : {};
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 57, "text-anchor": "middle", "data-field": "grad",
    class: "figure__node-grad", ...squeezed }, grad)); // a long gradient is squeezed into its box
  return group;
}
