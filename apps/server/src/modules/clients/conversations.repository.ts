import type { BotMode, Client } from '@hablabot/contract';
import { sql } from 'kysely';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { createClientReader, matching, now, searchCondition } from './client-rows';
import {
  type ClientAfterMessage,
  createIncomingNotes,
  toAfterMessage,
} from './conversations-incoming.repository';

export type { ClientAfterMessage, ConversationAfterIncoming } from './conversations-incoming.repository';

export interface ChatListOptions {
  /** Part of the name and last names or of the email (case and accents ignored), or of the phone. */
  search?: string;
  limit: number;
  offset: number;
  /**
   * An agent who sees only their own and the unassigned conversations (the inbox's privacy rule,
   * modules/conversations/conversation-access.ts): the list leaves out the others'. Unset: all.
   */
  onlyFor?: number;
}

/** The columns of a client's chat-list state (`statesOf`). */
const STATE_COLUMNS = [
  'clients.id',
  'conversations.unread_count',
  'conversations.last_message_content',
  'conversations.last_message_at',
  'conversations.bot_paused',
] as const;

function stateOfRow(row: {
  unread_count: number | null;
  last_message_content: string | null;
  last_message_at: unknown;
  bot_paused: number | null;
}): ClientAfterMessage {
  return toAfterMessage({
    unread_count: row.unread_count ?? 0,
    last_message_content: row.last_message_content ?? null,
    last_message_at: (row.last_message_at as string | null) ?? null,
    bot_paused: row.bot_paused ?? 0,
  });
}

/** One client's state: read for every customer message (hand-off asks whether the bot answers). */
const stateOfOne = prepared((db, v: { companyId: number; clientId: number }) =>
  db
    .selectFrom('clients')
    .leftJoin('conversations', 'conversations.client_id', 'clients.id')
    .select(STATE_COLUMNS)
    .where('clients.company_id', '=', v.companyId)
    .where('clients.id', '=', v.clientId),
);

/**
 * The conversations' chat-list state (unread count, last message, bot mode) of these clients of the
 * company, by client id: a client's default state when it has no conversation yet; clients that are not
 * the company's are left out.
 */
async function statesOf(
  db: Executor,
  companyId: number,
  clientIds: number[],
): Promise<Map<number, ClientAfterMessage>> {
  const states = new Map<number, ClientAfterMessage>();
  if (!clientIds.length) return states;
  const rows = await db
    .selectFrom('clients')
    .leftJoin('conversations', 'conversations.client_id', 'clients.id')
    .select(STATE_COLUMNS)
    .where('clients.company_id', '=', companyId)
    .where('clients.id', 'in', clientIds)
    .execute();
  for (const row of rows) states.set(row.id, stateOfRow(row));
  return states;
}

/**
 * The company's conversations with a message (those the chat list shows first) whose client matches, and
 * — for an agent (`onlyFor`) — that are theirs or unassigned.
 */
function writtenChats(db: Executor, companyId: number, options: Pick<ChatListOptions, 'search' | 'onlyFor'>) {
  const condition = searchCondition(options.search, db);
  const { onlyFor } = options;
  let written = db
    .selectFrom('conversations')
    .innerJoin('clients', 'clients.id', 'conversations.client_id')
    .where('conversations.company_id', '=', companyId)
    .where('conversations.last_message_at', 'is not', null);
  if (onlyFor !== undefined)
    written = written.where((eb) =>
      eb.or([
        eb('conversations.assignee_user_id', 'is', null),
        eb('conversations.assignee_user_id', '=', onlyFor),
      ]),
    );
  return condition ? written.where(condition) : written;
}

/**
 * The statement that picks the client ids of a chat list page among the written conversations, latest
 * first (exported so tests can check the database reads it from conversations_chat_order_idx).
 */
export function chatPageQuery(db: Executor, companyId: number, options: ChatListOptions) {
  return writtenChats(db, companyId, options)
    .select('conversations.client_id as id')
    .orderBy('conversations.last_message_at', 'desc')
    .orderBy('conversations.client_id')
    .limit(options.limit)
    .offset(options.offset);
}

/**
 * A company's conversations: the only SQL that writes the conversations table (with the customers'
 * messages noted in conversations-incoming.repository.ts, spread in), and the chat list. Every function
 * takes the company it is scoped to; a client's conversation is found by the client's id (one per client
 * while a company has one WhatsApp number).
 */
export function createConversationsRepository(db: Executor) {
  const reader = createClientReader(db);

  /** Sets columns of the client's conversation, creating it when the client (of the company) has none. */
  async function upsertState(
    companyId: number,
    clientId: number,
    values: { bot_paused: number },
    onlyWhen?: 'bot_on',
  ): Promise<boolean> {
    const at = now();
    const result = await db
      .insertInto('conversations')
      .columns(['company_id', 'client_id', 'bot_paused', 'created_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('clients')
          .select([
            'company_id',
            'id',
            sql.lit(values.bot_paused).as('bot_paused'),
            sql.val(at).as('created_at'),
            sql.val(at).as('updated_at'),
          ])
          .where('company_id', '=', companyId)
          .where('id', '=', clientId),
      )
      .onConflict((oc) => {
        const update = oc.column('client_id').doUpdateSet({ bot_paused: values.bot_paused, updated_at: at });
        return onlyWhen === 'bot_on' ? update.where('conversations.bot_paused', '=', 0) : update;
      })
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  return {
    ...createIncomingNotes(db),

    /**
     * The chat list: latest conversation first (ties by client id), then the clients never written to,
     * by name. The written part is read from conversations_chat_order_idx and the rest from the clients'
     * name index, so a page is read without sorting the company; a page that starts among the never
     * written counts the written ones to know where it starts.
     */
    async listForChat(companyId: number, options: ChatListOptions): Promise<Client[]> {
      const written = writtenChats(db, companyId, options);
      const { onlyFor } = options;
      const first = await chatPageQuery(db, companyId, options).execute();
      const ids = first.map((r) => r.id);
      if (ids.length < options.limit) {
        let offset = 0;
        if (ids.length === 0 && options.offset > 0) {
          const count = await written
            .select(sql<number>`cast(count(*) as integer)`.as('n'))
            .executeTakeFirstOrThrow();
          offset = Math.max(0, options.offset - Number(count.n));
        }
        // Never written to: no conversation with a message (and, for an agent, none assigned to another).
        const never = await matching(db, companyId, options.search)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('conversations')
                  .select(sql.lit(1).as('one'))
                  .whereRef('conversations.client_id', '=', 'clients.id')
                  .where((eb) =>
                    onlyFor === undefined
                      ? eb('conversations.last_message_at', 'is not', null)
                      : eb.or([
                          eb('conversations.last_message_at', 'is not', null),
                          eb.and([
                            eb('conversations.assignee_user_id', 'is not', null),
                            eb('conversations.assignee_user_id', '!=', onlyFor),
                          ]),
                        ]),
                  ),
              ),
            ),
          )
          .select('clients.id')
          .orderBy('clients.name_sort')
          .orderBy('clients.id')
          .limit(options.limit - ids.length)
          .offset(offset)
          .execute();
        ids.push(...never.map((r) => r.id));
      }
      return reader.inOrder(companyId, ids);
    },

    /** How many messages the client's conversation holds; undefined when the client is not the company's. */
    async messagesCount(companyId: number, id: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('clients')
        .leftJoin('conversations', 'conversations.client_id', 'clients.id')
        .select('conversations.messages_count')
        .where('clients.company_id', '=', companyId)
        .where('clients.id', '=', id)
        .executeTakeFirst();
      return row ? Number(row.messages_count ?? 0) : undefined;
    },

    /**
     * The conversations' chat-list state (unread count, last message, bot mode) of these clients of the
     * company, by client id: a client's default state when it has no conversation yet; clients that are
     * not the company's are left out.
     */
    conversationStates: (companyId: number, clientIds: number[]) => statesOf(db, companyId, clientIds),

    /** One client's conversation state (`conversationStates`); undefined when not the company's. */
    async conversationState(companyId: number, clientId: number): Promise<ClientAfterMessage | undefined> {
      const [row] = (await stateOfOne(db, { companyId, clientId })).rows;
      return row ? stateOfRow(row) : undefined;
    },

    /** When the customer last wrote to the company (their newest message); null when never. */
    async lastCustomerMessageAt(companyId: number, clientId: number): Promise<string | null> {
      const row = await db
        .selectFrom('conversations')
        .select('customer_last_message_at')
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      const at = row?.customer_last_message_at as unknown;
      if (at === null || at === undefined) return null;
      return new Date(at instanceof Date ? at : String(at)).toISOString();
    },

    /** Pauses the bot for the client when it was on (an admin took over); true when it changed. */
    async pauseBot(companyId: number, id: number): Promise<boolean> {
      return upsertState(companyId, id, { bot_paused: 1 }, 'bot_on');
    },

    /** The bot on (1) or off (0) for the client; false when the client is not the company's. */
    async setBotMode(companyId: number, id: number, mode: BotMode): Promise<boolean> {
      return upsertState(companyId, id, { bot_paused: mode === 1 ? 0 : 1 });
    },

    /**
     * A message to the customer (admin, bot or a mass message) becomes the conversation's last message, for
     * the chat list's order and preview; the unread count stays as it is. A message dated before the one
     * shown changes nothing.
     */
    async noteOutgoingMessage(
      companyId: number,
      clientId: number,
      message: { content: string; date: string },
    ): Promise<void> {
      await db
        .updateTable('conversations')
        .set({ last_message_content: message.content, last_message_at: message.date })
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .where((eb) => eb.or([eb('last_message_at', 'is', null), eb('last_message_at', '<=', message.date)]))
        .execute();
    },

    /** The client's unread count back to 0; false when the client is not the company's. */
    async resetUnread(companyId: number, clientId: number): Promise<boolean> {
      const client = await db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', '=', clientId)
        .executeTakeFirst();
      if (!client) return false;
      await db
        .updateTable('conversations')
        .set({ unread_count: 0 })
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .where('unread_count', '>', 0)
        .execute();
      return true;
    },
  };
}

export type ConversationsRepository = ReturnType<typeof createConversationsRepository>;
