import { type FakeGraphApi, type RunningFake, listen } from '@hablabot/fakes';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../src/container';

export interface WhatsAppAccount {
  phoneId: string;
  token: string;
  /** Webhooks for this number must be signed with it; none: they are not checked. */
  appSecret?: string;
  /** The Cloud API the company sends through (a fake's `baseUrl`). */
  baseUrl: string;
}

/** Sets a company's WhatsApp settings, as the settings screen saves them (secrets sealed). */
export async function connectWhatsApp(
  container: Pick<Container, 'settingsRepository' | 'secrets'>,
  companyId: number,
  account: WhatsAppAccount,
): Promise<void> {
  const { settingsRepository, secrets } = container;
  await settingsRepository.upsertSettings(companyId, {
    whatsapp_api_key_enc: secrets.encrypt(account.token),
    whatsapp_phone_id: account.phoneId,
    ...(account.appSecret ? { whatsapp_app_secret_enc: secrets.encrypt(account.appSecret) } : {}),
    facebook_messages_api_url: account.baseUrl,
  });
}

/**
 * The fake Cloud API's webhooks (statuses, customer messages) reach the app's real route over HTTP: a
 * loopback server in front of an app that tests drive with `inject` passes each delivery on as it came
 * (raw bytes, so signatures hold). Close the returned server when done.
 */
export async function routeWebhooksToApp(
  app: Pick<FastifyInstance, 'inject'>,
  fake: FakeGraphApi,
  appSecret: string,
): Promise<RunningFake> {
  const server = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await app.inject({
      method: 'POST',
      url: req.url ?? '/',
      headers: req.headers as Record<string, string>,
      payload: Buffer.concat(chunks),
    });
    res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  fake.webhook = { url: `${server.url}/api/v1/webhooks/whatsapp`, appSecret };
  return server;
}
