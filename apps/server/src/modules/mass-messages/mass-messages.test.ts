// Client lists and mass messages over real HTTP: the app's routes, the sender job on the real job queue
// (in-process on SQLite, BullMQ with REDIS_URL), the fake Graph API of packages/fakes for WhatsApp, and
// its status webhooks delivered back to the app through a loopback server.
import { MESSAGE_STATUS, type MassMessage, type MassRecipient, type ServerEvent } from '@hablabot/contract';
import { type FakeGraphApi, createWebhookEmitter, startFakeGraphApi } from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { png } from '../../../test/media-fixtures';
import { createFakeClock } from '../../../test/fake-clock';
import { keepInConversation } from './in-conversation';
import { createMassSender } from './mass-sender';
import { WINDOW_MS } from './pacer';
import { zonedToUtc } from './schedule';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-mass-test-token';
const PHONE_ID = '106540352242977';
const PHONE_ID_B = '106540352242978';
const APP_SECRET = 'mass-app-secret';

let ctx: TestContext;
let fake: FakeGraphApi;
let cast: Awaited<ReturnType<typeof createCast>>;
let companyA: number;
let companyB: number;
let server: { url: string; close(): Promise<void> };
const events: ServerEvent[] = [];

type Who = 'admin' | 'otherAdmin' | 'client' | 'superAdmin';
const call = (who: Who, method: InjectOptions['method'], url: string, body?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: cast[who].headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });

let templateSeq = 0;
async function template(
  companyId: number,
  options: { status?: string; body?: string; header?: 'IMAGE' | 'DOCUMENT' } = {},
): Promise<number> {
  const at = new Date().toISOString();
  const components = [
    ...(options.header ? [{ type: 'HEADER', format: options.header, text: null, buttons: [] }] : []),
    { type: 'BODY', format: null, text: options.body ?? 'Hola {{1}}.', buttons: [] },
  ];
  const row = await ctx.container.db
    .insertInto('message_templates')
    .values({
      company_id: companyId,
      meta_id: String(900 + ++templateSeq),
      name: `plantilla_${templateSeq}`,
      language: 'es',
      status: options.status ?? 'APPROVED',
      category: 'MARKETING',
      components: JSON.stringify(components),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** `n` clients of the company in one segment; the segment's id and the clients. */
async function clients(companyId: number, n: number) {
  const segment = await createSegment(ctx, companyId);
  const made = [];
  for (let i = 0; i < n; i++) made.push(await createClient(ctx, companyId, { segments: [segment.id] }));
  return { segment, clients: made };
}

async function list(companyId: number, clientIds: number[]): Promise<number> {
  const who = companyId === companyA ? 'admin' : 'otherAdmin';
  const res = await call(who, 'POST', '/admin/list-clients', {
    name: `Lista ${Date.now()}`,
    client_ids: clientIds,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function send(body: Record<string, unknown>, who: Who = 'admin'): Promise<MassMessage> {
  const res = await call(who, 'POST', '/admin/messages-massive', { name: 'Campaña', ...body });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().success).toBe(true);
  return res.json().data;
}

/** A send of company A's template (`{{1}}` = 'x') to a new list of `n` new clients; `extra` joins the body. */
async function sendToNewClients(n: number, extra: Record<string, unknown> = {}) {
  const { clients: mine } = await clients(companyA, n);
  const listId = await list(
    companyA,
    mine.map((c) => c.id),
  );
  const created = await send({
    message_template_id: await template(companyA),
    list_id: listId,
    bodyParameters: { 1: 'x' },
    ...extra,
  });
  return { mine, listId, created };
}

async function getSend(id: number): Promise<MassMessage> {
  const res = await call('admin', 'GET', `/admin/messages-massive/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const finished = (id: number, timeoutMs?: number) =>
  waitFor(async () => {
    const s = await getSend(id);
    return s.status === 'completed' || s.status === 'cancelled' ? s : undefined;
  }, timeoutMs);

async function recipients(id: number, query = ''): Promise<MassRecipient[]> {
  const res = await call('admin', 'GET', `/admin/messages-massive/${id}/recipients?per_page=500${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.data;
}

async function setPace(perSecond: number) {
  const res = await call('admin', 'PUT', '/admin/mass-message-settings', { messages_per_second: perSecond });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783881', verified_name: 'A', quality_rating: 'GREEN' },
      { id: PHONE_ID_B, display_phone_number: '15550783882', verified_name: 'B', quality_rating: 'GREEN' },
    ],
  });
  ctx = await createTestContext({
    // The production deadline: on a busy machine (tests in parallel on two cores) an answer of the fake,
    // in this same process, can take seconds, and a request that times out leaves its recipient unknown.
    cloudApiTimeoutMs: 15_000,
    massSender: {
      sliceMs: 3000,
      leaseMs: 3000,
      controlMs: 100,
      rateLimitBackoffMs: 200,
      pairBackoffMs: 100,
      retryBackoffMs: 100,
      progressMs: 300,
    },
  });
  cast = await createCast(ctx);
  companyA = cast.admin.user.company_id!;
  companyB = cast.otherAdmin.user.company_id!;
  for (const [company, phoneId] of [
    [companyA, PHONE_ID],
    [companyB, PHONE_ID_B],
  ] as const)
    await connectWhatsApp(ctx.container, company, {
      phoneId,
      token: TOKEN,
      appSecret: APP_SECRET,
      baseUrl: fake.baseUrl,
    });
  await ctx.container.events.subscribe(companyA, (e) => void events.push(e));
  await ctx.container.jobs.start();
  server = await routeWebhooksToApp(ctx.app, fake, APP_SECRET);
});

afterAll(async () => {
  await fake.flushWebhooks();
  await Promise.all([ctx.close(), fake.close(), server.close()]);
});

beforeEach(async () => {
  fake.reset();
  fake.throughputPerSecond = 80;
  events.length = 0;
  await setPace(80);
});

describe(`client lists (${engine})`, () => {
  it('need a name and at least one client of the company; segments add their clients', async () => {
    const { segment, clients: mine } = await clients(companyA, 3);
    const other = await createClient(ctx, companyB);

    let res = await call('admin', 'POST', '/admin/list-clients', { name: '', client_ids: [mine[0].id] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toBeDefined();
    res = await call('admin', 'POST', '/admin/list-clients', { name: 'Vacía', client_ids: [] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_ids).toEqual(['La lista debe tener al menos un cliente.']);
    res = await call('admin', 'POST', '/admin/list-clients', {
      name: 'Ajena',
      client_ids: [mine[0].id, other.id],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.client_ids).toBeDefined();
    const otherSegment = await createSegment(ctx, companyB);
    res = await call('admin', 'POST', '/admin/list-clients', {
      name: 'Segmento ajeno',
      client_ids: [],
      segment_ids: [otherSegment.id],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.segment_ids).toBeDefined();

    res = await call('admin', 'POST', '/admin/list-clients', {
      name: 'VIP',
      client_ids: [],
      segment_ids: [segment.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Operación exitosa');
    const created = res.json().data;
    expect(created.clients_count).toBe(3);
    const members = await call('admin', 'GET', `/admin/list-clients/${created.id}/clients`);
    expect(members.json().data.data.map((c: { id: number }) => c.id)).toEqual(mine.map((c) => c.id));

    res = await call('admin', 'PUT', `/admin/list-clients/${created.id}`, {
      name: 'VIP 2',
      client_ids: [mine[1].id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'VIP 2', clients_count: 1 });

    res = await call('admin', 'GET', '/admin/list-clients');
    expect(res.json().data.map((l: { id: number }) => l.id)).toContain(created.id);
    const page = await call(
      'admin',
      'GET',
      `/admin/list-clients/${created.id}/clients?search=${mine[1].name}`,
    );
    expect(page.json().data).toMatchObject({ total: 1, data: [{ id: mine[1].id }] });

    // Another company sees nothing of it.
    expect((await call('otherAdmin', 'GET', '/admin/list-clients')).json().data).toEqual([]);
    for (const [method, url, body] of [
      ['PUT', `/admin/list-clients/${created.id}`, { name: 'x', client_ids: [other.id] }],
      ['DELETE', `/admin/list-clients/${created.id}`, undefined],
      ['GET', `/admin/list-clients/${created.id}/clients`, undefined],
    ] as const) {
      expect((await call('otherAdmin', method, url, body)).statusCode).toBe(404);
    }

    res = await call('admin', 'DELETE', `/admin/list-clients/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/admin/list-clients/${created.id}`)).statusCode).toBe(404);
  });

  it('are for company admins only', async () => {
    for (const request of [
      { method: 'GET', url: '/api/v1/admin/list-clients' },
      { method: 'POST', url: '/api/v1/admin/list-clients', payload: { name: 'x', client_ids: [] } },
      { method: 'GET', url: '/api/v1/admin/mass-message-history' },
      { method: 'GET', url: '/api/v1/admin/mass-message-settings' },
      { method: 'POST', url: '/api/v1/admin/messages-massive', payload: {} },
      { method: 'PUT', url: '/api/v1/admin/mass-message-settings', payload: { messages_per_second: 50 } },
      { method: 'POST', url: '/api/v1/admin/messages-massive/preview', payload: {} },
      { method: 'GET', url: '/api/v1/admin/messages-massive/1/recipients' },
      { method: 'GET', url: '/api/v1/admin/messages-massive/1/recipients/export' },
      { method: 'POST', url: '/api/v1/admin/messages-massive/1/pause' },
      { method: 'POST', url: '/api/v1/admin/messages-massive/1/resend', payload: {} },
    ] as const) {
      await expectRoleMatrix(ctx, cast, request, ADMIN_ONLY);
    }
    // An admin's own send: reachable; another company's admin gets 404 (see the report test).
    const { clients: mine } = await clients(companyA, 1);
    const created = await send({
      message_template_id: await template(companyA),
      list_id: await list(companyA, [mine[0].id]),
      bodyParameters: { 1: 'x' },
      schedule: new Date(Date.now() + 30 * 24 * 60 * 60_000).toISOString(),
    });
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: `/api/v1/admin/messages-massive/${created.id}/recipients` },
      { anonymous: 401, client: 403, superAdmin: 403, admin: 200, otherAdmin: 404 },
    );
    expect((await call('admin', 'POST', `/admin/messages-massive/${created.id}/cancel`)).statusCode).toBe(
      200,
    );
  });
});

describe(`mass sends (${engine})`, () => {
  it('accept only APPROVED templates, and only the company’s own template and list', async () => {
    const { clients: mine } = await clients(companyA, 1);
    const listId = await list(companyA, [mine[0].id]);
    const pending = await template(companyA, { status: 'PENDING' });
    let res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: pending,
      list_id: listId,
      bodyParameters: { 1: 'Ana' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message_template_id[0]).toContain('no está aprobada');

    const foreignTemplate = await template(companyB);
    res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: foreignTemplate,
      list_id: listId,
      bodyParameters: { 1: 'Ana' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.message_template_id).toBeDefined();

    const approved = await template(companyA);
    const { clients: theirs } = await clients(companyB, 1);
    const foreignList = await list(companyB, [theirs[0].id]);
    res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: approved,
      list_id: foreignList,
      bodyParameters: { 1: 'Ana' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.list_id).toBeDefined();

    res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: approved,
      list_id: listId,
      bodyParameters: {},
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['bodyParameters.1']).toBeDefined();

    // A company whose WhatsApp settings are missing is told so before anything is queued.
    const { settingsRepository } = ctx.container;
    await settingsRepository.upsertSettings(companyA, { whatsapp_phone_id: null });
    res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: approved,
      list_id: listId,
      bodyParameters: { 1: 'x' },
    });
    await settingsRepository.upsertSettings(companyA, { whatsapp_phone_id: PHONE_ID });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.whatsAppPhoneId).toBeDefined();
    expect(fake.sent).toHaveLength(0);
  });

  it('take the header file of a media template as multipart, or from the library by id', async () => {
    const { clients: mine } = await clients(companyA, 2);
    const listId = await list(
      companyA,
      mine.map((c) => c.id),
    );
    const templateId = await template(companyA, { header: 'IMAGE' });
    let res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'Sin archivo',
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: 'x' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toBeDefined();

    const boundary = '----mass-test-boundary';
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(
        field('name', 'Con imagen') +
          field('message_template_id', String(templateId)) +
          field('list_id', String(listId)) +
          field('bodyParameters', JSON.stringify({ 1: '{{Nombre}}' })) +
          field('schedule', '') +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="oferta.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png(),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/messages-massive',
      headers: { ...cast.admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const created: MassMessage = res.json().data;
    expect(created.media_id).not.toBeNull();
    await finished(created.id);
    const header = (
      fake.sent[0].body.template as {
        components: { type: string; parameters: { image?: { link: string } }[] }[];
      }
    ).components[0];
    expect(header.type).toBe('header');
    expect(header.parameters[0].image?.link).toMatch(/^http:\/\/.+\/storage\//);

    // The same file again, by its library id, in JSON.
    fake.reset();
    const again = await send({
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: 'x' },
      media_id: created.media_id,
    });
    await finished(again.id);
    expect(fake.sent).toHaveLength(2);
    // Another company's file is not found.
    res = await call('otherAdmin', 'POST', '/admin/messages-massive', {
      name: 'x',
      message_template_id: await template(companyB, { header: 'IMAGE' }),
      list_id: await list(companyB, [(await createClient(ctx, companyB)).id]),
      bodyParameters: { 1: 'x' },
      media_id: created.media_id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.media_id).toBeDefined();
  });

  it('fill the recipient tokens per recipient, and report a value left blank', async () => {
    const { clients: mine } = await clients(companyA, 3);
    await ctx.container.db.updateTable('clients').set({ email: null }).where('id', '=', mine[2].id).execute();
    const listId = await list(
      companyA,
      mine.map((c) => c.id),
    );
    const templateId = await template(companyA, { body: 'Hola {{1}}, te escribimos a {{2}} ({{3}}).' });
    const massSent = async () => {
      const { body } = await ctx.container.metrics.render();
      return Number(
        /^hablabot_messages_sent_total\{sender="mass",outcome="sent"\} (\d+)$/m.exec(body)?.[1] ?? 0,
      );
    };
    const sentBefore = await massSent();
    const created = await send({
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: JSON.stringify({
        1: '{{Nombre}} {{ apellido }}',
        2: '{{Correo}}',
        3: 'tel. {{Celular}}',
      }),
    });
    expect(created.counts.total).toBe(3);
    expect(created.message).toBe(
      'Hola {{Nombre}} {{ apellido }}, te escribimos a {{Correo}} (tel. {{Celular}}).',
    );
    const done = await finished(created.id);
    expect(done.counts).toMatchObject({ total: 3, sent: 2, failed: 1 });
    // The metrics count what WhatsApp accepted, as sends of sender `mass`.
    expect((await massSent()) - sentBefore).toBe(2);
    const bodies = fake.sent.map((s) => ({
      to: s.to,
      params: (
        s.body.template as { components: { parameters: { text: string }[] }[] }
      ).components[0].parameters.map((p) => p.text),
    }));
    expect(bodies).toEqual(
      mine.slice(0, 2).map((c) => ({
        to: c.whatsapp_cellphone,
        params: [`${c.name} ${c.last_names}`, c.email, `tel. ${c.whatsapp_cellphone}`],
      })),
    );
    const failed = await recipients(created.id, '&status=failed');
    expect(failed).toMatchObject([
      { client_id: mine[2].id, error_message: 'El parámetro 2 queda vacío para este cliente.' },
    ]);

    // The preview shows what one real recipient gets.
    const preview = await call('admin', 'POST', '/admin/messages-massive/preview', {
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: '{{Nombre}}', 2: 'x', 3: 'y' },
    });
    expect(preview.json().data.text).toBe(`Hola ${mine[0].name}, te escribimos a x (y).`);
  });

  it('take WhatsApp statuses into the report, with Meta’s reason for failures', async () => {
    const { clients: mine } = await clients(companyA, 3);
    const listId = await list(
      companyA,
      mine.map((c) => c.id),
    );
    fake.failSends({ code: 131026, mode: 'async' }, 1);
    const created = await send({
      message_template_id: await template(companyA),
      list_id: listId,
      bodyParameters: { 1: 'hola' },
    });
    await finished(created.id);
    await fake.flushWebhooks();
    const emitter = createWebhookEmitter({
      url: fake.webhook!.url,
      appSecret: APP_SECRET,
      phoneNumberId: PHONE_ID,
    });
    const [first, second, third] = fake.sent;
    await emitter.statuses([
      { wamid: second.wamid, status: 'delivered' },
      { wamid: third.wamid, status: 'read' },
      { wamid: third.wamid, status: 'delivered' },
    ]);
    const report = await waitFor(async () => {
      const rows = await recipients(created.id);
      return rows.find((r) => r.wamid === third.wamid)?.status === 'read' ? rows : undefined;
    });
    const byWamid = Object.fromEntries(report.map((r) => [r.wamid, r]));
    expect(byWamid[first.wamid]).toMatchObject({ status: 'failed', error_code: 131026 });
    expect(byWamid[first.wamid].error_message).toContain('Message undeliverable');
    expect(byWamid[second.wamid]).toMatchObject({ status: 'delivered' });
    expect(byWamid[third.wamid]).toMatchObject({ status: 'read' });
    expect((await recipients(created.id, '&status=delivered,read')).length).toBe(2);
    // Each conversation shows the template as the customer read it, with the same statuses: the failed
    // one as not sent with Meta's reason (and resendable as the template), the others delivered and read.
    const conversation = async (client: { id: number }) =>
      (await call('admin', 'GET', `/admin/client/${client.id}/messages`)).json().messages as {
        id: number;
        content: string;
        sender_type: string;
        status: number;
        error_message: string | null;
        author: { type: string; id?: number; name?: string | null };
      }[];
    const byPhone = Object.fromEntries(mine.map((c) => [c.whatsapp_cellphone, c]));
    const shown = await waitFor(async () => {
      const all = await Promise.all([first, second, third].map((s) => conversation(byPhone[s.to])));
      return all.every((m) => m.length === 1) && all[2][0].status === MESSAGE_STATUS.read ? all : undefined;
    });
    expect(shown.map((m) => m[0])).toMatchObject([
      { content: 'Hola hola.', sender_type: 'admin', status: MESSAGE_STATUS.failed },
      { content: 'Hola hola.', sender_type: 'admin', status: MESSAGE_STATUS.delivered },
      { content: 'Hola hola.', sender_type: 'admin', status: MESSAGE_STATUS.read },
    ]);
    expect(shown[0][0].error_message).toContain('Message undeliverable');
    // Each is the send's message, under the send's name, and keeps the statuses it went through.
    for (const [m] of shown)
      expect(m.author).toEqual({ type: 'campaign', id: created.id, name: created.name });
    const statuses = (await call('admin', 'GET', `/admin/messages/${shown[2][0].id}`)).json().data.statuses;
    expect(statuses.map((x: { status: string }) => x.status)).toEqual(['sent', 'read']);
    const before = fake.sent.length;
    const resent = await call('admin', 'POST', '/admin/message', {
      client_id: byPhone[first.to].id,
      id: shown[0][0].id,
      content: 'Hola hola.',
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(fake.sent.slice(before)).toMatchObject([
      { to: first.to, body: { type: 'template', template: { language: { code: 'es' } } } },
    ]);
    // The chat list shows the send as each client's last message.
    const lastMessages = await ctx.container.db
      .selectFrom('conversations')
      .select('last_message_content')
      .where(
        'client_id',
        'in',
        mine.map((c) => c.id),
      )
      .execute();
    expect(lastMessages.map((c) => c.last_message_content)).toEqual([
      'Hola hola.',
      'Hola hola.',
      'Hola hola.',
    ]);
    // Live progress reached the company's stream.
    await waitFor(async () =>
      events.some(
        (e) =>
          e.type === 'mass_message.progress' &&
          e.data.mass_message_id === created.id &&
          e.data.counts.read === 1,
      ),
    );

    const csv = await call(
      'admin',
      'GET',
      `/admin/messages-massive/${created.id}/recipients/export?status=failed`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'id,client_id,name,last_names,phone,status,wamid,error_code,error_message,attempts,sent_at,delivered_at,read_at',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('131026');

    // The history lists it, newest first; another company sees none of it.
    const history = await call('admin', 'GET', '/admin/mass-message-history?per_page=5');
    expect(history.json().data).toMatchObject({ current_page: 1, per_page: 5 });
    expect(history.json().data.data[0]).toMatchObject({
      id: created.id,
      name: 'Campaña',
      status: 'completed',
    });
    expect((await call('otherAdmin', 'GET', '/admin/mass-message-history')).json().data.total).toBe(0);
    for (const path of ['', '/recipients', '/recipients/export']) {
      expect(
        (await call('otherAdmin', 'GET', `/admin/messages-massive/${created.id}${path}`)).statusCode,
      ).toBe(404);
    }
    expect((await call('otherAdmin', 'POST', `/admin/messages-massive/${created.id}/pause`)).statusCode).toBe(
      404,
    );
  });

  it('wait for their schedule, kept in UTC', async () => {
    expect(zonedToUtc('2026-11-25T10:30', 'America/Bogota').toISOString()).toBe('2026-11-25T15:30:00.000Z');
    expect(zonedToUtc('2026-07-01T12:00', 'Europe/Madrid').toISOString()).toBe('2026-07-01T10:00:00.000Z');
    const { clients: mine } = await clients(companyA, 2);
    const listId = await list(
      companyA,
      mine.map((c) => c.id),
    );
    const templateId = await template(companyA);
    let res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'Pasado',
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: 'x' },
      schedule: '2020-01-01T10:00',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.schedule).toBeDefined();

    const at = new Date(Date.now() + 1500);
    const created = await send({
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: 'x' },
      schedule: at.toISOString(),
    });
    expect(created).toMatchObject({ status: 'scheduled', scheduled_at: at.toISOString() });
    // Nothing leaves before its time: the send starts, and WhatsApp hears of it, at or after `at`.
    const done = await finished(created.id);
    expect(done.counts.sent).toBe(2);
    expect(Date.parse(done.started_at!)).toBeGreaterThanOrEqual(at.getTime());
    expect(fake.sent[0].at.getTime()).toBeGreaterThanOrEqual(at.getTime());

    // A time given as a local date and time in the admin's zone (Bogotá: UTC-5 all year).
    const inAMonth = new Date(Date.now() + 30 * 24 * 60 * 60_000).toISOString();
    res = await call('admin', 'POST', '/admin/messages-massive', {
      name: 'Local',
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: { 1: 'x' },
      schedule: inAMonth.slice(0, 16),
      time_zone: 'America/Bogota',
    });
    expect(res.json().data).toMatchObject({
      status: 'scheduled',
      scheduled_at: new Date(Date.parse(`${inAMonth.slice(0, 16)}:00Z`) + 5 * 60 * 60_000).toISOString(),
    });

    // A time that passed while no process ran (its job lost with the queue): the next start sends it.
    const late = res.json().data.id as number;
    const passed = new Date(Date.now() - 60_000).toISOString();
    await ctx.container.db
      .updateTable('mass_messages')
      .set({ scheduled_at: passed })
      .where('id', '=', late)
      .execute();
    fake.reset();
    await ctx.container.massSender.resumeAll();
    const fired = await finished(late);
    expect(fired.counts.sent).toBe(2);
    expect(Date.parse(fired.started_at!)).toBeGreaterThan(Date.parse(passed));
    expect((await call('admin', 'POST', `/admin/messages-massive/${late}/cancel`)).statusCode).toBe(409);
  });

  // A timing test: on a machine starved of CPU a stall of a few hundred ms can break the 5% bound, so
  // it may run again.
  it('keep to the pace on the sender’s clock: N at 80/s take (N-1)/80 s, never more than 80 a window', async () => {
    // The pace is checked on the time the sender goes by — its clock, a fake one here that moves by each
    // wait the sender asks for — so the check holds under any load of the machine. The wall-clock pace
    // (the share of 80/s and 500/s reached) is measured by bench/mass-send.ts. The rest is real: a send
    // accepted over HTTP, its recipients, the Cloud API client over HTTP to the fake, the database, the
    // conversations.
    const N = 160;
    fake.throughputPerSecond = 1_000_000; // the fake's limit counts wall-clock seconds: not this test's
    const scheduledAt = Date.now() + 30 * 24 * 60 * 60_000;
    // Scheduled in a month, so the app's own sender leaves it: the run below, on the fake clock, is its.
    const { mine, created } = await sendToNewClients(N, { schedule: new Date(scheduledAt).toISOString() });
    expect(created.status).toBe('scheduled');
    const clock = createFakeClock({ start: scheduledAt, autoAdvance: true });
    const { container } = ctx;
    const requests: number[] = [];
    const sender = createMassSender({
      db: container.db,
      repository: container.massMessagesRepository,
      cloudApi: {
        accountOf: container.cloudApi.accountOf,
        sendAs(account, to, content) {
          requests.push(clock.now());
          return container.cloudApi.sendAs(account, to, content);
        },
      },
      jobs: container.jobs,
      outbox: container.outbox,
      onSent: keepInConversation({
        outbox: container.outbox,
        massMessagesRepository: container.massMessagesRepository,
      }),
      options: { sliceMs: 60_000, clock },
    });
    await sender.run(created.id);
    const done = await getSend(created.id);
    expect(done.status).toBe('completed');
    expect(done.counts.sent).toBe(N);
    expect(fake.sent).toHaveLength(N);
    expect(new Set(fake.sent.map((s) => s.to)).size).toBe(N);
    expect(requests).toHaveLength(N);
    // The first request alone, then one every 12.5 ms: the last starts (N-1)/80 s after the first.
    const span = requests.at(-1)! - requests[0]!;
    expect(span).toBeGreaterThanOrEqual(((N - 1) / 80) * 1000);
    expect(span).toBeLessThanOrEqual((N / 80) * 1000 * 1.01);
    // No window of WhatsApp's second (and the pacer's margin) holds more than the pace.
    for (const at of requests)
      expect(requests.filter((t) => t >= at && t < at + WINDOW_MS).length).toBeLessThanOrEqual(80);
    // Every recipient's message is in their conversation, the campaign's.
    const kept = await container.db
      .selectFrom('messages')
      .select(['client_id', 'author_kind', 'author_mass_message_id'])
      .where('author_mass_message_id', '=', created.id)
      .execute();
    expect(kept.map((m) => m.client_id).sort((a, b) => a! - b!)).toEqual(
      mine.map((c) => c.id).sort((a, b) => a - b),
    );
    // Real requests, one at a time of the fake clock: on a busy machine (PostgreSQL) over 30 s.
  }, 120_000);

  it('share the number’s pace between the company’s sends running at once', async () => {
    // WhatsApp's limit is the phone number's: two sends at 60/s each would ask 120/s of a 60/s number.
    // What is checked is the sender's decision, read from the runs themselves (no wall-clock threshold):
    // while both run, each keeps half the pace; once one ends, the other takes the whole of it back.
    await setPace(60);
    const { clients: mine } = await clients(companyA, 60 + 150);
    const templateId = await template(companyA);
    const first = await list(
      companyA,
      mine.slice(0, 60).map((c) => c.id),
    );
    // The second send is longer, so it is still running when the first one ends.
    const second = await list(
      companyA,
      mine.slice(60).map((c) => c.id),
    );
    const a = await send({ message_template_id: templateId, list_id: first, bodyParameters: { 1: 'x' } });
    const sender = ctx.container.massSender;
    // A run alone keeps the whole pace of the number.
    await waitFor(() => sender.paceOf(a.id) === 60, 20_000);
    const b = await send({ message_template_id: templateId, list_id: second, bodyParameters: { 1: 'x' } });
    // Both running: each run sees the other at its next look at the send and keeps half.
    await waitFor(() => sender.paceOf(a.id) === 30 && sender.paceOf(b.id) === 30, 20_000);
    // The first ends: the second's next look gives it the whole pace again.
    await finished(a.id, 60_000);
    await waitFor(() => sender.paceOf(b.id) === 60, 20_000);
    const done = await Promise.all([getSend(a.id), finished(b.id, 60_000)]);
    expect(done.map((d) => d.counts)).toMatchObject([
      { sent: 60, unknown: 0 },
      { sent: 150, unknown: 0 },
    ]);
    // Every client got the message once.
    expect(fake.sent).toHaveLength(210);
    expect(new Set(fake.sent.map((s) => s.to)).size).toBe(210);
  }, 120_000);

  it('back off and slow down on 130429, sending everyone exactly once', async () => {
    fake.throughputPerSecond = 30;
    // A few refusals come whatever the machine's speed (a starved process may never pass 30/s).
    fake.failSends({ code: 130429 }, 3);
    await setPace(100);
    const N = 90;
    const { created } = await sendToNewClients(N);
    const done = await finished(created.id, 40_000);
    expect(done.counts).toMatchObject({ total: N, sent: N, failed: 0, unknown: 0 });
    const posts = fake.requests.filter((r) => r.method === 'POST').length;
    expect(posts).toBeGreaterThan(N); // some were refused with 130429 and tried again
    const perPhone = new Map<string, number>();
    for (const s of fake.sent) perPhone.set(s.to, (perPhone.get(s.to) ?? 0) + 1);
    expect([...perPhone.values()].every((n) => n === 1)).toBe(true);
    expect(perPhone.size).toBe(N);
  });

  it('hold a recipient hit by the pair rate limit (131056) and try it again', async () => {
    fake.failSends({ code: 131056 }, 2);
    const { created } = await sendToNewClients(3);
    const done = await finished(created.id);
    expect(done.counts).toMatchObject({ sent: 3, failed: 0 });
    expect(fake.sent).toHaveLength(3);
    const rows = await recipients(created.id);
    expect(Math.max(...rows.map((r) => r.attempts))).toBeGreaterThan(1);
  });

  it('can be paused, resumed and cancelled', async () => {
    await setPace(10);
    const { created } = await sendToNewClients(40);
    await waitFor(async () => fake.sent.length >= 3);
    let res = await call('admin', 'POST', `/admin/messages-massive/${created.id}/pause`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('paused');
    const answered = fake.sent.length;
    // The barrier: the run that was sending ends at its next look at the send. It held the send's only
    // lease, and a run started after the pause sends nothing, so what WhatsApp got by then is all it gets.
    await waitFor(() => !ctx.container.massSender.isRunning(created.id));
    const atPause = fake.sent.length;
    // Its next look came within 100 ms (controlMs): at 10/s, a request or two at most after the answer.
    expect(atPause - answered).toBeLessThanOrEqual(2);
    const paused = await getSend(created.id);
    expect(paused.counts).toMatchObject({ sent: atPause, sending: 0, queued: 40 - atPause });
    expect((await call('admin', 'POST', `/admin/messages-massive/${created.id}/pause`)).statusCode).toBe(409);
    expect(fake.sent.length).toBe(atPause);

    res = await call('admin', 'POST', `/admin/messages-massive/${created.id}/resume`);
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(async () => fake.sent.length >= atPause + 3);
    res = await call('admin', 'POST', `/admin/messages-massive/${created.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('cancelled');
    // The same barrier: once the run has ended, nothing more goes out.
    await waitFor(() => !ctx.container.massSender.isRunning(created.id));
    const final = await getSend(created.id);
    expect(final.counts.cancelled).toBeGreaterThan(0);
    expect(final.counts.cancelled + final.counts.sent + final.counts.sending).toBe(40);
    expect(fake.sent.length).toBe(final.counts.sent);
    expect((await call('admin', 'POST', `/admin/messages-massive/${created.id}/resume`)).statusCode).toBe(
      409,
    );
  });

  it('turn a recipient left in flight by a dead process into unknown, and resend it only on purpose', async () => {
    const { mine, created } = await sendToNewClients(3, {
      schedule: new Date(Date.now() + 60_000).toISOString(),
    });
    const { db } = ctx.container;
    // As a process that died mid-request leaves it: the send held by a lease that ran out, one recipient
    // 'sending'.
    const [first] = await recipients(created.id);
    await db
      .updateTable('mass_message_recipients')
      .set({ status: 'sending' })
      .where('id', '=', first.id)
      .execute();
    await db
      .updateTable('mass_messages')
      .set({
        status: 'sending',
        lease_owner: 'dead-process',
        lease_until: new Date(Date.now() - 1000).toISOString(),
      })
      .where('id', '=', created.id)
      .execute();
    expect(await ctx.container.massSender.resumeAll()).toBe(1);
    const done = await finished(created.id);
    expect(done.counts).toMatchObject({ sent: 2, unknown: 1 });
    expect(fake.sent.map((s) => s.to)).not.toContain(mine[0].whatsapp_cellphone);
    const [unknown] = await recipients(created.id, '&status=unknown');
    expect(unknown.error_message).toContain('no se sabe si llegó');

    const res = await call('admin', 'POST', `/admin/messages-massive/${created.id}/resend`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().requeued).toBe(1);
    const again = await finished(created.id);
    expect(again.counts).toMatchObject({ sent: 3, unknown: 0 });
    expect(fake.sent.filter((s) => s.to === mine[0].whatsapp_cellphone)).toHaveLength(1);
  });
});
