import { MESSAGE_STATUS, type Message, type MessageSender } from '@hablabot/contract';
import { companyCheck } from '../../db/company-check';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { statusHistory } from './message-authorship';
import {
  AUTOMATIC_TEXT_TYPE,
  type ConversationTurn,
  NOTE_TYPE,
  type StoredMedia,
  createMessagePresenter,
  mediaStatusOf,
  now,
} from './message-rows';
import { createMessageInserts } from './message-inserts.repository';
import { createMessageUpdates } from './message-updates.repository';
import { createScheduledUpdates } from './scheduled-messages.repository';

export {
  BOT_FAILURE_TYPE,
  type ConversationTurn,
  type NewMessage,
  STATUS_RANK,
  type StatusChange,
  type StoredMedia,
  assertResendable,
  mediaUrlOf,
  toMessage,
} from './message-rows';

/** One message of the company, whole: read for every customer message (the chat's stream, hand-off). */
const messageById = prepared((db, v: { companyId: number; id: number }) =>
  db.selectFrom('messages').selectAll().where('company_id', '=', v.companyId).where('id', '=', v.id),
);

/**
 * A company's chat messages: the only SQL of the messages table — reading them here, storing them in
 * message-inserts.repository.ts, changing them in message-updates.repository.ts. Every function takes the
 * company it is scoped to. Built on the database or on a transaction (see `createRepositories`).
 */
export function createMessagesRepository(db: Executor) {
  const { present, presentOne } = createMessagePresenter(db);

  return {
    ...createMessageUpdates(db),
    ...createMessageInserts(db),
    ...createScheduledUpdates(db),

    /** What was asked of WhatsApp for an outgoing message (JSON); undefined when none is kept. */
    async findOutboundRequest(companyId: number, id: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('messages')
        .select('outbound_request')
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.outbound_request ?? undefined;
    },

    /** The company's messages with these ids, as the history shows them (in no given order). */
    async findMessages(companyId: number, ids: number[]): Promise<Message[]> {
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where(companyCheck(), '=', companyId)
        .where('id', 'in', ids)
        .execute();
      return present(companyId, rows);
    },

    async findMessage(companyId: number, id: number): Promise<Message | undefined> {
      const [row] = (await messageById(db, { companyId, id })).rows;
      return presentOne(companyId, row);
    },

    /** Every status of a message the caller found to be the company's, oldest first. */
    statusHistory: (messageId: number) => statusHistory(db, messageId),

    /** The client and wamid of a message of the company (the one an agent answers). */
    async findWamid(
      companyId: number,
      id: number,
    ): Promise<{ clientId: number; wamid: string | null } | undefined> {
      const row = await db
        .selectFrom('messages')
        .select(['client_id', 'wamid'])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { clientId: row.client_id, wamid: row.wamid } : undefined;
    },

    /** Whether the customer wrote to the company before this message of theirs. */
    async customerWroteBefore(companyId: number, clientId: number, messageId: number): Promise<boolean> {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('company_id', '=', companyId)
        .where('client_id', '=', clientId)
        .where('sender_type', '=', 'client')
        .where('id', '<', messageId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** The id of the company's message with this wamid (the message a customer's reply quotes). */
    async idByWamid(companyId: number, wamid: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('company_id', '=', companyId)
        .where('wamid', '=', wamid)
        .executeTakeFirst();
      return row?.id;
    },

    async findByWamid(companyId: number, wamid: string): Promise<Message | undefined> {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('wamid', '=', wamid)
        .executeTakeFirst();
      return presentOne(companyId, row);
    },

    /** The message's media as stored; undefined when the message is not the company's. */
    async findMedia(companyId: number, id: number): Promise<StoredMedia | undefined> {
      const r = await db
        .selectFrom('messages')
        .select([
          'id',
          'client_id',
          'sender_type',
          'message_type',
          'wa_type',
          'media_id',
          'media_mime_type',
          'media_file_name',
          'media_sha256',
          'media_storage_key',
          'media_status',
          'media_attempts',
          'created_at',
        ])
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
      return r
        ? {
            id: r.id,
            clientId: r.client_id,
            senderType: r.sender_type,
            messageType: r.message_type,
            waType: r.wa_type,
            mediaId: r.media_id,
            mimeType: r.media_mime_type,
            fileName: r.media_file_name,
            sha256: r.media_sha256,
            storageKey: r.media_storage_key,
            status: mediaStatusOf(r),
            attempts: r.media_attempts,
            createdAt: r.created_at,
          }
        : undefined;
    },

    /**
     * The client's latest `limit` messages that belong in a conversation with the bot, oldest first: the
     * bot's failure notes, the team's internal notes, messages that never reached WhatsApp (status 4) and
     * those still scheduled (status 5) are left out.
     */
    async recentConversation(
      companyId: number,
      clientId: number,
      limit: number,
    ): Promise<ConversationTurn[]> {
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'sender_type', 'content'])
        .where('client_id', '=', clientId)
        .where('company_id', '=', companyId)
        .where('status', 'not in', [MESSAGE_STATUS.failed, MESSAGE_STATUS.scheduled])
        .where('wa_type', 'not in', [NOTE_TYPE, AUTOMATIC_TEXT_TYPE])
        .orderBy('client_id', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows
        .reverse()
        .map((r) => ({ id: r.id, sender: r.sender_type as MessageSender, content: r.content }));
    },

    /**
     * One page of a client's conversation, counted from the newest (page 1), returned oldest first. The
     * page's ids are found in the (company_id, client_id, id) index alone, read backwards, and only those
     * rows are read from the table: a page far back skips its thousands of newer messages in the index
     * without fetching each of them (on PostgreSQL a plain OFFSET fetched every skipped row). The
     * conversation's size is the client row's `messages_count`, not counted here. Messages still
     * scheduled are left out of the page (after the ids were chosen, so the pages stay where they were);
     * the history lists them apart, below the conversation.
     */
    async listPage(
      companyId: number,
      clientId: number,
      page: { page: number; perPage: number },
    ): Promise<Message[]> {
      // The company and the client are named in the inner query, which alone decides the ids; the outer
      // one only reads those rows by their key (naming them again there lets PostgreSQL's planner read the
      // whole conversation to join it with the ten ids).
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('messages')
            .select('id')
            .where('company_id', '=', companyId)
            .where('client_id', '=', clientId)
            .orderBy('company_id', 'desc')
            .orderBy('client_id', 'desc')
            .orderBy('id', 'desc')
            .limit(page.perPage)
            .offset((page.page - 1) * page.perPage),
        )
        // Scheduled messages are listed apart (`listScheduled`): a page holding one shows one less.
        .where('status', '!=', MESSAGE_STATUS.scheduled)
        .orderBy('id')
        .execute();
      return present(companyId, rows);
    },

    /**
     * Marks the customer's messages to the company read; how many changed, and the wamid of the newest
     * customer message (WhatsApp is told up to that one).
     */
    async markClientMessagesRead(
      companyId: number,
      clientId: number,
    ): Promise<{ updated: number; lastWamid: string | null }> {
      const at = now();
      const result = await db
        .updateTable('messages')
        .set({ status: MESSAGE_STATUS.read, status_at: at, updated_at: at })
        .where('client_id', '=', clientId)
        .where('company_id', '=', companyId)
        .where('sender_type', '=', 'client')
        .where('status', '!=', MESSAGE_STATUS.read)
        .executeTakeFirst();
      const last = await db
        .selectFrom('messages')
        .select('wamid')
        .where('client_id', '=', clientId)
        .where('company_id', '=', companyId)
        .where('sender_type', '=', 'client')
        .where('wamid', 'is not', null)
        .orderBy('client_id', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return { updated: Number(result.numUpdatedRows), lastWamid: last?.wamid ?? null };
    },
  };
}

export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
