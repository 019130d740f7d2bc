// What Meta allows the company's number, end to end on the real database and the fake Graph API: the
// connection test reads the number's throughput and limit tier and keeps them; a send over the daily
// limit is refused (422) unless the admin accepts it, and then the sender stops at the limit and goes on
// by itself once the 24-hour window frees room; Meta's marketing frequency cap (131049) is tried once more
// a day later when the send asked for it. The sender runs on a fake clock, its next run queued through a
// stand-in queue that notes each delay, so a day passes in a moment.
import type { MassMessage, MassRecipient } from '@hablabot/contract';
import { startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';
import { insertMassSend } from '../../../test/mass-factories';
import { createMassMessagesRepository } from './mass-messages.repository';
import { createMassSender } from './mass-sender';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-mass-limits-token';
const PHONE_ID = '106540352242777';
const APP_SECRET = 'mass-limits-app-secret-0123456789';
const HOUR = 60 * 60_000;

let ctx: TestContext;
let fake: Awaited<ReturnType<typeof startFakeGraphApi>>;
let headers: Record<string, string>;
let companyId: number;
let templateId: number;
let phoneSeq = 0;
let webhooks: Awaited<ReturnType<typeof routeWebhooksToApp>>;

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function listOf(n: number): Promise<{ listId: number; phones: string[] }> {
  const ids: number[] = [];
  const phones: string[] = [];
  for (let i = 0; i < n; i++) {
    const phone = String(573110000000 + ++phoneSeq);
    ids.push((await createClient(ctx, companyId, { whatsapp_cellphone: phone })).id);
    phones.push(phone);
  }
  const res = await call('POST', '/admin/list-clients', { name: `Lista ${phoneSeq}`, client_ids: ids });
  expect(res.statusCode, res.body).toBe(201);
  return { listId: res.json().data.id, phones };
}

/** `n` customers the number reached `agoMs` before `now` (an earlier send's recipients). */
async function contactedBefore(n: number, now: number, agoMs: number) {
  const at = new Date(now - agoMs).toISOString();
  await insertMassSend(
    ctx.container.db,
    companyId,
    { name: 'Anterior', at, finishedAt: at },
    Array.from({ length: n }, (_, i) => ({
      name: `Antes ${i}`,
      phone: String(579990000000 + i),
      status: 'delivered',
      sentAt: at,
    })),
  );
}

/** A sender on the fake clock, sending through the fake Graph API; its queued runs are noted, not run. */
function senderOn(clock: FakeClock) {
  const queued: { delayMs: number }[] = [];
  const sender = createMassSender({
    db: ctx.container.db,
    repository: createMassMessagesRepository(ctx.container.db),
    cloudApi: ctx.container.cloudApi,
    jobs: {
      ...ctx.container.jobs,
      enqueue: async (_name, _payload, options) => {
        queued.push({ delayMs: options?.delayMs ?? 0 });
        return 'noted';
      },
    },
    outbox: ctx.container.outbox,
    options: { sliceMs: 60_000, leaseMs: 15_000, controlMs: 250, progressMs: 1000, clock },
  });
  return { sender, queued };
}

async function getSend(id: number): Promise<MassMessage> {
  const res = await call('GET', `/admin/messages-massive/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

async function recipientsOf(id: number): Promise<MassRecipient[]> {
  const res = await call('GET', `/admin/messages-massive/${id}/recipients?per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.data;
}

async function setNumber(fields: { throughput?: 'STANDARD' | 'HIGH'; tier?: string }) {
  const phone = fake.phoneNumbers.get(PHONE_ID)!;
  phone.throughput = fields.throughput ? { level: fields.throughput } : undefined;
  phone.messaging_limit_tier = fields.tier;
  const res = await call('POST', '/admin/setting/test/whatsapp', {});
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().success, res.body).toBe(true);
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783877', verified_name: 'L', quality_rating: 'YELLOW' },
    ],
  });
  ctx = await createTestContext({ cloudApiTimeoutMs: 2000 });
  const cast = await createCast(ctx);
  headers = cast.admin.headers;
  companyId = cast.admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, {
    phoneId: PHONE_ID,
    token: TOKEN,
    appSecret: APP_SECRET,
    baseUrl: fake.baseUrl,
  });
  webhooks = await routeWebhooksToApp(ctx.app, fake, APP_SECRET);
  const at = new Date().toISOString();
  templateId = (
    await ctx.container.db
      .insertInto('message_templates')
      .values({
        company_id: companyId,
        meta_id: '9771',
        name: 'promo',
        language: 'es',
        status: 'APPROVED',
        category: 'MARKETING',
        components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola.', buttons: [] }]),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});

afterAll(async () => {
  await fake?.flushWebhooks();
  await Promise.all([ctx?.close(), fake?.close(), webhooks?.close()]);
});

beforeEach(async () => {
  fake.reset();
  // Each test counts its own day: earlier sends are out of the window.
  await ctx.container.db.deleteFrom('mass_messages').where('company_id', '=', companyId).execute();
});

describe(`the number's limits (${engine})`, () => {
  it('reads the throughput, tier and quality at the connection test and keeps them on the channel', async () => {
    await setNumber({ throughput: 'HIGH', tier: 'TIER_2K' });
    const asked = fake.requests.find((r) => r.method === 'GET')!;
    expect(asked.query.get('fields')).toContain('throughput');
    expect(asked.query.get('fields')).toContain('messaging_limit_tier');
    const res = await call('GET', '/admin/mass-message-limits');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      throughput_level: 'HIGH',
      messaging_limit_tier: 'TIER_2K',
      quality_rating: 'YELLOW',
      daily_limit: 2000,
      recipients: 0,
      contacted_today: 0,
      messages_per_second: 1000,
    });
    expect(res.json().data.read_at).toEqual(expect.any(String));

    // A standard number keeps to 80 a second; the company's own setting lowers either, never raises.
    await setNumber({ throughput: 'STANDARD', tier: 'TIER_2K' });
    expect((await call('GET', '/admin/mass-message-limits')).json().data.messages_per_second).toBe(80);
    await setNumber({ throughput: 'HIGH', tier: 'TIER_2K' });
    await ctx.container.db
      .updateTable('companies')
      .set({ mass_messages_per_second: 300 })
      .where('id', '=', companyId)
      .execute();
    expect((await call('GET', '/admin/mass-message-limits')).json().data.messages_per_second).toBe(300);
    await ctx.container.db
      .updateTable('companies')
      .set({ mass_messages_per_second: null })
      .where('id', '=', companyId)
      .execute();
    // The daily job reads them again.
    fake.phoneNumbers.get(PHONE_ID)!.messaging_limit_tier = 'TIER_10K';
    expect(await ctx.container.numberLimits.refresh(companyId)).toBe(true);
    expect((await ctx.container.numberLimits.stored(companyId)).messaging_limit_tier).toBe('TIER_10K');
  });

  it('refuses a send over the daily limit, and with consent stops at it and resumes when room frees', async () => {
    await setNumber({ throughput: 'HIGH', tier: 'TIER_250' });
    const clock = createFakeClock({ start: Date.now(), autoAdvance: true });
    const t0 = clock.now();
    await contactedBefore(245, t0, HOUR);
    const { listId, phones } = await listOf(10);

    const limits = await call('GET', `/admin/mass-message-limits?list_id=${listId}`);
    expect(limits.json().data).toMatchObject({
      recipients: 10,
      contacted_today: 245,
      daily_limit: 250,
      over_limit: true,
    });
    const body = { name: 'Promo', message_template_id: templateId, list_id: listId, bodyParameters: {} };
    let res = await call('POST', '/admin/messages-massive', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.accept_tier_overflow[0]).toContain('límite diario');
    res = await call('POST', '/admin/messages-massive', { ...body, accept_tier_overflow: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    expect(res.json().data.messages_per_second).toBe(1000);

    const { sender, queued } = senderOn(clock);
    await sender.run(id);
    expect(fake.sent.map((s) => s.to)).toEqual(phones.slice(0, 5));
    let send = await getSend(id);
    expect(send.counts).toMatchObject({ sent: 5, queued: 5 });
    // The room frees when the earliest customer reached leaves the 24-hour window.
    expect(Date.parse(send.waiting_limit_until!)).toBe(t0 - HOUR + 24 * HOUR);
    expect(queued.at(-1)!.delayMs).toBeGreaterThan(22 * HOUR);

    clock.advance(queued.at(-1)!.delayMs);
    await sender.run(id);
    expect(fake.sent.map((s) => s.to)).toEqual(phones);
    send = await getSend(id);
    expect(send.status).toBe('completed');
    expect(send.waiting_limit_until).toBeNull();
  });

  it('tries a recipient capped by Meta (131049) once more a day later when the send asked for it', async () => {
    await setNumber({ throughput: 'HIGH', tier: 'TIER_UNLIMITED' });
    const clock = createFakeClock({ start: Date.now(), autoAdvance: true });
    const { listId, phones } = await listOf(3);
    fake.failFor(phones[1], { code: 131049 });
    const res = await call('POST', '/admin/messages-massive', {
      name: 'Tope',
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: {},
      retry_capped: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    const { sender, queued } = senderOn(clock);
    const startedAt = clock.now();
    await sender.run(id);
    expect(fake.sent.map((s) => s.to)).toEqual([phones[0], phones[2]]);
    const capped = (await recipientsOf(id)).find((r) => r.phone === phones[1])!;
    expect(capped).toMatchObject({
      status: 'queued',
      error_code: 131049,
      error_message: 'Reintento programado',
    });
    expect(Date.parse(capped.retry_at!) - startedAt).toBeGreaterThanOrEqual(24 * HOUR);
    expect(Date.parse(capped.retry_at!) - startedAt).toBeLessThan(24 * HOUR + 60_000);
    const wait = queued.at(-1)!.delayMs;
    expect(wait).toBeGreaterThan(23 * HOUR);

    // A day later it is tried again, once: Meta still caps it, so it fails for good.
    clock.advance(wait);
    await sender.run(id);
    const posts = fake.requests.filter(
      (r) => r.method === 'POST' && (r.body as { to?: string } | undefined)?.to === phones[1],
    );
    expect(posts).toHaveLength(2);
    const after = (await recipientsOf(id)).find((r) => r.phone === phones[1])!;
    expect(after).toMatchObject({ status: 'failed', error_code: 131049, retry_at: null });
    expect((await getSend(id)).status).toBe('completed');
  });

  it('tries once more a day later a recipient Meta reports capped (131049) after accepting it', async () => {
    await setNumber({ throughput: 'HIGH', tier: 'TIER_UNLIMITED' });
    const clock = createFakeClock({ start: Date.now(), autoAdvance: true });
    const { listId, phones } = await listOf(2);
    // Meta accepts the message, then reports it failed by a status webhook, as it does for 131049.
    fake.failFor(phones[0], { code: 131049, mode: 'async' });
    const res = await call('POST', '/admin/messages-massive', {
      name: 'Tope tardío',
      message_template_id: templateId,
      list_id: listId,
      bodyParameters: {},
      retry_capped: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    await senderOn(clock).sender.run(id);
    expect(fake.sent.map((s) => s.to)).toEqual(phones);
    await fake.flushWebhooks();
    const capped = await waitFor(async () => {
      await ctx.container.outbox.dispatch();
      const row = (await recipientsOf(id)).find((r) => r.phone === phones[0]);
      return row?.status === 'queued' ? row : undefined;
    });
    expect(capped).toMatchObject({ error_code: 131049, error_message: 'Reintento programado' });
    expect(Date.parse(capped.retry_at!) - Date.now()).toBeGreaterThan(23.9 * HOUR);
    // The status may be handled before the run ends (the send is still `sending`; the run then finds the
    // recipient waiting and hands over for that day) or after (the completed send is queued again).
    expect(['queued', 'sending']).toContain((await getSend(id)).status);
    // The send's next run waits for that day: read from the database queue's table (BullMQ, with
    // REDIS_URL, keeps its delayed jobs in Redis; the recipient's retry_at above holds on both).
    if (process.env.REDIS_URL) return;
    const runs = await ctx.container.db
      .selectFrom('jobs')
      .select('run_at')
      .where('name', '=', 'mass.send')
      .where('payload', 'like', `%"massMessageId":${id}}`)
      .execute();
    const latest = Math.max(...runs.map((r) => new Date(r.run_at as string).getTime()));
    expect(latest - Date.now()).toBeGreaterThan(23.9 * HOUR);
  });
});
