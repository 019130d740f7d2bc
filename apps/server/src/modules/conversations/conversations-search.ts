import { PHONE_MIN_DIGITS } from '@hablabot/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import { canonicalPhone, phoneKey } from '../../platform/phone';
import { isPostgres, searchCondition } from '../clients/client-rows';
import { fold } from '../clients/fold';

/**
 * Up to how many candidate clients a searched view reads the matches first (the search index's
 * candidates, each joined to its conversation, then sorted); with more, it walks the view in its order
 * and tests each conversation's client until the page and the next one are found.
 */
export const SPARSE_CANDIDATES = 1000;

/**
 * A searched view counts its matches up to the end of the page after the one asked for: `total` is the
 * number of matches when they end before that, and that bound (offset + 2 × per_page) otherwise — there
 * is at least one more page. Counting every match of a search that finds a tenth of 50,000 conversations
 * costs more than the page itself; the list only needs to know whether to ask for the next page.
 */
export const searchTotalBound = (offset: number, limit: number) => offset + 2 * limit;

const PHONE_LIKE = /^[\d\s+\-.()/]+$/;
const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * SQLite's FTS5 query for the search's candidates, as `searchCondition` (clients/client-rows.ts) asks
 * the `clients_search` index; undefined when a part is shorter than 3 characters. Only a plan is chosen
 * from it: the answer is always the LIKE's.
 */
function ftsQuery(search: string): string | undefined {
  const text = fold(search);
  const digits = PHONE_LIKE.test(text) ? text.replace(/\D/g, '') : '';
  const long = (s: string) => [...s].length >= 3;
  if (!long(text) || (digits && !long(digits))) return undefined;
  const parts = [`search_text : ${phrase(text)}`];
  if (digits) parts.push(`whatsapp_cellphone : ${phrase(digits)}`);
  if (digits.length >= PHONE_MIN_DIGITS) parts.push(`phone_key : ${phrase(phoneKey(canonicalPhone(text)))}`);
  return parts.join(' OR ');
}

/**
 * Whether the search has few candidates (at most SPARSE_CANDIDATES): on SQLite the index's candidates of
 * every company (counted up to the bound, no row read), on PostgreSQL the company's matching clients
 * (the trigram index, counted up to the bound). A text too short for the indexes (under 3 characters)
 * has many.
 */
export async function fewCandidates(db: Executor, companyId: number, search: string): Promise<boolean> {
  const query = ftsQuery(search);
  if (!query) return false;
  if (isPostgres(db)) {
    const condition = searchCondition(search);
    if (!condition) return false;
    const row = await db
      .selectFrom((qb) =>
        qb
          .selectFrom('clients')
          .select('clients.id')
          .where('clients.company_id', '=', companyId)
          .where(condition)
          .limit(SPARSE_CANDIDATES + 1)
          .as('candidates'),
      )
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n) <= SPARSE_CANDIDATES;
  }
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from clients_search
    where clients_search match ${query} limit ${SPARSE_CANDIDATES + 1})`.execute(db);
  return Number(rows[0]!.n) <= SPARSE_CANDIDATES;
}
