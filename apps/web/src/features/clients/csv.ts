import {
  IMPORT_MAX_ROWS,
  type ImportColumn,
  neutraliseFormula,
  restoreFormulaText,
} from '@hablabot/contract';
import Papa from 'papaparse';
import { columnOf, IMPORT_COLUMN_ORDER, REQUIRED_IMPORT_COLUMNS } from './import-columns';

export * from './import-columns';

export type CsvProblem =
  | { kind: 'empty' }
  | { kind: 'noKnownColumns' }
  | { kind: 'tooMany'; max: number }
  | { kind: 'malformed'; row: number; reason: string };

export interface ParsedClientsCsv {
  /** Rows keyed by the file's own (trimmed) headers; the server maps them to fields. */
  rows: Record<string, string>[];
  headers: string[];
  /** Our columns found among the headers, in the template's order. */
  columns: ImportColumn[];
  /** Required columns the file lacks: every row would fail, so the modal warns before sending. */
  missing: ImportColumn[];
  /** Headers the server will ignore (an exported 'id', a notes column...). */
  ignored: string[];
  delimiter: string;
  /** Set when the file cannot be imported as it is. */
  problem: CsvProblem | null;
}

/**
 * Parses the text of a clients CSV the way the import expects it: first row as headers, blank lines
 * skipped, a UTF-8 byte-order mark removed, comma or semicolon detected from the content.
 */
export function parseClientsCsv(text: string): ParsedClientsCsv {
  const source = text.replace(/^\uFEFF/, '');
  const result = Papa.parse<Record<string, string | undefined>>(source, {
    header: true,
    skipEmptyLines: 'greedy',
    // '|' is not a candidate: it separates segment names inside a cell.
    delimitersToGuess: [',', ';', '\t'],
    transformHeader: (header) => restoreFormulaText(header.replace(/^\uFEFF/, '').trim()),
    // A cell our own refused-rows file guarded against formulas reads as it was.
    transform: (value) => restoreFormulaText(value.trim()),
  });

  const headers = (result.meta.fields ?? []).filter((header) => header !== '');
  const rows: Record<string, string>[] = [];
  for (const raw of result.data) {
    const row: Record<string, string> = {};
    let any = false;
    for (const header of headers) {
      const value = raw[header] ?? '';
      row[header] = value;
      if (value !== '') any = true;
    }
    if (any) rows.push(row);
  }

  const found = new Set<ImportColumn>();
  const ignored: string[] = [];
  for (const header of headers) {
    const column = columnOf(header);
    if (column) found.add(column);
    else ignored.push(header);
  }
  const columns = IMPORT_COLUMN_ORDER.filter((column) => found.has(column));
  const missing = REQUIRED_IMPORT_COLUMNS.filter((column) => !found.has(column));

  // Quote errors garble every row after them; field-count mismatches are tolerated (extra cells are dropped).
  const fatal = result.errors.find((error) => error.type === 'Quotes');
  let problem: CsvProblem | null = null;
  if (fatal) problem = { kind: 'malformed', row: (fatal.row ?? 0) + 2, reason: fatal.message };
  else if (headers.length === 0 || rows.length === 0) problem = { kind: 'empty' };
  else if (columns.length === 0) problem = { kind: 'noKnownColumns' };
  else if (rows.length > IMPORT_MAX_ROWS) problem = { kind: 'tooMany', max: IMPORT_MAX_ROWS };

  return { rows, headers, columns, missing, ignored, delimiter: result.meta.delimiter, problem };
}

/**
 * The rows the server refused, as a CSV to fix and import again: the file's own columns plus one with
 * the reason. `row` in each error is the 1-based position among the posted rows.
 */
export function failedRowsCsv(
  parsed: Pick<ParsedClientsCsv, 'rows' | 'headers' | 'delimiter'>,
  errors: readonly { row?: number; message: string }[],
  reasonHeader: string,
): string {
  const data: string[][] = [];
  for (const error of errors) {
    const source = typeof error.row === 'number' ? parsed.rows[error.row - 1] : undefined;
    if (!source) continue;
    data.push(
      [...parsed.headers.map((header) => source[header] ?? ''), error.message].map(neutraliseFormula),
    );
  }
  const fields = [...parsed.headers, reasonHeader].map(neutraliseFormula);
  // A BOM so Excel opens the accents right; the file's own delimiter so it opens the way it came. Cells a
  // spreadsheet would run as formulas are guarded (and read back as they were when the file is imported).
  return `\uFEFF${Papa.unparse({ fields, data }, { delimiter: parsed.delimiter || ',' })}`;
}
