import { createHmac, randomBytes } from 'node:crypto';

/**
 * Meta's side of the WhatsApp webhook: builds the envelope Meta POSTs (customer messages of any type,
 * delivery statuses in any order) and delivers it signed as Meta signs it — `X-Hub-Signature-256:
 * sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. Deliveries may be repeated, as Meta
 * delivers at least once.
 */

export interface WebhookOrigin {
  /** The phone number the change is for (`metadata.phone_number_id`). */
  phoneNumberId: string;
  /** The WhatsApp Business Account id (`entry[].id`). */
  wabaId?: string;
  displayPhoneNumber?: string;
}

export interface CustomerMessage {
  /** The customer's number (digits, country code included). */
  from: string;
  /** text, image, video, audio, document, sticker, reaction, location, interactive, button … */
  type: string;
  /** The type's object (`{ body }` for text, `{ id, mime_type, sha256, caption? }` for media …). */
  fields: Record<string, unknown>;
  name?: string;
  wamid?: string;
  /** Epoch seconds (now by default). */
  timestamp?: number;
  /** The message this one answers (`context.id`). */
  contextWamid?: string;
}

export interface StatusError {
  code: number;
  title: string;
  message?: string;
  details?: string;
}

export interface StatusReport {
  wamid: string;
  status: 'sent' | 'delivered' | 'read' | 'failed';
  recipientId?: string;
  timestamp?: number;
  errors?: StatusError[];
}

let seq = 0;
/** A fresh WhatsApp message id. */
export const emitterWamid = () => `wamid.${randomBytes(12).toString('base64url')}${++seq}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The value of `X-Hub-Signature-256` for these exact bytes. */
export function signWebhookBody(appSecret: string, raw: string | Buffer): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/** Meta's envelope around one change of the `messages` field. */
export function webhookEnvelope(origin: WebhookOrigin, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: origin.wabaId ?? '1234567890987654321',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: origin.displayPhoneNumber ?? '15550783881',
                phone_number_id: origin.phoneNumberId,
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A webhook body carrying customer messages (any type). */
export function customerMessagesBody(origin: WebhookOrigin, messages: CustomerMessage[]) {
  return webhookEnvelope(origin, {
    contacts: messages.map((m) => ({ profile: { name: m.name ?? 'Cliente WhatsApp' }, wa_id: m.from })),
    messages: messages.map((m) => ({
      from: m.from,
      id: m.wamid ?? emitterWamid(),
      timestamp: String(m.timestamp ?? nowSeconds()),
      type: m.type,
      ...(m.contextWamid ? { context: { from: m.from, id: m.contextWamid } } : {}),
      [m.type]: m.fields,
    })),
  });
}

/** A webhook body carrying one customer text message. */
export function customerTextBody(
  origin: WebhookOrigin,
  message: { from: string; text: string } & Omit<Partial<CustomerMessage>, 'type' | 'fields'>,
) {
  const { text, ...rest } = message;
  return customerMessagesBody(origin, [{ ...rest, type: 'text', fields: { body: text } }]);
}

/** A webhook body carrying delivery statuses, in the order given (Meta does not keep any order). */
export function statusesBody(origin: WebhookOrigin, statuses: StatusReport[]) {
  return webhookEnvelope(origin, {
    statuses: statuses.map((s) => ({
      id: s.wamid,
      status: s.status,
      timestamp: String(s.timestamp ?? nowSeconds()),
      recipient_id: s.recipientId ?? '34600000000',
      ...(s.errors
        ? {
            errors: s.errors.map((e) => ({
              code: e.code,
              title: e.title,
              message: e.message ?? e.title,
              error_data: { details: e.details ?? e.message ?? e.title },
              href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
            })),
          }
        : {}),
    })),
  });
}

export interface WebhookEmitter {
  /** POSTs a body (an object is sent as JSON) `times` times, signed; the answers' statuses. */
  post(body: unknown, options?: { times?: number; signature?: string }): Promise<number[]>;
  /** One customer text message; its wamid and the answers' statuses. */
  text(
    from: string,
    text: string,
    options?: Partial<CustomerMessage> & { times?: number },
  ): Promise<{ wamid: string; statuses: number[] }>;
  /** One customer message of any type. */
  message(
    message: CustomerMessage,
    options?: { times?: number },
  ): Promise<{ wamid: string; statuses: number[] }>;
  /** Statuses in the order given, in one delivery. */
  statuses(statuses: StatusReport[], options?: { times?: number }): Promise<number[]>;
  /**
   * A customer's tap on a button, answering `contextWamid`: a template's quick reply (type `button`,
   * `{ text, payload }`) or, with `interactive`, a reply button (`interactive.button_reply`).
   */
  buttonReply(
    from: string,
    button: { text: string; payload?: string; contextWamid?: string; interactive?: boolean },
    options?: { times?: number },
  ): Promise<{ wamid: string; statuses: number[] }>;
}

/** The message of a customer's tap on a button, as Meta delivers it. */
export function buttonReplyMessage(
  from: string,
  button: { text: string; payload?: string; contextWamid?: string; interactive?: boolean },
): CustomerMessage {
  const payload = button.payload ?? button.text;
  return button.interactive
    ? {
        from,
        type: 'interactive',
        fields: { type: 'button_reply', button_reply: { id: payload, title: button.text } },
        contextWamid: button.contextWamid,
      }
    : { from, type: 'button', fields: { text: button.text, payload }, contextWamid: button.contextWamid };
}

/** Delivers webhooks to `url` the way Meta does, signed with `appSecret` when one is given. */
export function createWebhookEmitter(
  options: WebhookOrigin & { url: string; appSecret?: string },
): WebhookEmitter {
  const origin: WebhookOrigin = options;
  async function post(body: unknown, o: { times?: number; signature?: string } = {}) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const signature =
      o.signature ?? (options.appSecret ? signWebhookBody(options.appSecret, raw) : undefined);
    if (signature) headers['x-hub-signature-256'] = signature;
    const statuses: number[] = [];
    for (let i = 0; i < (o.times ?? 1); i++) {
      const res = await fetch(options.url, { method: 'POST', headers, body: raw });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    return statuses;
  }
  return {
    post,
    async message(message, o = {}) {
      const wamid = message.wamid ?? emitterWamid();
      const statuses = await post(customerMessagesBody(origin, [{ ...message, wamid }]), o);
      return { wamid, statuses };
    },
    async text(from, text, o = {}) {
      const { times, ...rest } = o;
      return this.message({ ...rest, from, type: 'text', fields: { body: text } }, { times });
    },
    statuses: (statuses, o = {}) => post(statusesBody(origin, statuses), o),
    buttonReply(from, button, o = {}) {
      return this.message(buttonReplyMessage(from, button), o);
    },
  };
}
