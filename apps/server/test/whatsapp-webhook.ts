import { signWebhook } from '../src/integrations/whatsapp/webhook';

/** Builders of WhatsApp Cloud API webhook bodies, shaped like Meta's samples. */

let seq = 0;
export const nextWamid = () => `wamid.test.${Date.now().toString(36)}.${++seq}`;

export interface ChangeValues {
  contacts?: object[];
  messages?: object[];
  statuses?: object[];
  errors?: object[];
}

export function webhookBody(phoneNumberId: string, value: ChangeValues): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1234567890987654321',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** One customer message of any type (the type's object given as `fields`). */
export function inboundBody(
  phoneNumberId: string,
  from: string,
  type: string,
  fields: Record<string, unknown>,
  options: { wamid?: string; name?: string; timestamp?: number } = {},
) {
  return webhookBody(phoneNumberId, {
    contacts: [{ profile: { name: options.name ?? 'Cliente WhatsApp' }, wa_id: from }],
    messages: [
      {
        from,
        id: options.wamid ?? nextWamid(),
        timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
        type,
        ...fields,
      },
    ],
  });
}

export function statusBody(
  phoneNumberId: string,
  wamid: string,
  status: string,
  options: { timestamp?: number; errors?: object[] } = {},
) {
  return webhookBody(phoneNumberId, {
    statuses: [
      {
        id: wamid,
        status,
        timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
        recipient_id: '34600000000',
        ...(options.errors ? { errors: options.errors } : {}),
      },
    ],
  });
}

/** The request Meta would make: the JSON bytes, signed with the app secret when one is given. */
export function signedRequest(body: unknown, secret?: string) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    method: 'POST' as const,
    url: '/api/v1/webhooks/whatsapp',
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-hub-signature-256': signWebhook(secret, payload) } : {}),
    },
    payload,
  };
}
