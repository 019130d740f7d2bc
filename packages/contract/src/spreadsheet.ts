/**
 * Spreadsheet formula injection. A spreadsheet runs a cell whose text starts with `=`, `+`, `-` or `@`
 * as a formula (and a tab or carriage return in front hides the same) — `=HYPERLINK(…)`, `@SUM(…)` or a
 * command launcher in a client's name would act when an admin opens an export. Every file the app
 * writes for a spreadsheet (CSV or XLSX) passes its text cells through `neutraliseFormula`: such text
 * gets a leading apostrophe and stays text. Numbers are written as numbers and need nothing.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The text as a spreadsheet must show it: with a leading apostrophe when it would start a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The inverse, for a file of ours that comes back to be imported (the rows an import refused, fixed and
 * imported again): a cell the export guarded reads as its original text. Other text is left alone.
 */
export function restoreFormulaText(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
