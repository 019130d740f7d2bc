import {
  createWebhookEmitter,
  type FakeGraphApi,
  type FakeTemplate,
  startFakeGraphApi,
  type WebhookEmitter,
} from '../../../../packages/fakes/src/index';
import { api, apiBase } from './api';

/**
 * A company connected to a fake WhatsApp Cloud API of its own: the fake (a loopback server with these
 * templates in its business account), the company's settings pointing at it (token, phone number id,
 * account id, app secret), and `customer`, which writes to the company through the signed webhook as
 * Meta delivers it. The phone number id and the business account id are random: a WhatsApp number
 * belongs to one company, and parallel workers — or a worker restarted after a failure, which makes a
 * new company — must never claim one another's.
 */
export async function connectFakeWhatsApp(
  adminToken: string,
  options: {
    token: string;
    appSecret: string;
    displayPhoneNumber: string;
    verifiedName: string;
    templates: FakeTemplate[];
  },
): Promise<{ graph: FakeGraphApi; customer: WebhookEmitter; phoneNumberId: string; wabaId: string }> {
  const { token, appSecret } = options;
  const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 1e14));
  const wabaId = String(200_000_000_000_000 + Math.floor(Math.random() * 1e14));
  const graph = await startFakeGraphApi({
    tokens: [token],
    phoneNumbers: [
      {
        id: phoneNumberId,
        display_phone_number: options.displayPhoneNumber,
        verified_name: options.verifiedName,
        quality_rating: 'GREEN',
      },
    ],
  });
  graph.templates.set(wabaId, options.templates);
  graph.phoneAccounts.set(phoneNumberId, wabaId);
  const webhookUrl = `${apiBase()}/webhooks/whatsapp`;
  graph.webhook = { url: webhookUrl, appSecret, wabaId };
  await api(
    'POST',
    '/admin/setting',
    {
      whatsAppApiKey: token,
      whatsAppPhoneId: phoneNumberId,
      whatsAppBusinessAccountId: wabaId,
      whatsAppAppSecret: appSecret,
      facebookMessagesApiUrl: graph.baseUrl,
    },
    adminToken,
  );
  const customer = createWebhookEmitter({ url: webhookUrl, appSecret, phoneNumberId, wabaId });
  return { graph, customer, phoneNumberId, wabaId };
}
