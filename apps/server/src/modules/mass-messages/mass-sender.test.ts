// The mass sender's runs on the real database with a fake clock that moves by each wait the sender asks
// for: the pace, a pause, the hand-over at the end of a slice and WhatsApp's rate limit are checked to
// the millisecond of the sender's clock, in a moment and without sleeping. WhatsApp is a stand-in that
// notes the sender's time of each request (the HTTP path is covered by mass-messages.test.ts).
import type { SendResult } from '../../integrations/whatsapp/cloud-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { type FakeClock, createFakeClock } from '../../../test/fake-clock';
import { insertMassSend } from '../../../test/mass-factories';
import { waitFor } from '../../../test/wait';
import { createMassMessagesRepository } from './mass-messages.repository';
import { type MassSenderOptions, createMassSender } from './mass-sender';
import { WINDOW_MS } from './pacer';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let ctx: TestContext;
let companyId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  companyId = (await createCast(ctx)).admin.user.company_id!;
});

afterAll(async () => {
  await ctx.close();
});

/** A queued send of `n` recipients at `perSecond`, written as the service accepts one. */
function queuedSend(n: number, perSecond: number): Promise<number> {
  return insertMassSend(
    ctx.container.db,
    companyId,
    {
      name: 'Ritmo',
      perSecond,
      templateBody: 'Hola {{1}}.',
      bodyParameters: { 1: '{{Nombre}}' },
      message: 'Hola {{Nombre}}.',
    },
    Array.from({ length: n }, (_, i) => ({ name: `Cliente ${i}`, phone: String(573000000000 + i) })),
  );
}

/**
 * A sender on `clock`, and WhatsApp as a stand-in: each request is noted with the clock's time and
 * answered by `answer` (accepted by default).
 */
function senderOn(
  clock: FakeClock,
  options: MassSenderOptions = {},
  answer: (to: string, at: number) => SendResult | Promise<SendResult> = () => ({ ok: true, wamid: '' }),
) {
  const requests: { to: string; at: number }[] = [];
  let seq = 0;
  const sender = createMassSender({
    db: ctx.container.db,
    repository: createMassMessagesRepository(ctx.container.db),
    cloudApi: {
      accountOf: async () => ({ token: 't', phoneNumberId: 'p', baseUrl: 'http://127.0.0.1:9' }),
      async sendAs(_account, to) {
        const at = clock.now();
        requests.push({ to, at });
        const result = await answer(to, at);
        return result.ok ? { ...result, wamid: `wamid.${++seq}` } : result;
      },
    },
    jobs: ctx.container.jobs,
    outbox: ctx.container.outbox,
    options: { sliceMs: 60_000, leaseMs: 15_000, controlMs: 250, progressMs: 1000, ...options, clock },
  });
  return { sender, requests };
}

async function statuses(massMessageId: number) {
  const rows = await ctx.container.db
    .selectFrom('mass_message_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('mass_message_id', '=', massMessageId)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** How many `mass_message.progress` events the send has in the outbox. */
async function progressEvents(massMessageId: number): Promise<number> {
  const rows = await ctx.container.db
    .selectFrom('outbox')
    .select('payload')
    .where('type', '=', 'mass_message.progress')
    .execute();
  return rows.filter((r) => JSON.parse(r.payload).massMessageId === massMessageId).length;
}

/** The most requests that started within any one second of the sender's clock. */
const busiestSecond = (requests: { at: number }[]) =>
  Math.max(...requests.map((r) => requests.filter((q) => q.at >= r.at && q.at < r.at + 1000).length));

const sendRow = (id: number) =>
  ctx.container.db.selectFrom('mass_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe(`the mass sender on a fake clock (${engine})`, () => {
  it('sends N recipients at 80/s in (N-1)/80 s of its clock, never more than 80 in a second', async () => {
    const clock = createFakeClock({ autoAdvance: true });
    const { sender, requests } = senderOn(clock);
    const id = await queuedSend(160, 80);
    await sender.run(id);
    expect(await statuses(id)).toEqual({ sent: 160 });
    expect((await sendRow(id)).status).toBe('completed');
    expect(new Set(requests.map((r) => r.to)).size).toBe(160);
    const t0 = requests[0].at;
    const span = requests.at(-1)!.at - t0;
    // The first request alone, then one every 12.5 ms.
    expect(span).toBeGreaterThanOrEqual((159 / 80) * 1000);
    expect(span).toBeLessThanOrEqual((160 / 80) * 1000 * 1.01);
    expect(busiestSecond(requests)).toBeLessThanOrEqual(80);
  });

  it('stops within one look at the send once it is paused, and sends nothing more', async () => {
    const clock = createFakeClock({ autoAdvance: true });
    let pausedAt = 0;
    const id = await queuedSend(100, 20);
    const { sender, requests } = senderOn(clock, { controlMs: 250 }, async (_to, at) => {
      if (requests.length === 10) {
        // An admin pauses the send (as the service does) while the 10th request is out.
        pausedAt = at;
        await ctx.container.db
          .updateTable('mass_messages')
          .set({ status: 'paused' })
          .where('id', '=', id)
          .execute();
      }
      return { ok: true, wamid: '' };
    });
    // The run ending is the barrier: it held the send's only lease, so nothing can be sent after it.
    await sender.run(id);
    const row = await sendRow(id);
    expect(row).toMatchObject({ status: 'paused', lease_owner: null });
    // At 20/s, at most the requests of one control interval (250 ms) after the pause.
    const after = requests.filter((r) => r.at > pausedAt);
    expect(after.length).toBeLessThanOrEqual(6);
    expect(await statuses(id)).toEqual({ sent: requests.length, queued: 100 - requests.length });
    // A run of the paused send (a job queued before the pause) sends nothing.
    const before = requests.length;
    await sender.run(id);
    expect(requests.length).toBe(before);
  });

  it('hands over at the end of its slice, letting go of the send', async () => {
    const clock = createFakeClock({ autoAdvance: true });
    const { sender, requests } = senderOn(clock, { sliceMs: 1000 });
    const id = await queuedSend(30, 10);
    const start = clock.now();
    await sender.run(id);
    // One slice of 1 s at 10/s: the first alone, then ten slots from one step after it.
    expect(requests.length).toBeGreaterThanOrEqual(10);
    expect(requests.length).toBeLessThanOrEqual(11);
    expect(requests.every((r) => r.at < start + 1000)).toBe(true);
    expect(await sendRow(id)).toMatchObject({ status: 'sending', lease_owner: null, lease_until: null });
    // The next run goes on where it stopped.
    await sender.run(id);
    expect(requests.length).toBeGreaterThanOrEqual(20);
    expect(new Set(requests.map((r) => r.to)).size).toBe(requests.length);
  });

  it("goes on at its slice's pace after a hand-over in the same process, catching up the pause", async () => {
    const clock = createFakeClock({ autoAdvance: true });
    const { sender, requests } = senderOn(clock, { sliceMs: 1000 });
    const id = await queuedSend(30, 10);
    const start = clock.now();
    await sender.run(id);
    const firstSlice = requests.length;
    // The hand-over takes 50 ms (the lease let go, the next job picked up, the lease taken again).
    clock.advance(50);
    await sender.run(id);
    const next = requests.slice(firstSlice).map((r) => r.at - start);
    // The pace's step (100 ms at 10/s; the send shares the number with the one of the test above).
    const step = requests[1]!.at - requests[0]!.at;
    // No request alone to start the slice, answered before the next: the slice's second request goes as
    // soon as the last second's limit allows (one window after the first slice's second request), not a
    // step after the first, and the slots of the first slice's grid follow. The pause costs nothing.
    expect(next[1]).toBe(requests[1]!.at - start + WINDOW_MS);
    expect(next[1]! - next[0]!).toBeLessThan(step);
    expect(next.slice(2, 4)).toEqual([next[1]! + step, next[1]! + 2 * step]);
    // Never more than the pace in any second, across the hand-over too.
    expect(busiestSecond(requests)).toBeLessThanOrEqual(1000 / step);
  });

  it('backs off on 130429 and reaches everyone exactly once', async () => {
    const clock = createFakeClock({ autoAdvance: true });
    // A number that takes 30 a second of the sender's clock and refuses the rest.
    const accepted: { to: string; at: number }[] = [];
    const { sender, requests } = senderOn(clock, { rateLimitBackoffMs: 200 }, (to, at) => {
      if (accepted.filter((a) => a.at > at - 1000).length >= 30)
        return { ok: false, code: 130429, message: 'Rate limit hit', transient: true };
      accepted.push({ to, at });
      return { ok: true, wamid: '' };
    });
    const id = await queuedSend(90, 100);
    await sender.run(id);
    expect(await statuses(id)).toEqual({ sent: 90 });
    expect(requests.length).toBeGreaterThan(90);
    expect(accepted).toHaveLength(90);
    expect(new Set(accepted.map((a) => a.to)).size).toBe(90);
  });

  it('publishes progress once per burst of statuses, when its interval has passed', async () => {
    const clock = createFakeClock();
    const { sender } = senderOn(clock, { progressMs: 1000 });
    const id = await queuedSend(1, 10);
    for (let i = 0; i < 5; i++) sender.progressSoon(id);
    // One timer for the burst; nothing is published before it fires (it has not: the clock stands still).
    expect(clock.waiting).toBe(1);
    clock.advance(999);
    expect(clock.waiting).toBe(1);
    expect(await progressEvents(id)).toBe(0);
    clock.advance(1);
    expect(clock.waiting).toBe(0);
    await waitFor(async () => (await progressEvents(id)) === 1);
    // The next status starts a new interval.
    sender.progressSoon(id);
    expect(clock.waiting).toBe(1);
  });
});
