// A mass message survives `kill -9`: a worker process sends it to the fake Graph API (through a proxy that
// holds each request a moment, so requests are in flight when the worker dies), is killed with SIGKILL
// in the middle, and a new worker finishes the send. Every client gets the message at most once; a client
// whose request was in flight is reported `unknown`, never sent again by itself.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { type FakeGraphApi, listen, startFakeGraphApi } from '@hablabot/fakes';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-mass-crash-token';
const PHONE_ID = '106540352242990';
const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../../..');
const WORKER = path.join(serverRoot, 'test/fixtures/mass-worker.ts');
const N = 300;

let ctx: TestContext;
let fake: FakeGraphApi;
let proxy: { url: string; close(): Promise<void> };
const workers: ChildProcess[] = [];

async function startWorker(options: Record<string, unknown>): Promise<ChildProcess & { log(): string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(options)], {
    cwd: serverRoot,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(proc);
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += String(d);
  });
  proc.stderr?.on('data', (d) => {
    output += String(d);
  });
  // A worker compiles its TypeScript as it starts: over 30 s on a busy machine.
  await waitFor(() => output.includes('ready') || proc.exitCode !== null, 90_000);
  if (!output.includes('ready')) throw new Error(`worker did not start: ${output}`);
  return Object.assign(proc, { log: () => output });
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783890', verified_name: 'C', quality_rating: 'GREEN' },
    ],
  });
  // Holds each request 40 ms before passing it on, so several are out whenever the worker dies. A fixed
  // wait, on purpose: it plays the network's latency, it does not wait for anything to happen.
  proxy = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    await new Promise((r) => setTimeout(r, 40));
    try {
      const answer = await fetch(`${new URL(fake.baseUrl).origin}${req.url}`, {
        method: req.method,
        headers: {
          'content-type': 'application/json',
          authorization: String(req.headers.authorization ?? ''),
        },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  ctx = await createTestContext();
});

afterAll(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  await ctx?.close();
  await Promise.all([fake?.close(), proxy?.close()]);
});

describe(`a mass send killed mid-way (${engine})`, () => {
  it('reaches each client at most once; those in flight at the kill are unknown', {
    timeout: 240_000,
  }, async () => {
    const cast = await createCast(ctx);
    const companyId = cast.admin.user.company_id!;
    const { db } = ctx.container;
    const base = new URL(fake.baseUrl);
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      baseUrl: `${proxy.url}${base.pathname}`,
    });
    await db
      .updateTable('companies')
      .set({ mass_messages_per_second: 100 })
      .where('id', '=', companyId)
      .execute();
    const segment = await createSegment(ctx, companyId);
    for (let i = 0; i < N; i++) await createClient(ctx, companyId, { segments: [segment.id] });
    const at = new Date().toISOString();
    const template = await db
      .insertInto('message_templates')
      .values({
        company_id: companyId,
        meta_id: '1',
        name: 'aviso',
        language: 'es',
        status: 'APPROVED',
        category: 'UTILITY',
        components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola {{1}}', buttons: [] }]),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const headers = cast.admin.headers;
    const list = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/list-clients',
      headers,
      payload: { name: 'Todos', client_ids: [], segment_ids: [segment.id] },
    });
    expect(list.statusCode, list.body).toBe(201);
    // This process never runs jobs: only the workers send.
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/messages-massive',
      headers,
      payload: {
        name: 'Aviso',
        message_template_id: template.id,
        list_id: list.json().data.id,
        bodyParameters: { 1: '{{Nombre}}' },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const sendId = created.json().data.id as number;

    const where =
      engine === 'postgres'
        ? {
            databaseUrl: process.env.TEST_DATABASE_URL,
            pgSchema: (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s,
            redisUrl: process.env.REDIS_URL,
            jobsPrefix: `hb:test:crash:${randomBytes(4).toString('hex')}`,
          }
        : {
            sqliteFile: (
              await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
                db,
              )
            ).rows[0].file,
          };
    const options = { ...where, appKey: ctx.container.infra.appKey.toString('base64') };

    fake.throughputPerSecond = 1000;
    const first = await startWorker(options);
    await waitFor(() => fake.sent.length >= N / 3, 30_000).catch(async (err) => {
      const rows = await db
        .selectFrom('mass_message_recipients')
        .select(['status', 'error_message'])
        .where('mass_message_id', '=', sendId)
        .limit(3)
        .execute();
      const send = await db.selectFrom('mass_messages').selectAll().where('id', '=', sendId).execute();
      throw new Error(
        `${err.message}: ${JSON.stringify({ rows, send, jobs: await db.selectFrom('jobs').selectAll().execute(), log: first.log() })}`,
      );
    });
    first.kill('SIGKILL');
    await waitFor(() => first.signalCode === 'SIGKILL', 30_000);
    const inFlight = await db
      .selectFrom('mass_message_recipients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mass_message_id', '=', sendId)
      .where('status', '=', 'sending')
      .executeTakeFirstOrThrow();

    const second = await startWorker(options);
    await waitFor(async () => {
      const row = await db
        .selectFrom('mass_messages')
        .select('status')
        .where('id', '=', sendId)
        .executeTakeFirst();
      return row?.status === 'completed';
    }, 60_000).catch(async (err) => {
      const counts = await db
        .selectFrom('mass_message_recipients')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('mass_message_id', '=', sendId)
        .groupBy('status')
        .execute();
      const send = await db.selectFrom('mass_messages').selectAll().where('id', '=', sendId).execute();
      throw new Error(
        `${err.message}: ${JSON.stringify({ counts, send, jobs: await db.selectFrom('jobs').selectAll().execute(), first: first.log(), second: second.log() })}`,
      );
    });

    const rows = await db
      .selectFrom('mass_message_recipients')
      .select(['phone', 'status'])
      .where('mass_message_id', '=', sendId)
      .execute();
    const received = new Map<string, number>();
    for (const s of fake.sent) received.set(s.to, (received.get(s.to) ?? 0) + 1);
    expect(rows).toHaveLength(N);
    for (const r of rows) {
      const times = received.get(r.phone) ?? 0;
      // Never twice; sent means received once; unknown may or may not have arrived.
      expect(times, `${r.phone} ${r.status}`).toBeLessThanOrEqual(1);
      if (r.status === 'sent') expect(times).toBe(1);
      else expect(r.status).toBe('unknown');
    }
    const unknown = rows.filter((r) => r.status === 'unknown').length;
    expect(unknown).toBe(Number(inFlight.n));
    console.log(
      `crash test: ${N} recipients, ${fake.sent.length} received, ${unknown} unknown (in flight at the kill)`,
    );
  });
});
