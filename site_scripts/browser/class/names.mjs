// names.mjs: learners' names and file names from work files, shown so that look-alikes can be told apart.
// What it is: visibleName(text) writes every character a reader cannot see or that turns text around
// (zero-width spaces and joiners, bidi controls such as the right-to-left override, other format and
// control characters, blank fillers) as "[U+200B]"; lookAlikeGroups(names) finds the names that look the
// same once those are left out, NFKC applied, spaces made one and common Cyrillic and Greek letters read as
// the Latin ones they resemble (the same name twice included); oddLetters(text) names what sets a name apart ("Cyrillic А (U+0410)").
// What it is not: rendering: the page puts these texts in <bdi> elements as text, never as markup.

const HIDDEN = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]/gu;
const isHidden = (character) => new RegExp(HIDDEN.source, "u").test(character);
const code = (character) => `U+${character.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

// Cyrillic and Greek letters that look like Latin ones in common fonts: [letters, the Latin letters, script].
const LOOK_ALIKES = [
  ["АВЕКМНОРСТХУЅІЈҮӀԚԜаеорсухѕіјһԁԛԝӏ", "ABEKMHOPCTXYSIJYlQWaeopcyxsijhdqwl", "Cyrillic"],
  ["ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοναικρυ", "ABEZHIKMNOPTYXovaikpu", "Greek"],
];
const LATIN = new Map(LOOK_ALIKES.flatMap(([letters, latin, script]) =>
  [...letters].map((letter, index) => [letter, { latin: latin[index], script }])));

/** `text` with every invisible or bidi control character written out: "Ada[U+200B] Lovelace". */
export function visibleName(text) {
  return text.replace(HIDDEN, (character) => `[${code(character)}]`);
}

/** What `text` looks like on screen: equal keys, names a reader cannot tell apart. */
function lookAlikeKey(text) {
  const plain = text.replace(HIDDEN, "").normalize("NFKC").replace(/\s+/gu, " ").trim();
  return [...plain].map((character) => LATIN.get(character)?.latin ?? character).join("");
}

/** The characters that set `text` apart from a plain Latin spelling: ["Cyrillic А (U+0410)", "a hidden character U+200B"]. */
export function oddLetters(text) {
  const odd = [...text].map((character) => {
    if (LATIN.has(character)) return `${LATIN.get(character).script} ${character} (${code(character)})`;
    if (isHidden(character)) return `a hidden character ${code(character)}`;
    if (/\s/u.test(character) && character !== " ") return `a space ${code(character)}`;
    if (character.normalize("NFKC") !== character) return `${character} (${code(character)})`;
    return null;
  });
  return [...new Set(odd.filter(Boolean))];
}

/** The groups (lists of indexes into `names`) of two or more names that look alike, the same text included. */
export function lookAlikeGroups(names) {
  const groups = new Map();
  names.forEach((name, index) => {
    const key = lookAlikeKey(name);
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  return [...groups.values()].filter((indexes) => indexes.length > 1);
}
