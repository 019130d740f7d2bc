import type { ImportError, ImportSuccess, Language, SegmentChip } from '@hablabot/contract';
import { tooManyRequests } from '../../platform/errors';
import { translate } from '../../platform/locale';
import type { RateLimitStore } from '../../platform/rate-limit';
import { canonicalPhone, phoneKey } from '../../platform/phone';
import { describeZodIssue } from '../../platform/validation-text';
import { ZImportRow, readCells, segmentNames } from './clients-import';
import type { Repositories, WithTransaction } from '../../repositories';
import type { ClientsRepository, ImportValues } from './clients.repository';
import { fold } from './fold';
import type { SegmentsRepository } from './segments.repository';
import { nextTurn } from '../../platform/turns';

/** Rows written per transaction: large enough to be fast, small enough that a failed batch is cheap to redo. */
export const IMPORT_BATCH = 500;
/**
 * How long a company's import claim lasts at most: far longer than an import takes (seconds), and the end
 * of the wait if a process dies holding it (a finished or failed import gives it back at once).
 */
const IMPORT_CLAIM_MS = 5 * 60_000;
/** The retry-after hint of a refused concurrent import. */
const IMPORT_RETRY_SECONDS = 5;

/** Lets the event loop serve other requests (health checks, other companies) before going on. */

export interface ImportResult {
  error: ImportError[];
  success: ImportSuccess[];
  created: number;
  updated: number;
}

export interface ImportOptions {
  /**
   * Only fill what an existing client lacks: a non-empty name, last names, email or projects stays as
   * stored (the WordPress push; a client may have written on WhatsApp since). Segments are still added.
   */
  fillEmpty?: boolean;
}

/** The row's values over an existing client's: each stored non-empty field wins (the phone too). */
export function fillEmptyFields(stored: ImportValues, row: ImportValues): ImportValues {
  return {
    whatsapp_cellphone: stored.whatsapp_cellphone,
    name: stored.name || row.name,
    last_names: stored.last_names || row.last_names,
    email: stored.email || row.email,
    projects: stored.projects || row.projects,
  };
}

interface Candidate {
  row: number;
  name: string;
  values: ImportValues;
  segmentIds: number[];
}

/**
 * Imports CSV rows: each row is checked on its own (the client form's rules, no object or array cells,
 * segment names that must exist and a phone not repeated earlier in the file); valid rows create or update
 * the client with that phone, in transactions of IMPORT_BATCH rows. A row that fails never stops or
 * half-writes the others; every row that is not blank ends up in `error` or `success`. Each batch commits
 * on its own, so a crash keeps the batches before it, and running the same file again is safe (phones are
 * unique per company: the rows already written are updated, not duplicated). Between batches the event
 * loop serves other requests.
 */
export function createClientImportService(deps: {
  clientsRepository: Pick<ClientsRepository, 'existingPhones'>;
  segmentsRepository: Pick<SegmentsRepository, 'chipsByFoldedName'>;
  withTransaction: WithTransaction;
  /** Where the one-import-per-company claim is held: memory, or Redis shared by every process. */
  claims: Pick<RateLimitStore, 'acquire' | 'release'>;
}) {
  const { clientsRepository: clients, segmentsRepository: segments, withTransaction, claims } = deps;

  /**
   * Writes the rows and their segment links in one transaction: the clients (created or updated by
   * phone), then the links. A segment deleted since the rows were checked fails the whole unit.
   */
  async function write(companyId: number, rows: Candidate[], options: ImportOptions): Promise<void> {
    await withTransaction(async (tx: Repositories) => {
      let values = rows.map((c) => c.values);
      if (options.fillEmpty) {
        const stored = await tx.clientsRepository.existingPhones(
          companyId,
          values.map((v) => v.whatsapp_cellphone),
        );
        values = values.map((v) => {
          const before = stored.get(phoneKey(v.whatsapp_cellphone));
          return before ? fillEmptyFields(before, v) : v;
        });
      }
      const idOfPhone = await tx.clientsRepository.upsertImported(companyId, values);
      const clientsOfSegment = new Map<number, number[]>();
      for (const c of rows) {
        for (const segmentId of c.segmentIds) {
          const ids = clientsOfSegment.get(segmentId) ?? [];
          ids.push(idOfPhone.get(phoneKey(c.values.whatsapp_cellphone))!);
          clientsOfSegment.set(segmentId, ids);
        }
      }
      const segmentIds = [...clientsOfSegment.keys()];
      if ((await tx.segmentsRepository.findChips(companyId, segmentIds)).length !== segmentIds.length)
        throw new Error('a segment of these rows was deleted during the import');
      for (const [segmentId, clientIds] of clientsOfSegment)
        await tx.segmentsRepository.addClientsToSegment(companyId, segmentId, clientIds);
    });
  }

  /** Checks one row; the row's error, or the candidate to write. Adds a valid phone's key to `firstRowOfPhone`. */
  function check(
    raw: Record<string, unknown>,
    row: number,
    lang: Language,
    chips: Map<string, SegmentChip>,
    firstRowOfPhone: Map<string, number>,
  ): { error: ImportError } | { candidate: Candidate } | null {
    const read = readCells(raw ?? {});
    if (!read) return null; // a blank line: neither an error nor a success
    const { cells, notText } = read;
    const name =
      `${cells.name} ${cells.last_names}`.trim() ||
      cells.whatsapp_cellphone ||
      translate(lang, 'clients.import_row', { row });
    const reasons: string[] = [];

    if (notText.length > 0) {
      reasons.push(
        translate(lang, 'clients.import_not_text', { columns: notText.map((h) => `«${h}»`).join(', ') }),
      );
    }

    const parsed = ZImportRow.safeParse(cells);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const text = describeZodIssue(lang, issue);
        if (!reasons.includes(text)) reasons.push(text);
      }
    }

    const names = segmentNames(cells.segments);
    const unknown = names.filter((n) => !chips.has(fold(n)));
    if (unknown.length > 0) {
      reasons.push(
        translate(lang, 'clients.import_unknown_segments', {
          names: unknown.map((n) => `«${n}»`).join(', '),
        }),
      );
    }

    // The first row with a valid phone claims it; a later row with the same phone, or a mobile variant
    // of it (the same key: platform/phone.ts), is the error.
    const phone = ZImportRow.shape.whatsapp_cellphone.safeParse(cells.whatsapp_cellphone);
    if (phone.success) {
      const key = phoneKey(canonicalPhone(phone.data));
      const first = firstRowOfPhone.get(key);
      if (first !== undefined) {
        reasons.push(translate(lang, 'clients.import_duplicate_in_file', { phone: phone.data, row: first }));
      } else {
        firstRowOfPhone.set(key, row);
      }
    }

    if (reasons.length > 0 || !parsed.success) return { error: { row, name, message: reasons.join(' ') } };
    const data = parsed.data;
    return {
      candidate: {
        row,
        name,
        values: {
          name: data.name,
          last_names: data.last_names,
          whatsapp_cellphone: canonicalPhone(data.whatsapp_cellphone),
          email: data.email,
          projects: data.projects,
        },
        segmentIds: names.map((n) => chips.get(fold(n))!.id),
      },
    };
  }

  async function run(
    companyId: number,
    rows: Record<string, unknown>[],
    lang: Language,
    options: ImportOptions,
  ): Promise<ImportResult> {
    const chips = await segments.chipsByFoldedName(companyId);
    const error: ImportError[] = [];
    const candidates: Candidate[] = [];
    const firstRowOfPhone = new Map<string, number>();

    for (let i = 0; i < rows.length; i++) {
      // Checking 10,000 rows is CPU work: give other requests a turn every batch.
      if (i > 0 && i % IMPORT_BATCH === 0) await nextTurn();
      const checked = check(rows[i], i + 1, lang, chips, firstRowOfPhone);
      if (checked && 'error' in checked) error.push(checked.error);
      else if (checked) candidates.push(checked.candidate);
    }

    const existing = await clients.existingPhones(
      companyId,
      candidates.map((c) => c.values.whatsapp_cellphone),
    );
    const success: ImportSuccess[] = [];
    const saved = (c: Candidate) =>
      success.push({
        row: c.row,
        name: c.name,
        action: existing.has(phoneKey(c.values.whatsapp_cellphone)) ? 'updated' : 'created',
      });

    for (let i = 0; i < candidates.length; i += IMPORT_BATCH) {
      await nextTurn();
      const batch = candidates.slice(i, i + IMPORT_BATCH);
      try {
        await write(companyId, batch, options);
        batch.forEach(saved);
      } catch {
        // Something in the batch broke at write time (a segment deleted meanwhile, say): the batch rolled
        // back, so redo it one row per transaction and report only the rows that still fail.
        for (const c of batch) {
          try {
            await write(companyId, [c], options);
            saved(c);
          } catch {
            error.push({ row: c.row, name: c.name, message: translate(lang, 'clients.import_row_failed') });
          }
        }
      }
    }

    error.sort((a, b) => a.row - b.row);
    success.sort((a, b) => a.row - b.row);
    const updated = success.filter((s) => s.action === 'updated').length;
    return { error, success, created: success.length - updated, updated };
  }

  return {
    /**
     * Imports the rows for the company. One import per company at a time (across processes when the
     * claims are in Redis): a second one meanwhile is a 429 ('clients.import_running').
     */
    async importClients(
      companyId: number,
      rows: Record<string, unknown>[],
      lang: Language,
      options: ImportOptions = {},
    ): Promise<ImportResult> {
      const key = `import:clients:${companyId}`;
      if (!(await claims.acquire(key, IMPORT_CLAIM_MS)).acquired)
        throw tooManyRequests('clients.import_running', IMPORT_RETRY_SECONDS);
      try {
        return await run(companyId, rows, lang, options);
      } finally {
        await claims.release(key);
      }
    },
  };
}

export type ClientImportService = ReturnType<typeof createClientImportService>;
