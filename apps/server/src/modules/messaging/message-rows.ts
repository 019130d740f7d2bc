import {
  MESSAGE_STATUS,
  type MediaStatus,
  type Message,
  type MessageSender,
  type MessageType,
  statusNameOf,
} from '@hablabot/contract';
import { sql } from 'kysely';
import type { MessageRow } from '../../db/schema';
import type { Executor } from '../../db/transactions';
import { invalid } from '../../platform/errors';
import { type AuthorRef, type MessageExtras, authorOf, loadExtras, quoteOf } from './message-authorship';
import { explainError } from './whatsapp-errors';

/** A stored message and the API's Message: the types the messages repositories share, and the mapping. */

export const now = () => new Date().toISOString();

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
  /** A scheduled message's time (status 5). */
  scheduledAt?: string | null;
}

/**
 * `wa_type` of the note the bot leaves when it could not answer (sender bot, status 4, empty content, the
 * reason in `error_message`): a row of the conversation that never goes to WhatsApp.
 */
export const BOT_FAILURE_TYPE = 'bot_failure';

/**
 * `wa_type` of an internal note of the team (sender admin, author the user, status sent): a row of the
 * conversation that never goes to WhatsApp, is never unread and is left out of the bot's prompt.
 */
export const NOTE_TYPE = 'note';

/**
 * `wa_type` of an automatic text the company sends on its own (the away message, the hand-off's notice):
 * sent to WhatsApp as text and shown as the bot's, but not an answer to the customer, so it is left out
 * of the bot's prompt and the bot still answers the message it followed.
 */
export const AUTOMATIC_TEXT_TYPE = 'automatic';

/**
 * 422 for a row that must never go to WhatsApp: the bot's failure note (no text of its own), an internal
 * note. Every resend path calls it before sending.
 */
export function assertResendable(message: Pick<Message, 'kind'>): void {
  if (message.kind === 'bot_failure') throw invalid('id', 'messaging.bot_failure_not_resendable');
  if (message.kind === 'note') throw invalid('id', 'messaging.note_not_resendable');
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
  /** Where its download stands (see mediaStatusOf) and the tries made so far. */
  status: MediaStatus | null;
  attempts: number;
  /** When the customer sent it (WhatsApp keeps the media 7 days from then). */
  createdAt: string;
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
 * The order a status climbs in. A status never replaces one of a higher rank, whatever order WhatsApp's
 * reports arrive in. Failed outranks sent and delivered: a failure WhatsApp reports after a delivered is
 * always shown, and a delivered that arrives after a failure does not hide it (failed is final). Only read
 * outranks failed, since it proves the customer saw the message.
 */
export const STATUS_RANK: Record<number, number> = {
  [MESSAGE_STATUS.pending]: 0,
  [MESSAGE_STATUS.sent]: 1,
  [MESSAGE_STATUS.delivered]: 2,
  [MESSAGE_STATUS.failed]: 3,
  [MESSAGE_STATUS.read]: 4,
};

export const rankOfStored = sql<number>`case status ${sql.join(
  Object.entries(STATUS_RANK).map(
    ([status, rank]) => sql`when ${sql.lit(Number(status))} then ${sql.lit(rank)}`,
  ),
  sql` `,
)} else 0 end`;

/**
 * Where a customer's media download stands: ready once its file is stored, failed when given up on,
 * pending otherwise (its first try not run yet, or waiting for the next). Null for any other message.
 */
export function mediaStatusOf(
  r: Pick<MessageRow, 'sender_type' | 'media_id' | 'media_storage_key' | 'media_status'>,
): MediaStatus | null {
  if (r.sender_type !== 'client' || !r.media_id) return null;
  if (r.media_storage_key) return 'ready';
  return r.media_status === 'failed' ? 'failed' : 'pending';
}

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
    media_status: mediaStatusOf(r),
    status: r.status,
    error_code: r.error_code,
    error_message: r.error_message,
    // Explained in Spanish here; a route or the live stream puts it in the reader's language (localizeErrors).
    error:
      r.status === MESSAGE_STATUS.failed && r.wa_type !== BOT_FAILURE_TYPE && r.wa_type !== NOTE_TYPE
        ? explainError('es', r.error_code, r.error_message)
        : null,
    kind: r.wa_type === BOT_FAILURE_TYPE ? 'bot_failure' : r.wa_type === NOTE_TYPE ? 'note' : 'message',
    created_at: r.created_at,
    status_name: statusNameOf(r.status),
    author: authorOf(r, extras),
    reply_to: quoteOf(r, extras),
    // Only a message that was scheduled says when (the others' answers stay as they were).
    ...(r.scheduled_at ? { scheduled_at: r.scheduled_at } : {}),
  };
}

/** Whether a row names a user, a send or a quoted message, whose details are read apart. */
export const needsExtras = (r: MessageRow) =>
  r.reply_to_id !== null || r.author_user_id !== null || r.author_mass_message_id !== null;

/**
 * Reads the rows as the API gives them, with their authors' names and quotes (read only when a row names
 * a user, a send or a quoted message).
 */
export function createMessagePresenter(db: Executor) {
  async function present(companyId: number, rows: MessageRow[]): Promise<Message[]> {
    const extras = rows.some(needsExtras) ? await loadExtras(db, companyId, rows) : null;
    return rows.map((r) => toMessage(r, extras));
  }

  async function presentOne(companyId: number, row: MessageRow | undefined): Promise<Message | undefined> {
    return row ? (await present(companyId, [row]))[0] : undefined;
  }

  return { present, presentOne };
}
