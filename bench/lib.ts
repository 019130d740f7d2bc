import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { type Container, createContainer } from '../apps/server/src/container';
// The fakes listen on 127.0.0.1: the outbound policy allows them as in the tests.
import '../apps/server/test/outbound-setup';
import type { DB } from '../apps/server/src/db/schema';
import { openInfrastructure } from '../apps/server/src/infrastructure';
import {
  type ScaleSeed,
  type ScaleShape,
  scalePhoneNumberId,
  seedScale,
} from '../apps/server/test/scale-seed';

export interface BenchServer {
  app: FastifyInstance;
  container: Container;
  url: string;
  close(): Promise<void>;
}

/**
 * The real server on a temp SQLite database (or DATABASE_URL), listening on loopback; with `webDist`, it
 * also serves that build of the web app.
 */
export async function startBenchServer(options: { webDist?: string } = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-bench-'));
  const infra = await openInfrastructure({
    dataDir,
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    // Processes that share one database share its key too (BENCH_APP_KEY), or they cannot read its secrets.
    appKey: process.env.BENCH_APP_KEY ?? randomBytes(32).toString('base64'),
  });
  const container = createContainer(infra, { loginLimits: { perIp: 1e9, perEmail: 1e9, windowMs: 60_000 } });
  const app = await buildApp({ container, webDist: options.webDist });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    container,
    url,
    async close() {
      await app.close();
      // As the server does on close: nothing is left dispatching when the database closes.
      await container.webhookInbox.stop();
      await container.outbox.stop();
      await infra.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Stats {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * A company whose WhatsApp settings name `phoneNumberId` and its app secret, with its admin (who never
 * signs in): what the webhook benches deliver to.
 */
export async function benchWebhookCompany(
  container: Container,
  company: { email: string; name: string; phoneNumberId: string; appSecret: string },
): Promise<number> {
  const { identity, settingsRepository, secrets } = container;
  const role = await identity.findRoleByName('admin');
  const userId = await identity.createUser({
    name: 'Bench Admin',
    email: company.email,
    passwordHash: 'unused',
    roleIds: [role!.id],
    newCompanyName: company.name,
  });
  const companyId = (await identity.findUserById(userId))!.company_id!;
  await settingsRepository.upsertSettings(companyId, {
    whatsapp_phone_id: company.phoneNumberId,
    whatsapp_app_secret_enc: secrets.encrypt(company.appSecret),
  });
  return companyId;
}

/** The figures of `total` calls that took `seconds` in all, from their latencies (milliseconds). */
function statsOf(latencies: number[], total: number, seconds: number): Stats {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { requests: total, seconds, perSecond: total / seconds, p50: pct(50), p95: pct(95), p99: pct(99) };
}

/** Runs `fn` `total` times with `concurrency` in flight; latencies in milliseconds. */
export async function measure(
  total: number,
  concurrency: number,
  fn: (i: number) => Promise<void>,
): Promise<Stats> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        await fn(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return statsOf(latencies, total, (performance.now() - started) / 1000);
}

/**
 * Calls `fn` at a steady `rate` a second for `total` calls, each at its own time (call i at i/rate s
 * from the start), whatever the earlier ones are doing: an open loop, as a sender like Meta's does not
 * wait for one answer before the next message. A latency counts from the call's planned time, so a
 * client that fell behind shows as latency rather than as fewer calls.
 */
export async function steadyRate(
  total: number,
  rate: number,
  fn: (i: number) => Promise<void>,
): Promise<Stats> {
  const latencies: number[] = [];
  const calls: Promise<void>[] = [];
  const started = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && started + (next * 1000) / rate <= now) {
        const planned = started + (next * 1000) / rate;
        calls.push(fn(next).then(() => void latencies.push(performance.now() - planned)));
        next++;
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(calls);
  return statsOf(latencies, total, (performance.now() - started) / 1000);
}

export function report(name: string, s: Stats, budget?: string): void {
  const f = (n: number) => n.toFixed(1);
  console.log(
    `${name}: ${s.requests} requests in ${f(s.seconds)} s = ${f(s.perSecond)}/s; p50 ${f(s.p50)} ms, p95 ${f(s.p95)} ms, p99 ${f(s.p99)} ms${budget ? ` (budget: ${budget})` : ''}`,
  );
}

/** Gives every third of these clients a conversation: a last message, its date and some unread. */
export async function addConversations(db: Kysely<DB>, ids: { id: number }[]): Promise<void> {
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  await db.transaction().execute(async (trx) => {
    for (const { id } of ids.filter((_, i) => i % 3 === 0)) {
      const at = new Date(base + id * 60_000).toISOString();
      await trx
        .insertInto('conversations')
        .columns([
          'company_id',
          'client_id',
          'last_message_at',
          'last_message_content',
          'unread_count',
          'created_at',
          'updated_at',
        ])
        .expression((eb) =>
          eb
            .selectFrom('clients')
            .select((s) => [
              'company_id',
              'id',
              s.val(at).as('last_message_at'),
              s.val('Hola, ¿tienen disponibilidad esta semana?').as('last_message_content'),
              s.val(id % 4).as('unread_count'),
              s.val(at).as('created_at'),
              s.val(at).as('updated_at'),
            ])
            .where('id', '=', id),
        )
        .execute();
    }
  });
}

/**
 * The child's code: the script through tsx, as the benches run by default, or — with BENCH_BUILT=1 — the
 * script bundled by esbuild the way `npm start` builds the server (SERVER_BUNDLE) and run as plain
 * JavaScript, to compare the two.
 */
async function childCommand(script: string): Promise<string[]> {
  if (process.env.BENCH_BUILT !== '1') return ['--import', 'tsx', script];
  const esbuild = await import('esbuild');
  // Loaded by its path, not imported: this file is itself bundled into the child, and a bundled
  // server-build.mjs would take the child for its own command line.
  const build = pathToFileURL(path.resolve(import.meta.dirname, '../scripts/server-build.mjs')).href;
  const { SERVER_BUNDLE } = (await import(build)) as typeof import('../scripts/server-build.mjs');
  // Beside the server's own build, so its npm packages resolve from the repository's node_modules.
  const outfile = path.resolve(
    import.meta.dirname,
    '../apps/server/dist/bench',
    `${path.basename(script, '.ts')}.mjs`,
  );
  await esbuild.build({ entryPoints: [script], outfile, ...SERVER_BUNDLE });
  return ['--enable-source-maps', outfile];
}

/**
 * A benchmark's server in a child process (the script itself, run with BENCH_ROLE=server), so the sending
 * side never shares its event loop. The child prints one line of JSON when it listens; that is `info`.
 * With BENCH_PROFILE=<folder> the child writes a CPU profile there; with BENCH_BUILT=1 it runs built code.
 */
export async function startServerChild<T>(script: string): Promise<{ child: ChildProcess; info: T }> {
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
      ...(await childCommand(script)),
    ],
    { env: { ...process.env, BENCH_ROLE: 'server' }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server process ended (${code}) before listening`)));
  });
  return { child, info: JSON.parse(line) as T };
}

/** Asks the child started by startServerChild something over IPC; its answer. */
export function askChild<T>(child: ChildProcess, question: unknown): Promise<T> {
  return new Promise<T>((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(question as object);
  });
}

/** The body and X-Hub-Signature-256 WhatsApp would send for one customer's text message. */
export function whatsappDelivery(message: {
  phoneNumberId: string;
  appSecret: string;
  from: string;
  name: string;
  wamid: string;
  text: string;
}): { body: string; signature: string } {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '419561257915477',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: message.phoneNumberId },
              contacts: [{ profile: { name: message.name }, wa_id: message.from }],
              messages: [
                {
                  from: message.from,
                  id: message.wamid,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: message.text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  return {
    body,
    signature: `sha256=${createHmac('sha256', message.appSecret).update(body).digest('hex')}`,
  };
}

/** What a scale-seeded child server prints once it listens (the first line of its output). */
export interface SeededServerInfo {
  url: string;
  engine: string;
  seed: ScaleSeed;
}

/**
 * The fake WhatsApp Cloud API for a database seeded with `shape`: one phone number per company, accepting
 * `token`, with no throughput limit of its own worth the name (the sender's pace is what is measured). The
 * child server learns its address through BENCH_GRAPH_URL, so call this before `startServerChild`.
 */
export async function startScaleFake(shape: ScaleShape, token: string): Promise<FakeGraphApi> {
  const fake = await startFakeGraphApi({
    tokens: [token],
    phoneNumbers: Array.from({ length: shape.companies }, (_, c) => ({
      id: scalePhoneNumberId(c),
      display_phone_number: `1555078${String(c).padStart(4, '0')}`,
      verified_name: `Empresa ${c}`,
      quality_rating: 'GREEN',
    })),
  });
  fake.throughputPerSecond = 10_000;
  process.env.BENCH_GRAPH_URL = fake.baseUrl;
  return fake;
}

/**
 * The child side of a bench on a seeded database: the real server on DATABASE_URL or a temp SQLite file,
 * seeded with `shape` (the Cloud API at BENCH_GRAPH_URL), its statistics gathered as a live database's
 * are, and jobs run in-process as with `npm start`. It prints `SeededServerInfo` as its first line, answers
 * every `askChild` question with its CPU time (`cpuMs`) and what `counts` reads once the webhook inbox is
 * drained, and stops on SIGTERM.
 */
export async function serveScaleSeed(
  shape: ScaleShape,
  secrets: { appSecret: string; graphToken: string },
  counts: (db: Kysely<DB>) => Promise<Record<string, number>>,
): Promise<void> {
  const started = performance.now();
  const server = await startBenchServer();
  const { db } = server.container;
  const engine = server.container.infra.database.engine;
  const seed = await seedScale(server.container, shape, {
    ...secrets,
    graphUrl: process.env.BENCH_GRAPH_URL!,
  });
  // A live database has statistics from autovacuum; a table filled a moment ago has none yet.
  if (engine === 'postgres') await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  // The seed's time with the statistics pass.
  seed.seconds = (performance.now() - started) / 1000;
  await server.container.startBackgroundWork({
    warn: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
    error: (obj, msg) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`),
  });
  process.on('message', async () => {
    await drained(db);
    const cpu = process.cpuUsage();
    process.send!({ cpuMs: (cpu.user + cpu.system) / 1000, ...(await counts(db)) });
  });
  const info: SeededServerInfo = { url: server.url, engine, seed };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

/**
 * Resolves once the webhook inbox holds no delivery waiting to be processed: deliveries are processed
 * after their 200, so a bench counts what they stored only then.
 */
export async function drained(db: Kysely<DB>): Promise<void> {
  for (;;) {
    const waiting = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', 'in', ['pending', 'processing'])
      .limit(1)
      .executeTakeFirst();
    if (!waiting) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Rows in a table. */
export async function countRows(
  db: Kysely<DB>,
  table: 'messages' | 'mass_message_recipients',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
