import { type Client, neutraliseFormula } from '@hablabot/contract';

export { neutraliseFormula };

/** The export's file and sheet names. */
export const EXPORT_FILE_NAME = 'clients.xlsx';
export const EXPORT_SHEET_NAME = 'Clients Data';

/** Column order of the export: id, name, last names, phone, email, segments, projects. */
export const EXPORT_COLUMNS = ['id', 'name', 'last_names', 'phone', 'email', 'segments', 'projects'] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

export type ExportCell = string | number | null;

/** Text cells are guarded against formula injection (see neutraliseFormula). */
const safe = (text: string | null | undefined): string | null =>
  text === null || text === undefined ? null : neutraliseFormula(text);

/**
 * The sheet as rows: a header row with the given labels, then one row per client. The phone stays
 * text so a spreadsheet never shows it as 3.46E+10; segments are their names joined by ', '.
 */
export function buildExportRows(
  clients: readonly Client[],
  headers: Record<ExportColumn, string>,
): ExportCell[][] {
  const rows: ExportCell[][] = [EXPORT_COLUMNS.map((column) => headers[column])];
  for (const client of clients) {
    rows.push([
      client.id,
      safe(client.name),
      safe(client.last_names),
      safe(client.whatsapp_cellphone),
      safe(client.email),
      safe(client.segments.map((segment) => segment.name).join(', ') || null),
      safe(client.projects),
    ]);
  }
  return rows;
}

/** Column widths in characters, from the longest value (capped), so the file opens readable. */
export function columnWidths(rows: readonly ExportCell[][]): { width: number }[] {
  return EXPORT_COLUMNS.map((_, index) => {
    let longest = 4;
    for (const row of rows) {
      const value = row[index];
      if (value !== null && value !== undefined) longest = Math.max(longest, String(value).length);
    }
    return { width: Math.min(longest + 2, 60) };
  });
}

/**
 * Writes clients.xlsx in the browser and hands it to the user. The writer is loaded on demand, so the
 * page does not carry it until someone exports; nothing is sent to the server.
 */
export async function downloadClientsXlsx(
  clients: readonly Client[],
  headers: Record<ExportColumn, string>,
): Promise<void> {
  const { default: writeXlsxFile } = await import('write-excel-file/browser');
  const rows = buildExportRows(clients, headers);
  const data = rows.map((row, index) =>
    row.map((value) =>
      index === 0
        ? { value: value as string, fontWeight: 'bold' as const }
        : value === null
          ? null
          : typeof value === 'number'
            ? { value, type: Number }
            : { value, type: String },
    ),
  );
  await failOnPolicyViolation(
    writeXlsxFile(data, {
      sheet: EXPORT_SHEET_NAME,
      columns: columnWidths(rows),
      stickyRowsCount: 1,
    }).toFile(EXPORT_FILE_NAME),
  );
}

/**
 * The writer zips the file in a Web Worker. When the page's Content-Security-Policy refuses that worker,
 * the writer's promise never settles, so the user would wait for nothing: a policy violation during the
 * export fails it instead, and the page shows its error.
 */
function failOnPolicyViolation<T>(work: Promise<T>): Promise<T> {
  if (typeof document === 'undefined') return work;
  let onViolation: ((event: SecurityPolicyViolationEvent) => void) | undefined;
  const refused = new Promise<never>((_, reject) => {
    onViolation = (event) =>
      reject(new Error(`The page's policy refused ${event.blockedURI} (${event.effectiveDirective})`));
    document.addEventListener('securitypolicyviolation', onViolation);
  });
  return Promise.race([work, refused]).finally(() => {
    if (onViolation) document.removeEventListener('securitypolicyviolation', onViolation);
  });
}
