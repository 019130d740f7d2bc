import { type BusinessHours, DEFAULT_BUSINESS_HOURS, ZBusinessHoursRange } from '@hablabot/contract';
import { z } from 'zod';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';

const ZRanges = z.array(ZBusinessHoursRange);
const ZDates = z.array(z.string());

/** The company's stored hours: read for every customer message (the away message). */
const hoursRow = prepared((db, v: { companyId: number }) =>
  db
    .selectFrom('business_hours')
    .select(['timezone', 'days', 'holidays', 'away_enabled', 'away_message', 'away_with_bot'])
    .where('company_id', '=', v.companyId),
);

/** A JSON column as read; anything unreadable is an empty list (closed, no holidays). */
function readJson<T>(json: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through
  }
  return fallback;
}

/** The company's hours as stored, with whether they were ever saved. */
export type StoredBusinessHours = BusinessHours & { configured: boolean };

/** Business hours and which closed period each client's away message answered. */
export function createBusinessHoursRepository(db: Executor) {
  return {
    async get(companyId: number): Promise<StoredBusinessHours> {
      const [row] = (await hoursRow(db, { companyId })).rows;
      if (!row) return { ...DEFAULT_BUSINESS_HOURS, days: [], holidays: [], configured: false };
      return {
        timezone: row.timezone,
        days: readJson(row.days, ZRanges, []),
        holidays: readJson(row.holidays, ZDates, []),
        away_enabled: row.away_enabled === 1,
        away_message: row.away_message,
        away_with_bot: row.away_with_bot === 1,
        configured: true,
      };
    },

    async save(companyId: number, hours: BusinessHours): Promise<void> {
      const at = new Date().toISOString();
      const values = {
        timezone: hours.timezone,
        // Kept in a stable order: by day, then by opening.
        days: JSON.stringify([...hours.days].sort((a, b) => a.day - b.day || a.open.localeCompare(b.open))),
        holidays: JSON.stringify([...hours.holidays].sort()),
        away_enabled: hours.away_enabled ? 1 : 0,
        away_message: hours.away_message,
        away_with_bot: hours.away_with_bot ? 1 : 0,
      };
      await db
        .insertInto('business_hours')
        .values({ company_id: companyId, ...values, created_at: at, updated_at: at })
        .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...values, updated_at: at }))
        .execute();
    },

    /**
     * Marks the client's away message of closed `period` as sent: true the first time for that period
     * (the caller sends it), false when it already was. One statement, so two messages handled at once
     * cannot both win.
     */
    async claimAwayReply(companyId: number, clientId: number, period: string, at: string): Promise<boolean> {
      const result = await db
        .insertInto('away_replies')
        .values({ client_id: clientId, company_id: companyId, period, sent_at: at })
        .onConflict((oc) =>
          oc
            .column('client_id')
            .doUpdateSet({ period, sent_at: at, company_id: companyId })
            .where('away_replies.period', '<>', period),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

export type BusinessHoursRepository = ReturnType<typeof createBusinessHoursRepository>;
