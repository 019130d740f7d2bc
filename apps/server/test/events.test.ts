import type { ServerEvent } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { createCast, type TestUser } from './factories';
import { openStream } from './sse';

const unread = (clientId: number, count: number): ServerEvent => ({
  type: 'client.unread',
  data: {
    client_id: clientId,
    unread_messages_count: count,
    last_message_content: `m${count}`,
    last_message_date: null,
  },
});

describe('GET /api/v1/admin/events', () => {
  let ctx: TestContext;
  let base: string;
  let cast: Awaited<ReturnType<typeof createCast>>;
  const companyOf = (u: TestUser) => u.user.company_id as number;

  beforeAll(async () => {
    ctx = await createTestContext({ eventsHeartbeatMs: 150 });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    cast = await createCast(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('refuses strangers, clients and the super admin (no company)', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/events' })).statusCode).toBe(401);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/events',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
    for (const user of [cast.client, cast.superAdmin]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/admin/events', headers: user.headers });
      expect(res.statusCode).toBe(403);
    }
  });

  it('streams each company its own events only, with ids, and heartbeats', async () => {
    const { events } = ctx.container;
    const a = await openStream(base, cast.admin);
    const b = await openStream(base, cast.otherAdmin);
    expect(a.res.status).toBe(200);
    expect(a.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(a.res.headers.get('cache-control')).toContain('no-cache');
    await expect.poll(() => events.listenerCount(companyOf(cast.otherAdmin))).toBe(1);
    await expect.poll(() => events.listenerCount(companyOf(cast.admin))).toBe(1);

    const a1 = await events.publish(companyOf(cast.admin), unread(1, 1));
    const b1 = await events.publish(companyOf(cast.otherAdmin), unread(2, 1));
    const a2 = await events.publish(companyOf(cast.admin), {
      type: 'client.bot_mode',
      data: { client_id: 1, mode_bot: 0 },
    });
    const b2 = await events.publish(companyOf(cast.otherAdmin), unread(2, 2));
    await expect.poll(() => a.events().length).toBe(2);
    await expect.poll(() => b.events().length).toBe(2);
    expect(a.events()).toEqual([
      { id: String(a1.id), event: 'client.unread', data: JSON.stringify(a1.data) },
      { id: String(a2.id), event: 'client.bot_mode', data: '{"client_id":1,"mode_bot":0}' },
    ]);
    expect(b.events().map((e) => e.id)).toEqual([String(b1.id), String(b2.id)]);
    expect(b.events().map((e) => JSON.parse(e.data ?? ''))).toEqual([b1.data, b2.data]);

    await expect
      .poll(() => a.records.filter((r) => r.comment === 'heartbeat').length)
      .toBeGreaterThanOrEqual(2);
    a.close();
    b.close();
    // Leaving unsubscribes: nothing stays attached to the bus.
    await expect.poll(() => events.listenerCount(companyOf(cast.admin))).toBe(0);
    await expect.poll(() => events.listenerCount(companyOf(cast.otherAdmin))).toBe(0);
  });

  it('resumes after Last-Event-ID with what was missed, then goes on live', async () => {
    const { events } = ctx.container;
    const company = companyOf(cast.admin);
    const first = await openStream(base, cast.admin);
    await expect.poll(() => events.listenerCount(company)).toBe(1);
    const seen = await events.publish(company, unread(5, 1));
    await expect.poll(() => first.events().length).toBe(1);
    first.close();
    await expect.poll(() => events.listenerCount(company)).toBe(0);

    const missed1 = await events.publish(company, unread(5, 2));
    const missed2 = await events.publish(company, unread(5, 3));
    const again = await openStream(base, cast.admin, String(seen.id));
    await expect.poll(() => again.events().length).toBe(2);
    await expect.poll(() => events.listenerCount(company)).toBe(1);
    const live = await events.publish(company, unread(5, 4));
    await expect.poll(() => again.events().length).toBe(3);
    expect(again.events().map((e) => Number(e.id))).toEqual([missed1.id, missed2.id, live.id]);
    again.close();

    // An id the server never gave (the ids started over): told to reload with stream.reset.
    const stale = await openStream(base, cast.admin, '999999');
    await expect.poll(() => stale.events().length).toBe(1);
    expect(stale.events()[0]).toMatchObject({ event: 'stream.reset', data: '{}' });
    const next = await events.publish(company, unread(5, 5));
    await expect.poll(() => stale.events().length).toBe(2);
    expect(stale.events()[1].id).toBe(String(next.id));
    stale.close();

    // A Last-Event-ID that is not an id is ignored: a fresh stream.
    const odd = await openStream(base, cast.admin, 'abc');
    expect(odd.res.status).toBe(200);
    await expect.poll(() => events.listenerCount(company)).toBeGreaterThanOrEqual(1);
    odd.close();
  });

  it('ends open streams when the server stops', async () => {
    const own = await createTestContext();
    const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const { admin } = await createCast(own);
    const stream = await openStream(url, admin);
    await expect.poll(() => own.container.events.listenerCount(companyOf(admin))).toBe(1);
    // Without ending the stream, close would wait for the open connection until the process is killed.
    await own.close();
    await stream.reading;
    expect(stream.ended()).toBe(true);
  });
});
