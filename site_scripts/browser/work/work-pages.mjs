// work-pages.mjs: the way to the reader's work from every page, and the two pages that handle work files.
// What it is: anchorWorkLink(root) makes the header's link "Your work" (written by overrides/main.html,
// relative to the page first loaded) absolute, once, since instant navigation keeps the header while the
// address changes; mountWorkPages(root) imports and mounts "Your work" (your-work.mjs) or "Class
// overview" (class/class-overview.mjs) only on the page that has its placeholder, so no chapter loads them.
// What it is not: the pages themselves.
import { loadFailure } from "../offline/register.mjs";

const PAGES = [
  ["[data-your-work]", "./your-work.mjs", "mountYourWork"],
  ["[data-class-overview]", "../class/class-overview.mjs", "mountClassOverview"],
];

/** Make the header's link "Your work" absolute (call once, on the page first loaded). */
export function anchorWorkLink(root) {
  const link = root.querySelector("a.lesson-work-link");
  if (link) link.setAttribute("href", link.href); // .href: resolved against the page it was loaded with
}

/** Mount "Your work" or "Class overview" if `root` is one of them; resolves once it is mounted. */
export async function mountWorkPages(root) {
  for (const [selector, module, mount] of PAGES) {
    const element = root.querySelector(selector);
    if (!element) continue;
    try {
      (await import(new URL(module, import.meta.url).href))[mount](root);
    } catch (error) {
      element.textContent = loadFailure("This page's part that handles work files", error);
    }
  }
}
