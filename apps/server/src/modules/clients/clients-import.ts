import {
  CLIENT_NAME_MAX,
  CLIENT_PROJECTS_MAX,
  IMPORT_SEGMENT_SEPARATORS,
  type ImportColumn,
  ZClientEmail,
  ZWhatsappCellphone,
  importColumnOf,
} from '@hablabot/contract';
import { z } from 'zod';
import { fold } from './fold';

/** The column an uploaded header stands for, or undefined when the header is not one we read. */
export const columnOf = importColumnOf;

export type ImportCells = Record<ImportColumn, string>;

const cellText = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? '' : String(v).trim();

/**
 * Reads one posted row (keyed by the file's headers) into our columns. Two headers for the same column
 * ('celular' and 'whatsapp'): the first non-empty one wins. Null when every cell is empty (a blank line).
 */
export function readCells(raw: Record<string, unknown>): ImportCells | null {
  const cells: ImportCells = {
    name: '',
    last_names: '',
    whatsapp_cellphone: '',
    email: '',
    projects: '',
    segments: '',
  };
  let any = false;
  for (const [header, value] of Object.entries(raw)) {
    const text = cellText(value);
    if (text) any = true;
    const column = columnOf(header);
    if (column && !cells[column]) cells[column] = text;
  }
  return any ? cells : null;
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

/** One row's fields as the client form checks them; segments are names, matched by the service. */
export const ZImportRow = z.object({
  name: z.string().trim().min(1).max(CLIENT_NAME_MAX),
  last_names: z.string().trim().min(1).max(CLIENT_NAME_MAX),
  whatsapp_cellphone: ZWhatsappCellphone,
  email: ZClientEmail,
  projects: z
    .string()
    .trim()
    .max(CLIENT_PROJECTS_MAX)
    .transform((v) => v || null),
  segments: z.string(),
});
export type ImportRow = z.output<typeof ZImportRow>;
