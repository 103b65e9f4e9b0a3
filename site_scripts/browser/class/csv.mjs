// csv.mjs: a table as CSV text a spreadsheet opens safely, for the class overview's gradebook.
// What it is: csvText(rows, separator) joins rows of cells (strings or numbers) as RFC 4180 CSV: every text
// cell in double quotes (a quote inside doubled), cells parted by "," or, for a spreadsheet set to a language
// that writes decimals with a comma (most of Europe), by ";", lines ended by CRLF, and a byte order mark
// first so that spreadsheets read the names' accents as UTF-8. A text cell that a spreadsheet would take for a formula
// (it starts with =, +, -, @, a tab or a carriage return, as a learner's name "=cmd()" may) gets a
// leading apostrophe, so it stays text: "CSV injection" is not possible. Numbers are written as numbers.
// What it is not: a CSV reader, or the choice of columns (class-overview.mjs).

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: a number as it is, a text quoted (and defused if it would start a formula). */
export function csvCell(value) {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  const text = String(value ?? "");
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** Rows of cells as CSV text parted by `separator` ("," or ";"), with a byte order mark and CRLF line ends. */
export function csvText(rows, separator = ",") {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(separator)).join("\r\n")}\r\n`;
}
