import { z } from 'zod';
import { ZTimestamp, zId, zText } from './common.schema';
import { SCHEDULE_MAX_DAYS } from './constants';

/**
 * A chat message's delivery status. 2 (read) and 4 (not sent / failed) are the values the chat screen
 * knows; the others complete the ladder a message climbs: pending → sent → delivered → read. 5
 * (scheduled): an agent's message waiting for its time (`scheduled_at`); nothing has gone to WhatsApp.
 */
export const MESSAGE_STATUS = {
  pending: 0,
  sent: 1,
  read: 2,
  delivered: 3,
  failed: 4,
  scheduled: 5,
} as const;
export type MessageStatus = (typeof MESSAGE_STATUS)[keyof typeof MESSAGE_STATUS];

/** A status by its name, as `status_name` and the status history give it. */
export const MESSAGE_STATUS_NAMES = ['pending', 'sent', 'delivered', 'read', 'failed', 'scheduled'] as const;
export type MessageStatusName = (typeof MESSAGE_STATUS_NAMES)[number];

/** The name of an integer status (an unknown value reads as pending). */
export function statusNameOf(status: number): MessageStatusName {
  const found = (Object.keys(MESSAGE_STATUS) as MessageStatusName[]).find(
    (k) => MESSAGE_STATUS[k] === status,
  );
  return found ?? 'pending';
}

/** Where the download of a customer's media stands (see `media_status`). */
export const MEDIA_STATUSES = ['pending', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const MESSAGE_SENDERS = ['client', 'admin', 'bot'] as const;
export type MessageSender = (typeof MESSAGE_SENDERS)[number];

/**
 * How the chat shows a message; stickers are images, replies, reactions and the like are text. `button`:
 * a customer's tap on a template's quick reply or a reply button; its content is the button's text.
 */
export const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'document', 'button'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Messages in one page of a conversation, unless the caller asks for another size. */
export const MESSAGES_PER_PAGE = 10;
export const MESSAGES_PER_PAGE_MAX = 100;

/**
 * `message`: a message of the conversation. `bot_failure`: a note the bot left when it could not answer
 * (status 4, empty content, the reason in `error_message`); shown red, never sent nor resent. `note`: an
 * internal note of the team (author a user), shown as 'Nota interna', never sent to WhatsApp, never unread.
 */
export const MESSAGE_KINDS = ['message', 'bot_failure', 'note'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/**
 * Who wrote a message. `customer`: the client on WhatsApp; `bot`: the company's bot; `user`: an agent of
 * the company (`id` and `name` of the user; both absent once the user is deleted, or for messages
 * written before authors were kept); `campaign`: a mass message (`id` and `name` of the send); `system`:
 * HablaBot itself.
 */
export const MESSAGE_AUTHOR_TYPES = ['customer', 'bot', 'user', 'campaign', 'system'] as const;
export type MessageAuthorType = (typeof MESSAGE_AUTHOR_TYPES)[number];

export const ZMessageAuthor = z.object({
  type: z.enum(MESSAGE_AUTHOR_TYPES),
  id: z.number().int().optional(),
  name: z.string().nullable().optional(),
});
export type MessageAuthor = z.infer<typeof ZMessageAuthor>;

/** The message a reply quotes, short: its id, text and author. */
export const ZMessageQuote = z.object({
  id: z.number().int(),
  content: z.string(),
  author: ZMessageAuthor,
});
export type MessageQuote = z.infer<typeof ZMessageQuote>;

/**
 * Why a message failed (status 4), in words an admin can act on: Meta's `code` (null when WhatsApp gave
 * none) and `title`, our `explanation` of what happened and what to do in the request's language, and
 * whether sending the same message again can help (`resendable`; false e.g. for a template that does not
 * exist or a number not on WhatsApp).
 */
export const ZMessageError = z.object({
  code: z.number().int().nullable(),
  title: z.string(),
  explanation: z.string(),
  resendable: z.boolean(),
});
export type MessageError = z.infer<typeof ZMessageError>;

export const ZMessage = z.object({
  id: z.number().int(),
  /** The text, a media's caption, or a readable line for reactions, locations, contacts and the like. */
  content: z.string(),
  client_id: z.number().int(),
  /** The customer's WhatsApp number (digits, country code included). */
  phone: z.string(),
  sender_type: z.enum(MESSAGE_SENDERS),
  message_type: z.enum(MESSAGE_TYPES),
  /** Where the company's admins download the media; null until it has been fetched from WhatsApp. */
  media_url: z.string().nullable(),
  /** A media's caption; a document's file name when it has no caption. */
  media_caption: z.string().nullable(),
  media_mime_type: z.string().nullable(),
  media_file_name: z.string().nullable(),
  /**
   * A customer's media: `pending` while it is fetched from WhatsApp (tried again for the 7 days WhatsApp
   * keeps it), `ready` once `media_url` serves it, `failed` when it was given up on (why in
   * `error_message`; POST /admin/messages/{id}/media/retry tries again). Null for every other message.
   */
  media_status: z.enum(MEDIA_STATUSES).nullable().optional(),
  status: z.number().int(),
  /**
   * WhatsApp's error code and text when the message could not be delivered (status 4); the bot's reason
   * on a `bot_failure`; on a customer's media message, why its file could not be fetched.
   */
  error_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  /** A failed message's error explained (see ZMessageError); null unless status 4 and kind `message`. */
  error: ZMessageError.nullable(),
  kind: z.enum(MESSAGE_KINDS),
  created_at: ZTimestamp,
  /** `status` by name: pending, sent, delivered, read, failed or scheduled. */
  status_name: z.enum(MESSAGE_STATUS_NAMES),
  /** When a scheduled message (status 5) goes out; null (or absent) for every other message. */
  scheduled_at: ZTimestamp.nullable().optional(),
  author: ZMessageAuthor,
  /** The message this one answers (WhatsApp's quoted reply), or null. */
  reply_to: ZMessageQuote.nullable(),
});
export type Message = z.infer<typeof ZMessage>;

/** One status a message went through, with its time; for a failure, Meta's error code and title. */
export const ZMessageStatusEntry = z.object({
  status: z.enum(MESSAGE_STATUS_NAMES),
  at: ZTimestamp,
  error_code: z.number().int().nullable(),
  error_title: z.string().nullable(),
});
export type MessageStatusEntry = z.infer<typeof ZMessageStatusEntry>;

/** GET /admin/messages/{id}: one message of the company with every status it went through, oldest first. */
export const ZMessageDetailResponse = z.object({
  data: ZMessage.extend({ statuses: z.array(ZMessageStatusEntry) }),
});
export type MessageDetailResponse = z.infer<typeof ZMessageDetailResponse>;

/** GET /admin/client/{id}/messages query: page 1 holds the newest messages. */
export const ZClientMessagesQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MESSAGES_PER_PAGE_MAX).default(MESSAGES_PER_PAGE),
});
export type ClientMessagesQuery = z.input<typeof ZClientMessagesQuery>;

export const ZClientMessagesResponse = z.object({
  /** Oldest first within the page; messages still scheduled are not here (see `scheduled`). */
  messages: z.array(ZMessage),
  /**
   * Page 1: the client's messages still scheduled (status 5), by their time — shown below the
   * conversation until they go out, then they take their place there with a new id. Empty on later pages.
   */
  scheduled: z.array(ZMessage),
  pagination: z.object({
    current_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    /** True when older messages exist (ask for the next page). */
    has_more_messages: z.boolean(),
  }),
});
export type ClientMessagesResponse = z.infer<typeof ZClientMessagesResponse>;

/** PATCH /admin/messages/{clientId}/mark-as-read: how many of the customer's messages became read. */
export const ZMarkAsReadResponse = z.object({ message: z.string(), updated: z.number().int() });
export type MarkAsReadResponse = z.infer<typeof ZMarkAsReadResponse>;

/** A path holding a client's id as `clientId`. */
export const ZClientIdParams = z.object({ clientId: zId() });

/**
 * A scheduled send's time: ISO 8601 with its offset (`2026-12-01T09:30:00-05:00` or `…Z`), later than
 * now and at most SCHEDULE_MAX_DAYS ahead. Read as a UTC ISO string.
 */
export function zSendAt() {
  return z
    .string()
    .max(40)
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
        !Number.isNaN(Date.parse(v)),
      {
        message: 'messaging.send_at_format',
      },
    )
    .transform((v, ctx) => {
      const at = Date.parse(v);
      if (at <= Date.now()) ctx.addIssue({ code: 'custom', message: 'messaging.send_at_past' });
      else if (at > Date.now() + SCHEDULE_MAX_DAYS * 24 * 60 * 60 * 1000)
        ctx.addIssue({ code: 'custom', message: 'messaging.send_at_too_far' });
      return new Date(at).toISOString();
    });
}

/** Longest text WhatsApp sends in one message. */
export const MESSAGE_TEXT_MAX = 4096;

/**
 * POST /admin/message: a new text message to the client, or — with `id` — a message of that client that
 * was not sent (status 4) sent again. `phone` is accepted for the web app's sake; the message always goes
 * to the client's stored number.
 */
export const ZSendMessageRequest = z
  .object({
    id: zId().optional(),
    /** The text; with `media_id`, the file's caption, which may be empty. */
    content: zText({ max: MESSAGE_TEXT_MAX, multiline: true }),
    client_id: zId(),
    phone: z.string().max(32).optional(),
    /** A message of the same client this one answers: WhatsApp shows it quoted above the new one. */
    reply_to_id: zId().optional(),
    /** A file of the company's media library sent as the message; `content` is then its caption. */
    media_id: zId().optional(),
    /** Sends it later, at this time (see `zSendAt`): answered with the message in status 5 (scheduled). */
    send_at: zSendAt().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.media_id === undefined && v.content.length === 0)
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'required' });
    if (v.id !== undefined && v.send_at !== undefined)
      ctx.addIssue({ code: 'custom', path: ['send_at'], message: 'messaging.send_at_resend' });
  });
export type SendMessageRequest = z.infer<typeof ZSendMessageRequest>;

/**
 * PUT /admin/messages/{id}: a scheduled message (status 5) changed before it goes out — its text (a free
 * text message's) and/or its time. 409 once it is no longer scheduled.
 */
export const ZUpdateScheduledMessageRequest = z
  .object({
    content: zText({ max: MESSAGE_TEXT_MAX, multiline: true }).optional(),
    send_at: zSendAt().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.content !== undefined && v.content.length === 0)
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'required' });
    if (v.content === undefined && v.send_at === undefined)
      ctx.addIssue({ code: 'custom', path: ['send_at'], message: 'required' });
  });
export type UpdateScheduledMessageRequest = z.input<typeof ZUpdateScheduledMessageRequest>;

export const ZScheduledMessageResponse = z.object({ data: ZMessage, message: z.string() });
export type ScheduledMessageResponse = z.infer<typeof ZScheduledMessageResponse>;

/** The stored message (status 1 sent, 0 while WhatsApp is tried again, 4 not sent, 5 scheduled) and what happened. */
export const ZSendMessageResponse = z.object({ data: ZMessage, message: z.string() });
export type SendMessageResponse = z.infer<typeof ZSendMessageResponse>;
