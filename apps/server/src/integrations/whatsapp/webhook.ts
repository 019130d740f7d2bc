import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The WhatsApp Cloud API's webhook as we read it: Meta's JSON is turned into plain values here and
 * nowhere else. Parsing is lenient (a field of an unexpected shape is left out, never a crash): Meta adds
 * fields and types over time, and a delivery we refuse is retried for days.
 */

/** What a customer's message carries, by kind. */
export type InboundContent =
  | { kind: 'text'; text: string }
  | {
      kind: 'media';
      type: 'image' | 'video' | 'audio' | 'document' | 'sticker';
      mediaId: string | null;
      mimeType: string | null;
      sha256: string | null;
      caption: string | null;
      fileName: string | null;
    }
  /** A tap on a button: a template's quick reply (`button`) or a reply button (`interactive`). */
  | { kind: 'button'; text: string; payload: string | null }
  | { kind: 'reaction'; emoji: string | null; messageId: string | null }
  | {
      kind: 'location';
      latitude: number | null;
      longitude: number | null;
      name: string | null;
      address: string | null;
    }
  | { kind: 'contacts'; contacts: { name: string | null; phones: string[] }[] }
  | { kind: 'order'; items: number }
  | { kind: 'system'; text: string | null }
  | { kind: 'unsupported'; type: string; title: string | null };

export interface InboundMessage {
  /** WhatsApp's id of the message. */
  wamid: string;
  /** The customer's phone (digits) when WhatsApp sent it. */
  phone: string | null;
  /** WhatsApp's business-scoped user id, sent beside or instead of the phone. */
  userId: string | null;
  /** The customer's WhatsApp profile name, from the change's contacts. */
  profileName: string | null;
  /** When the customer sent it. */
  sentAt: Date | null;
  /** The type WhatsApp gave it. */
  waType: string;
  /** The message it answers or reacts to. */
  contextWamid: string | null;
  content: InboundContent;
}

export type ReportedStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusReport {
  wamid: string;
  status: ReportedStatus;
  at: Date | null;
  recipient: string | null;
  errorCode: number | null;
  /** Meta's title and details, e.g. 'Re-engagement message: Message failed to send because…'. */
  errorMessage: string | null;
  /** Meta's title alone, e.g. 'Re-engagement message'. */
  errorTitle: string | null;
}

/** One change of a webhook: what happened on one business phone number. */
export interface WebhookChange {
  phoneNumberId: string;
  messages: InboundMessage[];
  statuses: StatusReport[];
  /** Errors Meta reported for the change itself (not for a message), as text for the log. */
  errors: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const objects = (v: unknown): Json[] => list(v).filter(isObject);

/** Epoch seconds as Meta writes them ('1697043223'). */
function epoch(v: unknown): Date | null {
  const seconds = num(v);
  if (seconds === null || seconds <= 0) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A phone as digits only (WhatsApp sends them so already); null when it is not one. */
function phoneOf(v: unknown): string | null {
  const text = str(v);
  if (!text) return null;
  const digits = text.replace(/^\+/, '');
  return /^\d{6,15}$/.test(digits) ? digits : null;
}

function contentOf(type: string, m: Json): InboundContent {
  const body = isObject(m[type]) ? (m[type] as Json) : {};
  switch (type) {
    case 'text':
      return { kind: 'text', text: str(body.body) ?? '' };
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return {
        kind: 'media',
        type,
        mediaId: str(body.id),
        mimeType: str(body.mime_type),
        sha256: str(body.sha256),
        caption: str(body.caption),
        fileName: str(body.filename),
      };
    case 'interactive': {
      // A tap on a reply button or a list row: its title is what the customer "said".
      if (isObject(body.button_reply)) {
        const reply = body.button_reply;
        return { kind: 'button', text: str(reply.title) ?? str(reply.id) ?? '', payload: str(reply.id) };
      }
      const reply = [body.list_reply].find(isObject);
      if (reply) return { kind: 'text', text: str(reply.title) ?? str(reply.id) ?? '' };
      const flow = isObject(body.nfm_reply) ? body.nfm_reply : null;
      if (flow) return { kind: 'text', text: str(flow.body) ?? str(flow.name) ?? '' };
      return { kind: 'unsupported', type: `interactive.${str(body.type) ?? '?'}`, title: null };
    }
    case 'button':
      return { kind: 'button', text: str(body.text) ?? str(body.payload) ?? '', payload: str(body.payload) };
    case 'reaction':
      return { kind: 'reaction', emoji: str(body.emoji), messageId: str(body.message_id) };
    case 'location':
      return {
        kind: 'location',
        latitude: num(body.latitude),
        longitude: num(body.longitude),
        name: str(body.name),
        address: str(body.address),
      };
    case 'contacts':
      // The contacts are the message's field itself (an array), not an object under it.
      return {
        kind: 'contacts',
        contacts: objects(m.contacts).map((c) => ({
          name: isObject(c.name) ? (str(c.name.formatted_name) ?? str(c.name.first_name)) : null,
          phones: objects(c.phones)
            .map((p) => str(p.phone) ?? str(p.wa_id))
            .filter((p): p is string => p !== null),
        })),
      };
    case 'order':
      return { kind: 'order', items: objects(body.product_items).length };
    case 'system':
      return { kind: 'system', text: str(body.body) };
    default: {
      const error = objects(m.errors)[0];
      return {
        kind: 'unsupported',
        type,
        title: error ? (str(error.title) ?? str(error.message)) : null,
      };
    }
  }
}

function messageOf(m: Json, profiles: Map<string, string>): InboundMessage | null {
  const wamid = str(m.id);
  if (!wamid) return null;
  const type = str(m.type) ?? 'unsupported';
  const phone = phoneOf(m.from);
  const userId = str(m.from_user_id) ?? str(m.user_id);
  const context = isObject(m.context) ? str(m.context.id) : null;
  const content = contentOf(type, m);
  return {
    wamid,
    phone,
    userId,
    profileName: (phone && profiles.get(phone)) ?? (userId && profiles.get(userId)) ?? null,
    sentAt: epoch(m.timestamp),
    waType: type,
    contextWamid: content.kind === 'reaction' ? content.messageId : context,
    content,
  };
}

const REPORTED: readonly string[] = ['sent', 'delivered', 'read', 'failed'];

function statusOf(s: Json): StatusReport | null {
  const wamid = str(s.id);
  const status = str(s.status);
  if (!wamid || !status || !REPORTED.includes(status)) return null;
  const error = objects(s.errors)[0];
  let errorMessage: string | null = null;
  let errorTitle: string | null = null;
  if (error) {
    const title = str(error.title) ?? str(error.message);
    errorTitle = title;
    const details = isObject(error.error_data) ? str(error.error_data.details) : null;
    errorMessage = [title, details && details !== title ? details : null].filter(Boolean).join(': ') || null;
  }
  return {
    wamid,
    status: status as ReportedStatus,
    at: epoch(s.timestamp),
    recipient: phoneOf(s.recipient_id),
    errorCode: error ? num(error.code) : null,
    errorMessage,
    errorTitle,
  };
}

/**
 * The most one delivery may hold. Meta sends one entry with one change and a message or a few statuses,
 * and batches at most some hundreds of updates under load; a body past these is not Meta's and is
 * refused before anything of it is looked up or stored.
 */
export const WEBHOOK_LIMITS = {
  /** Entries (WhatsApp Business accounts) in the body. */
  entries: 100,
  /** Changes in all its entries. */
  changes: 100,
  /** Customer messages and statuses in all its changes. */
  updates: 1000,
  /** Contacts and change errors in all its changes. */
  others: 1000,
} as const;

export type WebhookLimit = keyof typeof WEBHOOK_LIMITS;

/**
 * The first of WEBHOOK_LIMITS a body (already parsed from JSON) goes past, or null. Only the lists'
 * lengths are counted, so a body past a limit costs no more than its lengths up to that point.
 */
export function webhookOverLimit(body: unknown): WebhookLimit | null {
  if (!isObject(body)) return null;
  const entries = list(body.entry);
  if (entries.length > WEBHOOK_LIMITS.entries) return 'entries';
  let changes = 0;
  let updates = 0;
  let others = 0;
  for (const entry of entries) {
    const inEntry = isObject(entry) ? list(entry.changes) : [];
    changes += inEntry.length;
    if (changes > WEBHOOK_LIMITS.changes) return 'changes';
    for (const change of inEntry) {
      const value = isObject(change) && isObject(change.value) ? change.value : null;
      if (!value) continue;
      updates += list(value.messages).length + list(value.statuses).length;
      others += list(value.contacts).length + list(value.errors).length;
      if (updates > WEBHOOK_LIMITS.updates) return 'updates';
      if (others > WEBHOOK_LIMITS.others) return 'others';
    }
  }
  return null;
}

/**
 * The changes of a webhook body (already parsed from JSON); an empty list for a body that is not a
 * WhatsApp Business Account notification. Changes without a phone number id are left out.
 */
export function readWebhook(body: unknown): WebhookChange[] {
  if (!isObject(body) || body.object !== 'whatsapp_business_account') return [];
  const changes: WebhookChange[] = [];
  for (const entry of objects(body.entry)) {
    for (const change of objects(entry.changes)) {
      if (change.field !== undefined && change.field !== 'messages') continue;
      const value = isObject(change.value) ? change.value : null;
      const phoneNumberId = value && isObject(value.metadata) ? str(value.metadata.phone_number_id) : null;
      if (!value || !phoneNumberId) continue;
      const profiles = new Map<string, string>();
      for (const c of objects(value.contacts)) {
        const name = isObject(c.profile) ? str(c.profile.name) : null;
        if (!name) continue;
        for (const key of [phoneOf(c.wa_id), str(c.user_id)]) if (key) profiles.set(key, name);
      }
      changes.push({
        phoneNumberId,
        messages: objects(value.messages)
          .map((m) => messageOf(m, profiles))
          .filter((m): m is InboundMessage => m !== null),
        statuses: objects(value.statuses)
          .map(statusOf)
          .filter((s): s is StatusReport => s !== null),
        errors: objects(value.errors).map((e) =>
          `${num(e.code) ?? '?'} ${str(e.title) ?? str(e.message) ?? ''}`.trim(),
        ),
      });
    }
  }
  return changes;
}

/** `sha256=<hex>`: the X-Hub-Signature-256 header Meta sends for these bytes with this app secret. */
export function signWebhook(appSecret: string, raw: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** True when the header is the HMAC-SHA256 of the raw bytes with the app secret (compared in constant time). */
export function verifyWebhookSignature(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}
