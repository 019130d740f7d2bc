import { type RawBuilder, sql } from 'kysely';

/**
 * A row's `company_id` as a check on rows found by their keys, not as the way to find them: for "the
 * company's messages with these ids", SQLite's planner (which keeps no table statistics) takes the
 * index that starts with `company_id` and walks every row of the company (a million messages at the
 * sizes companies reach) instead of looking up a few ids. The unary `+` keeps the column out of the
 * choice of index on both engines; the answer is still only the company's rows.
 */
export function companyCheck(): RawBuilder<number> {
  return sql<number>`+${sql.ref('company_id')}`;
}
