import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { phoneKey } from '../../platform/phone';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const SECRET = 'app-secret-one-phone';
const PHONE_ID = '106540352249999';

/**
 * One phone, one client (platform/phone.ts): the client form, the CSV import, the WordPress push and the
 * webhook all recognise a stored customer written with a country's mobile variant (MX 52/521, AR
 * 54/549, BR with or without the 9th digit); CO, ES and US numbers are matched as they are.
 */
describe(`one phone, one client (${engine})`, () => {
  let ctx: TestContext;
  let admin: TestUser;
  let companyId: number;
  let segmentId: number;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await createUser(ctx);
    companyId = admin.user.company_id!;
    segmentId = (await createSegment(ctx, companyId)).id;
    const { settingsRepository, secrets } = ctx.container;
    await settingsRepository.upsertSettings(companyId, {
      whatsapp_phone_id: PHONE_ID,
      whatsapp_app_secret_enc: secrets.encrypt(SECRET),
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const api = (method: 'POST' | 'PUT', url: string, payload: unknown) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: admin.headers, payload: payload as object });
  let seq = 0;
  const form = (phone: string, name = 'Cliente') => ({
    name,
    last_names: 'Pérez',
    whatsapp_cellphone: phone,
    email: `cliente${++seq}@example.test`,
    segments: [segmentId],
  });
  const inbound = async (from: string, text: string) => {
    const res = await ctx.app.inject(
      signedRequest(
        inboundBody(PHONE_ID, from, 'text', { text: { body: text } }, { name: 'Perfil' }),
        SECRET,
      ),
    );
    expect(res.statusCode).toBe(200);
    await ctx.container.outbox.idle();
  };
  /** The company's clients whose phone has this key, with their messages and conversations. */
  const clientsWithKey = async (phone: string) => {
    const { db } = ctx.container;
    const rows = await db
      .selectFrom('clients')
      .select(['id', 'name', 'whatsapp_cellphone'])
      .where('company_id', '=', companyId)
      .where('phone_key', '=', phoneKey(phone))
      .execute();
    return Promise.all(
      rows.map(async (r) => ({
        ...r,
        messages: (
          await db
            .selectFrom('messages')
            .select('content')
            .where('client_id', '=', r.id)
            .orderBy('id')
            .execute()
        ).map((m) => m.content),
        conversations: (
          await db.selectFrom('conversations').select('id').where('client_id', '=', r.id).execute()
        ).length,
      })),
    );
  };

  it('the webhook finds the client stored with the other variant: no duplicate, one conversation', async () => {
    const cases: [typed: string, stored: string, whatsappId: string][] = [
      ['+52 55 1234 5678', '525512345678', '5215512345678'], // MX: stored without the 1, WhatsApp id with it
      ['+54 11 1234-5678', '541112345678', '5491112345678'], // AR: stored without the 9
      ['+55 11 91234-5678', '5511912345678', '551112345678'], // BR: stored with the 9th digit, id without
      ['+55 21 8765-4321', '552187654321', '5521987654321'], // BR: stored without it, id with it
      ['+57 300 123 4567', '573001234567', '573001234567'], // CO, ES, US: the same number
      ['+34 600 12 34 56', '34600123456', '34600123456'],
      ['+1 (202) 555-0123', '12025550123', '12025550123'],
    ];
    for (const [typed, stored, whatsappId] of cases) {
      const created = await api('POST', '/admin/client', form(typed, `Cliente ${stored}`));
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().client.whatsapp_cellphone).toBe(stored);
      await inbound(whatsappId, `Hola desde ${whatsappId}`);
      expect(await clientsWithKey(stored), typed).toEqual([
        {
          id: created.json().client.id,
          name: `Cliente ${stored}`,
          whatsapp_cellphone: stored,
          messages: [`Hola desde ${whatsappId}`],
          conversations: 1,
        },
      ]);
    }
    // A neighbouring number is another customer.
    await inbound('5215512345679', 'otro');
    expect(await clientsWithKey('525512345679')).toHaveLength(1);
    expect(await clientsWithKey('525512345678')).toHaveLength(1);
  });

  it("the webhook's lookup is one search of the unique (company, phone key) index", async () => {
    const lookup = sql`select id, wa_user_id from clients where company_id = ${companyId} and phone_key = ${phoneKey('5215512345678')}`;
    const plan = await ctx.container.db.transaction().execute(async (trx) => {
      // A test database holds a few rows, where PostgreSQL would rather read the table: ask for the index.
      if (ctx.engine === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      const explain = ctx.engine === 'postgres' ? sql`explain` : sql`explain query plan`;
      const rows = (await sql<Record<string, string>>`${explain} ${lookup}`.execute(trx)).rows;
      return rows.map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
    });
    expect(plan).toMatch(/clients_company_phone_key_unique/);
  });

  it('the form refuses a mobile variant of a stored phone (409), on create and on update', async () => {
    await inbound('5491187654321', 'primero por WhatsApp');
    for (const typed of ['+54 11 8765-4321', '+54 9 11 8765-4321', '+54 11 15 8765-4321']) {
      const res = await api('POST', '/admin/client', form(typed));
      expect(res.statusCode, typed).toBe(409);
      expect(Object.keys(res.json().errors)).toEqual(['whatsapp_cellphone']);
    }
    const other = (await api('POST', '/admin/client', form('+55 31 99876-5432'))).json().client;
    const steal = await api('PUT', `/admin/client/${other.id}`, form('+54 11 8765-4321'));
    expect(steal.statusCode).toBe(409);
    // The client itself may switch to another variant of its own number.
    const own = await api('PUT', `/admin/client/${other.id}`, form('+55 31 9876-5432'));
    expect(own.statusCode).toBe(200);
    expect(await clientsWithKey('553198765432')).toHaveLength(1);
  });

  it('the import updates the client stored with another variant, keeps its phone, and refuses a variant repeated in the file', async () => {
    await inbound('5215598765432', 'hola');
    const res = await api('POST', '/import/clients', {
      clients: [
        { Nombre: 'Marta', Apellidos: 'Ruiz', Celular: '+52 55 9876 5432', Correo: 'marta@example.test' },
        { Nombre: 'Leo', Apellidos: 'Costa', Celular: '+55 41 98888-7777', Correo: 'leo@example.test' },
        { Nombre: 'Leo', Apellidos: 'Otra vez', Celular: '554188887777', Correo: 'leo2@example.test' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body.success.map((s: { row: number; action: string }) => [s.row, s.action])).toEqual([
      [1, 'updated'],
      [2, 'created'],
    ]);
    expect(body.error.map((e: { row: number }) => e.row)).toEqual([3]);
    const [marta] = await clientsWithKey('525598765432');
    expect(marta).toMatchObject({ name: 'Marta', whatsapp_cellphone: '5215598765432', messages: ['hola'] });
    expect(await clientsWithKey('554188887777')).toHaveLength(1);

    // The client table's search finds a client by a whole phone written with the other variant.
    for (const search of ['+52 55 9876 5432', '5215598765432', '55 9876 5432']) {
      const found = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/admin/client?search=${encodeURIComponent(search)}`,
        headers: admin.headers,
      });
      expect(
        found.json().clients.map((c: { name: string }) => c.name),
        search,
      ).toEqual(['Marta']);
    }
  });

  it('the WordPress push fills the client stored with another variant instead of making a second one', async () => {
    const generate = async (field: string) =>
      (await api('POST', '/admin/setting/generate', { field })).json().value as string;
    const key = await generate('wordpress_api_key');
    const secret = await generate('wordpress_secret_key');
    expect(
      (await api('POST', '/admin/setting', { wordpress_api_key: key, wordpress_secret_key: secret }))
        .statusCode,
    ).toBe(200);
    await inbound('5511977776666', 'oi');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/integrations/wordpress/clients',
      headers: { 'x-hablabot-key': key, 'x-hablabot-secret': secret },
      payload: {
        nombre: 'João',
        apellidos: 'Silva',
        celular: '+55 11 7777-6666',
        correo: 'joao@example.test',
      },
    });
    expect(res.statusCode).toBe(200);
    const [joao] = await clientsWithKey('551177776666');
    // The profile name WhatsApp gave stays (the push only fills what is empty); the phone stays WhatsApp's.
    expect(joao).toMatchObject({ name: 'Perfil', whatsapp_cellphone: '5511977776666', messages: ['oi'] });
    expect(await clientsWithKey('5511977776666')).toHaveLength(1);
    const stored = await ctx.container.db
      .selectFrom('clients')
      .select(['last_names', 'email'])
      .where('id', '=', joao!.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ last_names: 'Silva', email: 'joao@example.test' });
  });
});
