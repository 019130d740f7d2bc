// The import's column vocabulary and file checks, without the CSV parser: the modal renders these at
// once and loads Papa Parse (csv.ts) only when a file is chosen.
import { IMPORT_COLUMNS, type ImportColumn } from '@hablabot/contract';

/** Columns every imported row needs; projects and segments may be left empty. */
export const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = [
  'name',
  'last_names',
  'whatsapp_cellphone',
  'email',
];
export const IMPORT_COLUMN_ORDER: readonly ImportColumn[] = [
  'name',
  'last_names',
  'whatsapp_cellphone',
  'email',
  'projects',
  'segments',
];

/** The public template's path (apps/web/public/clientes-plantilla.csv). */
export const IMPORT_TEMPLATE_URL = '/clientes-plantilla.csv';

/** A header as the server matches it: no BOM, case, accents; spaces, dashes and dots as underscores. */
export function headerKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/[\s\-.]+/g, '_');
}

const COLUMN_OF = new Map<string, ImportColumn>(
  (Object.entries(IMPORT_COLUMNS) as [ImportColumn, readonly string[]][]).flatMap(([column, aliases]) =>
    aliases.map((alias) => [headerKey(alias), column] as const),
  ),
);

/** The column an uploaded header stands for, or undefined when the server will ignore it. */
export function columnOf(header: string): ImportColumn | undefined {
  return COLUMN_OF.get(headerKey(header));
}

/** Reads a chosen file as UTF-8 text (the decoder drops a BOM; parseClientsCsv drops it again if not). */
export function readFileText(file: File): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file, 'utf-8');
  });
}

/** True for a .csv name or a CSV media type (some systems label CSV as Excel). */
export function looksLikeCsv(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv';
}
