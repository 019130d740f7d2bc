import { sql } from 'kysely';
import type { Executor } from '../../db/transactions';
import { now } from './client-rows';

/**
 * A client's conversation as a customer's new message left it: what the chat list shows and whether
 * the bot answers.
 */
export interface ClientAfterMessage {
  unread_messages_count: number;
  last_message_content: string | null;
  last_message_date: string | null;
  mode_bot: number;
}

/**
 * The conversation a customer's message arrived in, as it left it: also its id, status (the message
 * does not reopen it; see modules/conversations/auto-assign.ts), assignee and message count (1: the
 * message started it).
 */
export interface ConversationAfterIncoming extends ClientAfterMessage {
  conversationId: number;
  status: string;
  assigneeId: number | null;
  messagesCount: number;
}

interface ConversationState {
  unread_count: number | string;
  last_message_content: string | null;
  last_message_at: string | null;
  bot_paused: number | string;
}

/** A conversation row's chat-list state, as the API names it. */
export const toAfterMessage = (r: ConversationState): ClientAfterMessage => ({
  unread_messages_count: Number(r.unread_count),
  last_message_content: r.last_message_content,
  last_message_date: r.last_message_at,
  mode_bot: Number(r.bot_paused) === 1 ? 0 : 1,
});

/**
 * What a customer's messages do to their conversation (one more unread, the chat list's last message):
 * the webhook's writes to the conversations table. Part of the conversations repository
 * (`createConversationsRepository` spreads it in), so they run in the caller's transaction.
 */
export function createIncomingNotes(db: Executor) {
  return {
    /**
     * Customer messages (a webhook batch, or one): each client's conversation gets its count of new unread
     * messages and — unless it already shows a later one (a delivery retried days later) — the newest of
     * them (in the order given) as the chat list's last message and date, in one statement per 500
     * clients, which creates the conversation when the client has none yet. Each conversation as it now
     * is, by client id, so what follows the write (the event stream, the bot) reads nothing again. The
     * clients must be the company's (the caller just found or created them).
     */
    async noteIncomingMessages(
      companyId: number,
      messages: { clientId: number; content: string; date: string }[],
    ): Promise<Map<number, ConversationAfterIncoming>> {
      const byClient = new Map<number, { content: string; date: string; count: number }>();
      for (const m of messages) {
        const seen = byClient.get(m.clientId);
        if (!seen) byClient.set(m.clientId, { content: m.content, date: m.date, count: 1 });
        else {
          seen.count++;
          if (seen.date <= m.date) Object.assign(seen, { content: m.content, date: m.date });
        }
      }
      const at = now();
      const after = new Map<number, ConversationAfterIncoming>();
      const clients = [...byClient.keys()].sort((a, b) => a - b);
      for (let i = 0; i < clients.length; i += 500) {
        const rows = await db
          .insertInto('conversations')
          .values(
            clients.slice(i, i + 500).map((clientId) => {
              const m = byClient.get(clientId)!;
              return {
                company_id: companyId,
                client_id: clientId,
                unread_count: m.count,
                last_message_content: m.content,
                last_message_at: m.date,
                created_at: at,
                updated_at: at,
              };
            }),
          )
          .onConflict((oc) =>
            oc.column('client_id').doUpdateSet(() => ({
              unread_count: sql`conversations.unread_count + excluded.unread_count`,
              last_message_content: sql`case when conversations.last_message_at is null
                or conversations.last_message_at <= excluded.last_message_at
                then excluded.last_message_content else conversations.last_message_content end`,
              last_message_at: sql`case when conversations.last_message_at is null
                or conversations.last_message_at <= excluded.last_message_at
                then excluded.last_message_at else conversations.last_message_at end`,
            })),
          )
          .returning([
            'client_id',
            'unread_count',
            'last_message_content',
            'last_message_at',
            'bot_paused',
            'id',
            'status',
            'assignee_user_id',
            'messages_count',
          ])
          .execute();
        for (const r of rows)
          after.set(r.client_id, {
            ...toAfterMessage(r),
            conversationId: r.id,
            status: r.status,
            assigneeId: r.assignee_user_id,
            messagesCount: Number(r.messages_count),
          });
      }
      return after;
    },
  };
}
