import { type Message, MESSAGE_STATUS } from '@hablabot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { on } from '../../platform/events/domain-events';
import { type TestUser, createUser } from '../../../test/factories';
import {
  inboundBody,
  nextWamid,
  signedRequest,
  statusBody,
  webhookBody,
} from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const SECRET_A = 'app-secret-of-company-a';
const PHONE_ID_A = '106540352242922';
const PHONE_ID_B = '1122334455667';
const HUB_TOKEN_A = 'hub-token-company-a-123';

describe(`WhatsApp webhook (${engine})`, () => {
  let ctx: TestContext;
  let adminA: TestUser;
  let adminB: TestUser;
  let companyA: number;
  let companyB: number;
  const inbound: { companyId: number; message: Message }[] = [];
  const statuses: { companyId: number; message: Pick<Message, 'id' | 'status'> }[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      subscribers: [
        on('message.received', 'test.inbound', async ({ companyId, messageId }) => {
          const message = await ctx.container.messagesRepository.findMessage(companyId, messageId);
          inbound.push({ companyId, message: message! });
        }),
        on('message.status_changed', 'test.statuses', async ({ companyId, messageId, status }) => {
          statuses.push({ companyId, message: { id: messageId, status } });
        }),
      ],
    });
    adminA = await createUser(ctx);
    adminB = await createUser(ctx);
    companyA = adminA.user.company_id!;
    companyB = adminB.user.company_id!;
    const { settingsRepository, secrets } = ctx.container;
    await settingsRepository.upsertSettings(companyA, {
      whatsapp_phone_id: PHONE_ID_A,
      whatsapp_app_secret_enc: secrets.encrypt(SECRET_A),
      hub_verify_token: HUB_TOKEN_A,
    });
    // Company B has set no app secret: its webhooks are not signed.
    await settingsRepository.upsertSettings(companyB, { whatsapp_phone_id: PHONE_ID_B });
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(async () => {
    // What the previous test caused is handled first, so it is not heard as this test's.
    await ctx.container.outbox.idle();
    inbound.length = 0;
    statuses.length = 0;
  });

  const post = (body: unknown, secret: string | undefined = SECRET_A) =>
    ctx.app.inject(signedRequest(body, secret));
  /** The client's row with its conversation's chat state, named as the API names it. */
  const clientByPhone = (companyId: number, phone: string) =>
    ctx.container.db
      .selectFrom('clients')
      .leftJoin('conversations', 'conversations.client_id', 'clients.id')
      .selectAll('clients')
      .select((eb) => [
        sql<number>`1 - coalesce(conversations.bot_paused, 0)`.as('mode_bot'),
        eb.fn.coalesce('conversations.unread_count', sql<number>`0`).as('unread_messages_count'),
        'conversations.last_message_content',
        'conversations.last_message_at as last_message_date',
      ])
      .where('clients.company_id', '=', companyId)
      .where('clients.whatsapp_cellphone', '=', phone)
      .executeTakeFirst();
  const messagesOf = (companyId: number, clientId: number) =>
    ctx.container.db
      .selectFrom('messages')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('client_id', '=', clientId)
      .orderBy('id')
      .execute();
  const countMessages = async () =>
    Number(
      (
        await ctx.container.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('verification handshake', () => {
    const handshake = (query: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/webhooks/whatsapp?${query}` });

    it("echoes the challenge as plain text when the token is a company's", async () => {
      const res = await handshake(
        `hub.mode=subscribe&hub.verify_token=${HUB_TOKEN_A}&hub.challenge=1158201444`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('1158201444');
    });

    it('refuses a wrong token, a wrong mode, a missing challenge or an odd query with 403', async () => {
      for (const query of [
        'hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
        `hub.mode=unsubscribe&hub.verify_token=${HUB_TOKEN_A}&hub.challenge=1`,
        `hub.mode=subscribe&hub.verify_token=${HUB_TOKEN_A}`,
        'hub.mode=subscribe&hub.challenge=1',
        `hub.mode=subscribe&hub.verify_token=${'x'.repeat(300)}&hub.challenge=1`,
        '',
      ]) {
        const res = await handshake(query);
        expect(res.statusCode, query).toBe(403);
        expect(res.body).not.toContain('1158201444');
      }
    });
  });

  describe('customer messages', () => {
    it("stores Meta's text sample: a new client named by the profile, the message, unread and last message", async () => {
      const phone = uniquePhone();
      const wamid = nextWamid();
      const res = await post(
        inboundBody(
          PHONE_ID_A,
          phone,
          'text',
          { text: { body: 'Body Text' } },
          { wamid, name: 'Test Name', timestamp: 1697043223 },
        ),
      );
      expect(res.statusCode).toBe(200);
      const client = await clientByPhone(companyA, phone);
      expect(client).toMatchObject({
        name: 'Test Name',
        last_names: '',
        email: null,
        mode_bot: 1,
        unread_messages_count: 1,
        last_message_content: 'Body Text',
        last_message_date: '2023-10-11T16:53:43.000Z',
      });
      const [m] = await messagesOf(companyA, client!.id);
      expect(m).toMatchObject({
        wamid,
        sender_type: 'client',
        message_type: 'text',
        wa_type: 'text',
        content: 'Body Text',
        phone,
        status: MESSAGE_STATUS.delivered,
        created_at: '2023-10-11T16:53:43.000Z',
      });
      await ctx.container.outbox.idle();
      expect(inbound).toHaveLength(1);
      expect(inbound[0]).toMatchObject({ companyId: companyA, message: { id: m.id, content: 'Body Text' } });
    });

    it('keeps the name of a client the company already has, and counts each new message as unread', async () => {
      const existing = await createClient(ctx, companyA, { name: 'Ana', last_names: 'Núñez' });
      const phone = existing.whatsapp_cellphone;
      for (const text of ['uno', 'dos', 'tres'])
        expect(
          (await post(inboundBody(PHONE_ID_A, phone, 'text', { text: { body: text } }, { name: 'Otro' })))
            .statusCode,
        ).toBe(200);
      const client = await clientByPhone(companyA, phone);
      expect(client).toMatchObject({
        name: 'Ana',
        last_names: 'Núñez',
        unread_messages_count: 3,
        last_message_content: 'tres',
      });
      expect(client!.wa_user_id).toBeNull();
    });

    it('stores every message type WhatsApp sends, none dropped', async () => {
      const phone = uniquePhone();
      const media = (extra: object = {}) => ({
        mime_type: 'image/jpeg',
        sha256: 'abc=',
        id: '1003383421387256',
        ...extra,
      });
      const cases: {
        type: string;
        fields: Record<string, unknown>;
        expect: Partial<Record<string, unknown>>;
      }[] = [
        {
          type: 'text',
          fields: { text: { body: 'Hola' } },
          expect: { message_type: 'text', content: 'Hola' },
        },
        {
          type: 'image',
          fields: { image: media({ caption: 'Taj Mahal' }) },
          expect: {
            message_type: 'image',
            content: 'Taj Mahal',
            media_id: '1003383421387256',
            media_caption: 'Taj Mahal',
            media_mime_type: 'image/jpeg',
            media_sha256: 'abc=',
          },
        },
        {
          type: 'image',
          fields: { image: media() },
          expect: { message_type: 'image', content: '📷 Imagen', media_caption: null },
        },
        {
          type: 'video',
          fields: { video: media({ mime_type: 'video/mp4', caption: 'Mira' }) },
          expect: { message_type: 'video', content: 'Mira', media_mime_type: 'video/mp4' },
        },
        {
          type: 'audio',
          fields: { audio: media({ mime_type: 'audio/ogg; codecs=opus' }) },
          expect: { message_type: 'audio', content: '🎤 Audio', media_mime_type: 'audio/ogg; codecs=opus' },
        },
        {
          type: 'document',
          fields: { document: media({ mime_type: 'application/pdf', filename: 'factura.pdf' }) },
          expect: {
            message_type: 'document',
            content: 'factura.pdf',
            media_file_name: 'factura.pdf',
            media_caption: null,
          },
        },
        {
          type: 'document',
          fields: {
            document: media({ mime_type: 'application/pdf', filename: 'f.pdf', caption: 'Mi factura' }),
          },
          expect: {
            message_type: 'document',
            content: 'Mi factura',
            media_file_name: 'f.pdf',
            media_caption: 'Mi factura',
          },
        },
        {
          type: 'sticker',
          fields: { sticker: media({ mime_type: 'image/webp', animated: false }) },
          expect: {
            message_type: 'image',
            wa_type: 'sticker',
            content: '🏷️ Sticker',
            media_mime_type: 'image/webp',
          },
        },
        {
          type: 'interactive',
          fields: { interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Sí, quiero' } } },
          // A pressed button is shown as what the customer pressed.
          expect: { message_type: 'button', content: 'Sí, quiero' },
        },
        {
          type: 'interactive',
          fields: {
            interactive: {
              type: 'list_reply',
              list_reply: { id: 'r2', title: 'Plan Pro', description: 'x' },
            },
          },
          expect: { message_type: 'text', content: 'Plan Pro' },
        },
        {
          type: 'button',
          fields: { button: { payload: 'STOP', text: 'Dejar de recibir' } },
          expect: { message_type: 'button', content: 'Dejar de recibir' },
        },
        {
          type: 'reaction',
          fields: { reaction: { message_id: 'wamid.target', emoji: '👍' } },
          expect: {
            content: 'Reaccionó con 👍 a un mensaje',
            context_wamid: 'wamid.target',
            wa_type: 'reaction',
          },
        },
        {
          type: 'reaction',
          fields: { reaction: { message_id: 'wamid.target' } },
          expect: { content: 'Quitó su reacción a un mensaje' },
        },
        {
          type: 'location',
          fields: {
            location: {
              latitude: 40.4168,
              longitude: -3.7038,
              name: 'Oficina',
              address: 'Gran Vía 1, Madrid',
            },
          },
          expect: {
            content:
              '📍 Ubicación: Oficina, Gran Vía 1, Madrid (40.4168, -3.7038) https://maps.google.com/?q=40.4168,-3.7038',
          },
        },
        {
          type: 'contacts',
          fields: {
            contacts: [
              {
                name: { formatted_name: 'Luis Pérez', first_name: 'Luis' },
                phones: [{ phone: '+34 600 111 222', wa_id: '34600111222' }],
              },
            ],
          },
          expect: { content: '👤 Contacto compartido: Luis Pérez (+34 600 111 222)' },
        },
        {
          type: 'unsupported',
          fields: {
            errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown' }],
          },
          expect: {
            content: 'Mensaje de un tipo que no se puede mostrar (unsupported): Message type unknown.',
            wa_type: 'unsupported',
          },
        },
        {
          type: 'system',
          fields: { system: { body: 'El cliente cambió de número', type: 'user_changed_number' } },
          expect: { content: 'Aviso de WhatsApp: El cliente cambió de número' },
        },
        {
          type: 'order',
          fields: { order: { catalog_id: 'c', product_items: [{}, {}] } },
          expect: { content: '🛒 Pedido de 2 producto(s)' },
        },
        {
          type: 'hologram',
          fields: { hologram: {} },
          expect: { content: 'Mensaje de un tipo que no se puede mostrar (hologram).', wa_type: 'hologram' },
        },
      ];
      for (const c of cases) {
        const res = await post(inboundBody(PHONE_ID_A, phone, c.type, c.fields));
        expect(res.statusCode, c.type).toBe(200);
      }
      const client = (await clientByPhone(companyA, phone))!;
      const rows = await messagesOf(companyA, client.id);
      expect(rows).toHaveLength(cases.length);
      for (const [i, row] of rows.entries())
        expect(row, cases[i].type).toMatchObject({ wa_type: cases[i].type, ...cases[i].expect });
      expect(client.unread_messages_count).toBe(cases.length);

      // The chat reads them through the history route, with a document's file name as its caption.
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/admin/client/${client.id}/messages?per_page=100`,
        headers: adminA.headers,
      });
      const doc = (res.json().messages as Message[]).find((m) => m.content === 'factura.pdf');
      expect(doc).toMatchObject({ message_type: 'document', media_caption: 'factura.pdf', media_url: null });
    });

    it('stores a redelivered message once: duplicates change nothing and tell no one', async () => {
      const phone = uniquePhone();
      const body = inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'una vez' } });
      for (let i = 0; i < 3; i++) expect((await post(body)).statusCode).toBe(200);
      // The same message inside a batch with a new one.
      const again = webhookBody(PHONE_ID_A, {
        messages: [
          (body.entry as { changes: { value: { messages: object[] } }[] }[])[0].changes[0].value.messages[0],
          {
            from: phone,
            id: nextWamid(),
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'nuevo' },
          },
        ],
      });
      expect((await post(again)).statusCode).toBe(200);
      const client = (await clientByPhone(companyA, phone))!;
      expect((await messagesOf(companyA, client.id)).map((m) => m.content)).toEqual(['una vez', 'nuevo']);
      expect(client.unread_messages_count).toBe(2);
      await ctx.container.outbox.idle();
      expect(inbound.map((e) => e.message.content)).toEqual(['una vez', 'nuevo']);
    });

    it('stores concurrent deliveries of the same message once', async () => {
      const phone = uniquePhone();
      const body = inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'a la vez' } });
      const results = await Promise.all(Array.from({ length: 8 }, () => post(body)));
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
      const client = (await clientByPhone(companyA, phone))!;
      expect(await messagesOf(companyA, client.id)).toHaveLength(1);
      expect(client.unread_messages_count).toBe(1);
    });

    it('takes 10,000 replays of one signed delivery, 100 at a time: one message, one unread, one event', async () => {
      const phone = uniquePhone();
      const body = inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'repetido' } });
      const request = signedRequest(body, SECRET_A);
      const seen = inbound.length;
      for (let round = 0; round < 100; round++) {
        const answers = await Promise.all(Array.from({ length: 100 }, () => ctx.app.inject(request)));
        expect(answers.every((r) => r.statusCode === 200)).toBe(true);
      }
      const client = (await clientByPhone(companyA, phone))!;
      expect((await messagesOf(companyA, client.id)).map((m) => m.content)).toEqual(['repetido']);
      expect(client.unread_messages_count).toBe(1);
      await ctx.container.outbox.idle();
      expect(inbound.slice(seen).map((e) => e.message.content)).toEqual(['repetido']);
    }, 120_000);

    it('keeps every message and count right when many deliveries share one transaction', async () => {
      const phones = Array.from({ length: 12 }, () => uniquePhone());
      const bodies = phones.flatMap((phone, i) =>
        Array.from({ length: 5 }, (_, k) =>
          inboundBody(PHONE_ID_A, phone, 'text', { text: { body: `cliente ${i} mensaje ${k}` } }),
        ),
      );
      // Every delivery twice (Meta's retries), all at once, in an order mixing the customers.
      const deliveries = [...bodies, ...bodies].sort(
        (a, b) => JSON.stringify(a).length - JSON.stringify(b).length,
      );
      const results = await Promise.all(deliveries.map((body) => post(body)));
      expect(results.every((r) => r.statusCode === 200)).toBe(true);
      for (const [i, phone] of phones.entries()) {
        const client = (await clientByPhone(companyA, phone))!;
        const stored = await messagesOf(companyA, client.id);
        expect(stored.map((m) => m.content).sort()).toEqual(
          Array.from({ length: 5 }, (_, k) => `cliente ${i} mensaje ${k}`),
        );
        expect(client.unread_messages_count).toBe(5);
      }
    });

    it('a late retry of an older message does not replace the last message', async () => {
      const phone = uniquePhone();
      const now = Math.floor(Date.now() / 1000);
      await post(inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'nuevo' } }, { timestamp: now }));
      await post(
        inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'viejo' } }, { timestamp: now - 3600 }),
      );
      const client = (await clientByPhone(companyA, phone))!;
      expect(client).toMatchObject({ last_message_content: 'nuevo', unread_messages_count: 2 });
    });

    it("keeps WhatsApp's user id, and finds the client by it when no phone comes", async () => {
      const phone = uniquePhone();
      const body = webhookBody(PHONE_ID_A, {
        contacts: [{ profile: { name: 'Con Id' }, wa_id: phone, user_id: 'US.1234567890' }],
        messages: [
          {
            from: phone,
            from_user_id: 'US.1234567890',
            id: nextWamid(),
            timestamp: '1744344496',
            type: 'text',
            text: { body: 'a' },
          },
        ],
      });
      expect((await post(body)).statusCode).toBe(200);
      expect((await clientByPhone(companyA, phone))?.wa_user_id).toBe('US.1234567890');
      const withoutPhone = webhookBody(PHONE_ID_A, {
        contacts: [{ profile: { name: 'Con Id' }, user_id: 'US.1234567890' }],
        messages: [
          {
            from_user_id: 'US.1234567890',
            id: nextWamid(),
            timestamp: '1744344497',
            type: 'text',
            text: { body: 'b' },
          },
        ],
      });
      expect((await post(withoutPhone)).statusCode).toBe(200);
      const client = (await clientByPhone(companyA, phone))!;
      expect((await messagesOf(companyA, client.id)).map((m) => [m.content, m.phone])).toEqual([
        ['a', phone],
        ['b', phone],
      ]);
      // An unknown user id without a phone cannot be a client: answered 200, logged, nothing stored.
      const before = await countMessages();
      const unknown = webhookBody(PHONE_ID_A, {
        messages: [
          {
            from_user_id: 'US.999',
            id: nextWamid(),
            timestamp: '1744344497',
            type: 'text',
            text: { body: 'c' },
          },
        ],
      });
      expect((await post(unknown)).statusCode).toBe(200);
      expect(await countMessages()).toBe(before);
    });

    it('names a client by the phone when the profile name is empty or holds control characters', async () => {
      const phone = uniquePhone();
      await post(inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'x' } }, { name: 'a\u202Eb' }));
      expect((await clientByPhone(companyA, phone))?.name).toBe(phone);
    });
  });

  describe('signatures and routing', () => {
    it('refuses a missing, wrong or other-secret signature with 401 and stores nothing', async () => {
      const phone = uniquePhone();
      const body = inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'firmado' } });
      const before = await countMessages();
      const payload = JSON.stringify(body);
      for (const signature of [
        undefined,
        'sha256=00',
        `sha256=${'0'.repeat(64)}`,
        'md5=abc',
        signedRequest(body, 'another-secret').headers['x-hub-signature-256'],
        // Signed over other bytes (the same JSON re-indented).
        signedRequest(JSON.stringify(body, null, 2), SECRET_A).headers['x-hub-signature-256'],
      ]) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/whatsapp',
          headers: {
            'content-type': 'application/json',
            ...(signature ? { 'x-hub-signature-256': signature } : {}),
          },
          payload,
        });
        expect(res.statusCode, String(signature)).toBe(401);
        expect(res.json().message).toBe('La firma del webhook no es válida.');
      }
      expect(await countMessages()).toBe(before);
      expect(await clientByPhone(companyA, phone)).toBeUndefined();
      // Signed with the company's secret over the exact bytes: accepted.
      expect((await post(body)).statusCode).toBe(200);
      expect(await countMessages()).toBe(before + 1);
    });

    it('accepts unsigned deliveries for a company that has no app secret, into that company', async () => {
      const phone = uniquePhone();
      expect(
        (await post(inboundBody(PHONE_ID_B, phone, 'text', { text: { body: 'B' } }), undefined)).statusCode,
      ).toBe(200);
      expect(await clientByPhone(companyB, phone)).toMatchObject({ last_message_content: 'B' });
      expect(await clientByPhone(companyA, phone)).toBeUndefined();
    });

    it('answers 200 for an unknown phone number id and stores nothing (WhatsApp stops retrying)', async () => {
      const before = await countMessages();
      const res = await post(
        inboundBody('999999999', uniquePhone(), 'text', { text: { body: '?' } }),
        undefined,
      );
      expect(res.statusCode).toBe(200);
      expect(await countMessages()).toBe(before);
      // Other notifications (another object, no changes) are acknowledged too.
      expect((await post({ object: 'page', entry: [] }, undefined)).statusCode).toBe(200);
      expect((await post({}, undefined)).statusCode).toBe(200);
    });

    it('answers 422 for a body that is not JSON and 413 above 1 MB, never 500', async () => {
      const bad = await ctx.app.inject({ ...signedRequest('{"object":', SECRET_A) });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.body).toBeDefined();
      const empty = await ctx.app.inject({ method: 'POST', url: '/api/v1/webhooks/whatsapp' });
      expect(empty.statusCode).toBe(422);
      const huge = await ctx.app.inject(
        signedRequest(
          inboundBody(PHONE_ID_A, uniquePhone(), 'text', { text: { body: 'x'.repeat(1024 * 1024) } }),
          SECRET_A,
        ),
      );
      expect(huge.statusCode).toBe(413);
    });

    it('works over real HTTP with the signature computed on the bytes on the wire', async () => {
      const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const phone = uniquePhone();
        const req = signedRequest(
          inboundBody(PHONE_ID_A, phone, 'text', { text: { body: 'por la red ñ' } }),
          SECRET_A,
        );
        const res = await fetch(`${url}${req.url}`, {
          method: 'POST',
          headers: req.headers,
          body: req.payload,
        });
        expect(res.status).toBe(200);
        // Answered once kept; processed right after (the webhook inbox).
        await ctx.container.webhookInbox.idle();
        expect((await clientByPhone(companyA, phone))?.last_message_content).toBe('por la red ñ');
        const unsigned = await fetch(`${url}${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: req.payload,
        });
        expect(unsigned.status).toBe(401);
      } finally {
        await ctx.app.server.close();
      }
    });
  });

  describe('statuses', () => {
    async function outgoing(companyId = companyA) {
      const client = await createClient(ctx, companyId);
      const wamid = nextWamid();
      const m = await ctx.container.messagesRepository.insertMessage(companyId, {
        clientId: client.id,
        wamid,
        sender: 'admin',
        messageType: 'text',
        waType: 'text',
        content: 'Hola desde la empresa',
        phone: client.whatsapp_cellphone,
        status: MESSAGE_STATUS.sent,
        createdAt: new Date().toISOString(),
      });
      return { wamid, id: m!.id };
    }
    const statusOf = async (id: number) =>
      (await ctx.container.messagesRepository.findMessage(companyA, id))?.status;

    it("Meta's delivered sample moves a sent message to delivered, then read", async () => {
      const { wamid, id } = await outgoing();
      expect((await post(statusBody(PHONE_ID_A, wamid, 'delivered'))).statusCode).toBe(200);
      expect(await statusOf(id)).toBe(MESSAGE_STATUS.delivered);
      await post(statusBody(PHONE_ID_A, wamid, 'read'));
      expect(await statusOf(id)).toBe(MESSAGE_STATUS.read);
      await ctx.container.outbox.idle();
      expect(statuses.map((s) => s.message.status)).toEqual([MESSAGE_STATUS.delivered, MESSAGE_STATUS.read]);
    });

    it('never moves backwards whatever order the statuses arrive in', async () => {
      const { wamid, id } = await outgoing();
      for (const s of ['read', 'delivered', 'sent', 'failed']) await post(statusBody(PHONE_ID_A, wamid, s));
      expect(await statusOf(id)).toBe(MESSAGE_STATUS.read);
      // All of them in one delivery, newest first.
      const other = await outgoing();
      const batch = webhookBody(PHONE_ID_A, {
        statuses: ['read', 'sent', 'delivered'].map((status) => ({
          id: other.wamid,
          status,
          timestamp: '1698266945',
          recipient_id: '1',
        })),
      });
      await post(batch);
      expect(await statusOf(other.id)).toBe(MESSAGE_STATUS.read);
    });

    it("failed stores status 4 with Meta's code, title and details; a late sent cannot undo it", async () => {
      const { wamid, id } = await outgoing();
      await post(
        statusBody(PHONE_ID_A, wamid, 'failed', {
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              message: 'Re-engagement message',
              error_data: {
                details:
                  'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
              },
            },
          ],
        }),
      );
      await post(statusBody(PHONE_ID_A, wamid, 'sent'));
      const m = await ctx.container.messagesRepository.findMessage(companyA, id);
      expect(m).toMatchObject({
        status: MESSAGE_STATUS.failed,
        error_code: 131047,
        error_message:
          'Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      });
    });

    it("ignores a status for an unknown wamid, or another company's message, without error", async () => {
      expect((await post(statusBody(PHONE_ID_A, 'wamid.unknown', 'read'))).statusCode).toBe(200);
      const theirs = await outgoing(companyB);
      expect((await post(statusBody(PHONE_ID_A, theirs.wamid, 'read'))).statusCode).toBe(200);
      expect((await ctx.container.messagesRepository.findMessage(companyB, theirs.id))?.status).toBe(
        MESSAGE_STATUS.sent,
      );
      await ctx.container.outbox.idle();
      expect(statuses).toEqual([]);
    });
  });
});
