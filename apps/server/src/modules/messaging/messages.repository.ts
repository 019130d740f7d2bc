import {
  MESSAGE_STATUS,
  type Message,
  type MessageSender,
  type MessageType,
  statusNameOf,
} from '@hablabot/contract';
import { type UpdateObject, type UpdateQueryBuilder, type UpdateResult, sql } from 'kysely';
import type { DB, MessageRow } from '../../db/schema';
import { invalid } from '../../platform/errors';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import {
  type AuthorRef,
  type MessageExtras,
  authorOf,
  defaultAuthor,
  loadExtras,
  quoteOf,
  recordStatus,
  statusHistory,
} from './message-authorship';

const now = () => new Date().toISOString();

/** A message as it is stored; the repository adds the id and the row's timestamps. */
export interface NewMessage {
  clientId: number;
  wamid: string | null;
  sender: MessageSender;
  messageType: MessageType;
  /** The type WhatsApp gave it (sticker, reaction, location…); the same as messageType for our own. */
  waType: string;
  content: string;
  phone: string;
  contextWamid?: string | null;
  /** Who wrote it; by default the sender's kind (an admin: an agent not known by id). */
  author?: AuthorRef;
  /** The company's message this one answers. */
  replyToId?: number | null;
  media?: {
    id: string | null;
    mimeType: string | null;
    fileName: string | null;
    caption: string | null;
    sha256: string | null;
  };
  status: number;
  /** Why it was not sent; a bot failure's reason. */
  errorMessage?: string | null;
  /** When it was written (WhatsApp's time for a customer's message). */
  createdAt: string;
  /** For an outgoing message: what is asked of WhatsApp (JSON), kept so it can be sent again. */
  outboundRequest?: string | null;
}

/**
 * `wa_type` of the note the bot leaves when it could not answer (sender bot, status 4, empty content, the
 * reason in `error_message`): a row of the conversation that never goes to WhatsApp.
 */
export const BOT_FAILURE_TYPE = 'bot_failure';

/**
 * 422 for a row that must never go to WhatsApp: the bot's failure note (no text of its own). Every resend
 * path calls it before sending.
 */
export function assertResendable(message: Pick<Message, 'kind'>): void {
  if (message.kind === 'bot_failure') throw invalid('id', 'messaging.bot_failure_not_resendable');
}

/** A message's media as stored, for the download job and the files route. */
export interface StoredMedia {
  id: number;
  clientId: number;
  senderType: string;
  messageType: string;
  waType: string;
  mediaId: string | null;
  mimeType: string | null;
  fileName: string | null;
  sha256: string | null;
  storageKey: string | null;
}

/** One turn of the recent conversation, for the bot's prompt. */
export interface ConversationTurn {
  id: number;
  sender: MessageSender;
  content: string;
}

/** A status WhatsApp reported for a message. */
export interface StatusChange {
  status: number;
  at: string;
  errorCode?: number | null;
  errorMessage?: string | null;
  /** Meta's title of the error, for the status history. */
  errorTitle?: string | null;
}

/**
 * The order a status climbs in. Delivered and read prove the message arrived, so they outrank failed;
 * failed outranks sent and pending. A status never replaces one of a higher rank, whatever order
 * WhatsApp's reports arrive in.
 */
export const STATUS_RANK: Record<number, number> = {
  [MESSAGE_STATUS.pending]: 0,
  [MESSAGE_STATUS.sent]: 1,
  [MESSAGE_STATUS.failed]: 2,
  [MESSAGE_STATUS.delivered]: 3,
  [MESSAGE_STATUS.read]: 4,
};

const rankOfStored = sql<number>`case status ${sql.join(
  Object.entries(STATUS_RANK).map(
    ([status, rank]) => sql`when ${sql.lit(Number(status))} then ${sql.lit(rank)}`,
  ),
  sql` `,
)} else 0 end`;

/** Where the company's admins download a message's media (once fetched). */
export const mediaUrlOf = (id: number) => `/api/v1/admin/files/${id}`;

/**
 * The message as the API gives it. `extras` holds the names and quoted messages read for a batch of rows
 * (see loadExtras); without them a user or a send has no name and a quote is left out.
 */
export function toMessage(r: MessageRow, extras: MessageExtras | null = null): Message {
  return {
    id: r.id,
    content: r.content,
    client_id: r.client_id,
    phone: r.phone,
    sender_type: r.sender_type as MessageSender,
    message_type: r.message_type as MessageType,
    media_url: r.media_storage_key ? mediaUrlOf(r.id) : null,
    media_caption: r.media_caption ?? (r.message_type === 'document' ? r.media_file_name : null),
    media_mime_type: r.media_mime_type,
    media_file_name: r.media_file_name,
    status: r.status,
    error_code: r.error_code,
    error_message: r.error_message,
    kind: r.wa_type === BOT_FAILURE_TYPE ? 'bot_failure' : 'message',
    created_at: r.created_at,
    status_name: statusNameOf(r.status),
    author: authorOf(r, extras),
    reply_to: quoteOf(r, extras),
  };
}

/** Whether a row names a user, a send or a quoted message, whose details are read apart. */
const needsExtras = (r: MessageRow) =>
  r.reply_to_id !== null || r.author_user_id !== null || r.author_mass_message_id !== null;

/**
 * A company's chat messages: the only SQL of the messages table. Every function takes the company it is
 * scoped to. Built on the database or on a transaction (see `createRepositories`).
 */
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
      created_at: v.created_at,
      updated_at: v.updated_at,
    })
    .onConflict((oc) => oc.columns(['company_id', 'wamid']).doNothing())
    .returningAll(),
);

export function createMessagesRepository(db: Executor) {
  type MessagesUpdate = UpdateQueryBuilder<DB, 'messages', 'messages', UpdateResult>;

  /** The rows as the API gives them, with their authors' names and quotes (read only when named). */
  async function present(companyId: number, rows: MessageRow[]): Promise<Message[]> {
    const extras = rows.some(needsExtras) ? await loadExtras(db, companyId, rows) : null;
    return rows.map((r) => toMessage(r, extras));
  }

  async function presentOne(companyId: number, row: MessageRow | undefined): Promise<Message | undefined> {
    return row ? (await present(companyId, [row]))[0] : undefined;
  }

  /** Adds the message's status, as it now is, to its history. */
  async function noteStatus(
    message: Message | undefined,
    error?: { code: number | null; title: string | null },
  ) {
    if (!message) return;
    await recordStatus(db, message.id, {
      status: message.status_name,
      at: now(),
      errorCode: error?.code,
      errorTitle: error?.title,
    });
  }

  /**
   * Changes one message of the company in one statement and returns it as it now is; `only` narrows
   * which message (by id, by wamid) and in which state it may be. Undefined when none matched.
   */
  async function updateOne(
    companyId: number,
    changes: UpdateObject<DB, 'messages'>,
    only: (query: MessagesUpdate) => MessagesUpdate,
  ): Promise<Message | undefined> {
    const row = await only(
      db
        .updateTable('messages')
        .set({ updated_at: now(), ...changes })
        .where('company_id', '=', companyId),
    )
      .returningAll()
      .executeTakeFirst();
    return presentOne(companyId, row);
  }

  return {
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
          author_kind: author.kind,
          author_user_id: author.userId ?? null,
          author_mass_message_id: author.massMessageId ?? null,
          reply_to_id: m.replyToId ?? null,
          created_at: m.createdAt,
          updated_at: now(),
        })
      ).rows;
      // The agent's name and the quote are read for the caller's answer; a mass send's name is not (its
      // sender needs only the id, once per recipient; every later read of the message names it).
      const message =
        row && row.author_user_id === null && row.reply_to_id === null
          ? toMessage(row)
          : await presentOne(companyId, row);
      // The company's own messages keep their status history from the first one; a customer's has none.
      if (message && author.kind !== 'customer')
        await recordStatus(db, message.id, {
          status: message.status_name,
          at: m.createdAt,
          errorCode: message.error_code,
          errorTitle: message.error_message,
        });
      return message;
    },

    /**
     * Moves the message with this wamid to the status when that is a step up (see STATUS_RANK), in one
     * statement, so two reports at once cannot move it backwards. Failed keeps WhatsApp's code and text;
     * any other status clears them. The message when it changed; undefined when the wamid is unknown or
     * the status is not a step up.
     */
    async applyStatus(companyId: number, wamid: string, change: StatusChange): Promise<Message | undefined> {
      const failed = change.status === MESSAGE_STATUS.failed;
      const changed = await updateOne(
        companyId,
        {
          status: change.status,
          error_code: failed ? (change.errorCode ?? null) : null,
          error_message: failed ? (change.errorMessage ?? null) : null,
          status_at: change.at,
        },
        (q) => q.where('wamid', '=', wamid).where(rankOfStored, '<', STATUS_RANK[change.status] ?? 0),
      );
      if (changed)
        await recordStatus(db, changed.id, {
          status: changed.status_name,
          at: change.at,
          errorCode: change.errorCode,
          errorTitle: change.errorTitle ?? change.errorMessage,
        });
      return changed;
    },

    /**
     * An outgoing message WhatsApp accepted: its wamid, and status sent unless a report already moved it
     * further. Undefined when the message is not the company's.
     */
    async markSent(companyId: number, id: number, wamid: string): Promise<Message | undefined> {
      const sent = await updateOne(
        companyId,
        {
          wamid,
          status: sql<number>`case when status = ${MESSAGE_STATUS.pending} then ${MESSAGE_STATUS.sent} else status end`,
          error_code: null,
          error_message: null,
          status_at: now(),
        },
        (q) => q.where('id', '=', id),
      );
      // A report that came first already moved it further and noted that step.
      if (sent?.status === MESSAGE_STATUS.sent) await noteStatus(sent);
      return sent;
    },

    /**
     * An outgoing message that could not be sent: status 4 with WhatsApp's code and text (or ours when
     * nothing answered). Only a pending message changes; undefined otherwise.
     */
    async markFailed(
      companyId: number,
      id: number,
      error: { code: number | null; message: string },
    ): Promise<Message | undefined> {
      const failed = await updateOne(
        companyId,
        {
          status: MESSAGE_STATUS.failed,
          error_code: error.code,
          error_message: error.message.slice(0, 2000),
          status_at: now(),
        },
        (q) => q.where('id', '=', id).where('status', '=', MESSAGE_STATUS.pending),
      );
      await noteStatus(failed, { code: error.code, title: error.message });
      return failed;
    },

    /**
     * Outgoing messages still pending that have not changed since `before`: a send whose process died
     * between storing the message and settling it. At most `limit`, oldest first.
     */
    async findStalePending(before: string, limit: number): Promise<{ id: number; company_id: number }[]> {
      return db
        .selectFrom('messages')
        .select(['id', 'company_id'])
        .where('status', '=', MESSAGE_STATUS.pending)
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit)
        .execute();
    },

    /**
     * Puts a failed (status 4) message back to pending for another send, its error and old wamid cleared,
     * in one statement, so two resends at once start one send. Undefined when it is not failed.
     */
    async restartFailed(companyId: number, id: number): Promise<Message | undefined> {
      const restarted = await updateOne(
        companyId,
        {
          status: MESSAGE_STATUS.pending,
          wamid: null,
          error_code: null,
          error_message: null,
          status_at: now(),
        },
        (q) =>
          q
            .where('id', '=', id)
            .where('status', '=', MESSAGE_STATUS.failed)
            // A bot failure note is never sent (see assertResendable).
            .where('wa_type', '!=', BOT_FAILURE_TYPE),
      );
      await noteStatus(restarted);
      return restarted;
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
          }
        : undefined;
    },

    /**
     * Records the fetched file of a message (once: a message that already has one keeps it) and clears a
     * note of an earlier failure. The message, or undefined when nothing changed.
     */
    async setMediaStored(
      companyId: number,
      id: number,
      file: { storageKey: string; mimeType: string },
    ): Promise<Message | undefined> {
      return updateOne(
        companyId,
        { media_storage_key: file.storageKey, media_mime_type: file.mimeType, error_message: null },
        (q) => q.where('id', '=', id).where('media_storage_key', 'is', null),
      );
    },

    /** Notes why a customer's media could not be fetched (the message itself stays as it was). */
    async setMediaFailed(companyId: number, id: number, note: string): Promise<Message | undefined> {
      return updateOne(companyId, { error_message: note }, (q) =>
        q.where('id', '=', id).where('media_storage_key', 'is', null),
      );
    },

    /**
     * The client's latest `limit` messages that belong in a conversation with the bot, oldest first: the
     * bot's failure notes and messages that never reached WhatsApp (status 4) are left out.
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
        .where('status', '!=', MESSAGE_STATUS.failed)
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
     * conversation's size is the client row's `messages_count`, not counted here.
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
