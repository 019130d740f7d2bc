// A delivery the webhook answered 200 is never lost: the real server (apps/server/src/main.ts) takes a
// burst of deliveries, is killed with SIGKILL in the middle of it, and is started again on the same data.
// Every acknowledged message is then stored, and none twice. On SQLite the server keeps its file in a temp
// data folder; when TEST_DATABASE_URL is set it runs on PostgreSQL instead, on a database of its own
// (created here, dropped after), as the several-instances test does, since the server migrates a whole
// database rather than a test's schema.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database';
import { createRepositories } from '../src/repositories';
import { createSettingsRepository } from '../src/modules/settings/settings.repository';
import { freePort } from './ports';
import { waitFor } from './wait';
import { inboundBody, signedRequest } from './whatsapp-webhook';

const root = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(root, 'apps/server/src/main.ts');
const PHONE_ID = '555000888';
const DELIVERIES = 300;
/** Posts in flight at once. */
const CONCURRENCY = 30;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-kill-'));
const started: ChildProcess[] = [];
/** PostgreSQL when TEST_DATABASE_URL is set: the server's own database, created for this file. */
const pgDatabase = process.env.TEST_DATABASE_URL ? `hb_kill_${randomBytes(4).toString('hex')}` : undefined;
const engine = pgDatabase ? 'postgres' : 'sqlite';

/** The URL of this file's PostgreSQL database (TEST_DATABASE_URL with its own database name). */
function databaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${pgDatabase}`;
  return url.toString();
}

/** Runs one statement on the PostgreSQL server's maintenance connection (TEST_DATABASE_URL). */
async function onPgServer(statement: string) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  if (pgDatabase) await onPgServer(`create database ${pgDatabase}`);
});

afterAll(async () => {
  const stopped = started
    .filter((p) => p.exitCode === null && p.signalCode === null)
    .map((p) => new Promise<void>((resolve) => p.once('exit', () => resolve())));
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await Promise.all(stopped);
  if (pgDatabase) await onPgServer(`drop database if exists ${pgDatabase} with (force)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function launch() {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(pgDatabase ? { DATABASE_URL: databaseUrl() } : {}),
      SUPERADMIN_PASSWORD: 'Kill-test-super-password-9',
      LOG_LEVEL: 'warn',
      HABLABOT_SKIP_WEB_BUILD: '1',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      // The killed process's claim runs out quickly, so the next one takes its rows at once.
      WEBHOOK_LEASE_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(proc);
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`the server exited early: ${output}`);
      return (await fetch(`${base}/api/v1/health`).catch(() => undefined))?.ok;
    },
    60_000,
    100,
  ).catch((err: Error) => {
    throw new Error(`the server did not start (${err.message}): ${output}`);
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  return { proc, base, exited };
}

describe(`webhook inbox and SIGKILL (${engine}, real processes)`, () => {
  it('stores every acknowledged delivery exactly once after a SIGKILL mid-burst and a restart', async () => {
    const first = await launch();
    // The test reads and seeds the same data the server uses (the server migrated it as it started).
    const database = createDatabase(
      pgDatabase ? { url: databaseUrl(), poolSize: 2 } : { sqliteFile: path.join(dataDir, 'hablabot.db') },
    );
    const { db } = database;
    try {
      const company = await createRepositories(db).companies.createCompany('Kill test');
      // No app secret: unsigned deliveries are taken outside production.
      await createSettingsRepository(db).upsertSettings(company.id, { whatsapp_phone_id: PHONE_ID });

      const acknowledged: string[] = [];
      let next = 0;
      let killed = false;
      const post = async (i: number) => {
        const wamid = `wamid.kill.${i}`;
        const phone = `3461100${String(i % 40).padStart(4, '0')}`;
        const request = signedRequest(
          inboundBody(PHONE_ID, phone, 'text', { text: { body: `mensaje ${i}` } }, { wamid }),
        );
        const res = await fetch(`${first.base}${request.url}`, {
          method: 'POST',
          headers: request.headers,
          body: request.payload,
        }).catch(() => undefined);
        if (res?.status === 200 && !killed) acknowledged.push(wamid);
        // Killed in the middle of the burst, with posts in flight and deliveries not processed yet.
        if (acknowledged.length >= DELIVERIES / 2 && !killed) {
          killed = true;
          first.proc.kill('SIGKILL');
        }
      };
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (!killed && next < DELIVERIES) await post(next++);
        }),
      );
      await first.exited;
      expect(acknowledged.length).toBeGreaterThanOrEqual(DELIVERIES / 2);
      const stored = async () =>
        (await db.selectFrom('messages').select('wamid').where('company_id', '=', company.id).execute()).map(
          (r) => r.wamid,
        );
      const before = new Set(await stored());
      const leftBehind = acknowledged.filter((w) => !before.has(w)).length;
      // What the test is about: some acknowledged messages were not processed when the process died.
      console.log(`SIGKILL after ${acknowledged.length} acknowledged, ${leftBehind} not yet processed`);

      await launch();
      await waitFor(
        async () => {
          const now = new Set(await stored());
          return acknowledged.every((w) => now.has(w));
        },
        60_000,
        100,
      );
      const twice = await db
        .selectFrom('messages')
        .select(['wamid', sql<number>`count(*)`.as('n')])
        .where('company_id', '=', company.id)
        .groupBy('wamid')
        .having(sql`count(*)`, '>', 1)
        .execute();
      expect(twice).toEqual([]);
      // Deliveries that were in flight at the kill (taken or not) settle too: nothing stays pending.
      await waitFor(
        async () =>
          !(await db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '<>', 'done')
            .executeTakeFirst()),
        30_000,
        100,
      );
    } finally {
      await database.destroy();
    }
  }, 180_000);
});
