// judge.mjs: reading a reader's answer to a checked prediction and judging it against the build's answer.
// What it is: plain functions with no page behind them. readNumber(text) turns what the reader typed into a
// number or says, in plain words, why it is not one (empty, too long, a comma as decimal point, a fraction,
// text, too large), by the rules and in the words of the figures' fields (site_scripts/tutor/figures/display.py,
// typed_number: a reader meets one way of reading numbers; tests/article/test_predictions.py compares the two on
// a table of entries);
// judgeNumber and judgeChoice compare an answer with the answer the build computed with the engine
// (site_scripts/hooks/prediction_answers.py) and name the slip it matches, if any. Nothing here needs Python,
// so a prediction is checked before Python has started. tests/article/test_predictions.py runs these
// functions under Node on every prediction's answer and slips.
// What it is not: the question's view (predictions.mjs) or the answers (computed at build time).
const MINUS = "\u2212";
const TYPED_LENGTH = 40; // characters: longer text is refused before it is read
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const DECIMAL_COMMA = /^[+-]?\d*,\d+$/;
const FRACTION = /^([+-]?\d+(?:\.\d*)?)\/(\d+(?:\.\d*)?)$/;
const MINUS_SIGNS = /[\u2212\u2012\u2013\u2014\uFE63\uFF0D]/g; // −, dashes: what a reader copies from the page
const SUPERSCRIPTS = { "-": "\u207b", 0: "\u2070", 1: "\u00b9", 2: "\u00b2", 3: "\u00b3", 4: "\u2074", 5: "\u2075", 6: "\u2076", 7: "\u2077", 8: "\u2078", 9: "\u2079" };
/** 10 to the whole number `exponent`, with the exponent raised: 10⁴, 10⁻⁵ (also the figures' axes). */
export const tenToThe = (exponent) => `10${[...String(exponent)].map((character) => SUPERSCRIPTS[character]).join("")}`;

/** `value` to six significant digits as display.py's number_text writes it: 0.333333, −12, 2.5 × 10⁻⁵. */
export function numberText(value) {
  const [mantissa, exponent] = value.toExponential(5).split("e").map((part, index) => (index ? Number(part) : part));
  const trimmed = (text) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);
  let text = exponent < -4 || exponent >= 6
    ? `${trimmed(mantissa)} \u00d7 ${tenToThe(exponent)}`
    : trimmed(value.toFixed(Math.max(0, 5 - exponent)));
  if (text === "-0") text = "0";
  return text.replace(/^-/, MINUS);
}

/** { ok: true, value } for a number the reader typed, or { ok: false, message } saying what to type; `what`
 *  names the field in the sentence for an empty one. */
export function readNumber(text, what = "your answer") {
  const shown = String(text ?? "").trim();
  const refused = (message) => ({ ok: false, message });
  if (shown === "") return refused(`Type a number for ${what} first.`);
  if ([...shown].length > TYPED_LENGTH) {
    return refused(`That is too long for a number (${[...shown].length} characters): type a few digits, such as ${MINUS}6 or 0.25.`);
  }
  const plain = shown.replace(MINUS_SIGNS, "-");
  if (DECIMAL_COMMA.test(plain)) {
    return refused(`Write the decimal point as a point: ${plain.replace(",", ".").replace("-", MINUS)} rather than ${shown}.`);
  }
  const fraction = FRACTION.exec(plain);
  if (fraction && Number(fraction[2])) return refused(`Type ${shown} as a decimal, ${numberText(Number(fraction[1]) / Number(fraction[2]))}.`);
  if (!NUMBER.test(plain)) return refused(`\u201c${shown}\u201d is not a number. Type digits, such as ${MINUS}6 or 0.5.`);
  const value = Number(plain);
  if (!Number.isFinite(value)) {
    return refused(`\u201c${shown}\u201d is infinite for a float (the largest is about 1.8 \u00d7 10\u00b3\u2070\u2078); `
      + "no number here is anywhere near that big.");
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
