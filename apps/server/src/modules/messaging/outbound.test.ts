// Sending to customers: the outbound service and POST /admin/message over real HTTP to the fake Graph API,
// on a real database (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL and REDIS_URL).
import { MESSAGE_STATUS, type ServerEvent } from '@hablabot/contract';
import { type FakeGraphApi, listen, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-outbound-test-token';
const PHONE_ID = '106540352242922';
const PHONE_ID_B = '1122334455667';
const APP_SECRET = 'outbound-app-secret';
const HOUR = 60 * 60 * 1000;

describe(`sending messages (${engine})`, () => {
  let ctx: TestContext;
  let fake: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;
  let companyB: number;
  let server: { url: string; close(): Promise<void> };
  const events: ServerEvent[] = [];

  beforeAll(async () => {
    fake = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550783881',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
        {
          id: PHONE_ID_B,
          display_phone_number: '15550000000',
          verified_name: 'Otra',
          quality_rating: 'GREEN',
        },
      ],
    });
    ctx = await createTestContext({ outboundRetry: { attempts: 3, backoffMs: 10 }, cloudApiTimeoutMs: 2000 });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    companyB = cast.otherAdmin.user.company_id!;
    const { settingsRepository, secrets } = ctx.container;
    for (const [company, phoneId] of [
      [companyId, PHONE_ID],
      [companyB, PHONE_ID_B],
    ] as const) {
      await settingsRepository.upsertSettings(company, {
        whatsapp_api_key_enc: secrets.encrypt(TOKEN),
        whatsapp_phone_id: phoneId,
        whatsapp_app_secret_enc: secrets.encrypt(APP_SECRET),
        facebook_messages_api_url: fake.baseUrl,
      });
    }
    await ctx.container.events.subscribe(companyId, (e) => void events.push(e));
    await ctx.container.jobs.start();
    // Meta's webhooks reach our real route through a loopback server in front of the app.
    server = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await ctx.app.inject({
        method: 'POST',
        url: req.url ?? '/',
        headers: req.headers as Record<string, string>,
        payload: Buffer.concat(chunks),
      });
      res.writeHead(answer.statusCode, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
    fake.webhook = { url: `${server.url}/api/v1/webhooks/whatsapp`, appSecret: APP_SECRET };
  });
  afterAll(async () => {
    await fake.flushWebhooks();
    await Promise.all([ctx.close(), fake.close(), server.close()]);
  });
  beforeEach(() => {
    fake.reset();
    events.length = 0;
  });

  /** A client of the company who last wrote `ago` ms ago (never, with null). */
  async function customer(ago: number | null = HOUR, company = companyId) {
    const client = await createClient(ctx, company);
    if (ago !== null) {
      await ctx.container.messagesRepository.insertMessage(company, {
        clientId: client.id,
        wamid: `wamid.in.${client.id}.${Date.now()}`,
        sender: 'client',
        messageType: 'text',
        waType: 'text',
        content: 'Hola',
        phone: client.whatsapp_cellphone,
        status: MESSAGE_STATUS.delivered,
        createdAt: new Date(Date.now() - ago).toISOString(),
      });
    }
    return client;
  }

  describe('outbound service', () => {
    it('stores the message pending, sends it and keeps the wamid with status 1, telling the chat', async () => {
      const client = await customer();
      const { message, outcome } = await ctx.container.outbound.send({
        companyId,
        clientId: client.id,
        sender: 'bot',
        content: 'Hola, ¿en qué te ayudo?',
      });
      expect(outcome).toBe('sent');
      expect(message).toMatchObject({ status: MESSAGE_STATUS.sent, sender_type: 'bot', error_code: null });
      expect(fake.sent).toHaveLength(1);
      expect(fake.sent[0]).toMatchObject({ to: client.whatsapp_cellphone, type: 'text' });
      const row = await ctx.container.db
        .selectFrom('messages')
        .select(['wamid', 'status'])
        .where('id', '=', message.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ wamid: fake.sent[0].wamid, status: MESSAGE_STATUS.sent });
      await expect.poll(() => events.map((e) => e.type)).toEqual(['message.created', 'message.status']);
      expect(events[0]).toMatchObject({
        data: { message: { id: message.id, status: MESSAGE_STATUS.pending } },
      });
      expect(events[1]).toMatchObject({
        data: { message_id: message.id, status: MESSAGE_STATUS.sent, error: null },
      });
    });

    it('sends media by link and templates outside the window', async () => {
      const inside = await customer();
      const media = await ctx.container.outbound.send({
        companyId,
        clientId: inside.id,
        sender: 'bot',
        content: {
          type: 'document',
          link: 'https://example.test/f.pdf',
          fileName: 'f.pdf',
          caption: 'Factura',
        },
      });
      expect(media.message).toMatchObject({ message_type: 'document', content: 'Factura', status: 1 });

      const outside = await customer(null);
      const template = await ctx.container.outbound.sendTemplate({
        companyId,
        clientId: outside.id,
        template: { name: 'bienvenida', language: 'es' },
        bodyParameters: ['Ana'],
        content: 'Hola Ana, bienvenida.',
      });
      expect(template).toMatchObject({
        outcome: 'sent',
        message: { content: 'Hola Ana, bienvenida.', status: 1 },
      });
      expect(fake.sent.map((s) => s.type)).toEqual(['document', 'template']);
      expect(fake.sent[1].body.template).toEqual({
        name: 'bienvenida',
        language: { code: 'es' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }] }],
      });
    });

    it('refuses free text outside the window (422) and for another company’s client (404)', async () => {
      const old = await customer(25 * HOUR);
      await expect(
        ctx.container.outbound.send({ companyId, clientId: old.id, sender: 'bot', content: 'x' }),
      ).rejects.toMatchObject({ statusCode: 422, key: 'messaging.window_closed' });
      const other = await customer(HOUR, companyB);
      await expect(
        ctx.container.outbound.send({ companyId, clientId: other.id, sender: 'bot', content: 'x' }),
      ).rejects.toMatchObject({ statusCode: 404 });
      expect(fake.sent).toHaveLength(0);
    });
  });
});
