// widgets.mjs: mounts the lesson's figures on a page; main.mjs calls mountWidgets(document) on
// every page Material shows (first load and each instant navigation).
// What it is: finds each `<div data-widget="NAME">` the build filled in, loads the view
// NAME.js and wraps the element in a Figure. Calling it again on the same page does nothing to
// figures already mounted. What it is not: drawing (views, svg.mjs) or Python (figure.mjs).
import { Figure } from "./figure.mjs";

const VIEWS = {
  x_times_x: () => import("./x_times_x.mjs"),
  mystery_curve: () => import("./mystery_curve.mjs"),
  secant_tangent: () => import("./secant_tangent.mjs"),
  loss_experiment: () => import("./loss_experiment.mjs"),
  backprop_graph: () => import("./backprop_graph.mjs"),
  paths_add_up: () => import("./paths_add_up.mjs"),
  line_fit: () => import("./line_fit.mjs"),
};

export function mountWidgets(root) {
  for (const element of root.querySelectorAll("[data-widget]")) {
    if (element.dataset.mounted) continue;
    element.dataset.mounted = "true";
    mount(element);
  }
}

async function mount(element) {
  const name = element.dataset.widget;
  const problem = (text) => element.append(Object.assign(document.createElement("p"), { className: "widget__error", textContent: text }));
  if (!(name in VIEWS)) {
    problem(`There is no figure named "${name}".`);
    return;
  }
  try {
    const { mountView } = await VIEWS[name]();
    new Figure(element, mountView);
  } catch (error) {
    problem(`This figure could not be shown: ${error.message}`);
  }
}
