import { randomBytes } from 'node:crypto';
import type { ServerEvent } from '@hablabot/contract';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type Audience, createMemoryEventBus, type EventBus, type PublishedEvent, reaches } from './events';
import { createRedisEventBus } from './redis-events';

const redisUrl = process.env.REDIS_URL;

const unread = (clientId: number, count: number): ServerEvent => ({
  type: 'client.unread',
  data: {
    client_id: clientId,
    unread_messages_count: count,
    last_message_content: 'hola',
    last_message_date: null,
  },
});

interface BusFactory {
  /** A bus; buses from one factory share their store, as two app processes would. */
  bus(options?: { kept?: number }): EventBus;
  close(): Promise<void>;
}

function suite(label: string, factory: () => BusFactory, skip = false) {
  describe.skipIf(skip)(label, () => {
    const f = skip ? undefined : factory();
    const opened: EventBus[] = [];
    const bus = (options?: { kept?: number }) => {
      const b = f!.bus(options);
      opened.push(b);
      return b;
    };
    afterAll(async () => {
      await Promise.all(opened.map((b) => b.close()));
      await f?.close();
    });

    it('numbers events per company and delivers them to that company only, in order', async () => {
      const b = bus();
      const seen: Record<number, PublishedEvent[]> = { 1: [], 2: [] };
      const off1 = await b.subscribe(1, (e) => seen[1].push(e));
      const off2 = await b.subscribe(2, (e) => seen[2].push(e));
      const a1 = await b.publish(1, unread(10, 1));
      const b1 = await b.publish(2, unread(20, 1));
      const a2 = await b.publish(1, unread(10, 2));
      expect([a1.id, a2.id]).toEqual([1, 2]);
      expect(b1.id).toBe(1);
      await expect.poll(() => seen[1].length).toBe(2);
      await expect.poll(() => seen[2].length).toBe(1);
      expect(seen[1].map((e) => e.data)).toEqual([a1.data, a2.data]);
      expect(seen[2]).toEqual([b1]);
      off1();
      await b.publish(1, unread(10, 3));
      await b.publish(2, unread(20, 2));
      await expect.poll(() => seen[2].length).toBe(2);
      expect(seen[1]).toHaveLength(2);
      expect(b.listenerCount(1)).toBe(0);
      expect(b.listenerCount(2)).toBe(1);
      off2();
      expect(b.listenerCount(2)).toBe(0);
    });

    it('gives the kept events after an id, and says when some are no longer kept', async () => {
      const b = bus({ kept: 3 });
      const company = 3;
      for (let n = 1; n <= 5; n++) await b.publish(company, unread(30, n));
      expect(await b.since(company, 3)).toEqual({
        complete: true,
        events: [expect.objectContaining({ id: 4 }), expect.objectContaining({ id: 5 })],
      });
      expect(await b.since(company, 5)).toEqual({ complete: true, events: [] });
      // 2 is gone (only 3, 4, 5 are kept): event 2 was missed for good.
      const gap = await b.since(company, 1);
      expect(gap.complete).toBe(false);
      expect(gap.events.map((e) => e.id)).toEqual([3, 4, 5]);
      // An id above the last one: the ids started over.
      expect((await b.since(company, 99)).complete).toBe(false);
      expect(await b.since(4, 0)).toEqual({ complete: true, events: [] });
    });

    it('carries each event’s audience to subscribers and resumes, beside its data', async () => {
      const one = bus();
      // Another process's bus with Redis; in process, the same one.
      const two = label.startsWith('in-process') ? one : bus();
      const company = 6;
      const audience: Audience = { kind: 'conversation', assigneeId: 7, agentsSeeAll: false, also: [8] };
      const seen: PublishedEvent[] = [];
      await two.subscribe(company, (e) => seen.push(e));
      const published = await one.publish(company, unread(60, 1), audience);
      const bare = await one.publish(company, unread(60, 2));
      await expect.poll(() => seen.length).toBe(2);
      expect(seen[0]).toEqual({ ...unread(60, 1), id: published.id, audience });
      expect(seen[1]).not.toHaveProperty('audience');
      expect((await two.since(company, 0)).events).toEqual([published, bare]);
    });

    it.skipIf(label.startsWith('in-process'))(
      'shares events and ids between buses of different processes',
      async () => {
        const one = bus();
        const two = bus();
        const seen: PublishedEvent[] = [];
        await two.subscribe(5, (e) => seen.push(e));
        const first = await one.publish(5, unread(50, 1));
        const second = await two.publish(5, unread(50, 2));
        expect(second.id).toBe(first.id + 1);
        await expect.poll(() => seen.map((e) => e.id)).toEqual([first.id, second.id]);
        expect((await one.since(5, first.id)).events).toEqual([second]);
      },
    );
  });
}

suite('in-process event bus', () => {
  return { bus: (options) => createMemoryEventBus(options), close: async () => {} };
});

suite(
  'Redis event bus',
  () => {
    const prefix = `hb:test:events:${randomBytes(4).toString('hex')}:`;
    const connections: Redis[] = [];
    return {
      bus(options) {
        const redis = new Redis(redisUrl ?? '');
        connections.push(redis);
        return createRedisEventBus(redis, { prefix, ...options });
      },
      async close() {
        const keys = await connections[0]?.keys(`${prefix}*`);
        if (keys?.length) await connections[0].del(...keys);
        for (const c of connections) c.disconnect();
      },
    };
  },
  !redisUrl,
);

describe('who an event reaches', () => {
  const admin = { userId: 1, seesAll: true };
  const agent = { userId: 2, seesAll: false };
  const about = (assigneeId: number | null, agentsSeeAll = false, also?: number[]): Audience => ({
    kind: 'conversation',
    assigneeId,
    agentsSeeAll,
    also,
  });

  it('admins get everything; an agent their own, the unassigned, all when allowed, or when named', () => {
    for (const audience of [undefined, { kind: 'admins' } as const, about(3), about(null)])
      expect(reaches(audience, admin)).toBe(true);
    expect(reaches(about(2), agent)).toBe(true);
    expect(reaches(about(null), agent)).toBe(true);
    expect(reaches(about(3, true), agent)).toBe(true);
    expect(reaches(about(3, false, [2]), agent)).toBe(true);
    expect(reaches({ kind: 'team' }, agent)).toBe(true);
    expect(reaches(about(3), agent)).toBe(false);
    expect(reaches(about(3, false, [4]), agent)).toBe(false);
    expect(reaches({ kind: 'admins' }, agent)).toBe(false);
    // Published before audiences existed: admins only.
    expect(reaches(undefined, agent)).toBe(false);
  });
});
