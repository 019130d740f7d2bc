import type { AdminHomeSummary, MassMessageStatus } from '@hablabot/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import { emptyCounts } from '../mass-messages/mass-messages.repository';

/** Who writes messages: customers, the company's admins, its bots. */
const SENDERS = ['client', 'admin', 'bot'] as const;

/** A count as both engines return it (PostgreSQL's bigint arrives as text). */
const num = (value: unknown): number => Number(value ?? 0);

/**
 * The admin home's figures for one company, each read from an index of that company and never from the
 * whole table: today's messages are counts of one (company_id, sender_type, created_at) range per sender,
 * the newest send is the last entry of (company_id, id), the live bot comes from (company_id, state), and
 * the unread conversations (clients whose unread counter, kept as messages arrive and are read, is above
 * 0) are counted from the partial index that holds only those clients.
 */
export function createAdminHomeRepository(db: Executor) {
  return {
    async summary(companyId: number, dayStart: string): Promise<AdminHomeSummary> {
      const today = sql.join(
        SENDERS.map(
          (sender) =>
            sql`(select count(*) from messages m where m.company_id = ${companyId} and m.sender_type = ${sender} and m.created_at >= ${dayStart})`,
        ),
        sql` + `,
      );
      const [figures, send, bot] = await Promise.all([
        sql<{ unread: unknown; today: unknown }>`
          select (select count(*) from conversations c where c.company_id = ${companyId} and c.unread_count > 0) as unread,
            ${today} as today`.execute(db),
        db
          .selectFrom('mass_messages')
          .select(['id', 'name', 'status', 'counts', 'scheduled_at', 'created_at'])
          .where('company_id', '=', companyId)
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst(),
        db
          .selectFrom('bots')
          .select(['id', 'bot_name'])
          .where('company_id', '=', companyId)
          .where('state', '=', 1)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst(),
      ]);
      const row = figures.rows[0];
      return {
        unread_conversations: num(row?.unread),
        messages_today: num(row?.today),
        last_mass_send: send
          ? {
              id: send.id,
              name: send.name,
              status: send.status as MassMessageStatus,
              counts: parseCounts(send.counts),
              scheduled_at: send.scheduled_at,
              created_at: send.created_at,
            }
          : null,
        live_bot: bot ? { id: bot.id, name: bot.bot_name } : null,
      };
    },
  };
}

function parseCounts(raw: string) {
  try {
    return { ...emptyCounts(), ...JSON.parse(raw) };
  } catch {
    return emptyCounts();
  }
}

export type AdminHomeRepository = ReturnType<typeof createAdminHomeRepository>;
