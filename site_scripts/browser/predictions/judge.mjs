// judge.mjs: reading a reader's answer to a checked prediction and judging it against the build's answer.
// What it is: plain functions with no page behind them. readNumber(text) turns what the reader typed into a
// number or says, in plain words, why it is not one (empty, text, too large, a comma as decimal point);
// judgeNumber and judgeChoice compare an answer with the answer the build computed with the engine
// (site_scripts/hooks/prediction_answers.py) and name the slip it matches, if any. Nothing here needs Python,
// so a prediction is checked before Python has started. tests/article/test_predictions.py runs these
// functions under Node on every prediction's answer and slips.
// What it is not: the question's view (predictions.mjs) or the answers (computed at build time).

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DECIMAL_COMMA = /^[+-]?\d*,\d+$/;
const MINUS_SIGNS = /[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g; // −, dashes: what a reader copies from the page

/** { ok: true, value } for a number the reader typed, or { ok: false, message } saying what to type. */
export function readNumber(text) {
  const typed = String(text ?? "").trim().replace(MINUS_SIGNS, "-").replace(/\s+/g, "");
  if (typed === "") return { ok: false, message: "Type a number first, for example 7 or -2.5." };
  if (DECIMAL_COMMA.test(typed)) {
    return { ok: false, message: "Use a point for decimals, as in 2.5: a comma is not read as part of a number." };
  }
  if (!NUMBER.test(typed)) {
    return { ok: false, message: "That is not a number. Type digits, such as 7, -2.5 or 0.001." };
  }
  const value = Number(typed);
  if (!Number.isFinite(value)) {
    return { ok: false, message: "That number is too large to check. Type an ordinary number, such as 7 or -2.5." };
  }
  return { ok: true, value };
}

/** { correct, slip }: whether `value` is within `tolerance` of `answer`, and otherwise the index of the
 *  first slip (one of `slipValues`, a list of lists of numbers) it matches, or -1. */
export function judgeNumber(value, { answer, tolerance }, slipValues = []) {
  const near = (expected) => Math.abs(value - expected) <= tolerance;
  if (near(answer)) return { correct: true, slip: -1 };
  return { correct: false, slip: slipValues.findIndex((values) => values.some(near)) };
}

/** { correct }: whether the chosen key is the answer's. */
export function judgeChoice(key, { answer }) {
  return { correct: key === answer };
}
