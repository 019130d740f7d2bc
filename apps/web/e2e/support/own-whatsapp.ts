import type { Page } from '@playwright/test';
import {
  createWebhookEmitter,
  type FakeGraphApi,
  startFakeGraphApi,
  type WebhookEmitter,
} from '../../../../packages/fakes/src/index';
import type { Session } from './api';
import { type OwnServer, startOwnServer } from './own-server';

/**
 * The company of a spec's own server (support/own-server.ts) connected to a fake WhatsApp Cloud API of
 * its own, as support/whatsapp.ts does for the shared server; and a page signed in to that server.
 */
export async function connectOwnWhatsApp(
  server: OwnServer,
  adminToken: string,
  options: { token: string; appSecret: string; verifiedName: string },
): Promise<{ graph: FakeGraphApi; customer: WebhookEmitter }> {
  const phoneNumberId = String(100_000_000_000_000 + Math.floor(Math.random() * 1e14));
  const wabaId = String(200_000_000_000_000 + Math.floor(Math.random() * 1e14));
  const graph = await startFakeGraphApi({
    tokens: [options.token],
    phoneNumbers: [
      {
        id: phoneNumberId,
        display_phone_number: '+34 600 11 22 33',
        verified_name: options.verifiedName,
        quality_rating: 'GREEN',
      },
    ],
  });
  graph.templates.set(wabaId, []);
  graph.phoneAccounts.set(phoneNumberId, wabaId);
  const webhookUrl = `${server.api}/webhooks/whatsapp`;
  graph.webhook = { url: webhookUrl, appSecret: options.appSecret, wabaId };
  await server.call(
    'POST',
    '/admin/setting',
    {
      whatsAppApiKey: options.token,
      whatsAppPhoneId: phoneNumberId,
      whatsAppBusinessAccountId: wabaId,
      whatsAppAppSecret: options.appSecret,
      facebookMessagesApiUrl: graph.baseUrl,
    },
    adminToken,
  );
  const customer = createWebhookEmitter({
    url: webhookUrl,
    appSecret: options.appSecret,
    phoneNumberId,
    wabaId,
  });
  return { graph, customer };
}

/** Opens the app of `server` in `page` as `session`, in `language` (as support/api.ts openSession). */
export async function openOwnSession(
  page: Page,
  server: OwnServer,
  session: Session,
  language: 'es' | 'en',
): Promise<void> {
  await page.goto(`${server.baseURL}/favicon.svg`);
  await page.evaluate(
    ({ token, user, language }) => {
      sessionStorage.setItem('token', token);
      sessionStorage.setItem('user', JSON.stringify(user));
      sessionStorage.setItem('rol', user.roles[0]?.name ?? '');
      localStorage.setItem('language', language);
    },
    { token: session.token, user: session.user, language },
  );
}

/** A spec's own server with one admin's company connected to a fake Cloud API of its own. */
export interface OwnWhatsAppCompany {
  server: OwnServer;
  admin: Session;
  graph: FakeGraphApi;
  customer: WebhookEmitter;
  /** Stops the fake Cloud API and the server, and removes the server's folder. */
  dispose(): Promise<void>;
}

/**
 * Starts a server of the spec's own (`name` names its folder), creates `admin` with a company there and
 * connects that company to a fake Cloud API of its own (`whatsapp`): a spec's `beforeAll`.
 */
export async function startOwnWhatsAppCompany(
  name: string,
  admin: { key: string; name: string; company: string },
  whatsapp: { token: string; appSecret: string; verifiedName: string },
): Promise<OwnWhatsAppCompany> {
  const server = await startOwnServer(name);
  try {
    const session = await server.createAdmin(admin);
    const { graph, customer } = await connectOwnWhatsApp(server, session.token, whatsapp);
    return {
      server,
      admin: session,
      graph,
      customer,
      async dispose() {
        await graph.close();
        await server.dispose();
      },
    };
  } catch (error) {
    await server.dispose();
    throw error;
  }
}
