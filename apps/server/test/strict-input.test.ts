// Hostile input over HTTP: the contract's id and text rules reach every route, with a correct message
// in the caller's language and never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment } from './clients-factories';
import { type TestApi, type TestUser, createTestApi } from './http';

let api: TestApi;
let admin: TestUser;
let superAdmin: TestUser;

beforeAll(async () => {
  api = await createTestApi();
  admin = await api.user({ role: 'admin' });
  superAdmin = await api.user({ role: 'super_admin' });
});
afterAll(async () => {
  await api.close();
});

const ID_MESSAGE_ES = 'El campo id debe ser un identificador válido (un número entero mayor que 0).';

describe('ids are strict positive integers everywhere', () => {
  it.each(['0x1', '%201', '1e0', '0', '-1', '1.5', '01', '99999999999'])(
    'GET /admin/client/%s answers 422 with the id message',
    async (raw) => {
      const client = await createClient(api, admin.user.company_id!);
      expect(client.id).toBeGreaterThan(0);
      const res = await api.get(`/admin/client/${raw}`, { as: admin });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.id).toEqual([ID_MESSAGE_ES]);
    },
  );

  it('the path id in English, and on the super-admin routes', async () => {
    const res = await api.put(
      '/super-admin/roles/0',
      { name: 'x', color: '#000000' },
      { as: superAdmin, lang: 'en' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id).toEqual([
      'The id field must be a valid id (a whole number greater than 0).',
    ]);
  });

  it('{"ids":[[1]]} deletes nothing', async () => {
    const client = await createClient(api, admin.user.company_id!);
    for (const ids of [[[client.id]], [true], [String(client.id), 0], [`${client.id}.0`]]) {
      const res = await api.delete('/admin/client', { ids }, { as: admin });
      expect(res.statusCode, JSON.stringify(ids)).toBe(422);
    }
    const still = await api.get(`/admin/client/${client.id}`, { as: admin });
    expect(still.statusCode).toBe(200);
  });

  it('segments:[true] links nothing', async () => {
    const segment = await createSegment(api, admin.user.company_id!);
    const res = await api.post(
      '/admin/client',
      {
        name: 'Ana',
        last_names: 'Pérez',
        whatsapp_cellphone: '34611000001',
        email: 'ana.strict@example.test',
        segments: [true, segment.id],
      },
      { as: admin },
    );
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['segments.0']);
  });
});

describe('text rules reach the routes', () => {
  const clientBody = (over: Record<string, unknown>) => ({
    name: 'Ana',
    last_names: 'Pérez',
    whatsapp_cellphone: '34611000002',
    email: 'ana.text@example.test',
    ...over,
  });

  it('refuses NUL, unpaired surrogates and bidi overrides; a zero-width name is missing; javascript: avatars are refused', async () => {
    const segment = await createSegment(api, admin.user.company_id!);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { name: 'A\u0000na' },
        'name',
        'El campo nombre contiene caracteres no permitidos (de control o de dirección del texto).',
      ],
      [{ last_names: 'P\uD800' }, 'last_names', ''],
      [{ name: 'gnp\u202Eexe.png' }, 'name', ''],
      [{ name: '\u200B' }, 'name', 'El campo nombre es obligatorio.'],
      [
        { avatar: 'javascript:alert(1)' },
        'avatar',
        'El campo avatar debe ser una dirección web que empiece por http:// o https://.',
      ],
    ];
    for (const [over, field, message] of cases) {
      const res = await api.post('/admin/client', clientBody({ ...over, segments: [segment.id] }), {
        as: admin,
      });
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
      if (message) expect(res.json().errors[field]).toEqual([message]);
    }
    const rows = await api.container.db
      .selectFrom('clients')
      .select('id')
      .where('email', '=', 'ana.text@example.test')
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('stores the cleaned text: invisible characters removed, ends trimmed', async () => {
    const segment = await createSegment(api, admin.user.company_id!);
    const res = await api.post(
      '/admin/client',
      clientBody({
        name: '\u200B Ana\u200B ',
        segments: [segment.id],
        projects: 'línea 1\nlínea 2',
      }),
      { as: admin },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().client).toMatchObject({ name: 'Ana', projects: 'línea 1\nlínea 2' });
  });
});
