import { createWebhookEmitter } from '@hablabot/fakes';

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
