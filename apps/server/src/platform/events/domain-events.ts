import { z } from 'zod';

/**
 * The catalogue of domain events: what happened in the product, written to the outbox in the same
 * transaction as the change (platform/outbox/outbox.ts) and handed to the subscribers once it committed.
 * An event carries ids, not copies: a subscriber reads what it needs as it is when it runs. Each event
 * names its company; nothing of one company reaches another's subscribers' output.
 */
const id = z.number().int();
const company = { companyId: id };

export const DOMAIN_EVENTS = {
  /** A customer's message was stored (once per wamid); `media`: it came with a file to fetch. */
  'message.received': z.object({ ...company, clientId: id, messageId: id, media: z.boolean() }),
  /**
   * A message of ours was stored in a conversation: an admin's or the bot's (pending, then sent), a
   * mass message's template as the recipient read it, the bot's failure note.
   */
  'message.sent': z.object({ ...company, clientId: id, messageId: id }),
  /** A message changed other than by status: its media was fetched, or could not be. */
  'message.updated': z.object({ ...company, clientId: id, messageId: id }),
  /**
   * A conversation message's status moved (pending → sent, delivered, read; or not sent, status 4):
   * `status` is the one it moved to (the list's integer status).
   */
  'message.status_changed': z.object({ ...company, clientId: id, messageId: id, status: z.number().int() }),
  /** A scheduled message was cancelled before it went out (its row is gone). */
  'message.deleted': z.object({ ...company, clientId: id, messageId: id }),
  /**
   * WhatsApp reported a status for a wamid of the company, whichever sender it belongs to: a mass message's
   * recipient takes it by wamid (it may come before the recipient's message is kept in its conversation).
   */
  'whatsapp.status_reported': z.object({
    ...company,
    wamid: z.string(),
    status: z.enum(['sent', 'delivered', 'read', 'failed']),
    at: z.string(),
    errorCode: z.number().int().nullable(),
    errorMessage: z.string().nullable(),
    errorTitle: z.string().nullable().optional(),
  }),
  /** A conversation's row in the chat list changed: unread count, last message, bot mode. */
  'conversation.updated': z.object({
    ...company,
    clientId: id,
    changed: z.array(z.enum(['unread', 'last_message', 'bot_mode'])),
  }),
  /**
   * A conversation's assignee or status changed (assigned, given back, resolved, reopened).
   * `previousAssigneeId`: who it was assigned to before an assignment change, so the one who lost it
   * hears of it too; `wasUnassigned`: so does every agent (see modules/realtime/realtime.subscribers.ts).
   */
  'conversation.changed': z.object({
    ...company,
    clientId: id,
    changed: z.array(z.enum(['assignee', 'status'])),
    previousAssigneeId: id.nullable().optional(),
    /**
     * The conversation was unassigned before this change and every agent could see it (it existed before
     * this transaction): every agent hears it leave 'Sin asignar'. False for a brand-new conversation
     * auto-assigned in its first transaction, which no other agent ever saw.
     */
    wasUnassigned: z.boolean().optional(),
  }),
  /** An admin read the customer's messages; `lastWamid` is the newest customer message, for WhatsApp. */
  'conversation.read': z.object({ ...company, clientId: id, lastWamid: z.string().nullable() }),
  /** The bot could not answer a client; `reason` is the admin's text. */
  'bot.failed': z.object({ ...company, clientId: id, messageId: id.nullable(), reason: z.string() }),
  /** A conversation was handed to a person: the customer asked (`phrase`) or the bot said so (`bot`). */
  'conversation.handoff': z.object({ ...company, clientId: id, reason: z.enum(['phrase', 'bot']) }),
  /**
   * A customer opted out of campaigns (an opt-out word, Meta's 131050) or back in (an opt-in word):
   * `clients.opted_out_at` was set or cleared (modules/clients/consent.ts). Emitted only when it changed.
   */
  'client.consent_changed': z.object({ ...company, clientId: id, optedOut: z.boolean() }),
  /** The company's WhatsApp number, account or token was saved (the settings form). */
  'channel.saved': z.object({ ...company }),
  /**
   * WhatsApp started refusing the company's stored token (`refused`: a 190 on a send, the templates'
   * sync, a media download or a connection test) or accepted it again (`channels.token_refused_at` set
   * or cleared; settings/token-health.ts). Emitted only when the column changed.
   */
  'channel.token_changed': z.object({ ...company, refused: z.boolean() }),
  /**
   * A template was created here, deleted here, or changed by Meta (its review status, the reason, the
   * quality rating). A deleted one is gone when the event is handled: `deleted` carries its name.
   */
  'template.changed': z.object({
    ...company,
    templateId: id,
    deleted: z.object({ name: z.string(), language: z.string() }).nullable(),
  }),
  /** A mass message's state or counts changed (the counts are read when the event is handled). */
  'mass_message.progress': z.object({ ...company, massMessageId: id }),
} as const;

export type DomainEventType = keyof typeof DOMAIN_EVENTS;
export type DomainEventPayload<T extends DomainEventType> = z.infer<(typeof DOMAIN_EVENTS)[T]>;
export type DomainEvent = {
  [T in DomainEventType]: { type: T; payload: DomainEventPayload<T> };
}[DomainEventType];

/** Builds an event, checking its payload against the catalogue (a wrong payload throws, before commit). */
export function domainEvent<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): DomainEvent {
  return { type, payload: DOMAIN_EVENTS[type].parse(payload) } as DomainEvent;
}

/** Where a change records its events: collected and written to the outbox before its transaction commits. */
export interface EventSink {
  emit<T extends DomainEventType>(type: T, payload: DomainEventPayload<T>): void;
}

/**
 * A subscriber: a name (unique; the outbox remembers which subscribers handled an event, so a retry runs
 * only those that failed) and what it does with events of one type. Handlers must bear running twice
 * (a dispatcher that dies mid-batch leaves the batch to another) — enqueue with a dedupe key, write
 * idempotently.
 */
export interface Subscriber<T extends DomainEventType = DomainEventType> {
  name: string;
  type: T;
  handle(payload: DomainEventPayload<T>): Promise<void>;
  /**
   * Several events of its type at once, in the order they happened (one read for a batch instead of one
   * per event); when it throws, each event is handed to `handle` alone.
   */
  handleMany?(payloads: DomainEventPayload<T>[]): Promise<void>;
}

/** Declares a subscriber: `export const x = on('message.received', 'bot-reply', async (e) => ...)`. */
export function on<T extends DomainEventType>(
  type: T,
  name: string,
  handle: (payload: DomainEventPayload<T>) => Promise<void>,
): Subscriber<T> {
  return { name, type, handle };
}

/** A dispatch's events by company, each company's in the order they came (for `onMany` handlers). */
export function byCompany<E extends { companyId: number }>(events: E[]): Map<number, E[]> {
  const grouped = new Map<number, E[]>();
  for (const e of events) {
    const list = grouped.get(e.companyId);
    if (list) list.push(e);
    else grouped.set(e.companyId, [e]);
  }
  return grouped;
}

/** Declares a subscriber that takes the events of a dispatch together (see `Subscriber.handleMany`). */
export function onMany<T extends DomainEventType>(
  type: T,
  name: string,
  handleMany: (payloads: DomainEventPayload<T>[]) => Promise<void>,
): Subscriber<T> {
  return { name, type, handle: (payload) => handleMany([payload]), handleMany };
}
