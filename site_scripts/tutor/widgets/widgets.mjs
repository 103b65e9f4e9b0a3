// widgets.mjs: mounts the lesson's figures on a page; main.mjs calls mountWidgets(document) on
// every page Material shows (first load and each instant navigation).
// What it is: finds each `<div data-widget="NAME">` the build filled in (site_scripts/hooks/widgets.py
// accepts only the names of the figure models in this folder), loads the view NAME.mjs that sits
// beside the model NAME.py and wraps the element in a Figure. Calling it again on the same page does
// nothing to figures already mounted.
// What it is not: drawing (views, svg.mjs), Python (figure.mjs), or a list of figures: the models'
// files are that list.
import { Figure } from "./figure.mjs";
import { loadFailure } from "../../browser/offline/register.mjs";

const FIGURE_NAME = /^[a-z_][a-z0-9_]*$/;

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
  if (!FIGURE_NAME.test(name) || element.dataset.initial === undefined) {
    problem(`There is no figure named "${name}".`);
    return;
  }
  try {
    const { mountView } = await import(new URL(`./${name}.mjs`, import.meta.url).href);
    new Figure(element, mountView);
  } catch (error) {
    problem(loadFailure("This figure", error));
  }
}
