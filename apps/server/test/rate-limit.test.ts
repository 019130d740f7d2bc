// Both rate-limit stores keep their promises under concurrency: counts are atomic and a claim has one
// holder. The Redis store runs when REDIS_URL is set.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type RateLimitStore,
  createMemoryRateLimitStore,
  createRedisRateLimitStore,
} from '../src/platform/rate-limit';
import { waitFor } from './wait';

const redis = process.env.REDIS_URL
  ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 2 })
  : undefined;
const prefix = `hb:test:rl:${randomBytes(4).toString('hex')}:`;
const stores: [string, RateLimitStore][] = [['memory', createMemoryRateLimitStore()]];
if (redis) stores.push(['redis', createRedisRateLimitStore(redis, prefix)]);

afterAll(async () => {
  for (const [, store] of stores) await store.close();
  if (redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
});

describe.each(stores)('%s rate-limit store', (_name, store) => {
  it('counts 100 parallel hits as 1..100, each once, and starts the window', async () => {
    const results = await Promise.all(Array.from({ length: 100 }, () => store.hit('parallel', 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(Math.max(...results.map((r) => r.resetSeconds))).toBeLessThanOrEqual(60);
    expect(Math.min(...results.map((r) => r.resetSeconds))).toBeGreaterThan(0);
    await store.reset('parallel');
    expect((await store.peek('parallel')).count).toBe(0);
  });

  it('gives a claim to exactly one of 50 parallel callers, and again after release or expiry', async () => {
    const claims = await Promise.all(Array.from({ length: 50 }, () => store.acquire('lock', 200)));
    expect(claims.filter((c) => c.acquired)).toHaveLength(1);
    const refused = claims.find((c) => !c.acquired)!;
    expect(refused.retryMs).toBeGreaterThan(0);
    expect(refused.retryMs).toBeLessThanOrEqual(200);
    await store.release('lock');
    expect((await store.acquire('lock', 100)).acquired).toBe(true);
    expect((await store.acquire('lock', 100)).acquired).toBe(false);
    // Held for 100 ms (Redis's own expiry on the Redis store): free again once they pass.
    await waitFor(async () => (await store.acquire('lock', 100)).acquired, 2000, 20);
  });

  it('a window ends: the count starts again', async () => {
    await store.hit('short', 100);
    expect((await store.hit('short', 100)).count).toBe(2);
    // The window of 100 ms ends (Redis's own expiry on the Redis store): the count is gone.
    await waitFor(async () => (await store.peek('short')).count === 0, 2000, 20);
    expect((await store.hit('short', 100)).count).toBe(1);
  });

  it("firstSeen keeps the first time written, on the caller's clock, until the key is reset", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      expect(await store.firstSeen('seen', 60_000)).toBe(1_000_000);
      vi.setSystemTime(1_005_000);
      expect(await store.firstSeen('seen', 60_000)).toBe(1_000_000);
      await store.reset('seen');
      expect(await store.firstSeen('seen', 60_000)).toBe(1_005_000);
    } finally {
      vi.useRealTimers();
    }
  });
});
