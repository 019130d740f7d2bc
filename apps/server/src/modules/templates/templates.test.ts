// WhatsApp message templates over real HTTP: the app syncs from the fake Graph API in packages/fakes, which
// pages and refuses like Meta's, lists from its own table, and checks a template send before sending.
import type { MessageTemplate } from '@hablabot/contract';
import {
  type FakeGraphApi,
  type FakeTemplate,
  fakeTemplate,
  GRAPH_ERRORS,
  graphError,
  startFakeGraphApi,
  startFakeServer,
} from '@hablabot/fakes';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/wait';
import { createClient } from '../../../test/clients-factories';
import { type CastApi, createCastApi } from '../../../test/http';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-fake-templates-0001';
const WABA_A = '102290129340398';
const WABA_B = '102290129340399';
/** An account whose listing the tests break on purpose (see `brokenListing`). */
const WABA_BROKEN = '777000777000';
const PAGE_SIZE = 50;
const PHONE_ID = '106540352242922';

let t: CastApi;
let graph: FakeGraphApi;
/** What the broken account's second page does: answer normally, fail, or point to another host. */
let brokenListing: 'ok' | 'fail_page_2' | 'foreign_next' = 'ok';

const many = (count: number, prefix = 'plantilla') =>
  Array.from({ length: count }, (_, i) =>
    fakeTemplate({ id: `9${String(i).padStart(6, '0')}`, name: `${prefix}_${String(i).padStart(3, '0')}` }),
  );

const CHECKED: FakeTemplate[] = [
  fakeTemplate({ id: '501', name: 'pedido_listo', body: 'Hola {{1}}, tu pedido {{2}} está listo.' }),
  fakeTemplate({ id: '502', name: 'en_revision', status: 'PENDING', body: 'Hola {{1}}.' }),
  fakeTemplate({ id: '503', name: 'saludo', body: 'Gracias por escribirnos.' }),
  fakeTemplate({ id: '504', name: 'promo', language: 'es', body: 'Oferta para {{1}}.' }),
  fakeTemplate({ id: '505', name: 'promo', language: 'en_US', body: 'An offer for {{1}}.' }),
];

function templateRequests() {
  return graph.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/message_templates'));
}

async function saveSettings(who: 'admin' | 'otherAdmin', settings: Record<string, unknown>) {
  const res = await t.as(who, 'POST', '/admin/setting', settings);
  expect(res.statusCode, res.body).toBe(200);
}

/** A company's WhatsApp settings; a number belongs to one company, so only WABA_A's is the fake's PHONE_ID. */
const whatsApp = (waba: string, overrides: Record<string, unknown> = {}) => ({
  whatsAppApiKey: TOKEN,
  whatsAppPhoneId: waba === WABA_A ? PHONE_ID : `1${waba}`,
  whatsAppBusinessAccountId: waba,
  facebookMessagesApiUrl: graph.baseUrl,
  ...overrides,
});

const sync = (who: 'admin' | 'otherAdmin' = 'admin', lang?: string) =>
  t.as(who, 'GET', '/templates/sync', undefined, lang);

async function storedCount(companyId: number): Promise<number> {
  const row = await t.api.container.db
    .selectFrom('message_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  t = await createCastApi({
    templateSync: { pageSize: PAGE_SIZE, timeoutMs: 2000 },
    outboundRetry: { attempts: 2, backoffMs: 60_000 },
    cloudApiTimeoutMs: 2000,
  });
  graph = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      {
        id: PHONE_ID,
        display_phone_number: '+34 600 11 22 33',
        verified_name: 'Tienda',
        quality_rating: 'GREEN',
      },
    ],
  });
  // One page of a single template whose `next` fails, points elsewhere, or is absent.
  graph.route('GET', `/:version/${WABA_BROKEN}/message_templates`, (request) => {
    if (request.query.get('after'))
      return { status: 500, body: graphError(2, 'Service temporarily unavailable') };
    const next =
      brokenListing === 'fail_page_2'
        ? `${graph.baseUrl}/${WABA_BROKEN}/message_templates?after=MQ`
        : brokenListing === 'foreign_next'
          ? `http://203.0.113.9/v23.0/${WABA_BROKEN}/message_templates?after=MQ`
          : undefined;
    const name = brokenListing === 'ok' ? 'kept' : 'never_stored';
    return {
      status: 200,
      body: {
        data: [fakeTemplate({ id: '1', name })],
        paging: { cursors: { before: 'MA', after: 'MQ' }, ...(next ? { next } : {}) },
      },
    };
  });
});
afterAll(async () => {
  await Promise.all([t.api.close(), graph.close()]);
});
beforeEach(() => {
  graph.reset();
});

describe(`templates sync (${engine})`, () => {
  it('follows every page, stores all templates sorted by name, and is idempotent', async () => {
    graph.templates.set(WABA_A, many(120).reverse());
    await saveSettings('admin', whatsApp(WABA_A));

    const res = await sync();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { success: boolean; message: string; data: MessageTemplate[] };
    expect(body.success).toBe(true);
    expect(body.message).toBe('Plantillas sincronizadas con WhatsApp: 120 en total.');
    expect(body.data).toHaveLength(120);
    expect(body.data.map((x) => x.name)).toEqual(many(120).map((x) => x.name));
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      name: 'plantilla_000',
      language: 'es',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', format: null, text: 'Hola, gracias por escribirnos.', buttons: [] }],
      rejected_reason: null,
      // Meta rates a template it has not seen sent as UNKNOWN.
      quality: 'UNKNOWN',
      updated_at: expect.any(String),
    });
    // Three pages of at most 50, each with the bearer token.
    const requests = templateRequests();
    expect(requests).toHaveLength(3);
    for (const r of requests) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(requests[0].query.get('limit')).toBe(String(PAGE_SIZE));

    const again = await sync();
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(body.data);
    expect(await storedCount(t.companyA)).toBe(120);
  });

  it('removes templates deleted in WhatsApp and updates changed ones in place', async () => {
    const before = (await t.as('admin', 'GET', '/templates')).json().data as MessageTemplate[];
    const remaining = many(120).filter((_, i) => i % 10 !== 0);
    remaining[0] = { ...remaining[0], status: 'PAUSED', category: 'MARKETING' };
    graph.templates.set(WABA_A, remaining);

    const res = await sync();
    expect(res.statusCode).toBe(200);
    const after = res.json().data as MessageTemplate[];
    expect(after).toHaveLength(108);
    expect(after.map((x) => x.name)).toEqual(remaining.map((x) => x.name));
    expect(after[0]).toMatchObject({ name: 'plantilla_001', status: 'PAUSED', category: 'MARKETING' });
    // Kept templates keep their ids.
    const ids = new Map(before.map((x) => [x.name, x.id]));
    for (const x of after) expect(x.id).toBe(ids.get(x.name));
    expect(await storedCount(t.companyA)).toBe(108);
  });

  it('GET /templates answers from the table without asking WhatsApp, per company', async () => {
    graph.templates.set(WABA_B, [fakeTemplate({ id: '77', name: 'solo_b' })]);
    await saveSettings('otherAdmin', whatsApp(WABA_B));
    expect((await sync('otherAdmin')).statusCode).toBe(200);
    graph.reset();

    const a = await t.as('admin', 'GET', '/templates');
    expect(a.statusCode).toBe(200);
    const names = (a.json().data as MessageTemplate[]).map((x) => x.name);
    expect(names).toHaveLength(108);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('solo_b');
    const b = await t.as('otherAdmin', 'GET', '/templates');
    expect((b.json().data as MessageTemplate[]).map((x) => x.name)).toEqual(['solo_b']);
    expect(templateRequests()).toHaveLength(0);
    // B's sync left A's templates alone.
    expect(await storedCount(t.companyA)).toBe(108);
  });

  it('admin only: client role 403, super admin 403, no token 401', async () => {
    for (const url of ['/api/v1/templates', '/api/v1/templates/sync']) {
      await expectRoleMatrix(t.api, t.cast, { method: 'GET', url }, { ...ADMIN_ONLY, admin: 200 });
    }
  });

  it('names the missing WhatsApp settings with 422', async () => {
    const admin = await t.api.user({ role: 'admin' });
    const none = await t.api.get('/templates/sync', { as: admin });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(
      'Para sincronizar las plantillas, guarda en Configuración el token de acceso de WhatsApp y el ID de la cuenta de WhatsApp Business.',
    );
    expect(Object.keys(none.json().errors).sort()).toEqual(['whatsAppApiKey', 'whatsAppBusinessAccountId']);

    const saved = await t.api.post('/admin/setting', { whatsAppApiKey: TOKEN }, { as: admin });
    expect(saved.statusCode).toBe(200);
    const noAccount = await t.api.get('/templates/sync', { as: admin, lang: 'en' });
    expect(noAccount.statusCode).toBe(422);
    expect(noAccount.json()).toEqual({
      message: 'To sync the templates, save the WhatsApp Business account id in Settings.',
      errors: { whatsAppBusinessAccountId: ['The WhatsApp Business account id is missing in Settings.'] },
    });
    expect(templateRequests()).toHaveLength(0);
  });

  describe("WhatsApp's refusals change nothing and read plainly", () => {
    let admin: Awaited<ReturnType<CastApi['api']['user']>>;
    beforeAll(async () => {
      admin = await t.api.user({ role: 'admin' });
      graph.templates.set('300000000000001', [fakeTemplate({ id: '1', name: 'existente' })]);
      await t.api.post('/admin/setting', whatsApp('300000000000001'), { as: admin });
      expect((await t.api.get('/templates/sync', { as: admin })).statusCode).toBe(200);
    });
    const settings = (values: Record<string, unknown>) =>
      t.api.post('/admin/setting', whatsApp('300000000000001', values), { as: admin });
    const stored = async () =>
      ((await t.api.get('/templates', { as: admin })).json().data as MessageTemplate[]).map((x) => x.name);

    it('a refused token is a 422 on the token', async () => {
      await settings({ whatsAppApiKey: 'EAAG-revoked-token' });
      const res = await t.api.get('/templates/sync', { as: admin });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toMatch(/^WhatsApp rechazó el token de acceso/);
      expect(Object.keys(res.json().errors)).toEqual(['whatsAppApiKey']);
      expect(await stored()).toEqual(['existente']);
      await settings({});
    });

    it('an unknown business account is a 422 on its id', async () => {
      await settings({ whatsAppBusinessAccountId: '404404404' });
      const res = await t.api.get('/templates/sync', { as: admin, lang: 'en' });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(
        'WhatsApp cannot find the WhatsApp Business account with id 404404404, or the token has no access to it. Check the id in Settings.',
      );
      expect(Object.keys(res.json().errors)).toEqual(['whatsAppBusinessAccountId']);
      expect(await stored()).toEqual(['existente']);
      await settings({});
    });

    it('a server error, throttling or an address where nothing answers is a 502/503 with a reason', async () => {
      graph.failNext({ status: 500, body: graphError(2, 'Service temporarily unavailable') });
      const down = await t.api.get('/templates/sync', { as: admin });
      expect(down.statusCode).toBe(502);
      expect(down.json()).toEqual({
        message: 'WhatsApp respondió con un error: Service temporarily unavailable',
      });

      graph.failNext(GRAPH_ERRORS.rateLimit());
      const throttled = await t.api.get('/templates/sync', { as: admin });
      expect(throttled.statusCode).toBe(503);
      expect(throttled.json().message).toMatch(/demasiadas solicitudes/);

      const gone = await startFakeServer(() => ({ status: 200 }));
      await gone.close();
      await settings({ facebookMessagesApiUrl: `${gone.url}/v23.0` });
      const unreachable = await t.api.get('/templates/sync', { as: admin });
      expect(unreachable.statusCode).toBe(502);
      expect(unreachable.json().message).toMatch(/^No se pudo conectar con 127\.0\.0\.1:/);
      await settings({});
      expect(await stored()).toEqual(['existente']);
    });

    it('a listing that fails on a later page, or sends the token elsewhere, stores nothing of it', async () => {
      await settings({ whatsAppBusinessAccountId: WABA_BROKEN });
      brokenListing = 'ok';
      expect((await t.api.get('/templates/sync', { as: admin })).statusCode).toBe(200);
      expect(await stored()).toEqual(['kept']);

      brokenListing = 'fail_page_2';
      const failed = await t.api.get('/templates/sync', { as: admin });
      expect(failed.statusCode).toBe(502);
      expect(await stored()).toEqual(['kept']);

      brokenListing = 'foreign_next';
      graph.reset();
      const foreign = await t.api.get('/templates/sync', { as: admin });
      expect(foreign.statusCode).toBe(502);
      expect(templateRequests()).toHaveLength(1);
      expect(await stored()).toEqual(['kept']);
      brokenListing = 'ok';
      await settings({});
    });
  });

  it('runs as a job on the queue', async () => {
    const admin = await t.api.user({ role: 'admin' });
    graph.templates.set('300000000000002', many(3, 'job'));
    await t.api.post('/admin/setting', whatsApp('300000000000002'), { as: admin });
    const companyId = admin.user.company_id!;
    await t.api.container.jobs.start();
    await t.api.container.jobs.enqueue('templates.sync', { companyId });
    await waitFor(async () => (await storedCount(companyId)) >= 3, 20_000);
    expect((await t.api.container.templates.list(companyId)).map((x) => x.name)).toEqual([
      'job_000',
      'job_001',
      'job_002',
    ]);
  });

  it('fetches the templates after the WhatsApp number is saved, with no one asking', async () => {
    const admin = await t.api.user({ role: 'admin' });
    graph.templates.set('300000000000004', many(2, 'saved'));
    await t.api.container.jobs.start();
    await t.api.post('/admin/setting', whatsApp('300000000000004'), { as: admin });
    const companyId = admin.user.company_id!;
    await waitFor(async () => (await storedCount(companyId)) >= 2, 20_000);
    expect((await t.api.container.templates.list(companyId)).map((x) => x.name)).toEqual([
      'saved_000',
      'saved_001',
    ]);
  });

  it('ends a job refused for a bad token at once, without retries', async () => {
    const admin = await t.api.user({ role: 'admin' });
    graph.templates.set('300000000000003', many(2, 'refused'));
    await t.api.post(
      '/admin/setting',
      whatsApp('300000000000003', { whatsAppApiKey: 'EAAG-revoked-token' }),
      { as: admin },
    );
    const companyId = admin.user.company_id!;
    const asked = () => templateRequests().filter((r) => r.path.includes('300000000000003')).length;
    await t.api.container.jobs.start();
    const id = await t.api.container.jobs.enqueue('templates.sync', { companyId });
    // Saving the number queued a sync too (`channel.saved`): two jobs, one request each.
    await waitFor(() => asked() >= 2, 20_000);
    // Finished, not waiting for a retry (a job waiting or failed is still listed).
    await waitFor(async () => !(await t.api.container.jobs.inspect('templates.sync', id)), 20_000);
    await waitFor(async () => {
      const jobs = (await t.api.container.jobs.counts())['templates.sync'];
      return !jobs || (jobs.waiting === 0 && jobs.running === 0 && jobs.failed === 0);
    }, 20_000);
    expect(asked()).toBe(2);
    expect(await storedCount(companyId)).toBe(0);
  });
});

describe(`send a template message (${engine})`, () => {
  let client: Awaited<ReturnType<typeof createClient>>;
  let otherClient: Awaited<ReturnType<typeof createClient>>;

  beforeAll(async () => {
    graph.templates.set(WABA_A, CHECKED);
    await saveSettings('admin', whatsApp(WABA_A));
    expect((await sync()).statusCode).toBe(200);
    client = await createClient(t.api, t.companyA, { name: 'Ana' });
    otherClient = await createClient(t.api, t.companyB);
  });

  const send = (body: Record<string, unknown>, who: 'admin' | 'otherAdmin' = 'admin', lang?: string) =>
    t.as(who, 'POST', '/admin/messages/send-template-message', body, lang);
  const valid = () => ({
    client_id: client.id,
    phone: client.whatsapp_cellphone,
    templateName: 'pedido_listo',
    message: 'Hola Ana, tu pedido 123 está listo.',
    bodyParameters: { '1': 'Ana', '2': '123' },
  });
  const sends = () => graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

  function expectFieldErrors(res: LightMyRequestResponse, errors: Record<string, string[]>) {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual(errors);
    expect(res.json().message).toBe(Object.values(errors)[0][0]);
  }

  it('checks every body placeholder before sending: missing, empty, extra, line breaks', async () => {
    expectFieldErrors(await send({ ...valid(), bodyParameters: { '1': 'Ana' } }), {
      'bodyParameters.2': ['Falta el valor del parámetro 2.'],
    });
    expectFieldErrors(await send({ ...valid(), bodyParameters: { '1': 'Ana', '2': '   ' } }), {
      'bodyParameters.2': ['El valor del parámetro 2 no puede estar vacío.'],
    });
    expectFieldErrors(await send({ ...valid(), bodyParameters: { '1': 'Ana', '2': '1', '3': 'x' } }), {
      'bodyParameters.3': ['La plantilla no tiene el parámetro 3.'],
    });
    expectFieldErrors(await send({ ...valid(), bodyParameters: {} }, 'admin', 'en'), {
      'bodyParameters.1': ['The value of parameter 1 is missing.'],
      'bodyParameters.2': ['The value of parameter 2 is missing.'],
    });
    const lineBreak = await send({ ...valid(), bodyParameters: { '1': 'Ana\nMaría', '2': '1' } });
    expect(lineBreak.statusCode).toBe(422);
    expect(Object.keys(lineBreak.json().errors)).toEqual(['bodyParameters.1']);
    const tooLong = await send({ ...valid(), bodyParameters: { '1': 'a'.repeat(1025), '2': '1' } });
    expect(tooLong.statusCode).toBe(422);
    expect(Object.keys(tooLong.json().errors)).toEqual(['bodyParameters.1']);
    expectFieldErrors(await send({ ...valid(), bodyParameters: { '1': 'Ana      María', '2': '1' } }), {
      'bodyParameters.1': [
        'El valor del parámetro 1 no puede contener saltos de línea, tabuladores ni más de cuatro espacios seguidos.',
      ],
    });
    expectFieldErrors(await send({ ...valid(), templateName: 'saludo', bodyParameters: { '1': 'de más' } }), {
      'bodyParameters.1': ['La plantilla no tiene el parámetro 1.'],
    });
    expectFieldErrors(await send({ ...valid(), bodyParameters: { uno: 'Ana' } }), {
      'bodyParameters.uno': ['Los parámetros se indican por su número: 1, 2, 3…'],
    });
    expect(sends()).toHaveLength(0);
  });

  it('refuses unknown and unapproved templates, and asks the language when a name has several', async () => {
    const pending = await send({ ...valid(), templateName: 'en_revision', bodyParameters: { '1': 'Ana' } });
    expectFieldErrors(pending, {
      templateName: [
        'La plantilla «en_revision» no está aprobada por WhatsApp (estado PENDING) y no se puede enviar.',
      ],
    });
    const unknown = await send({ ...valid(), templateName: 'no_existe' });
    expectFieldErrors(unknown, {
      templateName: ['La plantilla «no_existe» no existe. Sincroniza las plantillas e inténtalo de nuevo.'],
    });
    // Another company's template is unknown here.
    const foreign = await send(
      { ...valid(), client_id: otherClient.id, phone: otherClient.whatsapp_cellphone },
      'otherAdmin',
    );
    expectFieldErrors(foreign, {
      templateName: [
        'La plantilla «pedido_listo» no existe. Sincroniza las plantillas e inténtalo de nuevo.',
      ],
    });
    const ambiguous = await send({ ...valid(), templateName: 'promo', bodyParameters: { '1': 'Ana' } });
    expect(ambiguous.statusCode).toBe(422);
    expect(Object.keys(ambiguous.json().errors)).toEqual(['language']);
    const wrongLanguage = await send({
      ...valid(),
      templateName: 'promo',
      language: 'fr',
      bodyParameters: { '1': 'Ana' },
    });
    expectFieldErrors(wrongLanguage, {
      language: ['La plantilla «promo» no existe en ese idioma (sí en: en_US, es).'],
    });
    expect(sends()).toHaveLength(0);
  });

  it("answers 404 for another company's client and 422 for a phone that is not the client's", async () => {
    const other = await send({
      ...valid(),
      client_id: otherClient.id,
      phone: otherClient.whatsapp_cellphone,
    });
    expect(other.statusCode).toBe(404);
    const fromB = await send(valid(), 'otherAdmin');
    expect(fromB.statusCode).toBe(404);
    const phone = await send({ ...valid(), phone: '34999999999' });
    expectFieldErrors(phone, { phone: ['El teléfono no es el del cliente.'] });
    expect(sends()).toHaveLength(0);
  });

  it('admin only: client role 403, super admin 403, no token 401', async () => {
    await expectRoleMatrix(
      t.api,
      t.cast,
      { method: 'POST', url: '/api/v1/admin/messages/send-template-message', payload: valid() },
      ADMIN_ONLY,
    );
  });

  it('sends a checked template at any time and keeps the filled text in the chat', async () => {
    // The client has never written: no 24-hour window, and templates go all the same.
    const res = await send(valid());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Mensaje de plantilla enviado.',
      data: {
        client_id: client.id,
        phone: client.whatsapp_cellphone,
        sender_type: 'admin',
        content: 'Hola Ana, tu pedido 123 está listo.',
        status: 1,
      },
    });
    expect(graph.sent).toHaveLength(1);
    expect(graph.sent[0]).toMatchObject({
      phoneNumberId: PHONE_ID,
      to: client.whatsapp_cellphone,
      type: 'template',
    });
    expect(graph.sent[0].body.template).toEqual({
      name: 'pedido_listo',
      language: { code: 'es' },
      components: [
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: '123' },
          ],
        },
      ],
    });
    const history = await t.as('admin', 'GET', `/admin/client/${client.id}/messages`);
    expect(history.json().messages.at(-1)).toMatchObject({ id: res.json().data.id, status: 1 });

    const english = await send(
      { ...valid(), templateName: 'promo', language: 'en_US', bodyParameters: { '1': 'Ana' } },
      'admin',
      'en',
    );
    expect(english.statusCode, english.body).toBe(201);
    expect(english.json().message).toBe('Template message sent.');
    expect(english.json().data.content).toBe('An offer for Ana.');
    expect(graph.sent[1].body.template).toMatchObject({ name: 'promo', language: { code: 'en_US' } });

    const { phone: _phone, ...withoutPhone } = valid();
    const plain = await send({ ...withoutPhone, templateName: 'saludo', bodyParameters: {} });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(graph.sent[2].body.template).toEqual({ name: 'saludo', language: { code: 'es' } });
  });

  it("WhatsApp's refusal (template gone, parameters changed) is a 502 with the reason, kept as not sent", async () => {
    // Deleted in WhatsApp after our last sync.
    graph.templates.set(
      WABA_A,
      CHECKED.filter((x) => x.name !== 'pedido_listo'),
    );
    const gone = await send(valid());
    expect(gone.statusCode).toBe(502);
    expect(gone.json().message).toBe(
      'No se pudo enviar la plantilla: La plantilla no existe en ese idioma o todavía no está aprobada en WhatsApp. Sincroniza las plantillas y elige una aprobada; reenviar no servirá.',
    );
    // Changed in WhatsApp: a third placeholder.
    graph.templates.set(WABA_A, [
      ...CHECKED.filter((x) => x.name !== 'pedido_listo'),
      fakeTemplate({ id: '501', name: 'pedido_listo', body: 'Hola {{1}}, tu pedido {{2}} llega el {{3}}.' }),
    ]);
    const changed = await send(valid(), 'admin', 'en');
    expect(changed.statusCode).toBe(502);
    expect(changed.json().message).toMatch(
      /^The template could not be sent: The number of values sent does not match/,
    );
    expect(graph.sent).toHaveLength(0);
    const history = await t.as('admin', 'GET', `/admin/client/${client.id}/messages`);
    expect(history.json().messages.slice(-2)).toMatchObject([
      { status: 4, error_code: 132001 },
      { status: 4, error_code: 132000 },
    ]);
    graph.templates.set(WABA_A, CHECKED);
  });

  it('names the missing send settings with 422 and stores nothing', async () => {
    const admin = await t.api.user({ role: 'admin' });
    const companyId = admin.user.company_id!;
    graph.templates.set('300000000000005', [fakeTemplate({ id: '1', name: 'hola' })]);
    const saved = await t.api.post(
      '/admin/setting',
      { ...whatsApp('300000000000005'), whatsAppPhoneId: null },
      { as: admin },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const synced = await t.api.get('/templates/sync', { as: admin });
    expect(synced.statusCode, synced.body).toBe(200);
    const someone = await createClient(t.api, companyId);
    const res = await t.api.post(
      '/admin/messages/send-template-message',
      { client_id: someone.id, phone: someone.whatsapp_cellphone, templateName: 'hola', bodyParameters: {} },
      { as: admin },
    );
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['whatsAppPhoneId']);
    const history = await t.api.get(`/admin/client/${someone.id}/messages`, { as: admin });
    expect(history.json().messages).toEqual([]);
    expect(graph.sent).toHaveLength(0);
  });

  it('answers 201 with a later try when WhatsApp asks to wait', async () => {
    graph.failSends({ code: 130429 });
    const res = await send(valid());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(
      'WhatsApp está saturado en este momento; la plantilla se enviará en breve.',
    );
    expect(res.json().data.status).toBe(0);
  });
});
