import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Config } from './config/env';
import type { Infrastructure } from './container';
import { createDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { createAuthCache } from './platform/auth-cache';
import { createMemoryEventBus } from './platform/events/events';
import { createRedisEventBus } from './platform/events/redis-events';
import { createBullJobQueue } from './platform/jobs/bullmq-jobs';
import { createDatabaseJobQueue } from './platform/jobs/database-jobs';
import { createMemoryRateLimitStore, createRedisRateLimitStore } from './platform/rate-limit';
import { loadOrCreateAppKey, parseAppKey } from './platform/secrets';
import { createLocalStorage } from './platform/storage';

/**
 * Opens the database (migrated), Redis when configured, the rate-limit store, the job queue (BullMQ with
 * Redis, the database's `jobs` table without) and the event bus (Redis pub/sub, or in-process). `close()` stops the jobs first.
 */
export async function openInfrastructure(
  config: Pick<Config, 'databaseUrl' | 'redisUrl' | 'dataDir' | 'appKey'> & {
    redisPrefix?: string;
    previousAppKeys?: string[];
    pgSchema?: string;
  },
): Promise<Infrastructure & { close(): Promise<void> }> {
  // Holds the database, the app key and media: readable by the server's user only.
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const database = createDatabase({
    url: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'hablabot.db'),
    pgSchema: config.pgSchema,
  });
  await migrateToLatest(database.db, config.pgSchema);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  const prefix = config.redisPrefix ?? 'hb';
  const rateLimits = redis ? createRedisRateLimitStore(redis, `${prefix}:rl:`) : createMemoryRateLimitStore();
  const authCache = createAuthCache({ redis, channel: `${prefix}:auth:invalidate` });
  // With Redis, the cache serves once it hears the other processes; until then every request asks the
  // database, so a slow Redis only delays the speed-up, never the start.
  await authCache.ready();
  const appKey = loadOrCreateAppKey(config.dataDir, config.appKey);
  const storage = createLocalStorage(path.join(config.dataDir, 'media'));
  const privateFiles = createLocalStorage(path.join(config.dataDir, 'private'));
  const jobs = config.redisUrl
    ? createBullJobQueue({ redisUrl: config.redisUrl, prefix })
    : createDatabaseJobQueue({ db: database.db, engine: database.engine });
  const events = redis ? createRedisEventBus(redis, { prefix: `${prefix}:` }) : createMemoryEventBus();
  return {
    database,
    storage,
    privateFiles,
    jobs,
    events,
    redis,
    rateLimits,
    authCache,
    appKey,
    previousAppKeys: (config.previousAppKeys ?? []).map(parseAppKey),
    async close() {
      await authCache.close();
      await jobs.stop();
      await events.close();
      await rateLimits.close();
      redis?.disconnect();
      await database.destroy();
    },
  };
}
