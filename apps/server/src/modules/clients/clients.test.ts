import { ZClientsResponse, ZMessagesSummaryResponse } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment, setConversation, uniquePhone } from '../../../test/clients-factories';
import { createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { type Cast, type CastApi, createCastApi, type TestApi } from '../../../test/http';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';

let ctx: TestApi;
let cast: Cast;
let companyA: number;
let companyB: number;
/** Calls as one of the cast: `call('admin', 'GET', '/admin/bot')`. */
let call: CastApi['as'];

beforeAll(async () => {
  ({ api: ctx, cast, companyA, companyB, as: call } = await createCastApi());
});
afterAll(async () => {
  await ctx.close();
});

const clientBody = (segments: number[], overrides: Record<string, unknown> = {}) => ({
  name: 'Lucía',
  last_names: 'Fernández Ruiz',
  whatsapp_cellphone: uniquePhone(),
  email: 'lucia@example.test',
  projects: 'Reforma cocina',
  segments,
  ...overrides,
});

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`clients (${engine})`, () => {
  it('creates, lists, reads, updates and deletes a client, with segment chips in every answer', async () => {
    const vip = await createSegment(ctx, companyA, { name: 'VIP', color: '#ff0000' });
    const leads = await createSegment(ctx, companyA, { name: 'Leads', color: '#00ff00' });

    const created = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([vip.id], { whatsapp_cellphone: '+34 600-12-34-56', email: ' Lucia@Example.TEST ' }),
    );
    expect(created.statusCode).toBe(201);
    const client = created.json().client;
    expect(created.json().message).toBe('Cliente creado con éxito.');
    expect(client).toMatchObject({
      name: 'Lucía',
      last_names: 'Fernández Ruiz',
      whatsapp_cellphone: '34600123456',
      email: 'lucia@example.test',
      avatar: null,
      projects: 'Reforma cocina',
      segments: [{ id: vip.id, name: 'VIP', color: '#ff0000' }],
      mode_bot: 1,
      last_message_content: null,
      last_message_date: null,
      unread_messages_count: 0,
    });
    expect(client.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const list = await call('admin', 'GET', '/admin/client');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      message: 'Clientes obtenidos con éxito.',
      title: 'Gestión de clientes',
      subtitle: 'Administra tus clientes y segmentos',
    });
    expect(list.json().clients).toContainEqual(client);
    expect(ZClientsResponse.parse(list.json())).toEqual(list.json());
    const en = await call('admin', 'GET', '/admin/client', undefined, 'en');
    expect(en.json()).toMatchObject({
      title: 'Client management',
      subtitle: 'Manage your clients and segments',
    });

    const read = await call('admin', 'GET', `/admin/client/${client.id}`);
    expect(read.json()).toEqual({ client });

    const updated = await call(
      'admin',
      'PUT',
      `/admin/client/${client.id}`,
      clientBody([leads.id, vip.id, leads.id], {
        name: 'Lucía María',
        whatsapp_cellphone: '34600123456',
        projects: '',
      }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json().message).toBe('Cliente actualizado con éxito.');
    expect(updated.json().client).toMatchObject({
      id: client.id,
      name: 'Lucía María',
      projects: null,
      segments: [
        { id: vip.id, name: 'VIP', color: '#ff0000' },
        { id: leads.id, name: 'Leads', color: '#00ff00' },
      ],
    });

    const deleted = await call('admin', 'DELETE', '/admin/client', { ids: [client.id] });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Clientes eliminados con éxito.' });
    expect((await call('admin', 'GET', `/admin/client/${client.id}`)).statusCode).toBe(404);
    const links = await ctx.container.db
      .selectFrom('client_segments')
      .selectAll()
      .where('client_id', '=', client.id)
      .execute();
    expect(links).toEqual([]);
  });

  it('deletes several clients at once, and all or none: one id outside the company deletes nothing', async () => {
    const [a1, a2, a3] = await Promise.all([
      createClient(ctx, companyA),
      createClient(ctx, companyA),
      createClient(ctx, companyA),
    ]);
    const b1 = await createClient(ctx, companyB);
    const mixed = await call('admin', 'DELETE', '/admin/client', { ids: [a1.id, b1.id] });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toEqual({ message: 'El cliente no existe.' });
    const missing = await call('admin', 'DELETE', '/admin/client', { ids: [a1.id, 987654] });
    expect(missing.statusCode).toBe(404);
    expect((await call('admin', 'GET', `/admin/client/${a1.id}`)).statusCode).toBe(200);
    expect((await call('otherAdmin', 'GET', `/admin/client/${b1.id}`)).statusCode).toBe(200);

    const both = await call('admin', 'DELETE', '/admin/client', { ids: [a1.id, a2.id, a2.id] });
    expect(both.statusCode).toBe(200);
    const ids = (await call('admin', 'GET', '/admin/client')).json().clients.map((c: { id: number }) => c.id);
    expect(ids).not.toContain(a1.id);
    expect(ids).not.toContain(a2.id);
    expect(ids).toContain(a3.id);

    const empty = await call('admin', 'DELETE', '/admin/client', { ids: [] });
    expect(empty.statusCode).toBe(422);
  });

  it('normalises phone numbers to digits with the country code', async () => {
    const s = await createSegment(ctx, companyA);
    const cases: [string | number, string][] = [
      ['+34 600-12-34-57', '34600123457'],
      ['0034 (600) 12.34.58', '34600123458'],
      ['  52 1 55 1234 5678 ', '5215512345678'],
      [34600123459, '34600123459'],
    ];
    for (const [typed, stored] of cases) {
      const res = await call(
        'admin',
        'POST',
        '/admin/client',
        clientBody([s.id], { whatsapp_cellphone: typed }),
      );
      expect(res.statusCode, String(typed)).toBe(201);
      expect(res.json().client.whatsapp_cellphone).toBe(stored);
    }
  });

  it('answers 409 on the phone field for a phone already used in the company, however it is written', async () => {
    const s = await createSegment(ctx, companyA);
    const first = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { whatsapp_cellphone: '34611000001' }),
    );
    expect(first.statusCode).toBe(201);

    const again = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { whatsapp_cellphone: '+34 611 00 00 01' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'Ya existe un cliente con este número de WhatsApp.',
      errors: { whatsapp_cellphone: ['Ya existe un cliente con este número de WhatsApp.'] },
    });
    const en = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { whatsapp_cellphone: '0034611000001' }),
      'en',
    );
    expect(en.json().errors.whatsapp_cellphone).toEqual([
      'A client with this WhatsApp number already exists.',
    ]);

    // Another client may not take the number on update; the client itself may keep it.
    const other = await createClient(ctx, companyA);
    const steal = await call(
      'admin',
      'PUT',
      `/admin/client/${other.id}`,
      clientBody([s.id], { whatsapp_cellphone: '34611000001' }),
    );
    expect(steal.statusCode).toBe(409);
    const keep = await call(
      'admin',
      'PUT',
      `/admin/client/${first.json().client.id}`,
      clientBody([s.id], { whatsapp_cellphone: '34611000001', name: 'Renamed' }),
    );
    expect(keep.statusCode).toBe(200);

    // Unique per company: another company may have a client with the same number.
    const sb = await createSegment(ctx, companyB);
    const inB = await call(
      'otherAdmin',
      'POST',
      '/admin/client',
      clientBody([sb.id], { whatsapp_cellphone: '34611000001' }),
    );
    expect(inB.statusCode).toBe(201);
  });

  it('validates every field of the client form with a message per field', async () => {
    const empty = await call('admin', 'POST', '/admin/client', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      name: ['El campo nombre es obligatorio.'],
      last_names: ['El campo apellidos es obligatorio.'],
      whatsapp_cellphone: ['El campo número de WhatsApp es obligatorio.'],
      email: ['El campo correo electrónico es obligatorio.'],
      segments: ['El campo segmentos es obligatorio.'],
    });
    expect(empty.json().message).toBe('El campo nombre es obligatorio.');

    const s = await createSegment(ctx, companyA);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: '   ' }, 'name', 'El campo nombre es obligatorio.'],
      [{ last_names: '' }, 'last_names', 'El campo apellidos es obligatorio.'],
      [{ name: 'x'.repeat(121) }, 'name', 'El campo nombre no puede exceder los 120 caracteres.'],
      [
        { whatsapp_cellphone: '600abc1234' },
        'whatsapp_cellphone',
        'El número de WhatsApp solo puede contener dígitos, con el código de país.',
      ],
      [
        { whatsapp_cellphone: '600 123 45' },
        'whatsapp_cellphone',
        'El número de WhatsApp debe tener al menos 10 dígitos, con el código de país.',
      ],
      [
        { whatsapp_cellphone: '+1234567890123456' },
        'whatsapp_cellphone',
        'El número de WhatsApp no puede tener más de 15 dígitos.',
      ],
      [{ email: '' }, 'email', 'El campo correo electrónico es obligatorio.'],
      [{ email: 'lucia@' }, 'email', 'El campo correo electrónico debe ser una dirección de correo válida.'],
      [{ segments: [] }, 'segments', 'Debe seleccionar al menos un segmento'],
      [{ segments: [987654] }, 'segments', 'Uno o más segmentos no existen.'],
    ];
    for (const [overrides, field, text] of cases) {
      const res = await call('admin', 'POST', '/admin/client', clientBody([s.id], overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(res.json().errors, JSON.stringify(overrides)).toEqual({ [field]: [text] });
    }

    // A segment of another company is as unknown as one that does not exist.
    const foreign = await createSegment(ctx, companyB);
    const res = await call('admin', 'POST', '/admin/client', clientBody([s.id, foreign.id]), 'en');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ segments: ['One or more segments do not exist.'] });

    const en = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { whatsapp_cellphone: '123' }),
      'en',
    );
    expect(en.json().errors.whatsapp_cellphone).toEqual([
      'The WhatsApp number must have at least 10 digits, with the country code.',
    ]);

    // Projects are optional.
    const noProjects = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { projects: undefined }),
    );
    expect(noProjects.statusCode).toBe(201);
    expect(noProjects.json().client.projects).toBeNull();
  });

  it('an update that leaves out avatar or projects keeps them; null or empty clears them', async () => {
    const s = await createSegment(ctx, companyA);
    const created = await call(
      'admin',
      'POST',
      '/admin/client',
      clientBody([s.id], { avatar: 'https://cdn.example.test/a.jpg', projects: 'Casa' }),
    );
    const { id, whatsapp_cellphone } = created.json().client;
    expect(created.json().client).toMatchObject({
      avatar: 'https://cdn.example.test/a.jpg',
      projects: 'Casa',
    });
    const body: Record<string, unknown> = clientBody([s.id], { whatsapp_cellphone });
    delete body.projects;
    const kept = await call('admin', 'PUT', `/admin/client/${id}`, body);
    expect(kept.json().client).toMatchObject({ avatar: 'https://cdn.example.test/a.jpg', projects: 'Casa' });
    const cleared = await call('admin', 'PUT', `/admin/client/${id}`, {
      ...body,
      avatar: null,
      projects: '',
    });
    expect(cleared.json().client).toMatchObject({ avatar: null, projects: null });
  });

  it('toggles the bot mode and answers the client with a message', async () => {
    const c = await createClient(ctx, companyA);
    const off = await call('admin', 'POST', `/admin/client/${c.id}/toggle-bot-mode`, { mode: 0 });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      client: { id: c.id, mode_bot: 0 },
      message: 'Bot pausado para este cliente.',
    });
    const on = await call('admin', 'POST', `/admin/client/${c.id}/toggle-bot-mode`, { mode: 1 }, 'en');
    expect(on.json()).toMatchObject({
      client: { id: c.id, mode_bot: 1 },
      message: 'Bot enabled for this client.',
    });
    for (const mode of [2, '1', null]) {
      const bad = await call('admin', 'POST', `/admin/client/${c.id}/toggle-bot-mode`, { mode });
      expect(bad.statusCode, String(mode)).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(['mode']);
    }
    const unknown = await call('admin', 'POST', '/admin/client/987654/toggle-bot-mode', { mode: 1 });
    expect(unknown.statusCode).toBe(404);
  });

  it('messages-summary lists the chat clients from their rows: latest message first, never-written last, then by name', async () => {
    const ctx2 = await createTestContext();
    try {
      const c2 = await createCast(ctx2);
      const company = c2.admin.user.company_id!;
      const seg = await createSegment(ctx2, company, { name: 'VIP', color: '#123456' });
      const zoe = await createClient(ctx2, company, { name: 'Zoe', segments: [seg.id] });
      const ana = await createClient(ctx2, company, { name: 'ana', segments: [seg.id] });
      const old = await createClient(ctx2, company, { name: 'Old' });
      const recent = await createClient(ctx2, company, { name: 'Recent' });
      const bruno = await createClient(ctx2, company, { name: 'Bruno' });
      const set = (id: number, date: string, content: string, unread: number) =>
        setConversation(
          ctx2,
          { id },
          { last_message_at: date, last_message_content: content, unread_count: unread },
        );
      await set(old.id, '2026-11-20T08:00:00.000Z', 'Hola', 0);
      await set(recent.id, '2026-11-22T09:30:00.000Z', '¿Tienen stock?', 3);
      await createClient(ctx2, c2.otherAdmin.user.company_id!, { name: 'Other company' });

      const res = await ctx2.app.inject({
        method: 'GET',
        url: '/api/v1/admin/client/messages-summary',
        headers: c2.admin.headers,
      });
      expect(res.statusCode).toBe(200);
      const clients = res.json().clients;
      expect(clients.map((c: { name: string }) => c.name)).toEqual(['Recent', 'Old', 'ana', 'Bruno', 'Zoe']);
      expect(clients[0]).toMatchObject({
        id: recent.id,
        last_message_content: '¿Tienen stock?',
        last_message_date: '2026-11-22T09:30:00.000Z',
        unread_messages_count: 3,
        mode_bot: 1,
      });
      expect(clients.find((c: { id: number }) => c.id === zoe.id).segments).toEqual([
        { id: seg.id, name: 'VIP', color: '#123456' },
      ]);
      expect(clients.find((c: { id: number }) => c.id === ana.id).whatsapp_cellphone).toBe(
        ana.whatsapp_cellphone,
      );
      expect(clients.find((c: { id: number }) => c.id === bruno.id).segments).toHaveLength(1);
      // Exactly the contract's shape, nothing more (these lists skip zod on the way out).
      expect(ZMessagesSummaryResponse.parse(res.json())).toEqual(res.json());
      expect(res.json().pagination).toEqual({ current_page: 1, per_page: 1000, has_more: false });

      const get = async (query: string) =>
        (
          await ctx2.app.inject({
            method: 'GET',
            url: `/api/v1/admin/client/messages-summary?${query}`,
            headers: c2.admin.headers,
          })
        ).json();
      const page1 = await get('per_page=2');
      expect(page1.clients.map((c: { name: string }) => c.name)).toEqual(['Recent', 'Old']);
      expect(page1.pagination).toEqual({ current_page: 1, per_page: 2, has_more: true });
      const page3 = await get('per_page=2&page=3');
      expect(page3.clients.map((c: { name: string }) => c.name)).toEqual(['Zoe']);
      expect(page3.pagination).toEqual({ current_page: 3, per_page: 2, has_more: false });
      expect((await get('search=ZO')).clients.map((c: { id: number }) => c.id)).toEqual([zoe.id]);
      expect(
        (await get(`search=${ana.whatsapp_cellphone.slice(-6)}`)).clients.map((c: { id: number }) => c.id),
      ).toEqual([ana.id]);
      expect((await get('search=%25')).clients).toEqual([]);
      expect((await get('search=other company')).clients).toEqual([]);
      const bad = await ctx2.app.inject({
        method: 'GET',
        url: '/api/v1/admin/client/messages-summary?per_page=0',
        headers: c2.admin.headers,
      });
      expect(bad.statusCode).toBe(422);
    } finally {
      await ctx2.close();
    }
  });
});

describe(`segments (${engine})`, () => {
  it('creates, lists, updates and deletes a segment', async () => {
    const created = await call('admin', 'POST', '/admin/segment', {
      name: 'Clientes VIP',
      color: '#7300ff',
      rules: 'Compras superiores a 1.000 €',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      message: 'Segmento creado con éxito.',
      segment: {
        name: 'Clientes VIP',
        color: '#7300ff',
        rules: 'Compras superiores a 1.000 €',
        clients_count: 0,
      },
    });
    const segment = created.json().segment;

    const list = await call('admin', 'GET', '/admin/segment');
    expect(list.json().message).toBe('Segmentos obtenidos con éxito.');
    expect(list.json().segments).toContainEqual(segment);

    const updated = await call('admin', 'PUT', `/admin/segment/${segment.id}`, {
      name: 'VIP Oro',
      color: '#ABCDEF',
      rules: 'Otra regla',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      message: 'Segmento actualizado con éxito.',
      segment: { id: segment.id, name: 'VIP Oro', color: '#ABCDEF', rules: 'Otra regla' },
    });

    const deleted = await call('admin', 'DELETE', `/admin/segment/${segment.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Segmento eliminado con éxito.' });
    expect((await call('admin', 'DELETE', `/admin/segment/${segment.id}`)).statusCode).toBe(404);
  });

  it('validates name, colour #RRGGBB and rules', async () => {
    const empty = await call('admin', 'POST', '/admin/segment', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      name: ['El campo nombre es obligatorio.'],
      color: ['El campo color es obligatorio.'],
      rules: ['El campo reglas es obligatorio.'],
    });
    for (const color of ['', 'red', '#12345', '#1234567', '7300ff', '#GGGGGG']) {
      const res = await call('admin', 'POST', '/admin/segment', { name: 'X', color, rules: 'r' });
      expect(res.statusCode, color).toBe(422);
      expect(res.json().errors, color).toEqual({ color: ['El color debe tener el formato #RRGGBB.'] });
    }
    const en = await call(
      'admin',
      'POST',
      '/admin/segment',
      { name: ' ', color: '#000000', rules: 'r' },
      'en',
    );
    expect(en.json().errors).toEqual({ name: ['The name field is required.'] });
  });

  it('keeps segment names unique per company, ignoring case and accents', async () => {
    const first = await call('admin', 'POST', '/admin/segment', {
      name: 'Clientes Únicos',
      color: '#000000',
      rules: 'r',
    });
    expect(first.statusCode).toBe(201);
    const dup = await call('admin', 'POST', '/admin/segment', {
      name: 'clientes  unicos',
      color: '#000000',
      rules: 'r',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      message: 'Ya existe un segmento con este nombre.',
      errors: { name: ['Ya existe un segmento con este nombre.'] },
    });
    const other = await call('admin', 'POST', '/admin/segment', {
      name: 'Otro',
      color: '#000000',
      rules: 'r',
    });
    const rename = await call('admin', 'PUT', `/admin/segment/${other.json().segment.id}`, {
      name: 'CLIENTES ÚNICOS',
      color: '#000000',
      rules: 'r',
    });
    expect(rename.statusCode).toBe(409);
    const self = await call('admin', 'PUT', `/admin/segment/${first.json().segment.id}`, {
      name: 'clientes únicos',
      color: '#000000',
      rules: 'r',
    });
    expect(self.statusCode).toBe(200);
    const inB = await call('otherAdmin', 'POST', '/admin/segment', {
      name: 'Clientes Únicos',
      color: '#000000',
      rules: 'r',
    });
    expect(inB.statusCode).toBe(201);
  });

  it('deleting a segment in use takes it off its clients and keeps the clients', async () => {
    const keep = await createSegment(ctx, companyA, { name: 'Keep' });
    const gone = await createSegment(ctx, companyA, { name: 'Gone' });
    const c1 = await createClient(ctx, companyA, { segments: [keep.id, gone.id] });
    const c2 = await createClient(ctx, companyA, { segments: [gone.id] });
    const counted = (await call('admin', 'GET', '/admin/segment')).json().segments;
    expect(counted.find((s: { id: number }) => s.id === gone.id).clients_count).toBe(2);

    const res = await call('admin', 'DELETE', `/admin/segment/${gone.id}`);
    expect(res.statusCode).toBe(200);
    const after1 = (await call('admin', 'GET', `/admin/client/${c1.id}`)).json().client;
    expect(after1.segments).toEqual([{ id: keep.id, name: 'Keep', color: keep.color }]);
    const after2 = (await call('admin', 'GET', `/admin/client/${c2.id}`)).json().client;
    expect(after2.segments).toEqual([]);
    const links = await ctx.container.db
      .selectFrom('client_segments')
      .selectAll()
      .where('segment_id', '=', gone.id)
      .execute();
    expect(links).toEqual([]);
  });
});

describe(`clients and segments: roles and company isolation (${engine})`, () => {
  it('every route: anonymous 401, client 403, super admin 403, admin 2xx, another company 404 on ids', async () => {
    const segA = await createSegment(ctx, companyA);
    const clientA = await createClient(ctx, companyA, { segments: [segA.id] });
    const newClient = async () => ({
      method: 'POST' as const,
      url: '/api/v1/admin/client',
      payload: clientBody([segA.id]),
    });
    const lists = { ...ADMIN_ONLY, admin: 200, otherAdmin: 200 };

    await expectRoleMatrix(ctx, cast, { method: 'GET', url: '/api/v1/admin/client' }, lists);
    await expectRoleMatrix(ctx, cast, { method: 'GET', url: '/api/v1/admin/client/messages-summary' }, lists);
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: `/api/v1/admin/client/${clientA.id}` },
      {
        ...ADMIN_ONLY,
        admin: 200,
        otherAdmin: 404,
      },
    );
    // Another company's admin sending this company's segment ids: they do not exist for them.
    await expectRoleMatrix(ctx, cast, newClient, { ...ADMIN_ONLY, admin: 201, otherAdmin: 422 });
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'PUT', url: `/api/v1/admin/client/${clientA.id}`, payload: clientBody([segA.id]) },
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url: `/api/v1/admin/client/${clientA.id}/toggle-bot-mode`, payload: { mode: 0 } },
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      async () => ({
        method: 'DELETE',
        url: '/api/v1/admin/client',
        payload: { ids: [(await createClient(ctx, companyA, { segments: [segA.id] })).id] },
      }),
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      {
        method: 'POST',
        url: '/api/v1/import/clients',
        payload: {
          clients: [{ nombre: 'Ana', apellidos: 'Gil', celular: uniquePhone(), correo: 'a@b.test' }],
        },
      },
      { ...ADMIN_ONLY, admin: 200, otherAdmin: 200 },
    );

    await expectRoleMatrix(ctx, cast, { method: 'GET', url: '/api/v1/admin/segment' }, lists);
    let n = 0;
    await expectRoleMatrix(
      ctx,
      cast,
      () => ({
        method: 'POST',
        url: '/api/v1/admin/segment',
        payload: { name: `Matrix ${++n}`, color: '#000000', rules: 'r' },
      }),
      { ...ADMIN_ONLY, admin: 201, otherAdmin: 201 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      {
        method: 'PUT',
        url: `/api/v1/admin/segment/${segA.id}`,
        payload: { name: 'Renamed', color: '#111111', rules: 'r' },
      },
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      async () => ({
        method: 'DELETE',
        url: `/api/v1/admin/segment/${(await createSegment(ctx, companyA)).id}`,
      }),
      { ...ADMIN_ONLY, otherAdmin: 404, admin: 200 },
    );
  });

  it('callers without rights learn nothing from validation: 401/403 come before 422', async () => {
    for (const [method, url] of [
      ['POST', '/api/v1/admin/client'],
      ['POST', '/api/v1/import/clients'],
      ['POST', '/api/v1/admin/segment'],
      ['DELETE', '/api/v1/admin/client'],
    ] as const) {
      await expectRoleMatrix(
        ctx,
        cast,
        { method, url, payload: { nonsense: true } },
        {
          anonymous: 401,
          client: 403,
          superAdmin: 403,
          admin: 422,
        },
      );
    }
  });

  it("company B never sees company A's clients or segments, and cannot touch them", async () => {
    const segA = await createSegment(ctx, companyA, { name: 'Only A' });
    const clientA = await createClient(ctx, companyA, { name: 'Secret A', segments: [segA.id] });
    const before = (await call('admin', 'GET', `/admin/client/${clientA.id}`)).json().client;

    const listB = (await call('otherAdmin', 'GET', '/admin/client')).json().clients as { id: number }[];
    const summaryB = (await call('otherAdmin', 'GET', '/admin/client/messages-summary')).json().clients as {
      id: number;
    }[];
    const segmentsB = (await call('otherAdmin', 'GET', '/admin/segment')).json().segments as { id: number }[];
    expect(listB.map((c) => c.id)).not.toContain(clientA.id);
    expect(summaryB.map((c) => c.id)).not.toContain(clientA.id);
    expect(segmentsB.map((s) => s.id)).not.toContain(segA.id);
    const own = await ctx.container.db
      .selectFrom('clients')
      .select('id')
      .where('company_id', '=', companyB)
      .execute();
    expect(listB.map((c) => c.id).sort()).toEqual(own.map((c) => c.id).sort());

    const segB = await createSegment(ctx, companyB);
    const attempts = [
      await call('otherAdmin', 'GET', `/admin/client/${clientA.id}`),
      await call('otherAdmin', 'PUT', `/admin/client/${clientA.id}`, clientBody([segB.id])),
      await call('otherAdmin', 'DELETE', '/admin/client', { ids: [clientA.id] }),
      await call('otherAdmin', 'POST', `/admin/client/${clientA.id}/toggle-bot-mode`, { mode: 0 }),
      await call('otherAdmin', 'PUT', `/admin/segment/${segA.id}`, {
        name: 'Hijacked',
        color: '#000000',
        rules: 'r',
      }),
      await call('otherAdmin', 'DELETE', `/admin/segment/${segA.id}`),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(attempts[0].json()).toEqual({ message: 'El cliente no existe.' });
    expect(attempts[4].json()).toEqual({ message: 'El segmento no existe.' });

    expect((await call('admin', 'GET', `/admin/client/${clientA.id}`)).json().client).toEqual(before);
    const segAfter = (await call('admin', 'GET', '/admin/segment'))
      .json()
      .segments.find((s: { id: number }) => s.id === segA.id);
    expect(segAfter).toMatchObject({ name: 'Only A', clients_count: 1 });
  });
});
