import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import type { TransactionScope } from '../../repositories';
import type { ConversationAfterIncoming } from '../clients/conversations.repository';
import { onlineSince } from '../team/presence';

/**
 * Auto-assign, the rule (README "Team inbox: auto-assign"): when the company's inbox settings have
 * `auto_assign` on, a NEW conversation (the customer's message is its first message), a conversation the
 * company STARTED (a campaign, a template) at the customer's first answer, or a conversation the customer
 * just REOPENED, that has no assignee, goes to an agent:
 *
 * 1. only agents (role `agent`) of the company who are online — a live stream of theirs showed them
 *    present within the last 60 s (modules/team/presence.ts);
 * 2. only those with fewer open conversations assigned than `agent_capacity`;
 * 3. the one with the fewest open conversations;
 * 4. ties in turn: the one auto-assign served longest ago (never served first; then the lowest user id).
 *    `inbox_agent_turns` keeps when each agent was last served.
 *
 * Nobody available (all offline or full): the conversation stays unassigned. A conversation someone gave
 * back is not handed out again until it is reopened (it is neither new nor reopened).
 *
 * It runs inside the transaction that stores the customer's message, not as a subscriber after commit:
 * the conversation is never seen unassigned by everyone and then taken away, the one `conversation.changed`
 * event carries the final assignee, and the messages of a batch are assigned one after another (two
 * arrivals in one batch see each other's assignment). Its cost is paid only for new, reopened and
 * unassigned conversations (one indexed look at the customer's messages when auto-assign is on); a message
 * in an assigned conversation reads nothing more. Two app processes on PostgreSQL assigning at the
 * same moment may each give one agent a conversation and pass the capacity by one; the next arrival sees it.
 */

export interface AgentLoad {
  userId: number;
  open: number;
  /** When auto-assign last gave them a conversation; null: never. */
  lastAssignedAt: string | null;
}

/** The agent the rule picks among the online ones (steps 2–4); undefined when all are full. */
export function chooseAgent(agents: AgentLoad[], capacity: number): AgentLoad | undefined {
  const free = agents.filter((a) => a.open < capacity);
  free.sort(
    (a, b) =>
      a.open - b.open ||
      (a.lastAssignedAt ?? '').localeCompare(b.lastAssignedAt ?? '') ||
      a.userId - b.userId,
  );
  return free[0];
}

const iso = (at: unknown): string | null =>
  at === null || at === undefined ? null : new Date(at instanceof Date ? at : String(at)).toISOString();

/** The queries of auto-assign (part of the inbox repository). */
export function autoAssignQueries(db: Executor) {
  return {
    /** The company's online agents (step 1) with their open conversations and last turn. */
    async onlineAgents(companyId: number, since: string): Promise<AgentLoad[]> {
      const rows = await db
        .selectFrom('users')
        .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .leftJoin('inbox_agent_turns', 'inbox_agent_turns.user_id', 'users.id')
        .select((eb) => [
          'users.id',
          'inbox_agent_turns.last_assigned_at',
          eb
            .selectFrom('conversations')
            .select(sql<number>`count(*)`.as('n'))
            .where('conversations.company_id', '=', companyId)
            .where('conversations.status', '=', 'open')
            .whereRef('conversations.assignee_user_id', '=', 'users.id')
            .as('open'),
        ])
        .where('users.company_id', '=', companyId)
        .where('roles.name', '=', 'agent')
        .where('users.stream_seen_at', '>=', since)
        .execute();
      return rows.map((r) => ({
        userId: r.id,
        open: Number(r.open ?? 0),
        lastAssignedAt: iso(r.last_assigned_at),
      }));
    },

    /**
     * Whether the client has written only once (the message just stored): the customer's first answer in
     * a conversation the company started. Reads at most two of their messages.
     */
    async isFirstCustomerMessage(companyId: number, clientId: number): Promise<boolean> {
      const rows = await db
        .selectFrom('messages')
        .select('id')
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .where('sender_type', '=', 'client')
        .limit(2)
        .execute();
      return rows.length === 1;
    },

    /** Notes that auto-assign served the agent now (step 4's turn). */
    async recordTurn(companyId: number, userId: number, at: string): Promise<void> {
      await db
        .insertInto('inbox_agent_turns')
        .values({ user_id: userId, company_id: companyId, last_assigned_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ last_assigned_at: at }))
        .execute();
    },
  };
}

/**
 * What a customer's message does to its conversation, inside the transaction that stored it: a resolved
 * conversation opens again (keeping its assignee), and a new or reopened one without an assignee goes
 * through auto-assign. One `conversation.changed` event tells what changed.
 */
export function createConversationArrival(deps: { now?: () => number } = {}) {
  const clock = deps.now ?? Date.now;
  return async function onCustomerMessage(
    tx: TransactionScope,
    companyId: number,
    clientId: number,
    after: ConversationAfterIncoming,
  ): Promise<void> {
    const changed: ('assignee' | 'status')[] = [];
    const reopened =
      after.status === 'resolved' &&
      (await tx.inboxRepository.setStatus(companyId, after.conversationId, 'open'));
    if (reopened) changed.push('status');
    const isNew = after.messagesCount <= 1;
    // A conversation the company started (a campaign, a template to a new client) waits for the customer:
    // their first message in it counts as its start.
    const mayStart = !isNew && !reopened && after.status === 'open';
    if ((isNew || reopened || mayStart) && after.assigneeId === null) {
      const settings = await tx.inboxSettings.get(companyId);
      if (
        settings.auto_assign &&
        (!mayStart || (await tx.inboxRepository.isFirstCustomerMessage(companyId, clientId)))
      ) {
        const now = clock();
        const agents = await tx.inboxRepository.onlineAgents(companyId, onlineSince(now));
        const agent = chooseAgent(agents, settings.agent_capacity);
        if (agent) {
          await tx.inboxRepository.setAssignee(companyId, after.conversationId, agent.userId);
          await tx.inboxRepository.recordTurn(companyId, agent.userId, new Date(now).toISOString());
          changed.push('assignee');
        }
      }
    }
    if (changed.length)
      tx.events.emit('conversation.changed', {
        companyId,
        clientId,
        changed,
        ...(changed.includes('assignee') ? { previousAssigneeId: null } : {}),
        // A reopened unassigned conversation sat in every agent's 'Resueltos'; a new one nobody saw yet.
        wasUnassigned: !isNew && after.assigneeId === null,
      });
  };
}

export type ConversationArrival = ReturnType<typeof createConversationArrival>;
