import {
  CLIENT_NAME_MAX,
  CLIENT_PROJECTS_MAX,
  IMPORT_SEGMENT_SEPARATORS,
  type ImportColumn,
  SEGMENT_NAME_MAX,
  ZClientEmail,
  ZWhatsappCellphone,
  importColumnOf,
  requiredText,
  zText,
} from '@hablabot/contract';
import { z } from 'zod';
import { fold } from './fold';

/** The column an uploaded header stands for, or undefined when the header is not one we read. */
export const columnOf = importColumnOf;

export type ImportCells = Record<ImportColumn, string>;

/**
 * A cell as text: strings trimmed, numbers and booleans written out, empty for null; undefined when it is
 * an object or an array (JSON can carry them, a CSV cannot: the row is refused, not read as blank).
 */
function cellText(v: unknown): string | undefined {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return undefined;
  return String(v).trim();
}

export interface ImportRowCells {
  cells: ImportCells;
  /** Headers whose cell is an object or an array, in the order of the row. */
  notText: string[];
}

/**
 * Reads one posted row (keyed by the file's headers) into our columns. Two headers for the same column
 * ('celular' and 'whatsapp'): the first non-empty one wins. Null when every cell is empty (a blank line);
 * a cell that is an object or an array is never blank: its header is listed in `notText`.
 */
export function readCells(raw: Record<string, unknown>): ImportRowCells | null {
  const cells: ImportCells = {
    name: '',
    last_names: '',
    whatsapp_cellphone: '',
    email: '',
    projects: '',
    segments: '',
  };
  const notText: string[] = [];
  let any = false;
  for (const [header, value] of Object.entries(raw)) {
    const text = cellText(value);
    if (text === undefined) {
      notText.push(header);
      continue;
    }
    if (text) any = true;
    const column = columnOf(header);
    if (column && !cells[column]) cells[column] = text;
  }
  return any || notText.length > 0 ? { cells, notText } : null;
}

/** Segment names in a cell separated by ',', ';' or '|', without blanks or repeats (by folded name). */
export function segmentNames(cell: string): string[] {
  const seen = new Set<string>();
  const names: string[] = [];
  for (const part of cell.split(IMPORT_SEGMENT_SEPARATORS)) {
    const name = part.trim();
    if (!name || seen.has(fold(name))) continue;
    seen.add(fold(name));
    names.push(name);
  }
  return names;
}

/** Longest segments cell: as many names as the client form accepts segments (200), with separators. */
const SEGMENTS_CELL_MAX = 200 * (SEGMENT_NAME_MAX + 2);

/**
 * One row's fields, with the client form's rules (the contract's text rules: invisible characters
 * removed, control and text-direction characters refused, lengths); segments are names, matched by the
 * service.
 */
export const ZImportRow = z.object({
  name: requiredText(CLIENT_NAME_MAX),
  last_names: requiredText(CLIENT_NAME_MAX),
  whatsapp_cellphone: ZWhatsappCellphone,
  email: ZClientEmail,
  projects: zText({ max: CLIENT_PROJECTS_MAX, multiline: true }).transform((v) => v || null),
  segments: zText({ max: SEGMENTS_CELL_MAX }),
});
export type ImportRow = z.output<typeof ZImportRow>;
