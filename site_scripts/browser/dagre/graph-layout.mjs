// graph-layout.mjs: where a computation graph's boxes, edges and edge labels go, laid out by dagre (a layered
// graph layout); site_scripts/hooks/vendor.py bundles it with esbuild into assets/vendor/dagre/graph-layout.mjs.
// What it is: positions only, from the graph's edges and the sizes of its boxes and labels. Each edge label is
// a node of dagre's layout on its edge's route, so no label overlaps a box or another label (tests/figures check
// that on the lesson's graphs and on random ones). What it is not: drawing (browser/figures/svg.mjs draws).
import dagre from "@dagrejs/dagre";

// An edge label's 13 px text: about what a character takes at most (bold included), its line height, how far it
// reaches above and below its baseline, and the room its 4 px halo needs around it.
export const LABEL = { characterWidth: 7, lineHeight: 16, ascent: 12, descent: 4, room: 3 };
const SPACING = { nodesep: 20, edgesep: 14, ranksep: 6, marginx: 6, marginy: 8 };

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
 * The layout of `graph` ({nodes, edges} from graph_trace.py) with boxes of `box` ({width, height}), left to
 * right from the inputs to the output: {nodes: Map id -> [left, top], edges: [{points: [[x, y], ...],
 * label: [left, top, right, bottom]}] in the graph's edge order, width, height}. The first label line's
 * baseline is label top + LABEL.room + LABEL.ascent.
 */
export function graphLayout(graph, box) {
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
    const placed = layout.edge(String(edge.parent), String(edge.child), String(index));
    return { points: placed.points.map(({ x, y }) => [x, y]),
      label: [placed.x - placed.width / 2, placed.y - placed.height / 2, placed.x + placed.width / 2, placed.y + placed.height / 2] };
  });
  const { width, height } = layout.graph();
  return { nodes, edges, width, height };
}
