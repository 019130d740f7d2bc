import { type MassLimits, massPaceFor, tierLimit } from '@hablabot/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';

/** The window of the number's daily limit: Meta counts the customers reached in the last 24 hours. */
export const DAY_MS = 24 * 60 * 60_000;

/**
 * The number's daily limit (Meta's messaging limit tier): how many unique customers it may reach with
 * business-initiated conversations in any 24 hours. A customer counts as reached when the company sent
 * them a template in the window — a mass message recipient WhatsApp accepted (`sent_at`) or a template
 * sent from the chat — each phone once. Counting every template (even to a customer whose own message
 * had opened the conversation) errs on the side of staying under the limit.
 */
export function createDailyLimit(db: Executor) {
  /** The phones reached since `since` with the last time each was reached. */
  const reached = (companyId: number, since: string) =>
    db
      .selectFrom('mass_message_recipients')
      .select(['phone', 'sent_at as at'])
      .where('company_id', '=', companyId)
      .where('sent_at', 'is not', null)
      .where('sent_at', '>=', since)
      .unionAll(
        db
          .selectFrom('messages')
          .select(['phone', 'created_at as at'])
          .where('company_id', '=', companyId)
          .where('sender_type', '=', 'admin')
          .where('created_at', '>=', since)
          .where('wa_type', '=', 'template')
          .where('author_kind', '!=', 'campaign'),
      );

  return {
    /** The tier's limit of the company's number: null when there is none or it was never read. */
    async limitOf(companyId: number): Promise<number | null> {
      const row = await db
        .selectFrom('channels')
        .select('messaging_limit_tier')
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return tierLimit(row?.messaging_limit_tier);
    },

    /** Unique customers reached from `now` − 24 h. */
    async contacted(companyId: number, now: number): Promise<number> {
      const since = new Date(now - DAY_MS).toISOString();
      const row = await db
        .selectFrom(reached(companyId, since).as('r'))
        .select(sql<number>`count(distinct r.phone)`.as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * When the window frees room next: the earliest time a reached customer's last contact leaves it
     * (undefined when nobody is in the window).
     */
    async freesAt(companyId: number, now: number): Promise<number | undefined> {
      const since = new Date(now - DAY_MS).toISOString();
      const row = await db
        .selectFrom(
          db
            .selectFrom(reached(companyId, since).as('r'))
            .select(['r.phone', (eb) => eb.fn.max('r.at').as('last')])
            .groupBy('r.phone')
            .as('p'),
        )
        .select((eb) => eb.fn.min('p.last').as('first'))
        .executeTakeFirst();
      return row?.first ? Date.parse(String(row.first)) + DAY_MS : undefined;
    },

    /** Unique phones among the list's clients (those a send to it would reach). */
    async listPhones(companyId: number, listId: number): Promise<number> {
      const row = await db
        .selectFrom('client_list_members')
        .innerJoin('clients', 'clients.id', 'client_list_members.client_id')
        .select(sql<number>`count(distinct clients.whatsapp_cellphone)`.as('n'))
        .where('client_list_members.list_id', '=', listId)
        .where('clients.company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type DailyLimit = ReturnType<typeof createDailyLimit>;

/**
 * The numbers the send form shows, and the check of a send to the list: its unique phones plus the
 * customers reached in the last 24 hours against the tier's limit, and the pace a send started now keeps
 * (the number's, never above the company's own setting).
 */
export async function massLimitsOf(
  db: Executor,
  companyId: number,
  listId: number | undefined,
  now = Date.now(),
): Promise<MassLimits> {
  const daily = createDailyLimit(db);
  const channel = await db
    .selectFrom('channels')
    .select(['throughput_level', 'messaging_limit_tier', 'quality_rating', 'limits_read_at'])
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  const company = await db
    .selectFrom('companies')
    .select('mass_messages_per_second')
    .where('id', '=', companyId)
    .executeTakeFirst();
  const recipients = listId === undefined ? 0 : await daily.listPhones(companyId, listId);
  const contacted = await daily.contacted(companyId, now);
  const limit = tierLimit(channel?.messaging_limit_tier);
  return {
    throughput_level: channel?.throughput_level ?? null,
    messaging_limit_tier: channel?.messaging_limit_tier ?? null,
    quality_rating: channel?.quality_rating ?? null,
    read_at: channel?.limits_read_at ?? null,
    recipients,
    contacted_today: contacted,
    daily_limit: limit,
    over_limit: limit !== null && recipients + contacted > limit,
    messages_per_second: massPaceFor(channel?.throughput_level, company?.mass_messages_per_second ?? null),
  };
}
