// paths_add_up.mjs: view of the figure "Paths add up" (model: paths_add_up.py).
// What it is: the graph view of backprop_graph.mjs, reused as is for q = a·a + a.
export { mountView } from "./backprop_graph.mjs";
