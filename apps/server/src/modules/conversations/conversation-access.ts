import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../../db/schema';
import type { Executor } from '../../db/transactions';
import { type AuthContext, isAgentOnly } from '../../platform/auth';
import type { InboxSettingsRepository } from '../team/inbox-settings.repository';

/**
 * Who may see which conversation — the inbox's privacy rule, in one place:
 *
 * - an admin of the company sees every conversation of it;
 * - an agent sees every conversation when the company's inbox settings say `agents_see_all`; otherwise
 *   only the conversations assigned to them and the unassigned ones (a client without a conversation row
 *   yet counts as unassigned).
 *
 * A conversation the caller may not see does not exist for them: its history, sending, marking read,
 * notes, assignment and its messages answer 404, it is left out of every list, and no live event about it
 * reaches their stream (see `mayReceive`).
 */
export type Visibility = { kind: 'all' } | { kind: 'own'; userId: number };

export function createConversationAccess(deps: {
  db: Executor;
  inboxSettings: Pick<InboxSettingsRepository, 'get'>;
}) {
  const { db, inboxSettings } = deps;

  async function visibilityOf(auth: AuthContext, companyId: number): Promise<Visibility> {
    if (!isAgentOnly(auth)) return { kind: 'all' };
    const settings = await inboxSettings.get(companyId);
    return settings.agents_see_all ? { kind: 'all' } : { kind: 'own', userId: auth.user.id };
  }

  return {
    visibilityOf,

    /**
     * A filter on `conversations` rows (joined or not) for what `visibility` lets through. Use on a query
     * that left-joins conversations to clients: a missing row (null assignee) is unassigned.
     */
    visibleWhere(visibility: Visibility) {
      return (eb: ExpressionBuilder<DB, 'conversations'>) =>
        visibility.kind === 'all'
          ? eb.lit(true)
          : eb.or([
              eb('conversations.assignee_user_id', 'is', null),
              eb('conversations.assignee_user_id', '=', visibility.userId),
            ]);
    },

    /** Whether the caller may see the conversation with `clientId` (of their company). */
    async maySee(auth: AuthContext, companyId: number, clientId: number): Promise<boolean> {
      const visibility = await visibilityOf(auth, companyId);
      if (visibility.kind === 'all') return true;
      const row = await db
        .selectFrom('conversations')
        .select('assignee_user_id')
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return mayReceive(visibility, row?.assignee_user_id ?? null);
    },
  };
}

/** Whether a reader of `visibility` may see a conversation assigned to `assigneeId` (null: nobody). */
export function mayReceive(visibility: Visibility, assigneeId: number | null): boolean {
  return visibility.kind === 'all' || assigneeId === null || assigneeId === visibility.userId;
}

export type ConversationAccess = ReturnType<typeof createConversationAccess>;
