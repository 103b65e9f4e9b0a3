// render_math.mjs: typesets a whole build's formulas with the site's own KaTeX, in one Node process.
// What it is: the Node half of site_scripts/hooks/formulas.py. It reads one JSON array from stdin,
// [{ "tex": "...", "display": true|false }, ...], and writes one JSON array to stdout, in the same
// order: { "html": "<span class=\"katex\">..." } for a formula KaTeX renders, { "error": "..." } with
// KaTeX's message for one it refuses (throwOnError and strict: a formula that would only render with
// a warning is refused too). Each formula gets fresh options, so a \def in one never leaks into another.
// What it is not: the place that makes the markup fit the Content-Security-Policy (formulas.py turns
// KaTeX's style attributes into classes) nor a browser script: pages load no KaTeX JavaScript.
import { readFileSync } from "node:fs";

const KATEX = new URL("../../node_modules/katex/dist/katex.mjs", import.meta.url);
const { default: katex } = await import(KATEX.href);

const formulas = JSON.parse(readFileSync(0, "utf8"));
const rendered = formulas.map(({ tex, display }) => {
  try {
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, strict: "error", output: "htmlAndMathml" }) };
  } catch (error) {
    return { error: String(error.message ?? error) };
  }
});
process.stdout.write(JSON.stringify(rendered));
