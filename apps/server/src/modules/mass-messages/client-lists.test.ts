// GET /admin/list-clients answers one page of lists with a member count each, never the members (a
// company with 20 lists of 20,000 clients used to get every member id: 2 MB in 1.5 s). The members have
// their own paged route.
import { CLIENT_LISTS_PER_PAGE_MAX } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { derivedColumns } from '../clients/clients.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const LISTS = 5;
const MEMBERS = 2000;

let ctx: TestContext;
let headers: Record<string, string>;
let otherHeaders: Record<string, string>;
const listIds: number[] = [];

const get = (url: string, as = headers, lang = 'es') =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...as, 'accept-language': lang } });

beforeAll(async () => {
  ctx = await createTestContext();
  const cast = await createCast(ctx);
  headers = cast.admin.headers;
  otherHeaders = cast.otherAdmin.headers;
  const companyId = cast.admin.user.company_id!;
  const at = new Date().toISOString();
  const clientIds: number[] = [];
  for (let start = 0; start < MEMBERS; start += 500) {
    const rows = Array.from({ length: 500 }, (_, k) => {
      const values = { name: `Cliente${start + k}`, last_names: 'Lista', email: null };
      return {
        company_id: companyId,
        ...values,
        ...derivedColumns(values),
        whatsapp_cellphone: `57301${String(start + k).padStart(7, '0')}`,
        created_at: at,
        updated_at: at,
      };
    });
    const ids = await ctx.container.db.insertInto('clients').values(rows).returning('id').execute();
    clientIds.push(...ids.map((r) => r.id));
  }
  // Names out of order, so the answer's order is the server's (by name).
  for (const [i, name] of ['Vip', 'Clientes nuevos', 'Zona norte', 'Antiguos', 'Clientes viejos'].entries()) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/list-clients',
      headers,
      payload: { name, client_ids: clientIds.slice(0, MEMBERS - i) },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).not.toHaveProperty('client_ids');
    listIds.push(res.json().data.id);
  }
});

afterAll(async () => {
  await ctx?.close();
});

describe(`GET /admin/list-clients (${engine})`, () => {
  it('answers a page of lists by name with their member counts, not their members', async () => {
    const res = await get('/admin/list-clients');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((l: { name: string }) => l.name)).toEqual([
      'Antiguos',
      'Clientes nuevos',
      'Clientes viejos',
      'Vip',
      'Zona norte',
    ]);
    expect(body.data[0]).toEqual({
      id: listIds[3],
      name: 'Antiguos',
      clients_count: MEMBERS - 3,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(body.pagination).toEqual({
      current_page: 1,
      per_page: CLIENT_LISTS_PER_PAGE_MAX,
      total: LISTS,
      last_page: 1,
    });
    // Five lists of 2,000 members: a few hundred bytes, not the 10,000 ids (about 60 KB).
    expect(res.body.length).toBeLessThan(2000);
  });

  it('pages and searches', async () => {
    let body = (await get('/admin/list-clients?page=2&per_page=2')).json();
    expect(body.data.map((l: { name: string }) => l.name)).toEqual(['Clientes viejos', 'Vip']);
    expect(body.pagination).toEqual({ current_page: 2, per_page: 2, total: LISTS, last_page: 3 });
    body = (await get('/admin/list-clients?page=9&per_page=2')).json();
    expect(body.data).toEqual([]);
    body = (await get('/admin/list-clients?search=CLIENTES')).json();
    expect(body.data.map((l: { name: string }) => l.name)).toEqual(['Clientes nuevos', 'Clientes viejos']);
    expect(body.pagination.total).toBe(2);
    body = (await get('/admin/list-clients?search=%25')).json();
    expect(body.data).toEqual([]);
    body = (await get('/admin/list-clients', otherHeaders)).json();
    expect(body).toEqual({
      data: [],
      pagination: { current_page: 1, per_page: 100, total: 0, last_page: 1 },
    });
  });

  it('refuses a page out of range with 422 and field messages', async () => {
    for (const query of ['per_page=0', `per_page=${CLIENT_LISTS_PER_PAGE_MAX + 1}`, 'page=0', 'page=x']) {
      const res = await get(`/admin/list-clients?${query}`);
      expect(res.statusCode, query).toBe(422);
      const field = query.split('=')[0];
      expect(Object.keys(res.json().errors), query).toEqual([field]);
    }
    const en = await get('/admin/list-clients?per_page=1000', headers, 'en');
    expect(en.statusCode).toBe(422);
    expect(en.json().errors.per_page[0]).toMatch(/[a-z]/);
  });

  it('leaves the members to their own paged route', async () => {
    const res = await get(`/admin/list-clients/${listIds[0]}/clients?per_page=1000&page=2`);
    expect(res.json().data).toMatchObject({ total: MEMBERS, current_page: 2, per_page: 1000 });
    expect(res.json().data.data).toHaveLength(1000);
  });
});
