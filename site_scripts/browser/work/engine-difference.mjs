// engine-difference.mjs: how far a work file's engine is from the lesson's, for the question before it may run.
// What it is: lessonEngine() fetches the lesson's own tinygrad.py (the build copies engine/tinygrad.py
// unchanged to the site's root), and engineDifference(lesson, other) counts, line by line, what `other`
// adds to and removes from `lesson` (a longest common subsequence of lines) and gives the first lines of
// `other` from its first change on, so "Load my work" can show the learner what they would run.
// What it is not: the question itself (your-work.mjs) or a diff viewer.

const ENGINE_URL = new URL("../../../../tinygrad.py", import.meta.url);
export const SHOWN_LINES = 8; // the lines of a file's engine the question shows
const MAX_CELLS = 4_000_000; // beyond this many line pairs, lines are counted as a multiset (still exact for pure additions)

/** The lesson's engine, as the site serves it. */
export async function lessonEngine() {
  const response = await fetch(ENGINE_URL);
  if (!response.ok) throw new Error(`${ENGINE_URL.pathname} answered ${response.status}`);
  return response.text();
}

/** { added, removed, firstChange (1-based line of `other`), firstLines (text) } of `other` against `lesson`. */
export function engineDifference(lesson, other) {
  const a = lesson.split("\n");
  const b = other.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a.at(-1 - end) === b.at(-1 - end)) end += 1;
  const middleA = a.slice(start, a.length - end);
  const middleB = b.slice(start, b.length - end);
  const common = commonLines(middleA, middleB);
  const firstChange = Math.min(start, b.length - 1);
  return { added: middleB.length - common, removed: middleA.length - common, firstChange: firstChange + 1,
           firstLines: b.slice(firstChange, firstChange + SHOWN_LINES).join("\n") };
}

/** The length of a longest common subsequence of the lines `a` and `b`. */
function commonLines(a, b) {
  if (a.length * b.length > MAX_CELLS) {
    const counts = new Map();
    for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
    let common = 0;
    for (const line of b) {
      if (counts.get(line) > 0) {
        counts.set(line, counts.get(line) - 1);
        common += 1;
      }
    }
    return common;
  }
  let previous = new Uint32Array(b.length + 1);
  for (const line of a) {
    const row = new Uint32Array(b.length + 1);
    for (let j = 0; j < b.length; j += 1) row[j + 1] = line === b[j] ? previous[j] + 1 : Math.max(previous[j + 1], row[j]);
    previous = row;
  }
  return previous[b.length];
}
