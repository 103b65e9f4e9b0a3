// lay_out_graphs.mjs: lays out, under Node.js, the graphs test_graph_layout.py sends, with the site's own layout
// (site_scripts/browser/dagre/graph-layout.mjs, the file the build bundles with dagre for the browser).
// What it is: reads a JSON list of graphs ({nodes, edges} as graph_trace.py makes them) on stdin and writes, for
// each, {width, height, boxes: [[left, top, right, bottom], ...], labels: [[left, top, right, bottom], ...]}.
// What it is not: a check (the Python test judges the rectangles).
import { graphLayout } from "../../../site_scripts/browser/dagre/graph-layout.mjs";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const layouts = JSON.parse(input).map((graph) => {
  const { box, nodes, edges, width, height } = graphLayout(graph);
  return { width, height, boxes: [...nodes.values()].map(([left, top]) => [left, top, left + box.width, top + box.height]),
    labels: edges.map((edge) => edge.label) };
});
process.stdout.write(JSON.stringify(layouts));
