import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { buildApp } from '../src/app';
import { type Container, type ContainerOptions, createContainer } from '../src/container';
import { createDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { createAuthCache } from '../src/platform/auth-cache';
import { createMemoryRateLimitStore, createRedisRateLimitStore } from '../src/platform/rate-limit';

export interface TestContext {
  app: FastifyInstance;
  container: Container;
  engine: 'sqlite' | 'postgres';
  close(): Promise<void>;
}

/**
 * A fresh migrated database for one test file: a temp SQLite file, or — when TEST_DATABASE_URL is set —
 * a PostgreSQL schema of its own, so parallel files never collide. Redis backs the rate limits when
 * REDIS_URL is set, under a key prefix of its own.
 */
export async function createTestContext(
  options: ContainerOptions & { logger?: unknown; authCacheTtlMs?: number } = {},
): Promise<TestContext> {
  const url = process.env.TEST_DATABASE_URL;
  const suffix = randomBytes(6).toString('hex');
  let cleanup: () => Promise<void>;
  let database: ReturnType<typeof createDatabase>;
  let schema: string | undefined;
  if (url) {
    schema = `t_${suffix}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    database = createDatabase({ url, pgSchema: schema, poolSize: 4 });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-test-'));
    database = createDatabase({ sqliteFile: path.join(dir, 'test.db') });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  await migrateToLatest(database.db, schema);
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
  const container = createContainer(
    { database, rateLimits, authCache, redis, appKey: randomBytes(32) },
    options,
  );
  // biome-ignore lint/suspicious/noExplicitAny: tests may pass a pino destination
  const app = await buildApp({ container, logger: (options.logger as any) ?? false });
  await app.ready();
  return {
    app,
    container,
    engine: database.engine,
    async close() {
      await app.close();
      await authCache.close();
      await rateLimits.close();
      if (redis) {
        const keys = await redis.keys(`hb:test:${suffix}:*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
      await database.destroy();
      await cleanup();
    },
  };
}
