// The authorization matrix of the whole API, walked from the server's own route table: every route ×
// {anonymous, client, admin of company A, admin of company B, super admin}. Each route's access is
// written once, in route-access.ts; a route the server has and that table lacks fails the test, so a
// new route cannot be forgotten. Company B's admin calls every route aimed at company A's resources (their ids in the
// path and in bulk bodies) and must never get a 2xx, never see A's data, and leave A's rows as they were.
import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, createInstruction } from './bots-factories';
import { createClient, createSegment } from './clients-factories';
import { type TestContext, createTestContext } from './context';
import { createCast, createUser } from './factories';
import { type Fixtures, ROUTES } from './route-access';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const MARK = 'LeakMarkCompanyA';

describe(`authorization matrix of every route (${engine})`, () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let a: Fixtures;
  let routes: { method: string; url: string }[];

  beforeAll(async () => {
    ctx = await createTestContext({ metricsToken: 'metrics-token-for-the-matrix-0001' });
    cast = await createCast(ctx);
    const companyA = cast.admin.user.company_id!;
    const segment = await createSegment(ctx, companyA, { name: `${MARK} segment` });
    const client = await createClient(ctx, companyA, { name: `${MARK} client`, segments: [segment.id] });
    const bot = await createBot(ctx, companyA, { bot_name: `${MARK} bot` });
    const instruction = await createInstruction(ctx, companyA, bot.id, [segment.id], { ask: `${MARK} ask` });
    const media = await ctx.container.mediaRepository.createMedia(companyA, {
      userId: cast.admin.user.id,
      fileName: `${MARK}.png`,
      storageKey: `ab/ab${'0'.repeat(30)}.png`,
      mimeType: 'image/png',
      kind: 'image',
      size: 10,
      sha256: createHash('sha256').update(MARK).digest('hex'),
    });
    const message = await ctx.container.messagesRepository.insertMessage(companyA, {
      clientId: client.id,
      wamid: 'wamid.leak-check',
      sender: 'client',
      messageType: 'text',
      waType: 'text',
      content: `${MARK} message`,
      phone: client.whatsapp_cellphone,
      status: 2,
      createdAt: new Date().toISOString(),
    });
    const role = await ctx.container.identity.findRoleByName('client');
    const now = new Date().toISOString();
    const list = await ctx.container.db
      .insertInto('client_lists')
      .values({ company_id: companyA, name: `${MARK} list`, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.container.db
      .insertInto('client_list_members')
      .values({ list_id: list.id, client_id: client.id })
      .execute();
    const mass = await ctx.container.db
      .insertInto('mass_messages')
      .values({
        company_id: companyA,
        name: `${MARK} send`,
        status: 'paused',
        list_id: list.id,
        list_name: `${MARK} list`,
        template_id: null,
        template_name: 'plantilla',
        template_language: 'es',
        template_body: 'Hola {{1}}',
        body_parameters: '{}',
        message: `${MARK} text`,
        messages_per_second: 80,
        counts: '{}',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The super admin's pass deletes this user for real.
    const spare = await createUser(ctx, { role: 'client' });
    a = {
      client: client.id,
      segment: segment.id,
      bot: bot.id,
      instruction: instruction.id,
      media: media.id,
      message: message!.id,
      user: spare.user.id,
      role: role!.id,
      list: list.id,
      mass: mass.id,
    };
    // Deletes after the rest, so the other routes still find A's resources; signing out last of all,
    // as it ends the caller's session.
    const rank = (r: { method: string; url: string }) =>
      r.url.endsWith('/auth/logout') ? 2 : r.method === 'DELETE' ? 1 : 0;
    routes = ctx.app.routeTable
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .map((r) => ({ method: r.method, url: r.url }))
      .sort((x, y) => rank(x) - rank(y));
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

  function request(route: { method: string; url: string }): InjectOptions {
    const rule = ROUTES[key(route)];
    const url = route.url
      .replace(/:[A-Za-z]+/g, () => String(rule.param ? a[rule.param] : 1))
      .replace('*', `ab/ab${'0'.repeat(30)}.png`);
    const withBody = route.method !== 'GET';
    return {
      method: route.method as InjectOptions['method'],
      url,
      ...(withBody ? { payload: (rule.body?.(a) ?? {}) as object } : {}),
    };
  }

  async function call(route: { method: string; url: string }, who: keyof typeof cast | 'anonymous') {
    const base = request(route);
    return ctx.app.inject({
      ...base,
      headers: { 'content-type': 'application/json', ...(who === 'anonymous' ? {} : cast[who].headers) },
    });
  }

  /** Company A's rows as they stand, to compare before and after the other callers. */
  async function snapshotOfA() {
    const companyA = cast.admin.user.company_id!;
    const tables = [
      'clients',
      'segments',
      'bots',
      'instructions',
      'media',
      'messages',
      'settings',
      'client_lists',
      'mass_messages',
    ] as const;
    const out: Record<string, unknown> = {};
    for (const table of tables) {
      const rows =
        table === 'instructions'
          ? await ctx.container.db
              .selectFrom('instructions')
              .selectAll()
              .where('bot_id', '=', a.bot)
              .execute()
          : await ctx.container.db.selectFrom(table).selectAll().where('company_id', '=', companyA).execute();
      out[table] = JSON.stringify(rows.sort((x, y) => Number(x.id) - Number(y.id)));
    }
    return out;
  }

  it('knows every route the server has, and only those', () => {
    const have = routes.map(key).sort();
    expect(
      have.filter((k) => !ROUTES[k]),
      'routes missing from the matrix',
    ).toEqual([]);
    expect(
      Object.keys(ROUTES).filter((k) => !have.includes(k)),
      'matrix rows for routes that do not exist',
    ).toEqual([]);
  });

  it('lets each caller in only where the route allows, never answering 500', async () => {
    const wrong: string[] = [];
    const before = await snapshotOfA();
    for (const route of routes) {
      const rule = ROUTES[key(route)];
      if (!rule) continue;
      for (const who of ['anonymous', 'client', 'otherAdmin', 'superAdmin'] as const) {
        // An admin's stream opens (on their own company) and stays open: nothing to wait for.
        if (rule.stream && who === 'otherAdmin') continue;
        const res = await call(route, who);
        const status = res.statusCode;
        const denied = status === 401 || status === 403;
        let ok = status < 500;
        if (rule.access === 'signed-in' || rule.access === 'admin' || rule.access === 'super')
          ok &&= who === 'anonymous' ? status === 401 : true;
        if (rule.access === 'signed-in' && who !== 'anonymous') ok &&= !denied;
        if (rule.access === 'admin' && (who === 'client' || who === 'superAdmin')) ok &&= status === 403;
        if (rule.access === 'super' && who !== 'superAdmin' && who !== 'anonymous') ok &&= status === 403;
        if (rule.access === 'super' && who === 'superAdmin') ok &&= !denied;
        // Company B's admin aimed at A's resources: never a success, never A's data.
        if (rule.access === 'admin' && who === 'otherAdmin') {
          if (rule.param || rule.body) ok &&= status >= 400;
          ok &&= !res.body.includes(MARK);
        }
        if (!ok) wrong.push(`${key(route)} as ${who}: ${status} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshotOfA(), "company A's rows after everyone else called every route").toEqual(before);
  }, 120_000);

  it("lets company A's admin into every admin route", async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const rule = ROUTES[key(route)];
      if (rule?.access !== 'admin' || rule.stream) continue;
      const res = await call(route, 'admin');
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500)
        wrong.push(`${key(route)}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
