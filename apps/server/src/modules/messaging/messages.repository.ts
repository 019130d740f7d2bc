import { MESSAGE_STATUS, type Message, type MessageSender } from '@hablabot/contract';
import type { MessageRow } from '../../db/schema';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { defaultAuthor, recordStatus, statusHistory } from './message-authorship';
import {
  AUTOMATIC_TEXT_TYPE,
  type ConversationTurn,
  NOTE_TYPE,
  type NewMessage,
  type StoredMedia,
  createMessagePresenter,
  mediaStatusOf,
  now,
  toMessage,
} from './message-rows';
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

/** The columns a new message is written with. */
type InsertedColumns = Pick<
  MessageRow,
  | 'company_id'
  | 'client_id'
  | 'wamid'
  | 'sender_type'
  | 'message_type'
  | 'wa_type'
  | 'content'
  | 'phone'
  | 'context_wamid'
  | 'media_id'
  | 'media_mime_type'
  | 'media_file_name'
  | 'media_caption'
  | 'media_sha256'
  | 'status'
  | 'outbound_request'
  | 'error_message'
  | 'author_kind'
  | 'author_user_id'
  | 'author_mass_message_id'
  | 'reply_to_id'
  | 'scheduled_at'
  | 'created_at'
  | 'updated_at'
>;

/**
 * One message, unless the company already has its wamid: every customer message runs it, so it is
 * compiled once (db/prepared.ts).
 */
const insertRow = prepared((db, v: InsertedColumns) =>
  db
    .insertInto('messages')
    // Each column named: the stand-ins are read one by one (a spread would see none).
    .values({
      company_id: v.company_id,
      client_id: v.client_id,
      wamid: v.wamid,
      sender_type: v.sender_type,
      message_type: v.message_type,
      wa_type: v.wa_type,
      content: v.content,
      phone: v.phone,
      context_wamid: v.context_wamid,
      media_id: v.media_id,
      media_mime_type: v.media_mime_type,
      media_file_name: v.media_file_name,
      media_caption: v.media_caption,
      media_sha256: v.media_sha256,
      status: v.status,
      outbound_request: v.outbound_request,
      error_message: v.error_message,
      author_kind: v.author_kind,
      author_user_id: v.author_user_id,
      author_mass_message_id: v.author_mass_message_id,
      reply_to_id: v.reply_to_id,
      scheduled_at: v.scheduled_at,
      created_at: v.created_at,
      updated_at: v.updated_at,
    })
    .onConflict((oc) => oc.columns(['company_id', 'wamid']).doNothing())
    .returningAll(),
);

/**
 * A company's chat messages: the only SQL of the messages table — storing and reading them here, changing
 * them in message-updates.repository.ts. Every function takes the company it is scoped to. Built on the
 * database or on a transaction (see `createRepositories`).
 */
export function createMessagesRepository(db: Executor) {
  const { present, presentOne } = createMessagePresenter(db);

  return {
    ...createMessageUpdates(db),
    ...createScheduledUpdates(db),

    /**
     * Stores the message unless the company already has one with its wamid (WhatsApp delivers a webhook
     * at least once); the new row, or undefined when it was already there.
     */
    async insertMessage(companyId: number, m: NewMessage): Promise<Message | undefined> {
      const author = m.author ?? defaultAuthor(m.sender);
      const [row] = (
        await insertRow(db, {
          company_id: companyId,
          client_id: m.clientId,
          wamid: m.wamid,
          sender_type: m.sender,
          message_type: m.messageType,
          wa_type: m.waType,
          content: m.content,
          phone: m.phone,
          context_wamid: m.contextWamid ?? null,
          media_id: m.media?.id ?? null,
          media_mime_type: m.media?.mimeType ?? null,
          media_file_name: m.media?.fileName ?? null,
          media_caption: m.media?.caption ?? null,
          media_sha256: m.media?.sha256 ?? null,
          status: m.status,
          outbound_request: m.outboundRequest ?? null,
          error_message: m.errorMessage ?? null,
          author_kind: author.type,
          author_user_id: author.userId ?? null,
          author_mass_message_id: author.massMessageId ?? null,
          reply_to_id: m.replyToId ?? null,
          scheduled_at: m.scheduledAt ?? null,
          created_at: m.createdAt,
          updated_at: now(),
        })
      ).rows;
      // The agent's name and the quote are read for the caller's answer; a mass message's name is not (its
      // sender needs only the id, once per recipient; every later read of the message names it).
      const message =
        row && row.author_user_id === null && row.reply_to_id === null
          ? toMessage(row)
          : await presentOne(companyId, row);
      // The company's own messages keep their status history from the first one; a customer's has none.
      if (message && author.type !== 'customer')
        await recordStatus(db, message.id, {
          status: message.status_name,
          at: m.createdAt,
          errorCode: message.error_code,
          errorTitle: message.error_message,
        });
      return message;
    },

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
        .where('company_id', '=', companyId)
        .where('id', 'in', ids)
        .execute();
      return present(companyId, rows);
    },

    async findMessage(companyId: number, id: number): Promise<Message | undefined> {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .executeTakeFirst();
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

    /**
     * Customer messages at once (a webhook batch), each unless the company already has its wamid: one
     * multi-row insert per 200, in their order (so their ids follow it). The new row's id for each, in
     * the order given; undefined for a duplicate (stored before, or earlier in the list).
     */
    async insertCustomerMessages(companyId: number, list: NewMessage[]): Promise<(number | undefined)[]> {
      const ids = new Map<string, number>();
      const at = now();
      const first = new Map<string, number>();
      list.forEach((m, i) => {
        if (m.wamid !== null && m.wamid !== undefined && !first.has(m.wamid)) first.set(m.wamid, i);
      });
      const unique = list.filter((m, i) => m.wamid && first.get(m.wamid) === i);
      for (let i = 0; i < unique.length; i += 200) {
        const rows = await db
          .insertInto('messages')
          .values(
            unique.slice(i, i + 200).map((m) => ({
              company_id: companyId,
              client_id: m.clientId,
              wamid: m.wamid,
              sender_type: 'client' as const,
              message_type: m.messageType,
              wa_type: m.waType,
              content: m.content,
              phone: m.phone,
              context_wamid: m.contextWamid ?? null,
              media_id: m.media?.id ?? null,
              media_mime_type: m.media?.mimeType ?? null,
              media_file_name: m.media?.fileName ?? null,
              media_caption: m.media?.caption ?? null,
              media_sha256: m.media?.sha256 ?? null,
              status: m.status,
              outbound_request: null,
              error_message: null,
              author_kind: 'customer' as const,
              author_user_id: null,
              author_mass_message_id: null,
              reply_to_id: m.replyToId ?? null,
              scheduled_at: null,
              created_at: m.createdAt,
              updated_at: at,
            })),
          )
          .onConflict((oc) => oc.columns(['company_id', 'wamid']).doNothing())
          .returning(['id', 'wamid'])
          .execute();
        for (const r of rows) if (r.wamid) ids.set(r.wamid, r.id);
      }
      return list.map((m, i) => (m.wamid && first.get(m.wamid) === i ? ids.get(m.wamid) : undefined));
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
