// svg.mjs: the drawing helpers shared by every figure: SVG elements, plots with axes and curves,
// and computation graphs laid out from the engine's edges.
// What it is: pure rendering of numbers the Python models computed; colours come from CSS
// classes (figures.css), so light and dark mode follow Material's palette.
// What it is not: a source of numbers. Apart from axis tick positions, nothing here computes
// what a figure shows, and nothing here talks to Python (see figure.mjs).

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

/** An empty, responsive <svg> of the given drawing size, described by `label` for screen readers. */
export function drawing(width, height, label) {
  return svgElement("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "figure__drawing", role: "img", "aria-label": label });
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
const SUPERSCRIPTS = { "-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3", 4: "\u2074", 5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078", 9: "\u2079" };
/** 10 to the whole number `exponent`, with the exponent raised: 10⁴, 10⁻⁵ (also the predictions' numbers). */
export const tenToThe = (exponent) => `10${[...String(exponent)].map((character) => SUPERSCRIPTS[character]).join("")}`;
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

const BOX = { width: 104, height: 66, columnGap: 56, rowGap: 40, margin: 12 };
const CHARACTER_WIDTH = 8; // about what a character of a box's 14 px text takes (bold included)
// An edge label's 13 px text: about what a character takes (bold included), how far it reaches above and below
// its baseline, and the room its 4 px halo needs around it.
const [LABEL_CHARACTER_WIDTH, LABEL_ASCENT, LABEL_DESCENT, LABEL_ROOM] = [8, 12, 4, 3];
// The smallest text of a graph (its edge labels, 13 px in figures.css) is never drawn smaller than 11 px: a
// graph keeps at least 11/13 of its size, and a column too narrow for that (a phone) scrolls it sideways.
const SMALLEST_TEXT = 13;
const READABLE_TEXT = 11;

/**
 * Column and row of every node of `graph` ({nodes, edges} from graph_trace.py). A computed value
 * sits one column right of its furthest parent; an input sits just left of its first use. Each
 * value's first operand shares its row; further operands go to the next free row below.
 */
export function layoutGraph(graph) {
  const parents = new Map(graph.nodes.map((node) => [node.id, []]));
  const children = new Map(graph.nodes.map((node) => [node.id, []]));
  for (const edge of graph.edges) {
    parents.get(edge.child).push(edge.parent);
    children.get(edge.parent).push(edge.child);
  }
  const column = new Map();
  for (const node of graph.nodes) { // ids follow creation order: parents come first
    const from = parents.get(node.id);
    column.set(node.id, from.length ? 1 + Math.max(...from.map((id) => column.get(id))) : 0);
  }
  for (const node of graph.nodes) {
    const uses = children.get(node.id);
    if (!parents.get(node.id).length && uses.length) column.set(node.id, Math.min(...uses.map((id) => column.get(id))) - 1);
  }
  const row = new Map();
  const taken = new Set();
  const place = (id, wanted) => {
    let candidate = wanted;
    while (taken.has(`${column.get(id)},${candidate}`)) candidate += 1;
    taken.add(`${column.get(id)},${candidate}`);
    row.set(id, candidate);
  };
  const newestFirst = [...graph.nodes].sort((a, b) => b.id - a.id);
  for (const node of newestFirst) {
    if (!row.has(node.id)) place(node.id, 0);
    parents.get(node.id).forEach((parent, index) => {
      if (!row.has(parent)) place(parent, row.get(node.id) + (index === 0 ? 0 : 1));
    });
  }
  return { column, row, columns: Math.max(...column.values()) + 1, rows: Math.max(...row.values()) + 1 };
}

/**
 * An <svg> showing `graph`: one box per value (data and gradient), one arrow per engine edge, each edge's
 * labels drawn over the boxes and lines with a halo. It comes inside a frame that scrolls sideways when the
 * column is too narrow to draw its text at 11 px or more (the frame can take the focus, for the arrow keys).
 */
export function graphDrawing(graph, label) {
  const { column, row, columns, rows } = layoutGraph(graph);
  // boxes as wide as their longest name or value ("value 2.45765 × 10⁻⁵" under show()), at least BOX.width; not
  // their gradients, which appear step by step: the boxes keep their size while the pass goes on
  const longest = Math.max(...graph.nodes.flatMap((node) => [nodeHeading(node), `value ${node.data_text}`]
    .map((text) => [...text].length)));
  const box = { ...BOX, width: Math.max(BOX.width, Math.ceil(longest * CHARACTER_WIDTH + 14)) };
  const boxesWidth = 2 * box.margin + columns * box.width + (columns - 1) * box.columnGap;
  const boxesHeight = 2 * BOX.margin + rows * BOX.height + (rows - 1) * BOX.rowGap + 24;
  const svg = drawing(boxesWidth, boxesHeight, label);
  svg.classList.add("figure__graph");
  const corner = (id) => [box.margin + column.get(id) * (box.width + box.columnGap),
    BOX.margin + 12 + row.get(id) * (BOX.height + BOX.rowGap)];
  const arrowId = `figure-arrow-${nextId++}`;
  svg.append(arrowHead(arrowId));

  const parallel = new Map(); // "parent-child" -> how many edges join that pair
  for (const edge of graph.edges) parallel.set(`${edge.parent}-${edge.child}`, (parallel.get(`${edge.parent}-${edge.child}`) ?? 0) + 1);
  const seen = new Map();
  const labels = svgElement("g", { class: "figure__edge-labels" });
  const extent = [0, 0, boxesWidth, boxesHeight]; // left, top, right, bottom of everything drawn
  for (const edge of graph.edges) {
    const pair = `${edge.parent}-${edge.child}`;
    const index = seen.get(pair) ?? 0;
    seen.set(pair, index + 1);
    const [line, text, [left, top, right, bottom]] = edgeDrawing(edge, corner(edge.parent), corner(edge.child),
      index - (parallel.get(pair) - 1) / 2, arrowId, box);
    svg.append(line);
    labels.append(text);
    extent.splice(0, 4, Math.min(extent[0], left), Math.min(extent[1], top), Math.max(extent[2], right),
      Math.max(extent[3], bottom));
  }
  for (const node of graph.nodes) svg.append(nodeDrawing(node, corner(node.id), box));
  svg.append(labels); // over the boxes and every line
  // The drawing grows to hold a label that a bent edge puts above or below the boxes (x × x's "× 5").
  const [width, height] = [extent[2] - extent[0], extent[3] - extent[1]];
  Object.entries({ viewBox: `${extent[0]} ${extent[1]} ${width} ${height}`, width, height })
    .forEach(([name, value]) => svg.setAttribute(name, value));
  svg.style.minWidth = `${Math.ceil((width * READABLE_TEXT) / SMALLEST_TEXT)}px`; // a style set by a script: the CSP allows it
  const frame = document.createElement("div");
  frame.className = "figure__scroll";
  frame.tabIndex = 0;
  frame.setAttribute("role", "group");
  frame.setAttribute("aria-label", `${label} (scrolls sideways on a narrow screen)`);
  frame.append(svg);
  return frame;
}

function arrowHead(id, className = "") {
  const defs = svgElement("defs");
  const marker = svgElement("marker", { id, viewBox: "0 0 10 10", refX: 9, refY: 5,
    markerWidth: 10, markerHeight: 10, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse" }); // one size for thin and thick lines
  marker.append(svgElement("path", { d: "M0,0L10,5L0,10z", class: `figure__arrow-head ${className}`.trim() }));
  defs.append(marker);
  return defs;
}

/** One edge from a parent's box to its child's box, and its labels apart (to be drawn over the boxes):
 *  [line, labels, [left, top, right, bottom] of the labels, with room for their halo]; `bend` separates edges
 *  joining the same pair. */
function edgeDrawing(edge, [parentX, parentY], [childX, childY], bend, arrowId, box) {
  const start = [parentX + box.width, parentY + box.height / 2];
  const end = [childX, childY + box.height / 2];
  const skipsColumns = childX - parentX > box.width + box.columnGap;
  const offset = bend * 130 + (skipsColumns && bend === 0 ? box.height * 1.6 : 0);
  const control = [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + offset];
  const middle = [(start[0] + 2 * control[0] + end[0]) / 4, (start[1] + 2 * control[1] + end[1]) / 4];
  const labelY = offset > 0 ? middle[1] + 14 : middle[1] - 22; // labels sit on the outer side of a bent edge
  const group = svgElement("g", { class: `figure__edge figure__edge--${edge.state}${edge.active ? " figure__edge--active" : ""}`,
    "data-edge": `${edge.parent}-${edge.child}` });
  group.append(svgElement("path", { d: `M${start}Q${control} ${end}`, "marker-end": `url(#${arrowId})` }));
  const labels = svgElement("g", { class: "figure__edge-label" });
  labels.append(svgElement("text", { x: middle[0], y: labelY, "text-anchor": "middle", class: "figure__edge-local" },
    `× ${edge.local_text}`));
  const texts = [`× ${edge.local_text}`];
  if (edge.contribution_text !== null) {
    labels.append(svgElement("text", { x: middle[0], y: labelY + 16, "text-anchor": "middle", class: "figure__edge-contribution" },
      `adds ${edge.contribution_text}`));
    texts.push(`adds ${edge.contribution_text}`);
  }
  const halfWidth = (Math.max(...texts.map((text) => [...text].length)) * LABEL_CHARACTER_WIDTH) / 2 + LABEL_ROOM;
  const extent = [middle[0] - halfWidth, labelY - LABEL_ASCENT - LABEL_ROOM, middle[0] + halfWidth,
    labelY + 16 * (texts.length - 1) + LABEL_DESCENT + LABEL_ROOM];
  return [group, labels, extent];
}

/** One sentence for screen readers: every value with its gradient so far, and how far the backward pass is. */
export function graphDescription(graph) {
  const values = graph.nodes.map((node) => `${nodeHeading(node)} is ${node.data_text}`
    + (node.grad_text === null ? "" : ` with gradient ${node.grad_text}`)).join("; ");
  const done = graph.edges.filter((edge) => edge.state === "done").length;
  const pass = graph.seeded ? `${done} of ${graph.edges.length} edges followed backward` : "not seeded yet";
  return `Computation graph: ${values}. Backward pass: ${pass}.`;
}

/** How a graph's box names its value: "e = ŷ − y" for a computed value with a formula, else "w". */
export const nodeHeading = (node) => (node.formula ? `${node.symbol} = ${node.formula}` : node.symbol);

function nodeDrawing(node, [x, y], box) {
  const reached = node.grad_text !== null;
  const group = svgElement("g", { class: `figure__node${reached ? " figure__node--reached" : ""}${node.is_active ? " figure__node--active" : ""}`,
    "data-node": node.symbol });
  group.append(svgElement("rect", { x, y, width: box.width, height: box.height, rx: 6 }));
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 18, "text-anchor": "middle", class: "figure__node-name" }, nodeHeading(node)));
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 38, "text-anchor": "middle", "data-field": "data", class: "figure__node-value" }, `value ${node.data_text}`));
  const grad = `grad ${reached ? node.grad_text : "–"}`;
  const squeezed = [...grad].length * CHARACTER_WIDTH > box.width - 8 ? { textLength: box.width - 8, lengthAdjust: "spacingAndGlyphs" } : {};
  group.append(svgElement("text", { x: x + box.width / 2, y: y + 57, "text-anchor": "middle", "data-field": "grad",
    class: "figure__node-grad", ...squeezed }, grad)); // a long gradient is squeezed into its box
  return group;
}
