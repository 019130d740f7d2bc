import { companyCheck } from '../../db/company-check';
import type { Executor } from '../../db/transactions';
import type { Audience } from '../../platform/events/events';
import type { InboxSettingsRepository } from '../team/inbox-settings.repository';

/**
 * The audience of live events about conversations (see `Audience` in platform/events/events.ts): who the
 * conversation is assigned to and whether the company lets agents see every conversation, both as they are
 * when the event is published. The stream only compares them with its reader, so it reads nothing itself.
 */
export function createAudiences(deps: { db: Executor; inboxSettings: Pick<InboxSettingsRepository, 'get'> }) {
  const { db, inboxSettings } = deps;

  return {
    /**
     * The audiences of these clients' conversations, by client id: one read of the company's settings and
     * one of the assignees. A client without a conversation row yet is unassigned.
     */
    async ofClients(companyId: number, clientIds: number[]): Promise<Map<number, Audience>> {
      const audiences = new Map<number, Audience>();
      if (clientIds.length === 0) return audiences;
      const unique = [...new Set(clientIds)];
      const [settings, rows] = await Promise.all([
        inboxSettings.get(companyId),
        db
          .selectFrom('conversations')
          .select(['client_id', 'assignee_user_id'])
          .where(companyCheck(), '=', companyId)
          .where('client_id', 'in', unique)
          .execute(),
      ]);
      const assignees = new Map(rows.map((r) => [r.client_id, r.assignee_user_id ?? null]));
      for (const clientId of unique)
        audiences.set(clientId, {
          kind: 'conversation',
          assigneeId: assignees.get(clientId) ?? null,
          agentsSeeAll: settings.agents_see_all,
        });
      return audiences;
    },
  };
}

export type Audiences = ReturnType<typeof createAudiences>;

/** Also tells `userIds` (besides the conversation's readers): an assignee who just lost it. */
export function withAlso(audience: Audience, userIds: (number | null | undefined)[]): Audience {
  if (audience.kind !== 'conversation') return audience;
  const also = userIds.filter((id): id is number => typeof id === 'number' && id !== audience.assigneeId);
  return also.length ? { ...audience, also } : audience;
}
