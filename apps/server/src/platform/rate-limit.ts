import type { Redis } from 'ioredis';

export interface RateLimitResult {
  count: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** Fixed-window counters: in memory for one process, Redis when several processes share the limits. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitResult>;
  peek(key: string): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
  }, 60_000);
  sweep.unref();
  const read = (key: string): RateLimitResult => {
    const w = windows.get(key);
    const now = Date.now();
    if (!w || w.resetAt <= now) return { count: 0, resetSeconds: 0 };
    return { count: w.count, resetSeconds: Math.ceil((w.resetAt - now) / 1000) };
  };
  return {
    async hit(key, windowMs) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || w.resetAt <= now) {
        w = { count: 0, resetAt: now + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return { count: w.count, resetSeconds: Math.ceil((w.resetAt - now) / 1000) };
    },
    async peek(key) {
      return read(key);
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

export function createRedisRateLimitStore(redis: Redis, prefix = 'hb:rl:'): RateLimitStore {
  return {
    async hit(key, windowMs) {
      const k = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().incr(k).pttl(k).exec()) as [
        [null, number],
        [null, number],
      ];
      let remaining = ttl;
      if (ttl < 0) {
        await redis.pexpire(k, windowMs);
        remaining = windowMs;
      }
      return { count, resetSeconds: Math.ceil(remaining / 1000) };
    },
    async peek(key) {
      const k = prefix + key;
      const [[, count], [, ttl]] = (await redis.multi().get(k).pttl(k).exec()) as [
        [null, string | null],
        [null, number],
      ];
      return { count: Number(count ?? 0), resetSeconds: ttl > 0 ? Math.ceil(ttl / 1000) : 0 };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {},
  };
}
