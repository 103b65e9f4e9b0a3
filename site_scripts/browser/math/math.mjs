// math.mjs: renders the lesson's formulas with the site's own copy of KaTeX.
// What it is: on every page Material shows (document$: first load and instant navigations), it
// typesets the `.arithmatex` elements that pymdownx.arithmatex (generic mode) writes, importing
// KaTeX only on pages that have math. What it is not: a fallback; without JavaScript the TeX
// source stays readable as text.
const KATEX_URL = new URL("../../../vendor/katex/katex.mjs", import.meta.url);
const DELIMITERS = [["\\(", "\\)", false], ["\\[", "\\]", true]];
let katexModule = null;

async function renderMath(root) {
  const formulas = [...root.querySelectorAll(".arithmatex:not([data-typeset])")];
  if (formulas.length === 0) return;
  const { default: katex } = await (katexModule ??= import(KATEX_URL.href));
  for (const element of formulas) {
    const source = element.textContent.trim();
    const delimiter = DELIMITERS.find(([open, close]) => source.startsWith(open) && source.endsWith(close));
    if (!delimiter) continue;
    const [open, close, displayMode] = delimiter;
    katex.render(source.slice(open.length, -close.length), element, { displayMode, throwOnError: false });
    element.dataset.typeset = "true";
  }
}

document$.subscribe(() => { renderMath(document); });
