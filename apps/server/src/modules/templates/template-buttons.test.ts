// Templates with quick-reply buttons, over real HTTP to the fake Graph API (which checks a send's button
// components as Meta does): sent from the chat and in a mass message with each quick reply's payload,
// and the customer's tap coming back by the signed webhook, stored as what they pressed (type `button`)
// and quoting the template it answers.
import type { MassMessage, Message, MessageTemplate } from '@hablabot/contract';
import {
  type FakeGraphApi,
  type FakeTemplate,
  createWebhookEmitter,
  fakeTemplate,
  startFakeGraphApi,
} from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-template-buttons-token';
const PHONE_ID = '106540352249001';
const WABA = '104400500609001';
const APP_SECRET = 'template-buttons-app-secret';

const WITH_BUTTONS: FakeTemplate = {
  ...fakeTemplate({ id: '9101', name: 'confirmar_cita' }),
  components: [
    { type: 'BODY', text: 'Hola {{1}}, ¿confirmas tu cita de mañana?' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Sí, confirmo' },
        { type: 'URL', text: 'Ver cita', url: 'https://clinica.example/cita' },
        { type: 'QUICK_REPLY', text: 'Cambiar hora' },
      ],
    },
  ],
};
const QUICK_REPLIES = [
  {
    type: 'button',
    sub_type: 'quick_reply',
    index: '0',
    parameters: [{ type: 'payload', payload: 'Sí, confirmo' }],
  },
  {
    type: 'button',
    sub_type: 'quick_reply',
    index: '2',
    parameters: [{ type: 'payload', payload: 'Cambiar hora' }],
  },
];

let ctx: TestContext;
let fake: FakeGraphApi;
let cast: Awaited<ReturnType<typeof createCast>>;
let companyId: number;
let server: { url: string; close(): Promise<void> };
let template: MessageTemplate;

const call = (method: InjectOptions['method'], url: string, body?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: cast.admin.headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
const history = async (clientId: number) =>
  (await call('GET', `/admin/client/${clientId}/messages?per_page=100`)).json().messages as Message[];

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      {
        id: PHONE_ID,
        display_phone_number: '15550783901',
        verified_name: 'Clínica',
        quality_rating: 'GREEN',
      },
    ],
  });
  fake.templates.set(WABA, [WITH_BUTTONS]);
  fake.phoneAccounts.set(PHONE_ID, WABA);
  ctx = await createTestContext({
    cloudApiTimeoutMs: 2000,
    massSender: { sliceMs: 3000, leaseMs: 3000, controlMs: 100, progressMs: 300 },
  });
  cast = await createCast(ctx);
  companyId = cast.admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, {
    phoneId: PHONE_ID,
    token: TOKEN,
    appSecret: APP_SECRET,
    baseUrl: fake.baseUrl,
  });
  await ctx.container.settingsRepository.upsertSettings(companyId, { whatsapp_business_account_id: WABA });
  await ctx.container.jobs.start();
  server = await routeWebhooksToApp(ctx.app, fake, APP_SECRET);
  const synced = await call('GET', '/templates/sync');
  expect(synced.statusCode, synced.body).toBe(200);
  template = (synced.json().data as MessageTemplate[]).find((x) => x.name === 'confirmar_cita')!;
});
afterAll(async () => {
  await fake.flushWebhooks();
  await Promise.all([ctx.close(), fake.close(), server.close()]);
});
beforeEach(() => fake.reset());

describe(`templates with quick replies (${engine})`, () => {
  it("are sent from the chat with each quick reply's payload, and the customer's tap shows as a button answer", async () => {
    const client = await createClient(ctx, companyId, { name: 'Ana' });
    const res = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: 'confirmar_cita',
      bodyParameters: { '1': 'Ana' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]!.body.template).toEqual({
      name: 'confirmar_cita',
      language: { code: 'es' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }, ...QUICK_REPLIES],
    });
    const sentId = (res.json().data as Message).id;

    const customer = createWebhookEmitter({
      url: fake.webhook!.url,
      appSecret: APP_SECRET,
      phoneNumberId: PHONE_ID,
    });
    // A template's quick reply comes as type `button`; a reply button as `interactive.button_reply`.
    const tap = await customer.buttonReply(client.whatsapp_cellphone, {
      text: 'Sí, confirmo',
      contextWamid: fake.sent[0]!.wamid,
    });
    expect(tap.statuses).toEqual([200]);
    const answer = await waitFor(async () =>
      (await history(client.id)).find((m) => m.sender_type === 'client' && m.message_type === 'button'),
    );
    expect(answer).toMatchObject({ content: 'Sí, confirmo', message_type: 'button', media_url: null });
    expect(answer.reply_to).toMatchObject({ id: sentId });

    await customer.buttonReply(client.whatsapp_cellphone, {
      text: 'Otro día',
      payload: 'otro',
      interactive: true,
    });
    const second = await waitFor(async () =>
      (await history(client.id)).find((m) => m.message_type === 'button' && m.content === 'Otro día'),
    );
    expect(second.sender_type).toBe('client');
  });

  it('go in a mass message with the same payloads to every recipient', async () => {
    const a = await createClient(ctx, companyId, { name: 'Berta' });
    const b = await createClient(ctx, companyId, { name: 'Carlos' });
    const list = await call('POST', '/admin/list-clients', { name: 'Citas', client_ids: [a.id, b.id] });
    expect(list.statusCode, list.body).toBe(201);
    const created = await call('POST', '/admin/messages-massive', {
      name: 'Recordatorio',
      message_template_id: template.id,
      list_id: list.json().data.id,
      bodyParameters: { 1: '{{Nombre}}' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json().data as MassMessage).id;
    await waitFor(async () => {
      const s = (await call('GET', `/admin/messages-massive/${id}`)).json().data as MassMessage;
      return s.status === 'completed' ? s : undefined;
    });
    expect(fake.sent).toHaveLength(2);
    for (const sent of fake.sent) {
      const components = (sent.body.template as { components: unknown[] }).components;
      expect(components.slice(1)).toEqual(QUICK_REPLIES);
    }
    expect(fake.sent.map((s) => s.to).sort()).toEqual([a.whatsapp_cellphone, b.whatsapp_cellphone].sort());
  });
});
