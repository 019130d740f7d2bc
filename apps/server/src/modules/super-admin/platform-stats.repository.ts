import { PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/transactions';

const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A count as both engines return it (PostgreSQL's bigint arrives as text). */
const num = (value: unknown): number => Number(value ?? 0);

/** One day as the chart counts it: its key (YYYY-MM-DD) and its time range [start, stop), ISO 8601 UTC. */
export interface DayRange {
  day: string;
  start: string;
  stop: string;
}

export interface DayRow {
  day: string;
  received: number;
  sent_by_admins: number;
  sent_by_bots: number;
  failed: number;
}

/** Who writes messages: customers, the company's admins, its bots. */
const SENDERS = ['client', 'admin', 'bot'] as const;

/**
 * The figures the super admin reads across companies: counts only, each from one query. Every message
 * count is written as counts of one sender over one time range, so it reads one contiguous range of the
 * (sender_type, created_at, status) index — or (company_id, sender_type, created_at, status) for one
 * company — and never the table. (Summing a CASE per row over the same messages measured 5 to 7 times
 * slower on SQLite with 500,000 messages in the range.)
 */
export function createPlatformStatsRepository(db: Executor) {
  /** Messages of `sender` since `from` (and before `to`), in `company` when given; `extra` narrows further. */
  const count = (
    sender: (typeof SENDERS)[number],
    from: RawBuilder<unknown>,
    options: { to?: RawBuilder<unknown>; company?: RawBuilder<unknown>; extra?: RawBuilder<unknown> } = {},
  ) =>
    sql<number>`(select count(*) from messages m where ${options.company ? sql`m.company_id = ${options.company} and ` : sql``}m.sender_type = ${sender} and m.created_at >= ${from}${options.to ? sql` and m.created_at < ${options.to}` : sql``}${options.extra ? sql` and ${options.extra}` : sql``})`;
  const allSenders = (from: RawBuilder<unknown>, company?: RawBuilder<unknown>) =>
    sql.join(
      SENDERS.map((sender) => count(sender, from, { company })),
      sql` + `,
    );

  return {
    /** Messages since `monthStart`, the bots' messages since `dayStart`, users and companies. */
    async overview(monthStart: string, dayStart: string) {
      const { rows } = await sql<Record<string, string | number>>`
        select ${allSenders(sql.val(monthStart))} as messages_this_month,
          ${count('bot', sql.val(dayStart))} as bot_interactions_today,
          (select count(*) from users) as users,
          (select count(*) from companies) as companies`.execute(db);
      const row = rows[0]!;
      return {
        messages_this_month: num(row.messages_this_month),
        bot_interactions_today: num(row.bot_interactions_today),
        users: num(row.users),
        companies: num(row.companies),
      };
    },

    /**
     * Messages per day: received from customers, sent by admins, sent by bots, and outgoing ones not
     * sent (status 4), which are counted only as failed. One query: the days are a small table of time
     * ranges, and each figure of a day is a count of one index range.
     */
    async messagesPerDay(days: DayRange[], companyId?: number): Promise<DayRow[]> {
      if (days.length === 0) return [];
      const pg = isPostgres(db);
      const ranges = sql.join(
        days.map((d) =>
          pg
            ? sql`(${d.day}, cast(${d.start} as timestamptz), cast(${d.stop} as timestamptz))`
            : sql`(${d.day}, ${d.start}, ${d.stop})`,
        ),
      );
      const from = sql.ref('days.day_start');
      const to = sql.ref('days.day_stop');
      const company = companyId === undefined ? undefined : sql.val(companyId);
      const failed = sql`m.status = 4`;
      const sent = sql`m.status <> 4`;
      const { rows } = await sql<Record<keyof DayRow, string | number>>`
        with days (day, day_start, day_stop) as (values ${ranges})
        select days.day as day,
          ${count('client', from, { to, company })} as received,
          ${count('admin', from, { to, company, extra: sent })} as sent_by_admins,
          ${count('bot', from, { to, company, extra: sent })} as sent_by_bots,
          ${count('admin', from, { to, company, extra: failed })} + ${count('bot', from, { to, company, extra: failed })} as failed
        from days
        order by days.day`.execute(db);
      return rows.map((r) => ({
        day: String(r.day),
        received: num(r.received),
        sent_by_admins: num(r.sent_by_admins),
        sent_by_bots: num(r.sent_by_bots),
        failed: num(r.failed),
      }));
    },

    /**
     * Every company with its number of clients, its messages since `monthStart`, whether its WhatsApp
     * settings are filled in, and when its last customer message came in (webhook traffic). Each figure
     * per company reads its own index range: clients by company, messages by (company, time).
     */
    async companiesOverview(monthStart: string) {
      const companies = await db
        .selectFrom('companies as c')
        .leftJoin('channels as s', 's.company_id', 'c.id')
        .select([
          'c.id',
          'c.name',
          'c.created_at',
          sql<number>`(select count(*) from clients where clients.company_id = c.id)`.as('clients_count'),
          sql<number>`${allSenders(sql.val(monthStart), sql.ref('c.id'))}`.as('messages_this_month'),
          sql<
            string | Date | null
          >`(select max(m.created_at) from messages m where m.company_id = c.id and m.sender_type = 'client')`.as(
            'last_webhook_at',
          ),
          sql<number>`case when s.phone_number_id is not null and s.access_token_enc is not null then 1 else 0 end`.as(
            'whatsapp_configured',
          ),
        ])
        .orderBy('c.name')
        .execute();
      const admins = await db
        .selectFrom('users as u')
        .innerJoin('user_roles as ur', 'ur.user_id', 'u.id')
        .innerJoin('roles as r', 'r.id', 'ur.role_id')
        .where('r.name', '=', 'admin')
        .where('u.company_id', 'is not', null)
        .select(['u.id', 'u.name', 'u.email', 'u.company_id'])
        .orderBy('u.name')
        .execute();
      return companies.map((c) => ({
        id: c.id,
        name: c.name,
        created_at: c.created_at,
        admins: admins
          .filter((a) => a.company_id === c.id)
          .map(({ id, name, email }) => ({ id, name, email })),
        clients_count: num(c.clients_count),
        messages_this_month: num(c.messages_this_month),
        whatsapp_configured: num(c.whatsapp_configured) === 1,
        last_webhook_at: toIso(c.last_webhook_at),
      }));
    },
  };
}

/** A max() over timestamps: a Date or text on PostgreSQL depending on the parser, ISO text on SQLite. */
function toIso(value: string | Date | null): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}

export type PlatformStatsRepository = ReturnType<typeof createPlatformStatsRepository>;
