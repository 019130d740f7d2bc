// Several processes on one PostgreSQL database and one Redis, as a company that outgrew one machine runs
// HablaBot: two app instances (apps/server/src/main.ts) and a separate worker (worker.ts), spawned as
// real processes. Runs only where TEST_DATABASE_URL and REDIS_URL are set (CI's PostgreSQL + Redis run);
// each run has a database and a Redis prefix of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FakeGraphApi, fakeTemplate, startFakeGraphApi } from '@hablabot/fakes';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './wait';
import { freePort } from './ports';
import { openStream } from './sse';
import { inboundBody, signedRequest } from './whatsapp-webhook';

const enabled = Boolean(process.env.TEST_DATABASE_URL && process.env.REDIS_URL);
const root = path.resolve(import.meta.dirname, '../../..');
const SERVER = path.join(root, 'apps/server/src/main.ts');
const WORKER = path.join(root, 'apps/server/src/worker.ts');
const TOKEN = 'EAAG-multi-instance-token';
const PHONE_ID = '555000777';
const WABA = '300000000000777';
const SUPER = { email: 'super@multi.example', password: 'Multi-instance-super-9' };
const ADMIN = { email: 'ana@multi.example', password: 'Multi-instance-admin-9' };

interface Proc {
  name: string;
  proc: ChildProcess;
  base: string;
  output: () => string;
}

describe.skipIf(!enabled)('several instances on PostgreSQL and Redis', () => {
  const suffix = randomBytes(4).toString('hex');
  const database = `hb_multi_${suffix}`;
  const prefix = `hbmt${suffix}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-multi-'));
  const running: Proc[] = [];
  let graph: FakeGraphApi;
  let a: Proc;
  let b: Proc;
  /** A third app instance, started once A is stopped. */
  let c: Proc;
  let adminToken: string;

  function env(port: number): NodeJS.ProcessEnv {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${database}`;
    return {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: prefix,
      // One key for every process: each must open what another sealed.
      APP_KEY: Buffer.alloc(32, 7).toString('base64'),
      SUPERADMIN_EMAIL: SUPER.email,
      SUPERADMIN_PASSWORD: SUPER.password,
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      // The fake Cloud API on 127.0.0.1.
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1',
    };
  }

  /** Starts a process and waits for its ready line. */
  async function launch(name: string, script: string, ready: RegExp): Promise<Proc> {
    const port = await freePort();
    const proc = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: root,
      // The worker says it is ready in an info line.
      env: { ...env(port), ...(script === WORKER ? { LOG_LEVEL: 'info' } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout?.on('data', (d) => {
      output += d;
    });
    proc.stderr?.on('data', (d) => {
      output += d;
    });
    const started: Proc = { name, proc, base: `http://127.0.0.1:${port}`, output: () => output };
    running.push(started);
    await waitFor(
      () => {
        if (proc.exitCode !== null) throw new Error(`${name} exited: ${output}`);
        return ready.test(output);
      },
      60_000,
      100,
    ).catch((err: Error) => {
      throw new Error(`${name} did not start (${err.message}): ${output}`);
    });
    return started;
  }

  async function call(on: Proc, method: string, url: string, body?: unknown, token?: string) {
    const res = await fetch(`${on.base}/api/v1${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  }

  async function webhook(on: Proc, body: unknown) {
    const request = signedRequest(body);
    const res = await fetch(`${on.base}${request.url}`, {
      method: 'POST',
      headers: request.headers,
      body: request.payload,
    });
    expect(res.status).toBe(200);
  }

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    graph = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550007777',
          verified_name: 'Multi',
          quality_rating: 'GREEN',
        },
      ],
    });

    // The first start migrates; the others start together (migrations take a lock).
    a = await launch('app A', SERVER, /HablaBot is running at/);
    [b] = await Promise.all([
      launch('app B', SERVER, /HablaBot is running at/),
      launch('worker', WORKER, /worker running/),
    ]);

    const signIn = await call(a, 'POST', '/auth/login', SUPER);
    expect(signIn.status).toBe(200);
    const superToken = signIn.json.token as string;
    const roles = await call(b, 'GET', '/super-admin/roles', undefined, superToken);
    const adminRole = (roles.json.data as { id: number; name: string }[]).find((r) => r.name === 'admin')!;
    const created = await call(
      b,
      'POST',
      '/super-admin/create-user',
      { name: 'Ana', ...ADMIN, roles: [adminRole.id], company_name: 'Multi S.L.' },
      superToken,
    );
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    adminToken = (await call(b, 'POST', '/auth/login', ADMIN)).json.token;
    const saved = await call(
      a,
      'POST',
      '/admin/setting',
      {
        whatsAppPhoneId: PHONE_ID,
        whatsAppApiKey: TOKEN,
        whatsAppBusinessAccountId: WABA,
        facebookMessagesApiUrl: graph.baseUrl,
      },
      adminToken,
    );
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const p of running) if (p.proc.exitCode === null) p.proc.kill('SIGTERM');
    await Promise.all(
      running.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.proc.exitCode !== null || p.proc.signalCode !== null) return resolve();
            const force = setTimeout(() => p.proc.kill('SIGKILL'), 10_000);
            p.proc.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
          }),
      ),
    );
    await graph?.close();
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    const redis = new Redis(process.env.REDIS_URL!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('a webhook on either instance reaches an event stream held by the other', async () => {
    const user = { headers: { authorization: `Bearer ${adminToken}` } } as Parameters<typeof openStream>[1];
    const onB = await openStream(b.base, user);
    const onA = await openStream(a.base, user);
    try {
      await webhook(a, inboundBody(PHONE_ID, '34611000001', 'text', { text: { body: 'Hola desde A' } }));
      await webhook(b, inboundBody(PHONE_ID, '34611000002', 'text', { text: { body: 'Hola desde B' } }));
      const texts = (stream: typeof onA) =>
        stream
          .events()
          .filter((e) => e.event === 'message.created')
          .map((e) => JSON.parse(e.data!).message.content as string)
          .sort();
      await expect.poll(() => texts(onB), { timeout: 15_000 }).toEqual(['Hola desde A', 'Hola desde B']);
      await expect.poll(() => texts(onA), { timeout: 15_000 }).toEqual(['Hola desde A', 'Hola desde B']);
    } finally {
      onA.close();
      onB.close();
    }
  });

  it('ends a stream held by one instance when its session signs out on the other', async () => {
    const session = (await call(a, 'POST', '/auth/login', ADMIN)).json.token as string;
    const user = { headers: { authorization: `Bearer ${session}` } } as Parameters<typeof openStream>[1];
    const onB = await openStream(b.base, user);
    try {
      expect(onB.res.status).toBe(200);
      expect((await call(a, 'POST', '/auth/logout', undefined, session)).status).toBe(200);
      await expect.poll(() => onB.ended(), { timeout: 2000 }).toBe(true);
    } finally {
      onB.close();
    }
  });

  it('runs each job once, whichever of the three processes takes it', async () => {
    const before = graph.media.downloads();
    const count = 12;
    for (let i = 0; i < count; i++) {
      const id = graph.media.add(randomBytes(64), 'image/jpeg');
      // Half the webhooks on each instance; every process (A, B, the worker) runs jobs.
      await webhook(
        i % 2 ? a : b,
        inboundBody(PHONE_ID, `3462200${String(i).padStart(4, '0')}`, 'image', {
          image: { id, mime_type: 'image/jpeg' },
        }),
      );
    }
    await expect.poll(() => graph.media.downloads() - before, { timeout: 30_000 }).toBe(count);
    // Nothing runs a second time afterwards. A fixed wait, on purpose: three processes share BullMQ's
    // queue, and nothing observable from here says none of them will take a job again; a job run twice
    // would show within 1.5 s (each download takes milliseconds).
    await new Promise((r) => setTimeout(r, 1500));
    expect(graph.media.downloads() - before).toBe(count);
  });

  it('finishes a mass send while the instance that may be sending it is stopped', async () => {
    graph.templates.set(WABA, [fakeTemplate({ name: 'aviso', body: 'Hola {{1}}, tenemos novedades.' })]);
    const synced = await call(b, 'GET', '/templates/sync', undefined, adminToken);
    expect(synced.status, JSON.stringify(synced.json)).toBe(200);
    const template = (await call(a, 'GET', '/templates', undefined, adminToken)).json.data[0];
    const segment = await call(
      a,
      'POST',
      '/admin/segment',
      { name: 'Todos', color: '#7300ff', rules: 'Todos los clientes' },
      adminToken,
    );
    const count = 60;
    for (let i = 0; i < count; i++) {
      const created = await call(
        i % 2 ? a : b,
        'POST',
        '/admin/client',
        {
          name: `Cliente ${i}`,
          last_names: 'Multi',
          whatsapp_cellphone: `3465500${String(i).padStart(4, '0')}`,
          email: `cliente${i}@multi.example`,
          segments: [segment.json.segment.id],
        },
        adminToken,
      );
      expect(created.status, JSON.stringify(created.json)).toBe(201);
    }
    const list = await call(
      b,
      'POST',
      '/admin/list-clients',
      { name: 'Todos', client_ids: [], segment_ids: [segment.json.segment.id] },
      adminToken,
    );
    expect(list.status, JSON.stringify(list.json)).toBe(201);
    // 20 a second: three seconds of sending, long enough to stop an instance in the middle.
    await call(a, 'PUT', '/admin/mass-message-settings', { messages_per_second: 20 }, adminToken);
    const sentBefore = graph.sent.length;
    const send = await call(
      a,
      'POST',
      '/admin/messages-massive',
      {
        name: 'Novedades',
        message_template_id: template.id,
        list_id: list.json.data.id,
        bodyParameters: { 1: '{{Nombre}}' },
      },
      adminToken,
    );
    expect(send.status, JSON.stringify(send.json)).toBe(201);
    const sendId = send.json.data.id as number;
    await expect.poll(() => graph.sent.length - sentBefore, { timeout: 20_000 }).toBeGreaterThan(10);
    a.proc.kill('SIGTERM');
    await new Promise((r) => a.proc.once('exit', r));

    const done = async () =>
      (await call(b, 'GET', `/admin/messages-massive/${sendId}`, undefined, adminToken)).json.data;
    await expect.poll(async () => (await done()).status, { timeout: 60_000 }).toBe('completed');
    const { counts } = await done();
    // Every client reached once at most; one whose request was in flight when A stopped is "unknown".
    const perPhone = new Map<string, number>();
    for (const m of graph.sent.slice(sentBefore)) perPhone.set(m.to, (perPhone.get(m.to) ?? 0) + 1);
    expect([...perPhone.values()].every((n) => n === 1)).toBe(true);
    expect(counts.total).toBe(count);
    expect(counts.sent + counts.delivered + counts.read + counts.unknown).toBe(count);
    expect(perPhone.size).toBeGreaterThanOrEqual(counts.sent + counts.delivered + counts.read);
  }, 120_000);

  it('shares the sign-in limits: failures on one instance count on the other', async () => {
    c = await launch('app C', SERVER, /HablaBot is running at/);
    for (let i = 0; i < 5; i++) {
      const failed = await call(i % 2 ? c : b, 'POST', '/auth/login', { ...ADMIN, password: `wrong-${i}` });
      expect(failed.status).toBe(401);
    }
    // The right password, from the same address, on the instance that saw the fewest failures.
    expect((await call(c, 'POST', '/auth/login', ADMIN)).status).toBe(429);
  });
});
