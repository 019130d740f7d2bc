import type { Redis } from 'ioredis';
import { redisInvalidations } from './redis-invalidations';

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
  /** Per company: its answers by key, and its generation. */
  const companies = new Map<number, { answers: Map<string, { body: Buffer; until: number }> }>();
  const generations = new Map<number, number>();
  /** Moves on every invalidation of everything (then every company's generation is new). */
  let epoch = 0;
  let size = 0;

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

  const invalidations = redisInvalidations<{ companies?: number[] }>({
    redis: options.redis,
    channel,
    name: 'answer-cache',
    onMessage: (message) => {
      if (!message.companies) return dropAll();
      for (const id of message.companies) dropCompany(id);
    },
    onReset: dropAll,
  });

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
      if (invalidations.live) {
        const hit = companies.get(companyId)?.answers.get(key);
        if (hit && hit.until > at) return hit.body;
      }
      const startedAt = generationOf(companyId);
      const body = Buffer.from(await build());
      if (invalidations.live && ttlMs > 0 && generationOf(companyId) === startedAt)
        store(companyId, key, body, at);
      return body;
    },

    /** Drops the companies' answers, here and (with Redis) in every other process. */
    async invalidate(companyIds: number[]): Promise<void> {
      if (!companyIds.length) return;
      for (const id of companyIds) dropCompany(id);
      await invalidations.publish({ companies: companyIds });
    },

    /** Drops every answer, here and (with Redis) in every other process. */
    async invalidateAll(): Promise<void> {
      dropAll();
      await invalidations.publish({});
    },

    /** Resolves true once the cache may serve (at once without Redis), false after `timeoutMs`. */
    ready(timeoutMs = 2000): Promise<boolean> {
      return invalidations.ready(timeoutMs);
    },

    /** False while a Redis subscription is down: every answer is then built. */
    get serving() {
      return invalidations.live;
    },

    /** Answers held (tests). */
    get size() {
      return size;
    },

    channel,

    async close(): Promise<void> {
      invalidations.close();
      dropAll();
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
