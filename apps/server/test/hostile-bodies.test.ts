// Property-based: every route that takes a body, sent random and hostile bodies (wrong types, huge and
// odd unicode strings, deep nesting, `__proto__` and `constructor` keys) by a caller it lets in. Whatever
// arrives: never a 500, never a stack trace or SQL in the answer, and a refusal changes nothing in the
// database. The routes come from the server's route table, so a new route is covered without a line here.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from './bots-factories';
import { createClient, createSegment } from './clients-factories';
import { type TestContext, createTestContext } from './context';
import { createCast } from './factories';
import { ROUTES } from './route-access';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const RUNS = Number(process.env.HOSTILE_RUNS ?? 20);

/** Tables whose rows change on any signed-in request (token use) or by background work, not by a body. */
const NOT_COMPARED = new Set(['access_tokens', 'jobs', 'kysely_migration', 'kysely_migration_lock']);

/** What must never reach a caller: a stack frame, an engine's error text, a file path of the server. */
const LEAKS = [
  /\bat .+\(.+:\d+:\d+\)/,
  /SQLITE_/i,
  /syntax error/i,
  /violates .* constraint/i,
  /node_modules/,
  /\/apps\/server\//,
];

const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', '$where', 'id', 'company_id'];

/** Bodies no client should send: random JSON with hostile keys and strings, plus a few fixed shapes. */
const hostileBody = fc.oneof(
  fc.anything({
    key: fc.oneof(fc.string(), fc.constantFrom(...HOSTILE_KEYS)),
    maxDepth: 4,
    withNullPrototype: true,
    withObjectString: true,
    stringUnit: 'binary',
  }),
  fc.record({
    name: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 50 }),
      fc.constant('x'.repeat(70_000)),
      fc.integer(),
    ),
    ids: fc.oneof(fc.array(fc.oneof(fc.integer(), fc.string(), fc.double())), fc.constant('1,2,3')),
    client_id: fc.oneof(fc.integer(), fc.string(), fc.constant(-1), fc.constant(2 ** 53)),
    content: fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constant('<script>alert(1)</script>'),
      fc.constant('\u0000'),
    ),
  }),
);

/** JSON nested far deeper than any request of ours. */
const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe(`hostile bodies on every write route (${engine})`, () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let tables: string[];

  beforeAll(async () => {
    ctx = await createTestContext();
    cast = await createCast(ctx);
    const companyId = cast.admin.user.company_id!;
    const segment = await createSegment(ctx, companyId);
    await createClient(ctx, companyId, { segments: [segment.id] });
    await createBot(ctx, companyId);
    const rows =
      ctx.engine === 'postgres'
        ? await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(
            ctx.container.db,
          )
        : await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
            ctx.container.db,
          );
    tables = rows.rows
      .map((r) => r.name)
      .filter((t) => !NOT_COMPARED.has(t))
      .sort();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** One hash of every row of every compared table. */
  async function fingerprint(): Promise<string> {
    const hash = createHash('sha256');
    for (const table of tables) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        ctx.container.db,
      );
      const lines = rows.rows.map((r) => JSON.stringify(r)).sort();
      hash.update(`${table}\n${lines.join('\n')}\n`);
    }
    return hash.digest('hex');
  }

  /** A caller the route lets in (see route-access.ts): its refusals of bodies are what this test is about. */
  function callerOf(route: { method: string; url: string }): Record<string, string> {
    const access = ROUTES[`${route.method} ${route.url}`]?.access;
    if (access === 'super') return cast.superAdmin.headers;
    if (access === 'admin') return cast.admin.headers;
    if (access === 'signed-in') return cast.client.headers;
    return {};
  }

  it('answers every one without a 500 or a leak, and a refusal writes nothing', async () => {
    const writes = ctx.app.routeTable.filter(
      (r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !r.url.endsWith('/auth/logout'),
    );
    expect(writes.length).toBeGreaterThan(30);
    const problems: string[] = [];
    let sent = 0;

    async function send(route: { method: string; url: string }, payload: string) {
      const url = route.url.replace(/:[A-Za-z]+/g, '1');
      const before = await fingerprint();
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url,
        headers: { 'content-type': 'application/json', ...callerOf(route) },
        payload,
      });
      sent++;
      const where = `${route.method} ${route.url} ${payload.slice(0, 80)}`;
      if (res.statusCode >= 500) problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      for (const leak of LEAKS) if (leak.test(res.body)) problems.push(`${where}: leaks ${leak}`);
      if (res.statusCode >= 400 && (await fingerprint()) !== before)
        problems.push(`${where}: refused with ${res.statusCode} but the database changed`);
    }

    for (const route of writes) {
      await send(route, deep(5_000));
      await send(route, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}');
      await fc.assert(
        fc.asyncProperty(hostileBody, async (body) => {
          const payload = JSON.stringify(body) ?? 'null';
          await send(route, payload);
        }),
        { numRuns: RUNS, seed: 20261124 },
      );
    }
    expect(problems.slice(0, 20)).toEqual([]);
    expect(sent).toBe(writes.length * (RUNS + 2));
    // Nothing leaked into the objects every request shares.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 600_000);
});
