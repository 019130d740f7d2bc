import {
  CLIENT_SORT_FIELDS,
  type Client,
  type ClientSortField,
  ZClientsResponse,
  ZMessagesSummaryResponse,
  foldText,
} from '@hablabot/contract';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedClient, createSegment, seedClients } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser } from '../../../test/factories';
import { clientPageIdsQuery } from './clients.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOTAL = 10_000;

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let companyA: number;
let companyB: number;
/** Every client of company A as the test made it, by id. */
const made = new Map<number, SeedClient & { id: number; created_at: string }>();

// Names that fold together or apart: case, accents, ñ, a name that is the start of another one.
const NAMES = [
  'Ángel',
  'angel',
  'ANGEL',
  'Ana',
  'Ana María',
  'Álvaro',
  'Zoe',
  'Núñez',
  'nuñez',
  'Óscar',
  'Íñigo',
];
const LAST_NAMES = ['García', 'Zubiri', 'abad', 'Pérez Gómez', 'Ñúñez', 'López'];

beforeAll(async () => {
  ctx = await createTestContext();
  cast = await createCast(ctx);
  companyA = cast.admin.user.company_id!;
  companyB = cast.otherAdmin.user.company_id!;
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const rows = Array.from({ length: TOTAL }, (_, i) => ({
    name: NAMES[i % NAMES.length],
    last_names: LAST_NAMES[(i * 7) % LAST_NAMES.length],
    // Not in id order, so the phone sort is not the id sort.
    whatsapp_cellphone: `34${String(600_000_000 + ((i * 7919) % TOTAL)).padStart(9, '0')}`,
    // Every tenth client has no email (one created by an incoming WhatsApp message).
    email: i % 10 === 0 ? null : `${['zed', 'amy', 'Bob', 'carla.x'][i % 4]}${i % 97}@example.test`,
    // Many clients share a creation time, so the id must break the ties.
    created_at: new Date(base + (i % 37) * 3_600_000).toISOString(),
  }));
  const ids = await seedClients(ctx, companyA, rows);
  for (const [i, r] of rows.entries()) made.set(ids[i], { ...r, id: ids[i] });
  await seedClients(ctx, companyB, [
    { name: 'Ángel', last_names: 'De otra compañía', whatsapp_cellphone: '34699000001', email: null },
  ]);
  if (ctx.engine === 'postgres') await sql`analyze clients`.execute(ctx.container.db);
});
afterAll(async () => {
  await ctx.close();
});

const get = async (query = '', who: 'admin' | 'otherAdmin' = 'admin') => {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/admin/client${query ? `?${query}` : ''}`,
    headers: cast[who].headers,
  });
  return res;
};

/** The order the contract promises, computed here from what the test inserted. */
function expectedOrder(sort: ClientSortField, order: 'asc' | 'desc'): number[] {
  const key = (c: SeedClient & { id: number; created_at: string }): (string | number | null)[] => {
    switch (sort) {
      case 'id':
        return [c.id];
      case 'name':
        return [`${foldText(c.name)}\u0001${foldText(c.last_names)}`, c.id];
      case 'email':
        return [c.email, c.id];
      case 'whatsapp_cellphone':
        return [c.whatsapp_cellphone];
      case 'created_at':
        return [c.created_at, c.id];
    }
  };
  // Byte order of UTF-8 is code point order; missing emails count as the smallest value.
  const compare = (a: (string | number | null)[], b: (string | number | null)[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      if (a[i] === null) return -1;
      if (b[i] === null) return 1;
      return a[i]! < b[i]! ? -1 : 1;
    }
    return 0;
  };
  const sorted = [...made.values()].sort((a, b) => compare(key(a), key(b)));
  if (order === 'desc') sorted.reverse();
  return sorted.map((c) => c.id);
}

describe(`GET /admin/client pages (${engine}, ${TOTAL} clients)`, () => {
  it('answers the first 1000 clients by id with the pagination, in the contract shape', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ZClientsResponse.parse(body)).toEqual(body);
    expect(body.pagination).toEqual({ current_page: 1, per_page: 1000, total: TOTAL, last_page: 10 });
    expect(body.clients.map((c: Client) => c.id)).toEqual(expectedOrder('id', 'asc').slice(0, 1000));
    expect(body).toMatchObject({ title: 'Gestión de clientes', message: 'Clientes obtenidos con éxito.' });
  });

  it('walks every page of every sort, both ways: each client exactly once, in the promised order', async () => {
    for (const sort of CLIENT_SORT_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        const seen: number[] = [];
        for (let page = 1; ; page++) {
          const body = (await get(`sort=${sort}&order=${order}&page=${page}&per_page=1000`)).json();
          expect(body.pagination, `${sort} ${order} ${page}`).toEqual({
            current_page: page,
            per_page: 1000,
            total: TOTAL,
            last_page: 10,
          });
          seen.push(...body.clients.map((c: Client) => c.id));
          if (page === body.pagination.last_page) break;
        }
        expect(seen, `${sort} ${order}`).toEqual(expectedOrder(sort, order));
      }
    }
  });

  it('sorts names ignoring case and accents: by name, then last names, then id', async () => {
    const all: Client[] = [];
    for (let page = 1; page <= 10; page++) all.push(...(await get(`sort=name&page=${page}`)).json().clients);
    // Accented and capitalised names sit with the plain ones; 'Ana' (any last names) before 'Ana María'.
    const groups = all.map((c) => foldText(c.name)).filter((n, i, a) => n !== a[i - 1]);
    expect(groups).toEqual(['alvaro', 'ana', 'ana maria', 'angel', 'inigo', 'nunez', 'oscar', 'zoe']);
    const angels = all.filter((c) => foldText(c.name) === 'angel');
    expect(new Set(angels.map((c) => c.name))).toEqual(new Set(['Ángel', 'angel', 'ANGEL']));
    const lastNames = angels.map((c) => foldText(c.last_names)).filter((n, i, a) => n !== a[i - 1]);
    expect(lastNames).toEqual(['abad', 'garcia', 'lopez', 'nunez', 'perez gomez', 'zubiri']);
    const firstAbad = angels.filter((c) => c.last_names === 'abad').map((c) => c.id);
    expect(firstAbad).toEqual([...firstAbad].sort((a, b) => a - b));
  });

  it('gives each client of the page its segment chips', async () => {
    const vip = await createSegment(ctx, companyA, { name: 'VIP paging', color: '#123456' });
    const target = expectedOrder('id', 'asc')[1500];
    await ctx.container.db
      .insertInto('client_segments')
      .values({ client_id: target, segment_id: vip.id })
      .execute();
    const body = (await get('page=2&per_page=1000')).json();
    const client = (body.clients as Client[]).find((c) => c.id === target)!;
    expect(client.segments).toEqual([{ id: vip.id, name: 'VIP paging', color: '#123456' }]);
    expect((body.clients as Client[]).filter((c) => c.segments.length > 0)).toHaveLength(1);
  });

  it('answers a page past the end empty, with the real total; another company sees only its own', async () => {
    const body = (await get('page=11&per_page=1000')).json();
    expect(body.clients).toEqual([]);
    expect(body.pagination).toEqual({ current_page: 11, per_page: 1000, total: TOTAL, last_page: 10 });
    const small = (await get('per_page=3&page=2')).json();
    expect(small.pagination).toEqual({ current_page: 2, per_page: 3, total: TOTAL, last_page: 3334 });
    expect(small.clients.map((c: Client) => c.id)).toEqual(expectedOrder('id', 'asc').slice(3, 6));

    const other = (await get('', 'otherAdmin')).json();
    expect(other.pagination).toEqual({ current_page: 1, per_page: 1000, total: 1, last_page: 1 });
    expect(other.clients.map((c: Client) => c.last_names)).toEqual(['De otra compañía']);
  });

  it('an empty list still has one page', async () => {
    const lonely = await createCast(ctx);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client',
      headers: lonely.admin.headers,
    });
    expect(res.json().clients).toEqual([]);
    expect(res.json().pagination).toEqual({ current_page: 1, per_page: 1000, total: 0, last_page: 1 });
  });

  it('refuses a bad page, page size, sort or order with 422 and the field named', async () => {
    const cases: [string, string][] = [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=1001', 'per_page'],
      ['per_page=1.5', 'per_page'],
      ['sort=password', 'sort'],
      ['order=up', 'order'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().errors), query).toEqual([field]);
    }
    const en = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client?per_page=5000',
      headers: { ...cast.admin.headers, 'accept-language': 'en' },
    });
    expect(en.json().errors).toEqual({
      per_page: ['The items per page field may not be greater than 1000.'],
    });
  });

  it('reads every sort of a page from an index, never sorting the company', async () => {
    for (const sort of CLIENT_SORT_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        const query = clientPageIdsQuery(ctx.container.db, companyA, { sort, order, limit: 50, offset: 0 });
        const { sql: text, parameters } = query.compile();
        const explain = ctx.engine === 'postgres' ? 'explain' : 'explain query plan';
        const rows = await ctx.container.db.executeQuery<Record<string, string>>(
          CompiledQuery.raw(`${explain} ${text}`, [...parameters]),
        );
        // SQLite: "SEARCH clients USING INDEX …", never "USE TEMP B-TREE FOR ORDER BY";
        // PostgreSQL: an index scan under the Limit, no Sort node.
        const plan = rows.rows.map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
        expect(plan, `${sort} ${order}`).toMatch(
          /USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|Index (Only )?Scan/,
        );
        expect(plan, `${sort} ${order}`).not.toMatch(/TEMP B-TREE|Sort/);
      }
    }
  });
});

describe(`GET /admin/client/messages-summary at most 1000 clients (${engine})`, () => {
  it('without per_page answers the first 1000 and says more follow; per_page is capped at 1000', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary',
      headers: cast.admin.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(ZMessagesSummaryResponse.parse(body)).toEqual(body);
    expect(body.clients).toHaveLength(1000);
    expect(body.pagination).toEqual({ current_page: 1, per_page: 1000, has_more: true });
    const last = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary?page=10',
      headers: cast.admin.headers,
    });
    expect(last.json().clients).toHaveLength(1000);
    expect(last.json().pagination).toEqual({ current_page: 10, per_page: 1000, has_more: false });
    const ids = new Set<number>();
    for (let page = 1; page <= 10; page++) {
      const r = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/admin/client/messages-summary?page=${page}`,
        headers: cast.admin.headers,
      });
      for (const c of r.json().clients) ids.add(c.id);
    }
    expect(ids.size).toBe(TOTAL);
    const tooBig = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/client/messages-summary?per_page=1001',
      headers: cast.admin.headers,
    });
    expect(tooBig.statusCode).toBe(422);
    expect(Object.keys(tooBig.json().errors)).toEqual(['per_page']);
  });
});

describe(`search, the same on both engines (${engine})`, () => {
  let admin: Awaited<ReturnType<typeof createUser>>;
  let company: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    admin = await createUser(ctx, { role: 'admin' });
    company = admin.user.company_id!;
    const people: [string, SeedClient][] = [
      [
        'angel',
        { name: 'Ángel', last_names: 'García', whatsapp_cellphone: '34600111222', email: 'ag@example.test' },
      ],
      ['nunez', { name: 'María', last_names: 'Núñez', whatsapp_cellphone: '34600333444', email: null }],
      [
        'pena',
        { name: 'Iñaki', last_names: 'Peña', whatsapp_cellphone: '5215512345678', email: 'ip@example.test' },
      ],
      [
        'percent',
        {
          name: 'Rebajas 50%',
          last_names: 'Tienda',
          whatsapp_cellphone: '34600555666',
          email: 'r@example.test',
        },
      ],
      [
        'under',
        {
          name: 'juan_pablo',
          last_names: 'Ríos',
          whatsapp_cellphone: '34600777888',
          email: 'jp@example.test',
        },
      ],
      [
        'back',
        {
          name: 'Barra\\Invertida',
          last_names: 'Sí',
          whatsapp_cellphone: '34600999000',
          email: 'b@example.test',
        },
      ],
      [
        'angelo',
        {
          name: 'Angelo',
          last_names: 'Rossi',
          whatsapp_cellphone: '39333123456',
          email: 'angelo@example.test',
        },
      ],
    ];
    const saved = await seedClients(
      ctx,
      company,
      people.map(([, p]) => p),
    );
    for (const [i, [key]] of people.entries()) ids[key] = saved[i];
  });

  /** The ids GET /admin/client and messages-summary find, after checking both find the same ones. */
  const find = async (search: string): Promise<string[]> => {
    const q = `search=${encodeURIComponent(search)}`;
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/client?${q}`,
      headers: admin.headers,
    });
    const chat = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/client/messages-summary?${q}`,
      headers: admin.headers,
    });
    expect(list.statusCode, search).toBe(200);
    const found = (list.json().clients as Client[]).map((c) => c.id).sort((a, b) => a - b);
    expect(list.json().pagination.total, search).toBe(found.length);
    expect(
      (chat.json().clients as Client[]).map((c) => c.id).sort((a, b) => a - b),
      search,
    ).toEqual(found);
    const keyOf = new Map(Object.entries(ids).map(([k, id]) => [id, k]));
    return found.map((id) => keyOf.get(id) ?? `other ${id}`).sort();
  };

  it('ignores case and accents in the search and in the names', async () => {
    for (const search of ['ÁNGEL', 'angel', 'Angel']) {
      expect(await find(search), search).toEqual(['angel', 'angelo']);
    }
    for (const search of ['Angel Garcia', 'ángel  garcía', ' ANGEL GARCÍA ', 'el gar', 'AG@example']) {
      expect(await find(search), search).toEqual(['angel']);
    }
    expect(await find('ÁNGELO')).toEqual(['angelo']);
  });

  it('treats ñ as n without an accent, either way round', async () => {
    for (const search of ['NUÑEZ', 'nuñez', 'Núñez', 'nunez', 'maría núñez']) {
      expect(await find(search), search).toEqual(['nunez']);
    }
    for (const search of ['IÑAKI PEÑA', 'inaki pena', 'peña'])
      expect(await find(search), search).toEqual(['pena']);
  });

  it('finds part of the email, and part of the phone however it is typed', async () => {
    expect(await find('IP@EXAMPLE')).toEqual(['pena']);
    expect(await find('600333')).toEqual(['nunez']);
    expect(await find('+34 600-33')).toEqual(['nunez']);
    expect(await find('(55) 1234')).toEqual(['pena']);
    expect(await find('34600')).toEqual(['angel', 'back', 'nunez', 'percent', 'under']);
    // Digits inside words are not a phone search: 'rebajas 50' is text.
    expect(await find('rebajas 50')).toEqual(['percent']);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(await find('%')).toEqual(['percent']);
    expect(await find('50%')).toEqual(['percent']);
    expect(await find('_')).toEqual(['under']);
    expect(await find('n_p')).toEqual(['under']);
    expect(await find('a_g')).toEqual([]);
    expect(await find('\\')).toEqual(['back']);
    expect(await find('zzz')).toEqual([]);
  });

  it('keeps the search text and the name order current on create, update and import', async () => {
    const segment = await createSegment(ctx, company, { name: 'Búsqueda' });
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      ctx.app.inject({ method, url: `/api/v1${url}`, headers: admin.headers, payload });
    const body = { last_names: 'Ébano', email: 'eb@example.test', segments: [segment.id] };
    const created = await send('POST', '/admin/client', {
      ...body,
      name: 'Éowyn',
      whatsapp_cellphone: '34611222333',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().client.id;
    ids.eowyn = id;
    expect(await find('EOWYN EBANO')).toEqual(['eowyn']);

    await send('PUT', `/admin/client/${id}`, { ...body, name: 'Ñora', whatsapp_cellphone: '34611222333' });
    expect(await find('eowyn')).toEqual([]);
    expect(await find('NORA ebano')).toEqual(['eowyn']);

    const imported = await send('POST', '/import/clients', {
      clients: [
        { nombre: 'Úrsula', apellidos: 'Çelik', celular: '34611444555', correo: 'U@Example.test' },
        { nombre: 'Ólafur', apellidos: 'Ébano', celular: '34611222333', correo: 'eb@example.test' },
      ],
    });
    expect(imported.json().data.success.map((r: { action: string }) => r.action)).toEqual([
      'created',
      'updated',
    ]);
    expect(await find('nora')).toEqual([]);
    expect(await find('OLAFUR')).toEqual(['eowyn']);
    const ursula = await ctx.container.db
      .selectFrom('clients')
      .select('id')
      .where('company_id', '=', company)
      .where('whatsapp_cellphone', '=', '34611444555')
      .executeTakeFirstOrThrow();
    ids.ursula = ursula.id;
    expect(await find('ursula celik u@example')).toEqual(['ursula']);

    const row = await ctx.container.db
      .selectFrom('clients')
      .select(['name_sort', 'search_text'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name_sort: 'olafur\u0001ebano', search_text: 'olafur ebano eb@example.test' });
  });

  it('a blank search lists everyone', async () => {
    const all = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/client', headers: admin.headers });
    expect(await find('   ')).toHaveLength(all.json().pagination.total);
  });
});
