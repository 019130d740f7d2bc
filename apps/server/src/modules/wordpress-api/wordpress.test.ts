import { ZImportClientsResponse, ZWordPressClientErrorResponse } from '@hablabot/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment, uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser, type TestUser } from '../../../test/factories';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const LIMITS = { failures: 4, windowMs: 60_000, writesPerMinute: 20 };

let ctx: TestContext;
let admin: TestUser;
let otherAdmin: TestUser;
let keys: { key: string; secret: string };
let otherKeys: { key: string; secret: string };
/** Each test calls from an address of its own, so the failure counts of one do not block another. */
let address = 0;
const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

async function generate(who: TestUser, field: string): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/setting/generate',
    headers: who.headers,
    payload: { field },
  });
  return res.json().value;
}

/** Generates a key and secret with the settings screen's button and saves them. */
async function connect(who: TestUser) {
  const key = await generate(who, 'wordpress_api_key');
  const secret = await generate(who, 'wordpress_secret_key');
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/admin/setting',
    headers: who.headers,
    payload: { wordpress_api_key: key, wordpress_secret_key: secret },
  });
  expect(res.statusCode).toBe(200);
  return { key, secret };
}

function wp(
  method: InjectOptions['method'],
  path: 'ping' | 'clients',
  credentials: { key?: string; secret?: string },
  options: {
    payload?: unknown;
    remoteAddress?: string;
    lang?: string;
    headers?: Record<string, string>;
  } = {},
) {
  return ctx.app.inject({
    method,
    url: `/api/v1/integrations/wordpress/${path}`,
    remoteAddress: options.remoteAddress ?? nextAddress(),
    headers: {
      ...(credentials.key === undefined ? {} : { 'x-hablabot-key': credentials.key }),
      ...(credentials.secret === undefined ? {} : { 'x-hablabot-secret': credentials.secret }),
      ...(options.lang ? { 'accept-language': options.lang } : {}),
      ...options.headers,
    },
    ...(options.payload === undefined ? {} : { payload: options.payload as InjectOptions['payload'] }),
  });
}

async function clientsOf(who: TestUser) {
  const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/client', headers: who.headers });
  return res.json().clients as {
    name: string;
    whatsapp_cellphone: string;
    email: string;
    segments: { name: string }[];
  }[];
}

beforeAll(async () => {
  ctx = await createTestContext({ wordpressLimits: LIMITS });
  admin = await createUser(ctx, { role: 'admin' });
  otherAdmin = await createUser(ctx, { role: 'admin' });
  keys = await connect(admin);
  otherKeys = await connect(otherAdmin);
});
afterAll(async () => {
  await ctx.close();
});

describe(`WordPress connection (${engine})`, () => {
  it('ping: 200 with the right key and secret', async () => {
    const res = await wp('GET', 'ping', keys);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Conexión correcta: HablaBot acepta la clave y el secreto.',
    });
    const en = await wp('GET', 'ping', keys, { lang: 'en' });
    expect(en.json().message).toBe('Connected: HablaBot accepts the key and the secret.');
  });

  it('401 for a missing, wrong or mismatched key or secret, on both routes; a bearer token is no substitute', async () => {
    const cases: { key?: string; secret?: string }[] = [
      {},
      { key: keys.key },
      { secret: keys.secret },
      { key: keys.key, secret: otherKeys.secret },
      { key: otherKeys.key, secret: keys.secret },
      // One character off (never the same one: a random secret may end in 'x').
      { key: keys.key, secret: `${keys.secret.slice(0, -1)}${keys.secret.endsWith('x') ? 'y' : 'x'}` },
      { key: `HB-${'x'.repeat(61)}`, secret: keys.secret },
      { key: keys.key.toLowerCase(), secret: keys.secret },
      { key: 'k'.repeat(5000), secret: keys.secret },
    ];
    for (const credentials of cases) {
      for (const path of ['ping', 'clients'] as const) {
        const res = await wp(path === 'ping' ? 'GET' : 'POST', path, credentials, {
          payload: path === 'clients' ? { nombre: 'Ana' } : undefined,
        });
        expect(res.statusCode, JSON.stringify(credentials).slice(0, 80)).toBe(401);
      }
    }
    const missing = await wp('GET', 'ping', {});
    expect(missing.json()).toEqual({ message: 'Faltan las cabeceras X-HablaBot-Key y X-HablaBot-Secret.' });
    const wrong = await wp('GET', 'ping', { key: keys.key, secret: otherKeys.secret });
    expect(wrong.json()).toEqual({ message: 'La clave o el secreto de HablaBot no son válidos.' });
    // A signed-in admin's bearer token does not open the WordPress routes.
    const bearer = await wp('GET', 'ping', {}, { headers: admin.headers });
    expect(bearer.statusCode).toBe(401);
    // Wrong keys are refused before the body is read: no validation message, no JSON error.
    const garbage = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/wordpress/clients',
      remoteAddress: nextAddress(),
      headers: {
        'content-type': 'application/json',
        'x-hablabot-key': keys.key,
        'x-hablabot-secret': 'nope',
      },
      payload: '{not json',
    });
    expect(garbage.statusCode).toBe(401);
  });

  it('creates a client like a CSV import row; a second push by phone fills nothing stored, adds segments', async () => {
    const vip = await createSegment(ctx, admin.user.company_id!, { name: 'Clientes VIP' });
    await createSegment(ctx, admin.user.company_id!, { name: 'Web' });
    const created = await wp('POST', 'clients', keys, {
      payload: {
        nombre: 'Lucía',
        apellidos: 'Fernández Ruiz',
        celular: '+34 611-22-33-44',
        correo: 'Lucia@Example.TEST',
        proyectos: 'Formulario de contacto',
        segmentos: 'clientes vip; Web',
        utm_source: 'ignored',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(ZImportClientsResponse.parse(created.json())).toEqual({
      data: { error: [], success: [{ row: 1, name: 'Lucía Fernández Ruiz', action: 'created' }] },
      message: 'Cliente creado con éxito.',
    });
    const updated = await wp('POST', 'clients', keys, {
      payload: { name: 'Lucía', last_names: 'Fernández', phone: '34611223344', email: 'otra@example.test' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({
      data: { error: [], success: [{ row: 1, name: 'Lucía Fernández', action: 'updated' }] },
      message: 'Cliente actualizado con éxito.',
    });
    const mine = (await clientsOf(admin)).filter((c) => c.whatsapp_cellphone === '34611223344');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ last_names: 'Fernández Ruiz', email: 'lucia@example.test' });
    // Like the import: an update adds segments and never removes one.
    expect(mine[0].segments.map((s) => s.name).sort()).toEqual([vip.name, 'Web'].sort());
    // Company isolation: the key decides the company; the other company sees nothing.
    expect((await clientsOf(otherAdmin)).some((c) => c.whatsapp_cellphone === '34611223344')).toBe(false);
  });

  it('never overwrites what a client has: a WhatsApp client gets its empty fields filled, its name kept', async () => {
    const companyId = admin.user.company_id!;
    const phone = uniquePhone();
    await ctx.container.clientsRepository.upsertFromWhatsApp(companyId, {
      phone,
      name: 'Marta (WhatsApp)',
      waUserId: null,
    });
    const web = await createSegment(ctx, companyId, { name: 'Formulario web' });
    const pushed = await wp('POST', 'clients', keys, {
      payload: {
        nombre: 'Impostora',
        apellidos: 'López',
        celular: phone,
        correo: 'marta@example.test',
        segmentos: 'Formulario web',
      },
    });
    expect(pushed.statusCode).toBe(200);
    const filled = (await clientsOf(admin)).find((c) => c.whatsapp_cellphone === phone)!;
    expect(filled).toMatchObject({
      name: 'Marta (WhatsApp)',
      last_names: 'López',
      email: 'marta@example.test',
    });
    expect(filled.segments.map((s) => s.name)).toEqual([web.name]);

    // A client an admin filled in keeps every field, whatever the site sends.
    const kept = await createClient(ctx, companyId, {
      name: 'Rosa',
      last_names: 'Vidal',
      email: 'rosa@example.test',
      projects: 'Reforma',
    });
    const again = await wp('POST', 'clients', keys, {
      payload: {
        nombre: 'Otra',
        apellidos: 'Persona',
        celular: kept.whatsapp_cellphone,
        correo: 'attacker@example.test',
        proyectos: 'Nada',
      },
    });
    expect(again.statusCode).toBe(200);
    const after = (await clientsOf(admin)).find((c) => c.whatsapp_cellphone === kept.whatsapp_cellphone)!;
    expect(after).toMatchObject({ name: 'Rosa', last_names: 'Vidal', email: 'rosa@example.test' });
  });

  it('limits the pushes of one company per minute: 429 with Retry-After, other companies unaffected', async () => {
    const busy = await createUser(ctx, { role: 'admin' });
    const busyKeys = await connect(busy);
    const push = (credentials: { key: string; secret: string }, lang?: string) =>
      wp('POST', 'clients', credentials, {
        payload: { nombre: 'Flood', apellidos: 'Web', celular: uniquePhone(), correo: 'flood@example.test' },
        remoteAddress: '198.51.100.90',
        lang,
      });
    for (let i = 0; i < LIMITS.writesPerMinute; i++) expect((await push(busyKeys)).statusCode).toBe(201);
    const limited = await push(busyKeys);
    expect(limited.statusCode).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.json().message).toBe(
      `Demasiados contactos enviados desde WordPress en un minuto. Inténtalo de nuevo en ${wait} ${wait === 1 ? 'segundo' : 'segundos'}.`,
    );
    expect((await push(busyKeys, 'en')).json().message).toMatch(
      /^Too many contacts sent from WordPress in a minute\. Try again in \d+ seconds?\.$/,
    );
    expect((await push(otherKeys)).statusCode).toBe(201);
    const created = await ctx.container.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', busy.user.company_id!)
      .executeTakeFirstOrThrow();
    expect(Number(created.n)).toBe(LIMITS.writesPerMinute);
  });

  it('a refused row is a 422 with the import reasons', async () => {
    const res = await wp('POST', 'clients', keys, {
      payload: {
        nombre: 'Pedro',
        apellidos: 'Gil',
        celular: '12345',
        correo: 'pedro@example.test',
        segmentos: 'Oro',
      },
    });
    expect(res.statusCode).toBe(422);
    const body = ZWordPressClientErrorResponse.parse(res.json());
    const reason =
      'El número de WhatsApp debe tener al menos 10 dígitos, con el código de país. Segmento no encontrado: «Oro». Créalo antes de importar o corrige el nombre.';
    expect(body).toEqual({
      message: reason,
      errors: { client: [reason] },
      data: { error: [{ row: 1, name: 'Pedro Gil', message: reason }], success: [] },
    });
    const empty = await wp('POST', 'clients', keys, { payload: {}, lang: 'en' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().message).toBe('No contact data was received.');
    const notAnObject = await wp('POST', 'clients', keys, { payload: [{ nombre: 'x' }] });
    expect(notAnObject.statusCode).toBe(422);
  });

  it('rate limit: after the failures of one address every attempt from it is 429, right keys too', async () => {
    const attacker = '203.0.113.7';
    for (let i = 0; i < LIMITS.failures; i++) {
      const res = await wp(
        'GET',
        'ping',
        { key: keys.key, secret: `HB-${'g'.repeat(61)}` },
        { remoteAddress: attacker },
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await wp('GET', 'ping', keys, { remoteAddress: attacker });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(
      /^Demasiados intentos fallidos con claves de WordPress\. Inténtalo de nuevo en \d+ segundos?\.$/,
    );
    const blockedPost = await wp('POST', 'clients', keys, {
      remoteAddress: attacker,
      payload: { nombre: 'x' },
    });
    expect(blockedPost.statusCode).toBe(429);
    // The company's own site, from its own address, is not affected.
    expect((await wp('GET', 'ping', keys, { remoteAddress: '198.51.100.20' })).statusCode).toBe(200);
    // Successes are never counted.
    for (let i = 0; i < LIMITS.failures + 2; i++) {
      expect((await wp('GET', 'ping', keys, { remoteAddress: '198.51.100.21' })).statusCode).toBe(200);
    }
  });

  it('a new secret replaces the old one; clearing it closes the connection', async () => {
    const admin3 = await createUser(ctx, { role: 'admin' });
    const first = await connect(admin3);
    expect((await wp('GET', 'ping', first)).statusCode).toBe(200);
    const secret = await generate(admin3, 'wordpress_secret_key');
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/setting',
      headers: admin3.headers,
      payload: { wordpress_secret_key: secret },
    });
    expect((await wp('GET', 'ping', first)).statusCode).toBe(401);
    expect((await wp('GET', 'ping', { key: first.key, secret })).statusCode).toBe(200);
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/setting',
      headers: admin3.headers,
      payload: { clear: ['wordpress_secret_key'] },
    });
    expect((await wp('GET', 'ping', { key: first.key, secret })).statusCode).toBe(401);
  });
});
