// The client search through the substring indexes (migration 20261129010000_clients_search_index) answers
// exactly what the plain LIKE answers, the SQLite index follows every write of clients, and a search of
// 3 or more characters is looked up in the index instead of scanning the company's clients.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser } from '../../../test/factories';
import { derivedColumns, matching, searchCondition } from './client-rows';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const pg = engine === 'postgres';

let ctx: TestContext;
let company: number;
beforeAll(async () => {
  ctx = await createTestContext();
  company = (await createUser(ctx, { role: 'admin' })).user.company_id!;
});
afterAll(async () => {
  await ctx.close();
});

/** The ids the search finds with the indexes (`matching`) and with the plain LIKE scan. */
async function both(search: string) {
  const db = ctx.container.db;
  const ids = async (q: ReturnType<typeof matching>) =>
    (await q.select('clients.id').orderBy('clients.id').execute()).map((r) => r.id);
  const plain = searchCondition(search)!;
  return {
    indexed: await ids(matching(db, company, search)),
    plain: await ids(db.selectFrom('clients').where('clients.company_id', '=', company).where(plain)),
  };
}

describe(`client search through the substring indexes (${engine})`, () => {
  it('finds exactly the clients the plain LIKE finds', async () => {
    const other = (await createUser(ctx, { role: 'admin' })).user.company_id!;
    const made = {
      maria: await createClient(ctx, company, { name: 'María José', last_names: 'Núñez Peña' }),
      jose: await createClient(ctx, company, {
        name: 'JOSÉ LUIS',
        last_names: 'García',
        email: 'jl@correo.test',
      }),
      percent: await createClient(ctx, company, { name: 'Oferta 50% off', last_names: 'a_b' }),
      under: await createClient(ctx, company, { name: 'ab', last_names: 'axb', email: 'a.b@x.test' }),
      quoted: await createClient(ctx, company, { name: '"Comillas" \\ barra', last_names: 'Ñandú' }),
      mx: await createClient(ctx, company, { name: 'Pepe', whatsapp_cellphone: '5215512345678' }),
      es: await createClient(ctx, company, { name: 'Lola', whatsapp_cellphone: '34600123456' }),
    };
    await createClient(ctx, other, { name: 'María José', whatsapp_cellphone: '34600123457' });
    const expected: Record<string, number[]> = {
      maria: [made.maria.id],
      NÚÑEZ: [made.maria.id],
      'jose ': [made.maria.id, made.jose.id],
      '50%': [made.percent.id],
      a_b: [made.percent.id],
      '"comillas" \\': [made.quoted.id],
      's" \\ b': [made.quoted.id],
      '+52 55 1234 5678': [made.mx.id],
      '600 123': [made.es.id],
    };
    for (const [search, ids] of Object.entries(expected))
      expect((await both(search)).indexed, search).toEqual(ids.sort((a, b) => a - b));
    const more = [
      'm',
      'ñ',
      'ab',
      '%',
      '_',
      '%%',
      'a%b',
      'x_b',
      '\\',
      '"',
      'nandu',
      'correo.test',
      '55',
      '5512',
    ];
    for (const search of [...Object.keys(expected), ...more, '4242', 'nadie', '  MARÍA   josé ', '😀😀😀']) {
      const { indexed, plain } = await both(search);
      expect(indexed, search).toEqual(plain);
    }
  });

  it('keeps the index right after clients are inserted, updated, merged and deleted', async () => {
    const db = ctx.container.db;
    const found = async (search: string) => (await both(search)).indexed;
    const set = async (id: number, name: string, phone?: string) =>
      db
        .updateTable('clients')
        .set({
          name,
          ...derivedColumns({ name, last_names: '', email: null }),
          ...(phone ? { whatsapp_cellphone: phone } : {}),
        })
        .where('id', '=', id)
        .execute();
    const a = await createClient(ctx, company, { name: 'Zacarías', whatsapp_cellphone: '34911000111' });
    const b = await createClient(ctx, company, { name: 'Zoila', whatsapp_cellphone: '34911000222' });
    expect(await found('zacar')).toEqual([a.id]);
    expect(await found('911000')).toEqual([a.id, b.id].sort((x, y) => x - y));

    await set(a.id, 'Ximena');
    expect(await found('zacar')).toEqual([]);
    expect(await found('ximen')).toEqual([a.id]);
    await set(b.id, 'Zoila', '34922000222');
    expect(await found('911000')).toEqual([a.id]);
    expect(await found('922000')).toEqual([b.id]);
    // A merge: the kept client takes the other's name, the other is deleted.
    await db.deleteFrom('clients').where('id', '=', b.id).execute();
    await set(a.id, 'Zoila Ximena');
    expect(await found('922000')).toEqual([]);
    expect(await found('zoila')).toEqual([a.id]);
    await db.deleteFrom('clients').where('id', '=', a.id).execute();
    expect(await found('zoila')).toEqual([]);
    expect(await found('911000')).toEqual([]);
    if (!pg) {
      // Nothing of the deleted clients is left in the index.
      const left = await sql<{ n: number }>`select count(*) as n from clients_search
        where rowid in (${a.id}, ${b.id})`.execute(db);
      expect(Number(left.rows[0]!.n)).toBe(0);
    }
  });

  it('looks a search of 3 or more characters up in the index; a shorter one scans', async () => {
    const plan = async (search: string) => {
      const db = ctx.container.db;
      // PostgreSQL: the search alone (on so few rows the company's index would win whatever the search).
      const query = pg
        ? db.selectFrom('clients').where(searchCondition(search, db)!)
        : matching(db, company, search);
      const { sql: text, parameters } = query.select('clients.id').compile();
      const rows = await ctx.container.db.transaction().execute(async (trx) => {
        // On a table this small PostgreSQL would rather scan: ask for the plan it takes when it must not.
        if (pg) await sql`set local enable_seqscan = off`.execute(trx);
        return (
          await trx.executeQuery<Record<string, string>>(
            CompiledQuery.raw(`${pg ? 'explain' : 'explain query plan'} ${text}`, [...parameters]),
          )
        ).rows;
      });
      return rows.map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
    };
    if (pg) {
      expect(await plan('lucia')).toContain('clients_search_text_trgm_idx');
      expect(await plan('4242')).toMatch(/clients_phone_trgm_idx/);
    } else {
      // The index's matches first (a MATCH on clients_search), then each client read by its id.
      const indexed =
        /\(company_id=\? AND id=\?\) \| LIST SUBQUERY \d+ \| SCAN clients_search VIRTUAL TABLE INDEX \d+:M/;
      for (const search of ['lucia', '4242', '+52 55 1234 5678', 'a_b%'])
        expect(await plan(search), search).toMatch(indexed);
      expect(await plan('lu')).not.toContain('clients_search');
    }
  });
});
