import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface RateLimitResult {
  count: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface AcquireResult {
  acquired: boolean;
  /** When not acquired: milliseconds until the holder's claim runs out. */
  retryMs: number;
}

/**
 * Fixed-window counters and short claims: in memory for one process, Redis when several processes
 * share the limits. Both implementations are atomic: `hit` counts and answers in one step, and only one
 * caller at a time holds a claim.
 */
export interface RateLimitStore {
  /** Counts one attempt and returns the count in the current window (the window starts at the first). */
  hit(key: string, windowMs: number): Promise<RateLimitResult>;
  peek(key: string): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
  /** Claims `key` for `ttlMs` unless someone holds it (a lock, or a "not before" mark when never released). */
  acquire(key: string, ttlMs: number): Promise<AcquireResult>;
  /** Gives a claim back early. */
  release(key: string): Promise<void>;
  /**
   * Writes the current time (`Date.now()` of the caller) under `key` for `ttlMs` unless a time is there
   * already, and returns the time kept: when `key` was first seen. Times are the callers' clocks, so
   * "not before" marks kept this way follow the app's clock, not the store's.
   */
  firstSeen(key: string, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const claims = new Map<string, number>();
  const seen = new Map<string, { at: number; until: number }>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
    for (const [k, until] of claims) if (until <= now) claims.delete(k);
    for (const [k, s] of seen) if (s.until <= now) seen.delete(k);
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
      seen.delete(key);
    },
    async acquire(key, ttlMs) {
      const now = Date.now();
      const until = claims.get(key);
      if (until !== undefined && until > now) return { acquired: false, retryMs: until - now };
      claims.set(key, now + ttlMs);
      return { acquired: true, retryMs: 0 };
    },
    async release(key) {
      claims.delete(key);
    },
    async firstSeen(key, ttlMs) {
      const now = Date.now();
      const s = seen.get(key);
      if (s && s.until > now) return s.at;
      seen.set(key, { at: now, until: now + ttlMs });
      return now;
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

/** Counts and starts the window in one step, so a crash between the two cannot leave a counter forever. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

/** Deletes a claim only if it is still ours (it may have run out and been taken by another process). */
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Keeps the first time written under a key, and answers it. */
const FIRST_SEEN_SCRIPT = `
local at = redis.call('GET', KEYS[1])
if at then return at end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

export function createRedisRateLimitStore(redis: Redis, prefix = 'hb:rl:'): RateLimitStore {
  /** The value this process wrote for each claim it holds, and when the claim runs out. */
  const held = new Map<string, { value: string; until: number }>();
  const prune = () => {
    const now = Date.now();
    for (const [k, h] of held) if (h.until <= now) held.delete(k);
  };
  return {
    async hit(key, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [number, number];
      return { count, resetSeconds: Math.ceil(ttl / 1000) };
    },
    async acquire(key, ttlMs) {
      const k = prefix + key;
      const value = randomBytes(8).toString('hex');
      const ok = await redis.set(k, value, 'PX', ttlMs, 'NX');
      if (ok === 'OK') {
        if (held.size >= 1000) prune(); // claims never released (slow-down marks) run out by themselves
        held.set(k, { value, until: Date.now() + ttlMs });
        return { acquired: true, retryMs: 0 };
      }
      const ttl = await redis.pttl(k);
      return { acquired: false, retryMs: Math.max(ttl, 1) };
    },
    async release(key) {
      const k = prefix + key;
      const claim = held.get(k);
      if (claim === undefined) return;
      held.delete(k);
      await redis.eval(RELEASE_SCRIPT, 1, k, claim.value);
    },
    async firstSeen(key, ttlMs) {
      return Number(await redis.eval(FIRST_SEEN_SCRIPT, 1, prefix + key, Date.now(), ttlMs));
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
