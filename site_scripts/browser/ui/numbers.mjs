// numbers.mjs: how the page reads a number the reader types, and writes one in a sentence.
// What it is: readNumber(text, what), the one reader of typed numbers (a prediction's answer, judge.mjs; a
// figure's number field, figure.mjs): the number, or one plain sentence saying why the text is not one (empty,
// too long, a decimal comma, a fraction, text, infinite); numberText, six significant digits as the figures'
// models write them (display.py's number_text), and tenToThe for axes. Digits 0-9 only: no inf, nan or 1_000.
// What it is not: a judge (judge.mjs) or a place that needs Python: it runs before Python has started.
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
