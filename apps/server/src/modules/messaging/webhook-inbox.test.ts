import { type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { nextTurn } from '../../platform/turns';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { WEBHOOK_RETRY_DELAYS_MS, type WebhookInbox, createWebhookInbox } from './webhook-inbox';

/**
 * Counts the statements run through it that claim webhook deliveries (an update that counts a try) and
 * those that mark deliveries done (one per pass).
 */
function claimSpy(): KyselyPlugin & { claims: number; doneMarks: number } {
  const spy = {
    claims: 0,
    doneMarks: 0,
    transformQuery({ node }: { node: RootOperationNode }) {
      const text = JSON.stringify(node);
      const update = node.kind === 'UpdateQueryNode' && text.includes('"webhook_deliveries"');
      if (update && text.includes('"attempts"') && !text.includes('"pending"')) spy.claims++;
      if (update && text.includes('"done"')) spy.doneMarks++;
      return node;
    },
    async transformResult({ result }: { result: unknown }) {
      return result;
    },
  };
  return spy as KyselyPlugin & { claims: number; doneMarks: number };
}

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
  /** Keeps a customer's text message in `inbox`, as the webhook route does once it checked it. */
  const takeText = (inbox: WebhookInbox, phone: string, wamid: string, text = wamid) =>
    inbox.take(
      Buffer.from(JSON.stringify(inboundBody(PHONE_ID, phone, 'text', { text: { body: text } }, { wamid }))),
      { companyIds: [admin.user.company_id!] },
    );
  const delivery = (id: number) =>
    ctx.container.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

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

  // SQLite only: on PostgreSQL every delivery goes through the claim (several instances share it).
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'keeps a delivery claimed by its process when nothing else is due and runs it with no claim; behind a due retry, through the claim, in id order',
    async () => {
      const spy = claimSpy();
      const inbox = createWebhookInbox({
        db: ctx.container.db.withPlugin(spy),
        engine: 'sqlite',
        inbound: ctx.container.inbound,
        options: { now: clock.now },
      });
      const take = (wamid: string, text: string) => takeText(inbox, '34611000005', wamid, text);

      const first = await take('wamid.inbox.held.1', 'hola');
      await inbox.idle();
      expect(await delivery(first)).toMatchObject({ status: 'done', attempts: 1 });
      expect(spy.claims).toBe(0);

      // A delivery that fails waits for its retry; once that is due, the next one is kept pending and a
      // claim takes both, the retry first.
      await breakStoring(ctx);
      const failing = await take('wamid.inbox.held.2', 'boom');
      await inbox.idle();
      expect(await delivery(failing)).toMatchObject({ status: 'pending', attempts: 1 });
      await mendStoring(ctx);
      clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
      const behind = await take('wamid.inbox.held.3', 'sigo aquí');
      await inbox.idle();
      expect(spy.claims).toBe(1);
      expect(await delivery(failing)).toMatchObject({ status: 'done', attempts: 2 });
      expect(await delivery(behind)).toMatchObject({ status: 'done', attempts: 1 });
      const stored = await ctx.container.db
        .selectFrom('messages')
        .select(['id', 'wamid'])
        .where('wamid', 'in', ['wamid.inbox.held.2', 'wamid.inbox.held.3'])
        .orderBy('id')
        .execute();
      expect(stored.map((m) => m.wamid)).toEqual(['wamid.inbox.held.2', 'wamid.inbox.held.3']);

      // A process that stops gives back what it held and did not start: pending, untried, for the next.
      const left = await take('wamid.inbox.held.4', 'hasta luego');
      await inbox.stop();
      expect(await delivery(left)).toMatchObject({ status: 'pending', attempts: 0, locked_by: null });
      await ctx.container.webhookInbox.processNow();
      expect(await delivery(left)).toMatchObject({ status: 'done', attempts: 1 });
    },
  );

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'renews the lease of a delivery held for a third of it before running it, and leaves one another process took',
    async () => {
      const leaseMs = 3000;
      const inbox = createWebhookInbox({
        db: ctx.container.db,
        engine: 'sqlite',
        inbound: ctx.container.inbound,
        options: { now: clock.now, leaseMs },
      });
      const take = (wamid: string) => takeText(inbox, '34611000006', wamid);
      const stored = async (wamid: string) =>
        (await ctx.container.db.selectFrom('messages').select('id').where('wamid', '=', wamid).execute())
          .length;

      // The pass runs on the next turn of the event loop; the clock moves before it.
      const late = await take('wamid.inbox.late.1');
      clock.advance(leaseMs / 3);
      await inbox.idle();
      expect(await delivery(late)).toMatchObject({ status: 'done', attempts: 1 });
      expect(await stored('wamid.inbox.late.1')).toBe(1);

      // Its lease ran out and another process took it: not this one's to run any more.
      const lost = await take('wamid.inbox.late.2');
      clock.advance(leaseMs + 1);
      await ctx.container.db
        .updateTable('webhook_deliveries')
        .set({ locked_by: 'another-process', locked_until: new Date(clock.now() + leaseMs).toISOString() })
        .where('id', '=', lost)
        .execute();
      await inbox.idle();
      expect(await delivery(lost)).toMatchObject({ status: 'processing', locked_by: 'another-process' });
      expect(await stored('wamid.inbox.late.2')).toBe(0);
      await ctx.container.db.deleteFrom('webhook_deliveries').where('id', '=', lost).execute();
      await inbox.stop();
    },
  );

  it('processes a delivery after a quiet moment at once, and those kept within the gather window after a pass together when it closes', async () => {
    const gatherClock = createFakeClock();
    const spy = claimSpy();
    const inbox = createWebhookInbox({
      db: ctx.container.db.withPlugin(spy),
      engine: ctx.engine,
      inbound: ctx.container.inbound,
      options: { now: clock.now, clock: gatherClock, gatherMs: 10 },
    });
    const take = (wamid: string) => takeText(inbox, '34611000007', wamid);
    const status = async (id: number) => (await delivery(id)).status;

    const first = await take('wamid.inbox.gather.1');
    await inbox.idle();
    expect(await status(first)).toBe('done');
    expect(spy.doneMarks).toBe(1);

    // Within 10 ms of that pass: kept, answered, and waiting for the window (turns of the event loop
    // go by; the window's clock does not move).
    const second = await take('wamid.inbox.gather.2');
    const third = await take('wamid.inbox.gather.3');
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(await status(second)).not.toBe('done');
    expect(await status(third)).not.toBe('done');
    expect(spy.doneMarks).toBe(1);

    gatherClock.advance(10);
    await inbox.idle();
    expect([await status(second), await status(third)]).toEqual(['done', 'done']);
    expect(spy.doneMarks).toBe(2);

    // A quiet moment later: at once again.
    gatherClock.advance(1000);
    const fourth = await take('wamid.inbox.gather.4');
    await inbox.idle();
    expect(await status(fourth)).toBe('done');
    expect(spy.doneMarks).toBe(3);
    await inbox.stop();
  });
});
