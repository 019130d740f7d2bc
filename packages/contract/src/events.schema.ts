import { z } from 'zod';
import { ZTimestamp } from './common.schema';
import { ZConversation } from './inbox.schema';
import { ZMessage, ZMessageError } from './messages.schema';
import { WHATSAPP_STATUSES } from './settings.schema';
import { ZMessageTemplate } from './templates.schema';

// --- the live events of GET /api/v1/admin/events (server-sent events, one company's only) ---
//
// Each event on the stream is `id: <n>`, `event: <type>`, `data: <JSON of its data>`. Ids grow by one per
// event within a company; a reconnect sends the last id seen as `Last-Event-ID` and gets what it missed.

const ZClientRef = z.object({ client_id: z.number().int() });

/** A message was stored in a conversation; `message` is the same `Message` as the history API's. */
export const ZMessageCreatedEvent = z.object({
  type: z.literal('message.created'),
  data: ZClientRef.extend({ message: ZMessage }),
});

/** A message changed other than by status: its media was fetched (media_url set) or could not be. */
export const ZMessageUpdatedEvent = z.object({
  type: z.literal('message.updated'),
  data: ZClientRef.extend({ message: ZMessage }),
});

/** A scheduled message was cancelled before it went out: it is no longer in the conversation. */
export const ZMessageDeletedEvent = z.object({
  type: z.literal('message.deleted'),
  data: ZClientRef.extend({ message_id: z.number().int() }),
});

export const ZMessageStatusEvent = z.object({
  type: z.literal('message.status'),
  data: ZClientRef.extend({
    message_id: z.number().int(),
    status: z.number().int(),
    /** WhatsApp's reason when the message could not be sent. */
    error: z.string().nullable(),
    /** The failure explained (status 4), in the stream's language; null otherwise. */
    error_detail: ZMessageError.nullable().optional(),
  }),
});

/** A client's row in the chat list changed: unread count and last message. */
export const ZClientUnreadEvent = z.object({
  type: z.literal('client.unread'),
  data: ZClientRef.extend({
    unread_messages_count: z.number().int(),
    last_message_content: z.string().nullable(),
    last_message_date: ZTimestamp.nullable(),
  }),
});

/** The bot was paused (an admin wrote) or resumed for a client. */
export const ZClientBotModeEvent = z.object({
  type: z.literal('client.bot_mode'),
  data: ZClientRef.extend({ mode_bot: z.union([z.literal(0), z.literal(1)]) }),
});

/** The bot could not answer a client; `reason` says why, for the admin. */
export const ZBotFailedEvent = z.object({
  type: z.literal('bot.failed'),
  data: ZClientRef.extend({
    reason: z.string(),
    /** The customer message left unanswered, when known. */
    message_id: z.number().int().nullable(),
  }),
});

/**
 * A mass message's progress: its state and counts by recipient state (see mass-messages.schema.ts). Sent
 * when the send changes state and, while it runs, at most a few times a second.
 */
export const ZMassMessageProgressEvent = z.object({
  type: z.literal('mass_message.progress'),
  data: z.object({
    mass_message_id: z.number().int(),
    status: z.enum(['scheduled', 'queued', 'sending', 'paused', 'completed', 'cancelled']),
    counts: z.object({
      total: z.number().int(),
      queued: z.number().int(),
      sending: z.number().int(),
      sent: z.number().int(),
      delivered: z.number().int(),
      read: z.number().int(),
      failed: z.number().int(),
      unknown: z.number().int(),
      cancelled: z.number().int(),
      skipped: z.number().int().optional(),
    }),
  }),
});

/**
 * A conversation's assignee or status changed (assigned, taken, given back, resolved, reopened): the
 * conversation as GET /admin/conversations lists it. An agent who just lost it gets this one last event
 * about it (and drops it from the list); later events about it reach only those who may see it.
 */
export const ZConversationChangedEvent = z.object({
  type: z.literal('conversation.changed'),
  data: ZClientRef.extend({ conversation: ZConversation }),
});

/**
 * A template changed on Meta's side (its review: APPROVED, REJECTED with the reason, PAUSED, DISABLED …)
 * or was created or deleted here: the template as GET /templates lists it; `deleted` when it is gone.
 * For the company's admins only.
 */
export const ZTemplateUpdatedEvent = z.object({
  type: z.literal('template.updated'),
  data: z.object({ template: ZMessageTemplate, deleted: z.boolean() }),
});

/**
 * A client changed in a way the chat shows: today their consent (`opted_out_at`: set when they wrote an
 * opt-out word or Meta said they stopped marketing messages, null again after an opt-in word), so the
 * header's 'Dado de baja' badge follows without reading the client again. For those who may see the
 * conversation.
 */
export const ZClientUpdatedEvent = z.object({
  type: z.literal('client.updated'),
  data: ZClientRef.extend({ opted_out_at: ZTimestamp.nullable() }),
});

/**
 * WhatsApp started refusing the company's token (190: expired or revoked) or accepts it again: the
 * `whatsapp_status` and `whatsapp_token_refused_at` of GET /admin/setting as they are now, so every admin
 * screen shows or hides its token banner without a reload. For the company's admins only.
 */
export const ZWhatsAppStatusEvent = z.object({
  type: z.literal('channel.whatsapp_status'),
  data: z.object({
    whatsapp_status: z.enum(WHATSAPP_STATUSES),
    whatsapp_token_refused_at: ZTimestamp.nullable(),
  }),
});

/** Why a conversation was handed to a person: the customer's words, or the bot's own call. */
export const HANDOFF_REASONS = ['phrase', 'bot'] as const;
export type HandoffReason = (typeof HANDOFF_REASONS)[number];

/**
 * The customer asked for a person (or the bot handed them over): the bot is paused for them and the
 * conversation waits for the team. For those who may see the conversation; the chat shows a notice.
 */
export const ZConversationHandoffEvent = z.object({
  type: z.literal('conversation.handoff'),
  data: ZClientRef.extend({ reason: z.enum(HANDOFF_REASONS) }),
});

/**
 * Sent first on a reconnect whose `Last-Event-ID` is older than what the server still keeps: some events
 * were missed, so the screen reloads its data.
 */
export const ZStreamResetEvent = z.object({ type: z.literal('stream.reset'), data: z.object({}) });

/** What the server publishes for a company. */
export const ZServerEvent = z.discriminatedUnion('type', [
  ZMessageCreatedEvent,
  ZMessageUpdatedEvent,
  ZMessageDeletedEvent,
  ZMessageStatusEvent,
  ZClientUnreadEvent,
  ZClientBotModeEvent,
  ZBotFailedEvent,
  ZMassMessageProgressEvent,
  ZConversationChangedEvent,
  ZTemplateUpdatedEvent,
  ZConversationHandoffEvent,
  ZWhatsAppStatusEvent,
  ZClientUpdatedEvent,
]);
export type ServerEvent = z.infer<typeof ZServerEvent>;
export type ServerEventType = ServerEvent['type'];

/** What the stream delivers: a published event with its id, or a reset. */
export const ZStreamEvent = z.discriminatedUnion('type', [...ZServerEvent.options, ZStreamResetEvent]);
export type StreamEvent = z.infer<typeof ZStreamEvent>;
