import type { Redis } from 'ioredis';
import type { UserWithRoles } from '../modules/identity/users.repository';
import { redisInvalidations } from './redis-invalidations';

/** What a bearer token signs in: the token's row id, its user (with roles) and when the token expires. */
export interface TokenOwner {
  tokenId: number;
  user: UserWithRoles;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface AuthCacheOptions {
  /** How long a looked-up token is trusted without asking the database again. */
  ttlMs?: number;
  /** Most tokens kept; the oldest entry goes first when full. */
  maxEntries?: number;
  /**
   * With Redis, every process hears the others' invalidations on this channel, and the cache serves
   * nothing while it is not subscribed (a process that may have missed a message asks the database).
   */
  redis?: Redis;
  channel?: string;
}

export const AUTH_CACHE_TTL_MS = 5000;

/** Hears which users' tokens may grant something else now; 'all' for every user. */
export type ForgetListener = (users: number[] | 'all') => void;

/**
 * Signed-in users by token hash, so a request with a bearer token does not cost three queries (token,
 * user, roles). Correctness rests on explicit invalidation: whatever changes what a token grants — sign
 * out, a new password, other roles or company, a deleted user, a renamed or deleted role, a deleted
 * company — must call `forgetUsers` or `forgetAll` after its change is committed and before it answers.
 * The short time to live only bounds the damage of a change made behind the application's back (by hand
 * in the database); an entry never outlives its token's expiry.
 *
 * A lookup that raced with an invalidation (it started before and finished after) is not kept: each
 * invalidation moves a generation counter, and a result is stored only if the counter did not move while
 * it was loaded.
 *
 * With several processes (Redis configured), an invalidation is applied here at once and published;
 * the others drop their entries when the message arrives (milliseconds). A process whose subscription is
 * down serves nothing from its cache until it has subscribed again and emptied it.
 */
export function createAuthCache(options: AuthCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? AUTH_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? 10_000;
  const channel = options.channel ?? 'hb:auth:invalidate';
  const entries = new Map<string, { owner: TokenOwner; until: number }>();
  let generation = 0;
  const forgetListeners = new Set<ForgetListener>();

  function tell(users: number[] | 'all') {
    for (const listener of forgetListeners) listener(users);
  }

  function clear() {
    entries.clear();
    generation++;
    tell('all');
  }

  function dropUsers(ids: number[]) {
    const set = new Set(ids);
    for (const [hash, entry] of entries) if (set.has(entry.owner.user.id)) entries.delete(hash);
    generation++;
    tell(ids);
  }

  const invalidations = redisInvalidations<{ users?: number[] }>({
    redis: options.redis,
    channel,
    name: 'auth-cache',
    onMessage: (message) => (message.users ? dropUsers(message.users) : clear()),
    onReset: clear,
  });

  return {
    /** The token's owner, from memory while fresh, otherwise from `load` (and then kept). */
    async lookup(
      tokenHash: string,
      load: () => Promise<TokenOwner | undefined>,
    ): Promise<TokenOwner | undefined> {
      const now = Date.now();
      const hit = entries.get(tokenHash);
      if (hit) {
        if (invalidations.live && hit.until > now) return hit.owner;
        entries.delete(tokenHash);
      }
      const startedAt = generation;
      const owner = await load();
      if (owner && invalidations.live && startedAt === generation && ttlMs > 0) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(tokenHash, { owner: freeze(owner), until: Math.min(now + ttlMs, owner.expiresAt) });
      }
      return owner;
    },

    /** Drops what is known about these users' tokens, here and (with Redis) in every other process. */
    async forgetUsers(userIds: number[]): Promise<void> {
      dropUsers(userIds);
      await invalidations.publish({ users: userIds });
    },

    /** Drops every entry, here and (with Redis) in every other process. */
    async forgetAll(): Promise<void> {
      clear();
      await invalidations.publish({});
    },

    /**
     * Called whenever what some users' tokens grant may have changed: with their ids, or 'all' (a role
     * changed, or a Redis subscription came back and may have missed messages). Heard for changes made
     * in this process and, with Redis, in every other one. Open event streams use it to check again
     * whether their token still may read them (platform/events/stream-access.ts). The result stops it.
     */
    onForget(listener: ForgetListener): () => void {
      forgetListeners.add(listener);
      return () => forgetListeners.delete(listener);
    },

    /** Resolves true once the cache may serve (at once without Redis), false after `timeoutMs`. */
    ready(timeoutMs = 2000): Promise<boolean> {
      return invalidations.ready(timeoutMs);
    },

    /** False while a Redis subscription is down: every look-up then goes to the database. */
    get serving() {
      return invalidations.live;
    },

    /** The name of the subscribing Redis connection (CLIENT LIST shows it). */
    connectionName: invalidations.connectionName,

    /** Entries held (tests). */
    get size() {
      return entries.size;
    },

    /** The Redis channel invalidations travel on. */
    channel,

    async close(): Promise<void> {
      invalidations.close();
      entries.clear();
      forgetListeners.clear();
    },
  };
}

export type AuthCache = ReturnType<typeof createAuthCache>;

/** Entries are shared by every request of the token: nothing may change them. */
function freeze(owner: TokenOwner): TokenOwner {
  for (const role of owner.user.roles) Object.freeze(role);
  Object.freeze(owner.user.roles);
  Object.freeze(owner.user);
  return Object.freeze(owner);
}
