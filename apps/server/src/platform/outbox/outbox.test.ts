import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../../../test/context';
import { createContainer } from '../../container';
import { type DomainEventPayload, domainEvent, on, onMany } from '../events/domain-events';
import { createOutbox } from './outbox';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`transactional outbox (${engine})`, () => {
  let ctx: TestContext;
  /** Message ids each test subscriber heard, in order. */
  const heard: number[] = [];
  let failNext = 0;
  let failedRuns = 0;
  let otherRuns = 0;

  beforeAll(async () => {
    ctx = await createTestContext({
      outbox: { backoffMs: 0 },
      subscribers: [
        on('message.updated', 'test.heard', async (e) => {
          heard.push(e.messageId);
        }),
        on('bot.failed', 'test.flaky', async () => {
          failedRuns++;
          if (failNext > 0) {
            failNext--;
            throw new Error('not now');
          }
        }),
        on('bot.failed', 'test.steady', async () => {
          otherRuns++;
        }),
      ],
    });
  });
  afterAll(async () => {
    await ctx.close();
  });

  const event = (messageId: number): DomainEventPayload<'message.updated'> => ({
    companyId: 1,
    clientId: 1,
    messageId,
  });
  const rows = () => ctx.container.db.selectFrom('outbox').selectAll().orderBy('id').execute();
  const clear = () => ctx.container.db.deleteFrom('outbox').execute();

  it('publishes what a transaction emitted once it committed, and never what a rolled-back one did', async () => {
    await clear();
    heard.length = 0;
    await ctx.container.withTransaction(async (tx) => tx.events.emit('message.updated', event(1)));
    await expect(
      ctx.container.withTransaction(async (tx) => {
        tx.events.emit('message.updated', event(2));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await ctx.container.outbox.idle();
    expect(heard).toEqual([1]);
    expect((await rows()).map((r) => [r.type, r.state])).toEqual([['message.updated', 'done']]);
    // A second pass finds nothing left.
    expect(await ctx.container.outbox.dispatch()).toBe(0);
    expect(heard).toEqual([1]);
  });

  it("refuses an event whose payload is not the catalogue's, and the change with it", async () => {
    await clear();
    await expect(
      ctx.container.withTransaction(async (tx) =>
        tx.events.emit('message.updated', { companyId: 1, clientId: 1 } as never),
      ),
    ).rejects.toThrow();
    expect(await rows()).toEqual([]);
  });

  it('publishes once what a process that stopped between commit and dispatch left behind', async () => {
    await clear();
    heard.length = 0;
    // The first process commits its events and dies before telling its dispatcher.
    await ctx.container.db
      .transaction()
      .execute((trx) =>
        ctx.container.outbox.write(trx, [
          domainEvent('message.updated', event(11)),
          domainEvent('message.updated', event(12)),
        ]),
      );
    expect(heard).toEqual([]);
    // Another process on the same database picks them up with its poll.
    const seen: number[] = [];
    const second = createContainer(ctx.container.infra, {
      outbox: { pollMs: 10 },
      subscribers: [on('message.updated', 'test.second', async (e) => void seen.push(e.messageId))],
    });
    second.outbox.start();
    await expect
      .poll(async () => (await rows()).every((r) => r.state === 'done'), { timeout: 10_000 })
      .toBe(true);
    await second.outbox.stop();
    expect(seen).toEqual([11, 12]);
  });

  it("keeps a transaction's events to the process that wrote them, and to another once their lease ran out", async () => {
    await clear();
    const seen: number[] = [];
    const writer = createOutbox({ db: ctx.container.db, engine: ctx.engine });
    writer.subscribe(on('message.updated', 'test.writer', async (e) => void seen.push(e.messageId)));
    const other = createOutbox({ db: ctx.container.db, engine: ctx.engine });
    other.subscribe(on('message.updated', 'test.other', async (e) => void seen.push(-e.messageId)));
    // Not started: the writer's wake after the commit is its only dispatch.
    await writer.transaction(async (_trx, events) => events.emit('message.updated', event(31)));
    // Written claimed by the writer: another dispatcher finds nothing to take.
    expect(await other.dispatch()).toBe(0);
    await writer.idle();
    expect(seen).toEqual([31]);
    expect((await rows()).map((r) => r.state)).toEqual(['done']);
    // A writer that stops between its commit and its dispatch: the rows wait for their lease to run out
    // (here: moved a second into the past), then another dispatcher takes them.
    const stopped = createOutbox({ db: ctx.container.db, engine: ctx.engine });
    await stopped.stop();
    await stopped.transaction(async (_trx, events) => events.emit('message.updated', event(32)));
    expect(await other.dispatch()).toBe(0);
    await ctx.container.db
      .updateTable('outbox')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('state', '=', 'pending')
      .execute();
    expect(await other.dispatch()).toBe(1);
    expect(seen).toEqual([31, -32]);
  });

  it('hands each event to one dispatcher when two share the database', async () => {
    await clear();
    const count = 300;
    const events = Array.from({ length: count }, (_, i) => domainEvent('message.updated', event(1000 + i)));
    await ctx.container.outbox.write(ctx.container.db, events);
    const handled = new Map<number, number>();
    const dispatcher = () => {
      const outbox = createOutbox({ db: ctx.container.db, engine: ctx.engine, batch: 20 });
      outbox.subscribe(
        on('message.updated', `test.twice-${randomBytes(3).toString('hex')}`, async (e) => {
          handled.set(e.messageId, (handled.get(e.messageId) ?? 0) + 1);
          // Give the other dispatcher a turn in the middle of a batch.
          await new Promise<void>((r) => setImmediate(r));
        }),
      );
      return outbox;
    };
    const one = dispatcher();
    const two = dispatcher();
    const drain = async (o: ReturnType<typeof dispatcher>) => {
      while ((await o.dispatch()) > 0);
    };
    await Promise.all([drain(one), drain(two)]);
    expect(handled.size).toBe(count);
    expect([...handled.values()].every((n) => n === 1)).toBe(true);
    expect((await rows()).every((r) => r.state === 'done')).toBe(true);
  });

  it('takes up an event whose dispatcher lost its lease', async () => {
    await clear();
    heard.length = 0;
    await ctx.container.outbox.write(ctx.container.db, [domainEvent('message.updated', event(21))]);
    // A dispatcher claimed it and died: its lease ran out a second ago.
    await ctx.container.db
      .updateTable('outbox')
      .set({ locked_by: 'dead', locked_until: new Date(Date.now() - 1000).toISOString(), attempts: 1 })
      .execute();
    expect(await ctx.container.outbox.dispatch()).toBe(1);
    expect(heard).toEqual([21]);
  });

  it('retries only the subscriber that failed, and keeps the error until it succeeds', async () => {
    await clear();
    failNext = 2;
    failedRuns = 0;
    otherRuns = 0;
    await ctx.container.withTransaction(async (tx) =>
      tx.events.emit('bot.failed', { companyId: 1, clientId: 1, messageId: null, reason: 'x' }),
    );
    await ctx.container.outbox.idle();
    let [row] = await rows();
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'not now' });
    expect(row!.handled.split(',')).toContain('test.steady');
    expect(row!.handled.split(',')).not.toContain('test.flaky');
    // Backoff 0 in this test: each pass may retry at once.
    await ctx.container.outbox.dispatch();
    await ctx.container.outbox.dispatch();
    [row] = await rows();
    expect(row).toMatchObject({ state: 'done', attempts: 3 });
    expect(failedRuns).toBe(3);
    expect(otherRuns).toBe(1);
  });

  it('hands a batch to a subscriber that takes several at once, and each alone when the batch fails', async () => {
    await clear();
    const calls: number[][] = [];
    const outbox = createOutbox({ db: ctx.container.db, engine: ctx.engine, backoffMs: 0 });
    outbox.subscribe(
      onMany('message.updated', 'test.many', async (events) => {
        calls.push(events.map((e) => e.messageId));
        if (events.some((e) => e.messageId === 43)) throw new Error('43 is bad');
      }),
    );
    await outbox.write(
      ctx.container.db,
      [41, 42, 43, 44].map((id) => domainEvent('message.updated', event(id))),
    );
    expect(await outbox.dispatch()).toBe(4);
    // The batch, then each alone: only 43 is left to retry.
    expect(calls).toEqual([[41, 42, 43, 44], [41], [42], [43], [44]]);
    expect((await rows()).map((r) => [r.payload.includes('43'), r.state])).toEqual([
      [false, 'done'],
      [false, 'done'],
      [true, 'pending'],
      [false, 'done'],
    ]);
  });

  it('prunes handled rows older than a day, never pending ones', async () => {
    await clear();
    await ctx.container.outbox.write(ctx.container.db, [
      domainEvent('message.updated', event(31)),
      domainEvent('message.updated', event(32)),
      domainEvent('message.updated', event(33)),
    ]);
    const [a, b] = await rows();
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    await ctx.container.db
      .updateTable('outbox')
      .set({ state: 'done', done_at: old })
      .where('id', '=', a!.id)
      .execute();
    await ctx.container.db
      .updateTable('outbox')
      .set({ state: 'done', done_at: new Date().toISOString() })
      .where('id', '=', b!.id)
      .execute();
    expect(await ctx.container.outbox.prune()).toBe(1);
    expect((await rows()).map((r) => r.state)).toEqual(['done', 'pending']);
  });
});
