// The scale run's dataset generator, at a small size: the rows it writes agree with each other as the
// product's own writes would (a client's last message, its date and its unread count are those of its
// messages), and the app reads them like any other data.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from './context';
import { SCALE_AGENTS, type ScaleSeed, type ScaleShape, seedScale } from './scale-seed';

const shape: ScaleShape = {
  companies: 3,
  clientsPerCompany: 20,
  messages: 600,
  bigConversation: 100,
  days: 5,
};

describe(`the scale dataset (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  let ctx: TestContext;
  let seed: ScaleSeed;

  beforeAll(async () => {
    ctx = await createTestContext();
    seed = await seedScale(ctx.container, shape, {
      appSecret: 'scale-test-secret',
      graphToken: 'scale-test-token',
      graphUrl: 'http://127.0.0.1:9/v23.0',
    });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('has the companies, clients and messages asked for, the long conversation included', async () => {
    const { db } = ctx.container;
    const count = async (table: 'clients' | 'messages', companyId?: number) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .$if(companyId !== undefined, (q) => q.where('company_id', '=', companyId!))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(seed.companies).toHaveLength(3);
    expect(await count('clients')).toBe(60);
    // The history, plus the unread messages every fifth client ends with (1 to 3 each).
    const unreadMessages = seed.companies.length * [0, 5, 10, 15].reduce((s, k) => s + 1 + (k % 3), 0);
    expect(await count('messages')).toBe(600 + unreadMessages);
    const big = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('client_id', '=', seed.bigClientId)
      .executeTakeFirstOrThrow();
    expect(Number(big.n)).toBeGreaterThanOrEqual(100);
  });

  it("keeps each client's last message, date and unread count in step with its messages", async () => {
    const { rows } = await sql<{
      id: number;
      last_message_content: string | null;
      last_message_date: string | null;
      unread_messages_count: number;
      newest_content: string | null;
      newest_date: string | null;
      unread: number | string;
    }>`
      select c.id, v.last_message_content, v.last_message_at as last_message_date,
        coalesce(v.unread_count, 0) as unread_messages_count,
        (select m.content from messages m where m.client_id = c.id order by m.created_at desc, m.id desc limit 1) as newest_content,
        (select max(m.created_at) from messages m where m.client_id = c.id) as newest_date,
        (select count(*) from messages m where m.client_id = c.id and m.sender_type = 'client' and m.status = 3) as unread
      from clients c left join conversations v on v.client_id = c.id order by c.id`.execute(ctx.container.db);
    expect(rows).toHaveLength(60);
    for (const r of rows) {
      expect(r.last_message_content, `client ${r.id}`).toBe(r.newest_content);
      expect(new Date(String(r.last_message_date)).getTime(), `client ${r.id}`).toBe(
        new Date(String(r.newest_date)).getTime(),
      );
      expect(r.unread_messages_count, `client ${r.id}`).toBe(Number(r.unread));
    }
    expect(rows.filter((r) => r.unread_messages_count > 0)).toHaveLength(12);
  });

  it('is read by the app: the chat list, the long conversation and the analytics', async () => {
    const [first] = seed.companies;
    const get = (url: string, token: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
    const list = await get('/admin/client/messages-summary?per_page=5', first!.adminToken);
    expect(list.statusCode, list.body).toBe(200);
    const history = await get(`/admin/client/${seed.bigClientId}/messages`, first!.adminToken);
    expect(history.json().pagination.total).toBeGreaterThanOrEqual(100);
    const analytics = await get('/super-admin/analytics', seed.superAdminToken);
    const days = analytics.json().data.days as { received: number }[];
    expect(days.reduce((s, d) => s + d.received, 0)).toBeGreaterThan(0);
  });
  it("spreads the first company's conversations over its agents, as the inbox's views and counts read them", async () => {
    const [first] = seed.companies;
    const get = (url: string, token: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });
    expect(seed.agents).toHaveLength(SCALE_AGENTS);
    // 20 conversations: k 9 and 19 resolved; of the open ones k 0, 4, 8, 12, 16 unassigned.
    const total = async (view: string, token: string) =>
      (await get(`/admin/conversations?view=${view}`, token)).json().pagination.total as number;
    expect(await total('all', first!.adminToken)).toBe(18);
    expect(await total('resolved', first!.adminToken)).toBe(2);
    expect(await total('unassigned', first!.adminToken)).toBe(5);
    // Agent 1: k 1 and 11 open (k 1 % 10 = 1, 11 % 10 = 1); k 21 is beyond the 20 clients.
    expect(await total('mine', seed.agents[1]!.token)).toBe(2);
    expect(await total('unassigned', seed.agents[1]!.token)).toBe(5);
  });
});
