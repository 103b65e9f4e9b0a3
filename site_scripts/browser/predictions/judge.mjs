// judge.mjs: judging a reader's answer to a checked prediction against the build's answer.
// What it is: plain functions with no page behind them: judgeNumber and judgeChoice compare an answer (a number
// read by numbers.mjs's readNumber, or a choice) with the answer the build computed with the engine
// (site_scripts/hooks/prediction_answers.py) and name the slip it matches, if any. Nothing here needs Python,
// so a prediction is checked before Python has started; tests/article/test_predictions.py runs it under Node.
// What it is not: the question's view (predictions.mjs), the reading of numbers or the answers (build time).
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
