import type { Message } from '@hablabot/contract';
import type { MessageRow } from '../../db/schema';
import { prepared } from '../../db/prepared';
import type { Executor } from '../../db/transactions';
import { defaultAuthor, recordStatus } from './message-authorship';
import { type NewMessage, createMessagePresenter, now, toMessage } from './message-rows';

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

/** A new message's row: its author by default the sender's kind, its time of change `at`. */
function insertedColumns(companyId: number, m: NewMessage, at: string): InsertedColumns {
  const author = m.author ?? defaultAuthor(m.sender);
  return {
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
    updated_at: at,
  };
}

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
 * Storing new messages: one (sent by the company, or a customer's), or a webhook batch of customers'
 * messages. Part of the messages repository (`createMessagesRepository` spreads it in), so it runs in the
 * caller's transaction.
 */
export function createMessageInserts(db: Executor) {
  const { presentOne } = createMessagePresenter(db);

  return {
    /**
     * Stores the message unless the company already has one with its wamid (WhatsApp delivers a webhook
     * at least once); the new row, or undefined when it was already there.
     */
    async insertMessage(companyId: number, m: NewMessage): Promise<Message | undefined> {
      const [row] = (await insertRow(db, insertedColumns(companyId, m, now()))).rows;
      // The agent's name and the quote are read for the caller's answer; a mass message's name is not (its
      // sender needs only the id, once per recipient; every later read of the message names it).
      const message =
        row && row.author_user_id === null && row.reply_to_id === null
          ? toMessage(row)
          : await presentOne(companyId, row);
      // The company's own messages keep their status history from the first one; a customer's has none.
      if (message && message.author.type !== 'customer')
        await recordStatus(db, message.id, {
          status: message.status_name,
          at: m.createdAt,
          errorCode: message.error_code,
          errorTitle: message.error_message,
        });
      return message;
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
          .values(unique.slice(i, i + 200).map((m) => insertedColumns(companyId, m, at)))
          .onConflict((oc) => oc.columns(['company_id', 'wamid']).doNothing())
          .returning(['id', 'wamid'])
          .execute();
        for (const r of rows) if (r.wamid) ids.set(r.wamid, r.id);
      }
      return list.map((m, i) => (m.wamid && first.get(m.wamid) === i ? ids.get(m.wamid) : undefined));
    },
  };
}
