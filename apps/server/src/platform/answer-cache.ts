import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface AnswerCacheOptions {
  /**
   * How long a kept answer is served without being built again. Freshness rests on invalidation; this
   * only bounds the damage of a change nothing announced (made by hand in the database, or by a process
   * that died between its commit and its announcement).
   */
  ttlMs?: number;
  /** Most answers kept; the oldest goes first when full. */
  maxEntries?: number;
  /**
   * With Redis, every process hears the others' invalidations on `channel`, and the cache serves nothing
   * while it is not subscribed (a process that may have missed a message builds every answer).
   */
  redis?: Redis;
  channel?: string;
  /** The clock (tests). */
  now?: () => number;
}

export const ANSWER_CACHE_TTL_MS = 10_000;

/**
 * Serialised answers of a company's reads, kept by the caller's key (what the answer depends on: the
 * query, and what the caller may see). Correctness rests on invalidation: whatever changes what a kept
 * answer shows must call `invalidate(companyId)` after its change is committed. With Redis the
 * invalidation is applied here at once and published, and every other process drops the company's
 * answers when the message arrives; a process whose subscription is down serves nothing from the cache
 * until it has subscribed again and emptied it.
 *
 * An answer built while an invalidation of its company happened (started before, finished after) is
 * not kept: each company's invalidations move a generation counter, and an answer is stored only if the
 * counter did not move while it was built.
 */
export function createAnswerCache(options: AnswerCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? ANSWER_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? 2000;
  const channel = options.channel ?? 'hb:answers:invalidate';
  const now = options.now ?? Date.now;
  const origin = randomBytes(8).toString('hex');
  /** Per company: its answers by key, and its generation. */
  const companies = new Map<number, { answers: Map<string, { body: Buffer; until: number }> }>();
  const generations = new Map<number, number>();
  /** Moves on every invalidation of everything (then every company's generation is new). */
  let epoch = 0;
  let size = 0;
  let subscribed = !options.redis;
  let closed = false;
  let readyWaiters: (() => void)[] = [];

  const generationOf = (companyId: number) => `${epoch}:${generations.get(companyId) ?? 0}`;

  function dropCompany(companyId: number) {
    const held = companies.get(companyId);
    if (held) {
      size -= held.answers.size;
      companies.delete(companyId);
    }
    generations.set(companyId, (generations.get(companyId) ?? 0) + 1);
  }

  function dropAll() {
    companies.clear();
    size = 0;
    epoch++;
  }

  const subscriber = options.redis?.duplicate({ connectionName: `answer-cache:${origin}` });
  if (subscriber) {
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      try {
        const message = JSON.parse(text) as { origin: string; companies?: number[] };
        if (message.origin === origin) return;
        if (message.companies) for (const id of message.companies) dropCompany(id);
        else dropAll();
      } catch {
        dropAll();
      }
    });
    const down = () => {
      subscribed = false;
    };
    subscriber.on('close', down);
    subscriber.on('reconnecting', down);
    subscriber.on('end', down);
    // Also after a reconnection: whatever was published while we were away is lost, so start empty.
    subscriber.on('ready', () => {
      subscriber
        .subscribe(channel)
        .then(() => {
          if (subscriber.status !== 'ready' || closed) return;
          dropAll();
          subscribed = true;
          for (const wake of readyWaiters) wake();
          readyWaiters = [];
        })
        .catch(down);
    });
    subscriber.on('error', () => {}); // ioredis reconnects by itself; until then the cache stays unused
  }

  async function publish(message: { companies?: number[] }) {
    if (!options.redis) return;
    try {
      await options.redis.publish(channel, JSON.stringify({ origin, ...message }));
    } catch {
      // Redis is unreachable: the other processes' subscriptions are down too, so they serve nothing from
      // their caches until they have subscribed again (and emptied them).
    }
  }

  function store(companyId: number, key: string, body: Buffer, at: number) {
    let held = companies.get(companyId);
    if (!held) {
      held = { answers: new Map() };
      companies.set(companyId, held);
    }
    if (!held.answers.has(key)) {
      if (size >= maxEntries) {
        // Full: the company that has held answers longest gives them up (cheap, and rare).
        const [oldest, its] = companies.entries().next().value!;
        size -= its.answers.size;
        companies.delete(oldest);
        if (oldest === companyId) {
          held = { answers: new Map() };
          companies.set(companyId, held);
        }
      }
      size++;
    }
    held.answers.set(key, { body, until: at + ttlMs });
  }

  return {
    /**
     * The company's answer for `key`: the kept one while fresh, otherwise the one `build` serialises
     * (and then kept, unless the company was invalidated meanwhile).
     */
    async answer(companyId: number, key: string, build: () => Promise<string>): Promise<Buffer> {
      const at = now();
      if (subscribed && !closed) {
        const hit = companies.get(companyId)?.answers.get(key);
        if (hit && hit.until > at) return hit.body;
      }
      const startedAt = generationOf(companyId);
      const body = Buffer.from(await build());
      if (subscribed && !closed && ttlMs > 0 && generationOf(companyId) === startedAt)
        store(companyId, key, body, at);
      return body;
    },

    /** Drops the companies' answers, here and (with Redis) in every other process. */
    async invalidate(companyIds: number[]): Promise<void> {
      if (!companyIds.length) return;
      for (const id of companyIds) dropCompany(id);
      await publish({ companies: companyIds });
    },

    /** Drops every answer, here and (with Redis) in every other process. */
    async invalidateAll(): Promise<void> {
      dropAll();
      await publish({});
    },

    /** Resolves true once the cache may serve (at once without Redis), false after `timeoutMs`. */
    ready(timeoutMs = 2000): Promise<boolean> {
      if (subscribed) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
        readyWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },

    /** False while a Redis subscription is down: every answer is then built. */
    get serving() {
      return subscribed && !closed;
    },

    /** Answers held (tests). */
    get size() {
      return size;
    },

    channel,

    async close(): Promise<void> {
      closed = true;
      dropAll();
      subscriber?.disconnect();
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
