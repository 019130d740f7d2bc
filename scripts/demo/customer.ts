import { createHmac, randomBytes } from 'node:crypto';

/** The business's WhatsApp number as the fake Graph API and the webhooks name it. */
export interface DemoPhoneNumber {
  id: string;
  display: string;
  businessAccountId: string;
}

export interface CustomerMessage {
  phone: string;
  name: string;
  text: string;
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
}

/** Meta's webhook delivery of one customer text message, with a fresh wamid. */
export function customerTextEnvelope(number: DemoPhoneNumber, message: CustomerMessage) {
  const wamid = `wamid.demo.${randomBytes(12).toString('hex')}`;
  const timestamp = String(message.timestamp ?? Math.floor(Date.now() / 1000));
  return {
    wamid,
    body: {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: number.businessAccountId,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: number.display, phone_number_id: number.id },
                contacts: [{ profile: { name: message.name }, wa_id: message.phone }],
                messages: [
                  { from: message.phone, id: wamid, timestamp, type: 'text', text: { body: message.text } },
                ],
              },
            },
          ],
        },
      ],
    },
  };
}

/** `sha256=<hex>`: the HMAC-SHA256 of the exact bytes sent, keyed with the app secret, as Meta signs. */
export function signature(appSecret: string, raw: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;
}

/**
 * Delivers a customer's message to the server's webhook as WhatsApp would: the JSON bytes, signed.
 * Resolves with the server's status and the message's wamid.
 */
export async function postCustomerMessage(
  options: { serverUrl: string; appSecret: string; number: DemoPhoneNumber },
  message: CustomerMessage,
): Promise<{ status: number; wamid: string }> {
  const { wamid, body } = customerTextEnvelope(options.number, message);
  const raw = JSON.stringify(body);
  const response = await fetch(`${options.serverUrl}/api/v1/webhooks/whatsapp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(options.appSecret, raw) },
    body: raw,
  });
  await response.arrayBuffer();
  return { status: response.status, wamid };
}
