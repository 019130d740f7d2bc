// Sending to customers: the outbound service and POST /admin/message over real HTTP to the fake Graph API,
// on a real database (SQLite, or PostgreSQL + Redis with TEST_DATABASE_URL and REDIS_URL).
import { type Message, MESSAGE_STATUS, type ServerEvent } from '@hablabot/contract';
import { type FakeGraphApi, createWebhookEmitter, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser } from '../../../test/factories';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';
import { retryWait } from './outbound.service';

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
    for (const [company, phoneId] of [
      [companyId, PHONE_ID],
      [companyB, PHONE_ID_B],
    ] as const)
      await connectWhatsApp(ctx.container, company, {
        phoneId,
        token: TOKEN,
        appSecret: APP_SECRET,
        baseUrl: fake.baseUrl,
      });
    await ctx.container.events.subscribe(companyId, (e) => void events.push(e));
    await ctx.container.jobs.start();
    // Meta's webhooks reach our real route through a loopback server in front of the app.
    server = await routeWebhooksToApp(ctx.app, fake, APP_SECRET);
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

  describe('retry waits', () => {
    it('double from the backoff, and grow by 4 after a rate-limit answer', () => {
      expect([1, 2, 3].map((n) => retryWait(1000, n, 131000))).toEqual([1000, 2000, 4000]);
      expect([1, 2, 3].map((n) => retryWait(1000, n, 130429))).toEqual([4000, 16000, 64000]);
      expect(retryWait(1000, 1, 131056)).toBe(4000);
    });
  });

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

  const stored = (id: number) =>
    ctx.container.messagesRepository.findMessage(companyId, id) as Promise<Message>;
  const post = (body: unknown, as = cast.admin, lang?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/message',
      headers: { ...as.headers, ...(lang ? { 'accept-language': lang } : {}) },
      payload: body as Record<string, unknown>,
    });
  const botMode = async (clientId: number) =>
    (
      await ctx.container.db
        .selectFrom('clients')
        .leftJoin('conversations', 'conversations.client_id', 'clients.id')
        .select('conversations.bot_paused')
        .where('clients.id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).bot_paused === 1
      ? 0
      : 1;

  describe('POST /admin/message', () => {
    it('sends a new text: 201 with the stored message, and the bot pauses for that client once', async () => {
      const client = await customer();
      expect(await botMode(client.id)).toBe(1);
      const res = await post({
        content: '  Hola, soy Ana  ',
        client_id: client.id,
        phone: client.whatsapp_cellphone,
      });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body.message).toBe('Mensaje enviado.');
      expect(body.data).toMatchObject({
        client_id: client.id,
        content: 'Hola, soy Ana',
        sender_type: 'admin',
        message_type: 'text',
        status: MESSAGE_STATUS.sent,
        phone: client.whatsapp_cellphone,
      });
      expect(fake.sent.map((m) => m.body.text)).toEqual([{ body: 'Hola, soy Ana', preview_url: false }]);
      expect(await botMode(client.id)).toBe(0);
      // The chat list shows it as the client's last message; the unread count is the customer's alone.
      expect(
        await ctx.container.db
          .selectFrom('conversations')
          .select([
            'last_message_content',
            'last_message_at as last_message_date',
            'unread_count as unread_messages_count',
          ])
          .where('client_id', '=', client.id)
          .executeTakeFirstOrThrow(),
      ).toEqual({
        last_message_content: 'Hola, soy Ana',
        last_message_date: body.data.created_at,
        unread_messages_count: client.unread_messages_count,
      });
      await expect
        .poll(() => events.filter((e) => e.type === 'client.bot_mode'))
        .toEqual([expect.objectContaining({ data: { client_id: client.id, mode_bot: 0 } })]);

      // Already paused: no second event.
      expect((await post({ content: 'Otra', client_id: client.id }, cast.admin, 'en')).json().message).toBe(
        'Message sent.',
      );
      await expect.poll(() => events.filter((e) => e.type === 'message.status').length).toBe(2);
      expect(events.filter((e) => e.type === 'client.bot_mode')).toHaveLength(1);
    });

    it('refuses free text when the 24-hour window has closed or the client never wrote (422)', async () => {
      const old = await customer(24 * HOUR + 60_000);
      const res = await post({ content: 'Hola', client_id: old.id });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'La ventana de 24 horas ya se ha cerrado. Usa un mensaje plantilla.',
        errors: { content: ['La ventana de 24 horas ya se ha cerrado. Usa un mensaje plantilla.'] },
      });
      const never = await customer(null);
      const none = await post({ content: 'Hola', client_id: never.id });
      expect(none.statusCode).toBe(422);
      expect(none.json().message).toBe('No hay mensajes del cliente. Usa un mensaje plantilla.');
      expect(fake.sent).toHaveLength(0);
      expect(await botMode(old.id)).toBe(1);
    });

    it('refuses empty or whitespace content and bad ids with 422', async () => {
      const client = await customer();
      for (const body of [
        { content: '', client_id: client.id },
        { content: '   \u200b ', client_id: client.id },
        { client_id: client.id },
        { content: 'x', client_id: 'abc' },
        { content: 'x'.repeat(4097), client_id: client.id },
      ]) {
        const res = await post(body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      }
      expect(fake.sent).toHaveLength(0);
    });

    it.each([
      [131047, 'Han pasado más de 24 horas desde el último mensaje del cliente', false],
      [131026, 'WhatsApp no pudo entregar el mensaje a este número', false],
      [190, 'WhatsApp rechazó el token de acceso: caducó o fue revocado', true],
      [132000, 'El número de variables enviadas no coincide con las que tiene la plantilla', false],
      [100, 'WhatsApp rechazó el mensaje porque uno de sus datos no es válido', false],
      [131999, '(#131999) Something new (código 131999).', true],
    ])(
      'stores a send refused with %i as status 4 with the reason, answered 201',
      async (code, reason, resendable) => {
        const client = await customer();
        fake.failSends({
          code,
          ...(code === 131999 ? { message: '(#131999) Something new', status: 400 } : {}),
        });
        const res = await post({ content: 'Hola', client_id: client.id });
        expect(res.statusCode).toBe(201);
        expect(res.json().message).toContain(`No se pudo enviar el mensaje: ${reason}`);
        expect(res.json().data).toMatchObject({
          status: MESSAGE_STATUS.failed,
          error_code: code,
          error: { code, resendable },
        });
        // A code of the catalogue is answered in its own words; another with WhatsApp's text and code.
        if (code !== 131999) expect(res.json().message).toContain(res.json().data.error.explanation);
        const row = await stored(res.json().data.id);
        expect(row).toMatchObject({ status: MESSAGE_STATUS.failed, error_code: code });
        expect(row.error_message).toMatch(new RegExp(`#?${code}|Error validating`));
        await expect
          .poll(() =>
            events.find((e) => e.type === 'message.status' && e.data.status === MESSAGE_STATUS.failed),
          )
          .toMatchObject({ data: { message_id: row.id, error: row.error_message } });
      },
    );

    it.each([130429, 131000])(
      'tries a send refused with %i again after a wait, then it is sent',
      async (code) => {
        const client = await customer();
        fake.failSends({ code }, 2);
        const res = await post({ content: 'Reintento', client_id: client.id });
        expect(res.statusCode).toBe(201);
        expect(res.json().data.status).toBe(MESSAGE_STATUS.pending);
        expect(res.json().message).toBe(
          'WhatsApp está saturado en este momento; el mensaje se enviará en breve.',
        );
        const id = res.json().data.id;
        await expect
          .poll(async () => (await stored(id)).status, { timeout: 15_000 })
          .toBe(MESSAGE_STATUS.sent);
        expect(fake.sent).toHaveLength(1);
        expect(fake.requests.filter((r) => r.path.endsWith('/messages'))).toHaveLength(3);
      },
    );

    it('marks the message status 4 only once the retries are spent', async () => {
      const client = await customer();
      fake.failSends({ code: 131000 }, 5);
      const res = await post({ content: 'Sin suerte', client_id: client.id });
      const id = res.json().data.id;
      await expect
        .poll(async () => (await stored(id)).status, { timeout: 15_000 })
        .toBe(MESSAGE_STATUS.failed);
      expect(await stored(id)).toMatchObject({
        error_code: 131000,
        error_message: '(#131000) Something went wrong',
      });
      // Three tries in all (the retry setting of this file), none sent.
      expect(fake.requests.filter((r) => r.path.endsWith('/messages'))).toHaveLength(3);
      expect(fake.sent).toHaveLength(0);
    });

    it('never repeats a send whose answer did not come back in time (at most once)', async () => {
      const client = await customer();
      fake.delayMs = 2500;
      const res = await post({ content: 'Lento', client_id: client.id });
      fake.delayMs = 0;
      expect(res.statusCode).toBe(201);
      // Failed at once, not left pending for a retry: WhatsApp may have sent it.
      expect(res.json().data).toMatchObject({ status: MESSAGE_STATUS.failed, error_code: null });
      expect(res.json().message).toMatch(/^No se pudo enviar el mensaje: WhatsApp no confirmó el envío/);
      expect(fake.requests.filter((r) => r.path.endsWith('/messages'))).toHaveLength(1);
    });

    it('settles a send a dead process left pending: status 4 saying it may have gone out, never resent', async () => {
      const client = await customer();
      const old = new Date(Date.now() - 11 * 60 * 1000).toISOString();
      const pending = async (updatedAt: string) => {
        const row = await ctx.container.messagesRepository.insertMessage(companyId, {
          clientId: client.id,
          wamid: null,
          sender: 'admin',
          messageType: 'text',
          waType: 'text',
          content: 'Quedó a medias',
          phone: client.whatsapp_cellphone,
          status: MESSAGE_STATUS.pending,
          createdAt: updatedAt,
        });
        await ctx.container.db
          .updateTable('messages')
          .set({ updated_at: updatedAt })
          .where('id', '=', row!.id)
          .execute();
        return row!.id;
      };
      const abandoned = await pending(old);
      // Still within its retries' time: left alone.
      const recent = await pending(new Date().toISOString());
      expect(await ctx.container.outbound.sweepStale()).toBe(1);
      expect(await stored(abandoned)).toMatchObject({
        status: MESSAGE_STATUS.failed,
        error_code: null,
        error_message:
          'WhatsApp no confirmó el envío y puede que el mensaje haya llegado. Comprueba la conversación antes de reenviarlo.',
      });
      expect((await stored(recent)).status).toBe(MESSAGE_STATUS.pending);
      await expect
        .poll(() => events.filter((e) => e.type === 'message.status' && e.data.message_id === abandoned))
        .toHaveLength(1);
      // A second sweep (another process) finds nothing left; nothing went to WhatsApp.
      expect(await ctx.container.outbound.sweepStale()).toBe(0);
      expect(fake.requests).toHaveLength(0);
    });

    it('stores status 4 and says what is missing when the WhatsApp settings are incomplete', async () => {
      const admin = await createUser(ctx);
      const client = await customer(HOUR, admin.user.company_id!);
      const res = await post({ content: 'Hola', client_id: client.id }, admin);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ status: MESSAGE_STATUS.failed, error_code: null });
      expect(res.json().message).toBe(
        'No se pudo enviar el mensaje: falta el token de acceso o el identificador del número de WhatsApp en la configuración.',
      );
      expect(fake.requests).toHaveLength(0);
    });

    it('turns a message WhatsApp accepted and later reports failed (131047) into status 4', async () => {
      const client = await customer();
      fake.failSends({ code: 131047, mode: 'async' });
      const res = await post({ content: 'Fuera de ventana', client_id: client.id });
      expect(res.json().data.status).toBe(MESSAGE_STATUS.sent);
      await fake.flushWebhooks();
      await expect.poll(async () => (await stored(res.json().data.id)).status).toBe(MESSAGE_STATUS.failed);
      expect(await stored(res.json().data.id)).toMatchObject({
        error_code: 131047,
        error_message: 'Re-engagement message',
      });
    });

    it('resends a status-4 message as the same row (200); refuses other statuses (422)', async () => {
      const client = await customer();
      fake.failSends({ code: 131026 });
      const failed = (await post({ content: 'Primero', client_id: client.id })).json().data;
      expect(failed.status).toBe(MESSAGE_STATUS.failed);

      const res = await post({ id: failed.id, content: 'Primero', client_id: client.id });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        message: 'Mensaje reenviado.',
        data: { id: failed.id, status: MESSAGE_STATUS.sent, error_code: null, error_message: null },
      });
      expect(fake.sent.map((m) => m.body.text)).toEqual([{ body: 'Primero', preview_url: false }]);
      const count = await ctx.container.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('client_id', '=', client.id)
        .where('sender_type', '=', 'admin')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);

      const again = await post({ id: failed.id, content: 'Primero', client_id: client.id });
      expect(again.statusCode).toBe(422);
      expect(again.json().message).toBe('Solo se puede reenviar un mensaje que no se ha enviado.');
      expect(fake.sent).toHaveLength(1);
    });

    it('resends a failed message that fails again as status 4 (200 with the reason)', async () => {
      const client = await customer();
      fake.failSends({ code: 131026 }, 2);
      const failed = (await post({ content: 'Dos veces', client_id: client.id })).json().data;
      const res = await post({ id: failed.id, content: 'Dos veces', client_id: client.id });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: failed.id,
        status: MESSAGE_STATUS.failed,
        error_code: 131026,
      });
    });

    it("answers 404 for another company's client or message, and for a message of another client", async () => {
      const mine = await customer();
      const theirs = await customer(HOUR, companyB);
      expect((await post({ content: 'x', client_id: theirs.id })).statusCode).toBe(404);
      fake.failSends({ code: 131026 });
      const theirMessage = (await post({ content: 'y', client_id: theirs.id }, cast.otherAdmin)).json().data;
      expect(theirMessage.status).toBe(MESSAGE_STATUS.failed);
      const res = await post({ id: theirMessage.id, content: 'y', client_id: mine.id });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('El mensaje no existe.');
      expect((await post({ id: theirMessage.id, content: 'y', client_id: theirs.id })).statusCode).toBe(404);
      expect(fake.sent).toHaveLength(0);
      expect((await ctx.container.messagesRepository.findMessage(companyB, theirMessage.id))?.status).toBe(
        MESSAGE_STATUS.failed,
      );
    });

    it('is for company admins only', async () => {
      const client = await customer();
      await expectRoleMatrix(
        ctx,
        cast,
        {
          method: 'POST',
          url: '/api/v1/admin/message',
          payload: { content: 'Matriz', client_id: client.id },
        },
        { ...ADMIN_ONLY, admin: 201, otherAdmin: 404 },
      );
      expect(fake.sent).toHaveLength(1);
    });
  });

  describe('statuses from WhatsApp after a send', () => {
    it('climbs to read whatever order and however often the signed reports come', async () => {
      const client = await customer();
      const sent = (await post({ content: 'Seguimiento', client_id: client.id })).json().data;
      const wamid = fake.sent[0].wamid;
      const emitter = createWebhookEmitter({
        url: `${server.url}/api/v1/webhooks/whatsapp`,
        appSecret: APP_SECRET,
        phoneNumberId: PHONE_ID,
      });
      expect(await emitter.statuses([{ wamid, status: 'read' }], { times: 2 })).toEqual([200, 200]);
      await emitter.statuses([
        { wamid, status: 'delivered' },
        { wamid, status: 'sent' },
      ]);
      expect((await stored(sent.id)).status).toBe(MESSAGE_STATUS.read);
      // A wrong signature is refused and changes nothing.
      const wrong = createWebhookEmitter({
        url: `${server.url}/api/v1/webhooks/whatsapp`,
        appSecret: 'not-the-secret',
        phoneNumberId: PHONE_ID,
      });
      expect(
        await wrong.statuses([{ wamid, status: 'failed', errors: [{ code: 131026, title: 'x' }] }]),
      ).toEqual([401]);
      expect((await stored(sent.id)).status).toBe(MESSAGE_STATUS.read);
    });
  });

  describe('mark as read', () => {
    it('tells WhatsApp the newest customer message was read, in a job', async () => {
      const client = await createClient(ctx, companyId);
      const emitter = createWebhookEmitter({
        url: `${server.url}/api/v1/webhooks/whatsapp`,
        appSecret: APP_SECRET,
        phoneNumberId: PHONE_ID,
      });
      await emitter.text(client.whatsapp_cellphone, 'Primero');
      // Delivered twice, as Meta may: stored once.
      const { wamid, statuses } = await emitter.text(client.whatsapp_cellphone, 'Segundo', { times: 2 });
      expect(statuses).toEqual([200, 200]);
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/admin/messages/${client.id}/mark-as-read`,
        headers: cast.admin.headers,
      });
      expect(res.json()).toMatchObject({ updated: 2 });
      await expect
        .poll(() => fake.reads, { timeout: 10_000 })
        .toEqual([{ phoneNumberId: PHONE_ID, messageId: wamid }]);
    });

    it('still answers the read when WhatsApp refuses it', async () => {
      const client = await createClient(ctx, companyId);
      const emitter = createWebhookEmitter({
        url: `${server.url}/api/v1/webhooks/whatsapp`,
        appSecret: APP_SECRET,
        phoneNumberId: PHONE_ID,
      });
      await emitter.text(client.whatsapp_cellphone, 'Hola');
      fake.failNext({ status: 500, body: { error: { message: 'boom', code: 131000 } } }, 10);
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v1/admin/messages/${client.id}/mark-as-read`,
        headers: cast.admin.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ updated: 1 });
    });
  });
});
