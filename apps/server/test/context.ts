import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../src/app';
import { type Container, type ContainerOptions, createContainer } from '../src/container';
import { type Database, createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { createAuthCache } from '../src/platform/auth-cache';
import { createRedisEventBus } from '../src/platform/events/redis-events';
import { createBullJobQueue } from '../src/platform/jobs/bullmq-jobs';
import { createMemoryRateLimitStore, createRedisRateLimitStore } from '../src/platform/rate-limit';
import { createLocalStorage } from '../src/platform/storage';

export interface TestContext {
  app: FastifyInstance;
  container: Container;
  engine: 'sqlite' | 'postgres';
  /** The media folder of this test file (a temp folder). */
  mediaDir: string;
  close(): Promise<void>;
}

export interface TestDatabase {
  database: Database;
  /** The PostgreSQL schema of this database (unset on SQLite). */
  schema?: string;
  /** The SQLite file (unset on PostgreSQL): other connections or processes may open it too. */
  sqliteFile?: string;
  /** Drops the schema or deletes the file (call after `database.destroy()`). */
  cleanup(): Promise<void>;
}

/**
 * A fresh, empty database: a temp SQLite file, or — when TEST_DATABASE_URL is set — a PostgreSQL schema
 * of its own, so parallel files never collide. Not migrated.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  const suffix = randomBytes(6).toString('hex');
  if (url) {
    const schema = `t_${suffix}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    return {
      database: createDatabase({ url, pgSchema: schema, poolSize: 4 }),
      schema,
      async cleanup() {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-test-'));
  const sqliteFile = path.join(dir, 'test.db');
  return {
    database: createDatabase({ sqliteFile }),
    sqliteFile,
    async cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh migrated database for one test file (see `createTestDatabase`), and the app on it. Redis backs
 * the rate limits when REDIS_URL is set, under a key prefix of its own.
 */
export async function createTestContext(
  options: ContainerOptions & {
    logger?: unknown;
    authCacheTtlMs?: number;
    metricsToken?: string;
    /** A built web app to serve, as WEB_DIST does. */
    webDist?: string;
  } = {},
): Promise<TestContext> {
  const suffix = randomBytes(6).toString('hex');
  const { database, schema, cleanup } = await createTestDatabase();
  await migrateToLatest(database.db, schema);
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-media-'));
  const storage = createLocalStorage(mediaDir);
  // The private files live apart from the media library, as in production.
  const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-private-'));
  const privateFiles = createLocalStorage(privateDir);
  const redis = process.env.REDIS_URL
    ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 2 })
    : undefined;
  const rateLimits = redis
    ? createRedisRateLimitStore(redis, `hb:test:${suffix}:`)
    : createMemoryRateLimitStore();
  const authCache = createAuthCache({
    redis,
    channel: `hb:test:${suffix}:auth`,
    ttlMs: options.authCacheTtlMs,
  });
  await authCache.ready();
  // With Redis, jobs go through BullMQ as in production (keys under this file's prefix); without, the
  // container's default queue in the database. Tests start the queue when they need jobs to run.
  const jobs = process.env.REDIS_URL
    ? createBullJobQueue({ redisUrl: process.env.REDIS_URL, prefix: `hb:test:${suffix}:jobs` })
    : undefined;
  const events = redis ? createRedisEventBus(redis, { prefix: `hb:test:${suffix}:` }) : undefined;
  const container = createContainer(
    { database, rateLimits, authCache, redis, appKey: randomBytes(32), storage, privateFiles, jobs, events },
    options,
  );
  const app = await buildApp({
    container,
    // biome-ignore lint/suspicious/noExplicitAny: tests may pass a pino destination
    logger: (options.logger as any) ?? false,
    metricsToken: options.metricsToken,
    webDist: options.webDist,
  });
  await app.ready();
  // A webhook delivery is processed after its 200 (modules/messaging/webhook-inbox.ts): a test that posts
  // one through `app.inject` gets its answer once the inbox has processed it, so it can look for the
  // rows at once. Real HTTP posts (the fake Graph API's webhooks) wait on `container.webhookInbox.idle()`.
  const inject = app.inject.bind(app) as (opts: unknown) => Promise<unknown>;
  (app as { inject: unknown }).inject = async (opts: unknown) => {
    const response = await inject(opts);
    const url = typeof opts === 'object' && opts !== null ? (opts as { url?: unknown }).url : undefined;
    if (typeof url === 'string' && url.startsWith('/api/v1/webhooks/whatsapp'))
      await container.webhookInbox.idle();
    return response;
  };
  return {
    app,
    container,
    engine: database.engine,
    mediaDir,
    async close() {
      await app.close();
      await authCache.close();
      await container.webhookInbox.stop();
      await container.outbox.stop();
      await container.jobs.stop();
      await container.events.close();
      await rateLimits.close();
      if (redis) {
        const keys = await redis.keys(`hb:test:${suffix}:*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
      await database.destroy();
      await cleanup();
      fs.rmSync(mediaDir, { recursive: true, force: true });
      fs.rmSync(privateDir, { recursive: true, force: true });
    },
  };
}
