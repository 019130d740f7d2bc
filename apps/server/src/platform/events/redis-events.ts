import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { EVENTS_KEPT, type EventBus, missedAfter, type PublishedEvent } from './events';

/**
 * Numbers the event, keeps it in the company's list (the last ARGV[2]) and publishes it, all in one
 * step, so ids, the kept list and the order subscribers see always agree across processes.
 * ARGV[1] is the event's JSON without its id.
 */
const PUBLISH = `
local id = redis.call('INCR', KEYS[1])
local message = '{"id":' .. id .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[2], message)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PUBLISH', KEYS[3], message)
return id
`;

/**
 * Events through Redis: each company has a counter, a list of its last events and a pub/sub channel.
 * Subscribing uses a connection of its own (a subscribed connection can do nothing else), shared by
 * every stream of this process.
 */
export function createRedisEventBus(
  redis: Redis,
  options: { prefix?: string; kept?: number } = {},
): EventBus {
  const prefix = `${options.prefix ?? 'hb:'}events:`;
  const kept = options.kept ?? EVENTS_KEPT;
  const keys = (companyId: number) => ({
    seq: `${prefix}${companyId}:seq`,
    log: `${prefix}${companyId}:log`,
    channel: `${prefix}${companyId}`,
  });
  const local = new EventEmitter();
  local.setMaxListeners(0);
  let subscriber: Redis | undefined;
  let subscriberReady: Promise<Redis> | undefined;
  const listening = new Map<string, number>();

  /**
   * The subscribing connection, once it is ready: a SUBSCRIBE queued before its first ready check would
   * put it in subscriber mode under that check (ioredis' INFO), which then fails every stream opening at
   * that moment (several streams opening together right after a start).
   */
  function subscriberConnection(): Promise<Redis> {
    if (!subscriberReady) {
      const connection = redis.duplicate();
      subscriber = connection;
      connection.on('message', (channel: string, message: string) => {
        local.emit(channel, JSON.parse(message) as PublishedEvent);
      });
      // A dropped connection re-subscribes by itself (ioredis autoResubscribe); errors are only logged there.
      connection.on('error', () => {});
      subscriberReady =
        connection.status === 'ready'
          ? Promise.resolve(connection)
          : new Promise<Redis>((resolve, reject) => {
              connection.once('ready', () => resolve(connection));
              connection.once('end', () => reject(new Error('event subscriber connection ended')));
            });
      // Not ready and never will be: the next stream tries a new connection.
      subscriberReady.catch(() => {
        if (subscriber === connection) {
          subscriber = undefined;
          subscriberReady = undefined;
        }
      });
    }
    return subscriberReady;
  }

  return {
    kind: 'redis',
    async publish(companyId, event, audience) {
      const k = keys(companyId);
      // The audience rides in the message (each process's streams filter by it), never to a browser.
      const message = audience ? { ...event, audience } : event;
      const id = (await redis.eval(
        PUBLISH,
        3,
        k.seq,
        k.log,
        k.channel,
        JSON.stringify(message),
        kept,
      )) as number;
      return { ...message, id } as PublishedEvent;
    },
    async subscribe(companyId, listener) {
      const { channel } = keys(companyId);
      local.on(channel, listener);
      const count = listening.get(channel) ?? 0;
      listening.set(channel, count + 1);
      try {
        // Every caller waits for the acknowledgement, so none misses an event published right after.
        await (await subscriberConnection()).subscribe(channel);
      } catch (err) {
        local.off(channel, listener);
        listening.set(channel, (listening.get(channel) ?? 1) - 1);
        throw err;
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        local.off(channel, listener);
        const left = (listening.get(channel) ?? 1) - 1;
        if (left > 0) {
          listening.set(channel, left);
          return;
        }
        listening.delete(channel);
        subscriber?.unsubscribe(channel).catch(() => {});
      };
    },
    async since(companyId, lastId) {
      const k = keys(companyId);
      const result = await redis.multi().get(k.seq).lrange(k.log, 0, -1).exec();
      const seq = Number(result?.[0]?.[1] ?? 0);
      const list = (result?.[1]?.[1] as string[] | undefined) ?? [];
      return missedAfter(
        list.map((m) => JSON.parse(m) as PublishedEvent),
        seq,
        lastId,
      );
    },
    listenerCount(companyId) {
      return local.listenerCount(keys(companyId).channel);
    },
    async close() {
      local.removeAllListeners();
      listening.clear();
      subscriber?.disconnect();
      subscriber = undefined;
      subscriberReady = undefined;
    },
  };
}
