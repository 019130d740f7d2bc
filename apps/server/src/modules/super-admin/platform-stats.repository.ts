import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from '../../db/transactions';

const isPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/** A count as both engines return it (PostgreSQL's bigint arrives as text). */
const num = (value: unknown): number => Number(value ?? 0);

export interface DayRow {
  day: string;
  received: number;
  sent_by_admins: number;
  sent_by_bots: number;
  failed: number;
}

/** The figures the super admin reads across companies: counts only, each from one query. */
export function createPlatformStatsRepository(db: Executor) {
  /** The UTC day of a message's time as YYYY-MM-DD (SQLite keeps ISO text, so its first 10 characters). */
  const dayOf = () =>
    isPostgres(db)
      ? sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`
      : sql<string>`substr(created_at, 1, 10)`;

  return {
    /**
     * Messages since `monthStart`, the bots' messages since `dayStart`, users and companies. The two
     * message counts read one range of the (created_at, sender_type, status) index.
     */
    async overview(monthStart: string, dayStart: string) {
      const row = await db
        .selectFrom('messages')
        .where('created_at', '>=', monthStart)
        .select([
          sql<number>`count(*)`.as('messages_this_month'),
          sql<number>`coalesce(sum(case when sender_type = 'bot' and created_at >= ${dayStart} then 1 else 0 end), 0)`.as(
            'bot_interactions_today',
          ),
          sql<number>`(select count(*) from users)`.as('users'),
          sql<number>`(select count(*) from companies)`.as('companies'),
        ])
        .executeTakeFirstOrThrow();
      return {
        messages_this_month: num(row.messages_this_month),
        bot_interactions_today: num(row.bot_interactions_today),
        users: num(row.users),
        companies: num(row.companies),
      };
    },

    /**
     * Messages per UTC day since `from`: received from customers, sent by admins, sent by bots, and
     * outgoing ones not sent (status 4), which are counted only as failed. One grouped query over the
     * period's index range; days without messages are left out (the caller fills them in).
     */
    async messagesPerDay(from: string, companyId?: number): Promise<DayRow[]> {
      let query = db.selectFrom('messages').where('created_at', '>=', from);
      if (companyId !== undefined) query = query.where('company_id', '=', companyId);
      const day = dayOf();
      const rows = await query
        .select([
          day.as('day'),
          sql<number>`sum(case when sender_type = 'client' then 1 else 0 end)`.as('received'),
          sql<number>`sum(case when sender_type = 'admin' and status <> 4 then 1 else 0 end)`.as(
            'sent_by_admins',
          ),
          sql<number>`sum(case when sender_type = 'bot' and status <> 4 then 1 else 0 end)`.as(
            'sent_by_bots',
          ),
          sql<number>`sum(case when sender_type <> 'client' and status = 4 then 1 else 0 end)`.as('failed'),
        ])
        .groupBy(day)
        .orderBy(day)
        .execute();
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
        .leftJoin('settings as s', 's.company_id', 'c.id')
        .select([
          'c.id',
          'c.name',
          'c.created_at',
          sql<number>`(select count(*) from clients where clients.company_id = c.id)`.as('clients_count'),
          sql<number>`(select count(*) from messages m where m.company_id = c.id and m.created_at >= ${monthStart})`.as(
            'messages_this_month',
          ),
          sql<
            string | Date | null
          >`(select max(m.created_at) from messages m where m.company_id = c.id and m.sender_type = 'client')`.as(
            'last_webhook_at',
          ),
          sql<number>`case when s.whatsapp_phone_id is not null and s.whatsapp_api_key_enc is not null then 1 else 0 end`.as(
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
