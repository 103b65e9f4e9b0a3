// graph-layout.mjs: where a computation graph's boxes, edges and edge labels go, laid out by dagre (a layered
// graph layout); site_scripts/hooks/vendor.py bundles it with esbuild into assets/vendor/dagre/graph-layout.mjs.
// What it is: positions only, from the graph's edges and the sizes of its boxes and labels. Each edge label is a
// node of dagre's layout on its edge's route, so no label overlaps a box or another label (checked on the
// lesson's graphs and random ones by tests/tutor/figures/test_graph_layout.py). What it is not: drawing (svg.mjs).
import dagre from "@dagrejs/dagre";

// An edge label's 13 px text: about what a character takes at most (bold included), its line height, how far it
// reaches above and below its baseline, and the room its 4 px halo needs around it. Its edge runs between its two
// lines ("× 3" above, "adds 3" below), through the label's middle.
export const LABEL = { characterWidth: 7, lineHeight: 20, ascent: 12, descent: 4, room: 3 };
const SPACING = { nodesep: 20, edgesep: 14, ranksep: 6, marginx: 6, marginy: 8 };
// A value's box: at least this big, and wider for a long name or value, at about what a character of its 14 px
// text takes at most (bold included), plus room on both sides.
export const BOX = { width: 96, height: 66, characterWidth: 7.5, room: 14 };

/** How a graph's box names its value: "e = ŷ − y" for a computed value with a formula, else "w". */
export const nodeHeading = (node) => (node.formula ? `${node.symbol} = ${node.formula}` : node.symbol);

/** The size of every box of `graph`: as wide as the longest name or value ("value 2.45765 × 10⁻⁵" under show()),
 *  not their gradients, which appear step by step (the boxes keep their size while the pass goes on). */
export function boxSize(graph) {
  const longest = Math.max(...graph.nodes.flatMap((node) => [nodeHeading(node), `value ${node.data_text}`]
    .map((text) => [...text].length)));
  return { width: Math.max(BOX.width, Math.ceil(longest * BOX.characterWidth + BOX.room)), height: BOX.height };
}

/** The lines an edge's label shows now: "× 3", then "adds 6" once the edge is done. */
export const labelLines = (edge) => [`× ${edge.local_text}`, ...(edge.contribution_text === null ? [] : [`adds ${edge.contribution_text}`])];

/** The size an edge's label keeps all through the backward pass (wide enough for its widest line, two lines
 *  high), so the boxes stay where they are while the labels fill in. */
export function labelSize(edge) {
  const widest = Math.max(...[...labelLines(edge), edge.widest_label ?? ""].map((text) => [...text].length));
  return { width: widest * LABEL.characterWidth + 2 * LABEL.room,
    height: LABEL.ascent + LABEL.lineHeight + LABEL.descent + 2 * LABEL.room };
}

/**
 * The layout of `graph` ({nodes, edges} from graph_trace.py), left to right from the inputs to the output:
 * {box: {width, height} of every box, nodes: Map id -> [left, top], edges: [{points: [[x, y], ...],
 * label: [left, top, right, bottom]}] in the graph's edge order, width, height}. The first label line's
 * baseline is label top + LABEL.room + LABEL.ascent.
 */
export function graphLayout(graph) {
  const box = boxSize(graph);
  const layout = new dagre.graphlib.Graph({ multigraph: true });
  layout.setGraph({ rankdir: "LR", ...SPACING });
  for (const node of graph.nodes) layout.setNode(String(node.id), { width: box.width, height: box.height });
  graph.edges.forEach((edge, index) => {
    layout.setEdge(String(edge.parent), String(edge.child), { ...labelSize(edge), labelpos: "c" }, String(index));
  });
  dagre.layout(layout);
  const nodes = new Map(graph.nodes.map((node) => {
    const { x, y } = layout.node(String(node.id));
    return [node.id, [x - box.width / 2, y - box.height / 2]];
  }));
  const edges = graph.edges.map((edge, index) => {
    const { x, y, points } = layout.edge(String(edge.parent), String(edge.child), String(index));
    const { width, height } = labelSize(edge);
    return { points: points.map((point) => [point.x, point.y]), label: [x - width / 2, y - height / 2, x + width / 2, y + height / 2] };
  });
  const { width, height } = layout.graph();
  return { box, nodes, edges, width, height };
}
