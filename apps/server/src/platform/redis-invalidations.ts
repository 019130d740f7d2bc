import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * How a process-local cache hears the other processes' invalidations over a Redis channel, shared by the
 * sign-in cache (auth-cache.ts) and the answer cache (answer-cache.ts).
 *
 * The rule both rest on: a cache serves only while `live` is true. Without Redis there is no one else
 * to hear from, so it is live from the start. With Redis it is live only while subscribed: when the
 * connection drops, messages published meanwhile are lost, so the cache stops serving; once subscribed
 * again it is emptied (`onReset`) before it serves again. A message this process published itself is
 * not applied twice (each process has its own origin); one that cannot be read empties the cache.
 */
export interface InvalidationChannel<M extends object> {
  /** Whether the cache may serve from memory now. */
  readonly live: boolean;
  /** Sends `message` to every other process (nothing without Redis; a failed publish is ignored). */
  publish(message: M): Promise<void>;
  /** Resolves true once live (at once without Redis), false after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<boolean>;
  /** The name of the subscribing Redis connection (CLIENT LIST shows it). */
  readonly connectionName: string;
  /** Stops listening; `live` is false from then on with Redis. */
  close(): void;
}

export function redisInvalidations<M extends object>(options: {
  redis?: Redis;
  channel: string;
  /** Names the subscribing connection: `${name}:${origin}`. */
  name: string;
  /** Another process's message. */
  onMessage(message: M): void;
  /** The cache must be emptied: after (re)subscribing, or on a message that cannot be read. */
  onReset(): void;
}): InvalidationChannel<M> {
  const { redis, channel } = options;
  const origin = randomBytes(8).toString('hex');
  const connectionName = `${options.name}:${origin}`;
  let live = !redis;
  let closed = false;
  let readyWaiters: (() => void)[] = [];

  const subscriber = redis?.duplicate({ connectionName });
  if (subscriber) {
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      try {
        const { origin: sender, ...message } = JSON.parse(text) as { origin: string };
        if (sender === origin) return;
        options.onMessage(message as M);
      } catch {
        options.onReset();
      }
    });
    const down = () => {
      live = false;
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
          options.onReset();
          live = true;
          for (const wake of readyWaiters) wake();
          readyWaiters = [];
        })
        .catch(down);
    });
    subscriber.on('error', () => {}); // ioredis reconnects by itself; until then the cache stays unused
  }

  return {
    get live() {
      return live && !closed;
    },
    async publish(message: M) {
      if (!redis) return;
      try {
        await redis.publish(channel, JSON.stringify({ origin, ...message }));
      } catch {
        // Redis is unreachable: the other processes' subscriptions are down too, so they serve nothing
        // from their caches until they have subscribed again (and emptied them).
      }
    },
    ready(timeoutMs = 2000) {
      if (live) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        timer.unref();
        readyWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    connectionName,
    close() {
      closed = true;
      subscriber?.disconnect();
    },
  };
}
