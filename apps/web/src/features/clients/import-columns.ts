// The import's column vocabulary and file checks, without the CSV parser: the modal renders these at
// once and loads Papa Parse (csv.ts) only when a file is chosen.
import { type ImportColumn, importColumnOf } from '@hablabot/contract';

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

/** The column an uploaded header stands for, or undefined when the server will ignore it (the server's own rule). */
export const columnOf = importColumnOf;

/**
 * Reads a chosen file as text. UTF-8 (with or without a BOM) is the format we document, but Excel in
 * Spanish saves "CSV (delimitado por comas)" as Windows-1252: bytes that are not valid UTF-8 are read
 * that way instead, so 'José' never arrives as 'Jos�'.
 */
export async function readFileText(file: Blob): Promise<string> {
  const bytes = await readBytes(file);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function readBytes(file: Blob): Promise<ArrayBuffer> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file);
  });
}

/** True for a .csv name or a CSV media type (some systems label CSV as Excel). */
export function looksLikeCsv(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === 'text/csv';
}
