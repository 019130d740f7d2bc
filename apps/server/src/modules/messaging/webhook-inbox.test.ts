import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { WEBHOOK_RETRY_DELAYS_MS } from './webhook-inbox';

const PHONE_ID = '555000321';
const METRICS_TOKEN = 'metrics-token-webhook-inbox-0123456789';

/**
 * A failure the database itself raises: a customer message whose text is 'boom' cannot be inserted
 * while the trigger exists (a real failure of the processing, no stand-in of our code).
 */
async function breakStoring(ctx: TestContext) {
  const { db } = ctx.container;
  if (ctx.engine === 'postgres') {
    await sql`create or replace function boom_guard() returns trigger as $$
      begin if new.content = 'boom' then raise exception 'boom refused'; end if; return new; end;
      $$ language plpgsql`.execute(db);
    await sql`create trigger boom_guard before insert on messages for each row execute function boom_guard()`.execute(
      db,
    );
  } else {
    await sql`create trigger boom_guard before insert on messages when new.content = 'boom'
      begin select raise(abort, 'boom refused'); end`.execute(db);
  }
}

async function mendStoring(ctx: TestContext) {
  const { db } = ctx.container;
  if (ctx.engine === 'postgres') await sql`drop trigger boom_guard on messages`.execute(db);
  else await sql`drop trigger boom_guard`.execute(db);
}

describe(`webhook inbox (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  let ctx: TestContext;
  let clock: FakeClock;
  let superAdmin: TestUser;
  let admin: TestUser;

  const deliveries = () =>
    ctx.container.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
  const health = async () =>
    (await ctx.app.inject({ method: 'GET', url: '/api/v1/health' })).json().webhook_lag_seconds;

  beforeAll(async () => {
    clock = createFakeClock();
    ctx = await createTestContext({ metricsToken: METRICS_TOKEN, webhookInbox: { now: clock.now } });
    superAdmin = await createUser(ctx, { role: 'super_admin' });
    admin = await createUser(ctx, { role: 'admin' });
    await ctx.container.settingsRepository.upsertSettings(admin.user.company_id!, {
      whatsapp_phone_id: PHONE_ID,
    });
  });
  afterAll(() => ctx.close());

  it('keeps a delivery, processes it after the 200, and deletes it 7 days after it was done', async () => {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(PHONE_ID, '34611000001', 'text', { text: { body: 'hola' } })),
    );
    expect(res.statusCode).toBe(200);
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    expect(await health()).toBe(0);
    clock.advance(7 * 24 * 3600_000 - 1000);
    expect(await ctx.container.webhookInbox.prune()).toBe(0);
    clock.advance(2000);
    expect(await ctx.container.webhookInbox.prune()).toBe(1);
    expect(await deliveries()).toEqual([]);
  });

  it('retries a delivery whose processing fails with backoff, then lists it as failed; a replay processes it once', async () => {
    await breakStoring(ctx);
    const wamid = 'wamid.inbox.boom.1';
    const body = inboundBody(PHONE_ID, '34611000002', 'text', { text: { body: 'boom' } }, { wamid });
    expect((await ctx.app.inject(signedRequest(body))).statusCode).toBe(200);
    let [row] = await deliveries();
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.last_error).toContain('boom refused');
    expect(row!.last_error).not.toContain('\n');

    // The lag: the age of the oldest delivery not processed yet, in /health and in /metrics.
    clock.advance(500);
    expect(await health()).toBe(0.5);
    const metrics = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(/^hablabot_webhook_lag_seconds 0\.5$/m);

    // Each retry waits its turn: 1 s, 5 s, 30 s, 2 min, 10 min after the try before.
    for (const [i, delay] of WEBHOOK_RETRY_DELAYS_MS.entries()) {
      // The first wait is counted from the failed try, half a second ago.
      clock.advance((i === 0 ? delay - 500 : delay) - 1);
      expect(await ctx.container.webhookInbox.dispatch()).toBe(0);
      clock.advance(1);
      expect(await ctx.container.webhookInbox.dispatch()).toBe(1);
      [row] = await deliveries();
      expect(row).toMatchObject({
        attempts: i + 2,
        status: i === WEBHOOK_RETRY_DELAYS_MS.length - 1 ? 'failed' : 'pending',
      });
    }
    // Out of the pipeline: a failed delivery waits for the super admin, not for the dispatcher.
    expect(await health()).toBe(0);
    expect(await ctx.container.webhookInbox.dispatch()).toBe(0);

    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/super-admin/webhook-deliveries?status=failed',
      headers: superAdmin.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({
      data: [
        {
          id: row!.id,
          received_at: expect.any(String),
          status: 'failed',
          attempts: 6,
          last_error: expect.stringContaining('boom refused'),
          company: { id: admin.user.company_id, name: expect.any(String) },
          summary: { messages: 1, statuses: 0 },
        },
      ],
      pagination: { current_page: 1, per_page: 100, total: 1, last_page: 1 },
    });
    // The super admin's only.
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/super-admin/webhook-deliveries' },
      { method: 'POST' as const, url: `/api/v1/super-admin/webhook-deliveries/${row!.id}/replay` },
    ])
      expect((await ctx.app.inject({ ...request, headers: admin.headers })).statusCode).toBe(403);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/super-admin/webhook-deliveries?status=lost&page=0',
      headers: superAdmin.headers,
    });
    expect(bad.statusCode).toBe(422);

    // Fixed, replayed: processed at once, stored once; a second replay is refused.
    await mendStoring(ctx);
    const replay = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/super-admin/webhook-deliveries/${row!.id}/replay`,
      headers: superAdmin.headers,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({
      message: 'Entrega reintentada.',
      data: { id: row!.id, status: 'done', attempts: 7 },
    });
    const stored = await ctx.container.db
      .selectFrom('messages')
      .select('id')
      .where('wamid', '=', wamid)
      .execute();
    expect(stored).toHaveLength(1);
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/super-admin/webhook-deliveries/${row!.id}/replay`,
      headers: superAdmin.headers,
    });
    expect(again.statusCode).toBe(409);
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/super-admin/webhook-deliveries/987654/replay',
      headers: superAdmin.headers,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
