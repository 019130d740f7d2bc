import { createHash } from 'node:crypto';
import { createWebhookEmitter, type FakeGraphApi } from '@hablabot/fakes';

/** The business's WhatsApp number as the fake Graph API and the webhooks name it. */
export interface DemoPhoneNumber {
  id: string;
  display: string;
  businessAccountId: string;
}

export interface CustomerText {
  phone: string;
  name: string;
  text: string;
  /** Seconds since the epoch; now by default. */
  timestamp?: number;
}

/**
 * Delivers a customer's text message to the server's webhook as WhatsApp would: Meta's envelope, the JSON
 * bytes signed with the app secret (`X-Hub-Signature-256`). Resolves with the server's status and the
 * message's wamid.
 */
export async function postCustomerMessage(
  options: { serverUrl: string; appSecret: string; number: DemoPhoneNumber },
  message: CustomerText,
): Promise<{ status: number; wamid: string }> {
  const emitter = createWebhookEmitter({
    url: `${options.serverUrl}/api/v1/webhooks/whatsapp`,
    appSecret: options.appSecret,
    phoneNumberId: options.number.id,
    wabaId: options.number.businessAccountId,
    displayPhoneNumber: options.number.display,
  });
  const { wamid, statuses } = await emitter.text(message.phone, message.text, {
    name: message.name,
    timestamp: message.timestamp,
  });
  return { status: statuses[0], wamid };
}

/** The files a customer may send from the demo's page, by WhatsApp message type. */
export const CUSTOMER_MEDIA = {
  image: { types: ['image/jpeg', 'image/png'], maxBytes: 5 * 1024 * 1024 },
  document: {
    types: [
      'application/pdf',
      'text/plain',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
    maxBytes: 10 * 1024 * 1024,
  },
} as const;
export type CustomerMediaKind = keyof typeof CUSTOMER_MEDIA;

export interface CustomerMedia {
  phone: string;
  name: string;
  kind: CustomerMediaKind;
  bytes: Buffer;
  mimeType: string;
  /** A document's file name. */
  fileName?: string;
  caption?: string;
}

/**
 * Delivers a customer's image or document as WhatsApp would: the file is put in the fake Graph API's media
 * store (where the server fetches it with the company's token), and the signed webhook names its id, type
 * and real SHA-256.
 */
export async function postCustomerMedia(
  options: { serverUrl: string; appSecret: string; number: DemoPhoneNumber; graph: FakeGraphApi },
  media: CustomerMedia,
): Promise<{ status: number; wamid: string }> {
  const id = options.graph.media.add(media.bytes, media.mimeType);
  const emitter = createWebhookEmitter({
    url: `${options.serverUrl}/api/v1/webhooks/whatsapp`,
    appSecret: options.appSecret,
    phoneNumberId: options.number.id,
    wabaId: options.number.businessAccountId,
    displayPhoneNumber: options.number.display,
  });
  const { wamid, statuses } = await emitter.message({
    from: media.phone,
    name: media.name,
    type: media.kind,
    fields: {
      id,
      mime_type: media.mimeType,
      sha256: createHash('sha256').update(media.bytes).digest('hex'),
      ...(media.caption ? { caption: media.caption } : {}),
      ...(media.kind === 'document' && media.fileName ? { filename: media.fileName } : {}),
    },
  });
  return { status: statuses[0], wamid };
}
