// figures.mjs: mounts the lesson's figures on a page; main.mjs calls mountFigures(document) on
// every page Material shows (first load and each instant navigation).
// What it is: finds each `<div data-widget="NAME">` placeholder the build filled in
// (site_scripts/hooks/figures.py accepts only the names of the figure models in
// site_scripts/tutor/figures/), loads the view NAME.mjs that sits beside the model NAME.py there
// (loadView) and wraps the element in a Figure talking to the page's runtime. Calling it again on the
// same page does nothing to figures already mounted. A figure that waits long for Python offers the
// banner's way back to the lesson's engine (engine-banner.mjs) while the reader's engine runs.
// What it is not: drawing (the views, svg.mjs), Python (figure.mjs), or a list of figures: the models'
// files are that list. The views are loaded by name, so nothing in this folder imports them.
import { Figure } from "./figure.mjs";
import { loadFailure } from "../offline/register.mjs";
import { runtime } from "../runtime/runtime.mjs";
import { restoreOriginalEngine } from "../engine_edit/engine-banner.mjs";

const FIGURE_NAME = /^[a-z_][a-z0-9_]*$/;
// The views: <site>/assets/lesson/tutor/figures/NAME.mjs (this file is <site>/assets/lesson/browser/figures/).
const VIEWS_URL = new URL("../../tutor/figures/", import.meta.url);

/** The view module of figure `name` ({ mountView }); rejects when it cannot be loaded. */
export function loadView(name) {
  if (!FIGURE_NAME.test(name)) return Promise.reject(new Error(`there is no figure named "${name}"`));
  return import(new URL(`${name}.mjs`, VIEWS_URL).href);
}

export function mountFigures(root) {
  for (const element of root.querySelectorAll("[data-widget]")) {
    if (element.dataset.mounted) continue;
    element.dataset.mounted = "true";
    mount(element);
  }
}

async function mount(element) {
  const name = element.dataset.widget;
  const problem = (text) => element.append(Object.assign(document.createElement("p"), { className: "figure__error", textContent: text }));
  if (!FIGURE_NAME.test(name) || element.dataset.initial === undefined) {
    problem(`There is no figure named "${name}".`);
    return;
  }
  try {
    const { mountView } = await loadView(name);
    new Figure(element, mountView, runtime, { restoreEngine: restoreOriginalEngine });
  } catch (error) {
    problem(loadFailure("This figure", error));
  }
}
