// What every request goes through, made cheap without losing anything: the security headers (worked
// out once), one log line per request, the health check's shared probes and SQLite's kept statements.
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACT } from '../src/app';
import { withStatementCache } from '../src/db/sqlite-statements';
import { systemRoutes } from '../src/modules/system/system.routes';
import { HELMET_OPTIONS, securityHeaders } from '../src/platform/security-headers';
import { type TestApi, type TestUser, createTestApi } from './http';

let api: TestApi;
let admin: TestUser;

beforeAll(async () => {
  api = await createTestApi();
  admin = await api.user({ role: 'admin' });
});
afterAll(async () => {
  await api.close();
});

/** What Helmet itself sets on a real response for our options. */
function helmetOnARealResponse(): Record<string, string> {
  const set: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => {
      set[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete set[name.toLowerCase()];
    },
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return set;
}

describe('security headers', () => {
  it('are the ones Helmet sets, on every kind of answer', async () => {
    const expected = helmetOnARealResponse();
    expect(Object.keys(expected).length).toBeGreaterThanOrEqual(10);
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(securityHeaders()).toEqual(expected);
    const answers = await Promise.all([
      api.get('/health'),
      api.get('/admin/segment', { as: admin }),
      api.get('/admin/segment'),
      api.get('/admin/segment', { as: await api.user({ role: 'client' }) }),
      api.post('/admin/segment', { name: '' }, { as: admin }),
      api.get('/nope'),
      api.call('GET', '/sanctum/csrf-cookie', undefined, { root: true }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 401, 403, 422, 404, 204]);
    for (const answer of answers) {
      for (const [name, value] of Object.entries(expected)) expect(answer.headers[name], name).toBe(value);
      expect(answer.headers['x-request-id']).toBeTruthy();
    }
  });

  it('refuses a policy that would need working out per request', () => {
    expect(() =>
      securityHeaders({
        contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } },
      }),
    ).toThrow(/per request/);
  });
});

describe('request log', () => {
  it('one line per answered request, with its id and status and no secrets; errors are still logged', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        cb();
      },
    });
    const logged = await createTestApi({
      logger: { level: 'info', stream, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
    });
    try {
      const user = await logged.user({ role: 'admin', password: 'very-secret-password' });
      const ok = await logged.get('/admin/segment', { as: user, headers: { 'x-request-id': 'req-1' } });
      const bad = await logged.post('/auth/login', {
        email: user.user.email,
        password: 'very-secret-password',
      });
      expect([ok.statusCode, bad.statusCode]).toEqual([200, 200]);
      const completed = lines.filter((l) => l.msg === 'request completed');
      expect(completed).toHaveLength(2);
      expect(completed[0]).toMatchObject({
        reqId: 'req-1',
        method: 'GET',
        url: '/api/v1/admin/segment',
        statusCode: 200,
      });
      expect(completed[0].ms).toEqual(expect.any(Number));
      expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
      const text = JSON.stringify(lines);
      expect(text).not.toContain('very-secret-password');
      expect(text).not.toContain(user.token);
      expect(text).not.toContain(bad.json().token);

      // A failure is logged whole by the request's own logger (with its id), and the password stays out.
      await logged.container.infra.database.destroy();
      const failed = await logged.post(
        '/auth/login',
        { email: user.user.email, password: 'very-secret-password' },
        { headers: { 'x-request-id': 'req-2' } },
      );
      expect(failed.statusCode).toBe(500);
      const error = lines.find((l) => l.msg === 'unhandled error');
      expect(error).toMatchObject({ reqId: 'req-2', level: 50 });
      expect(JSON.stringify(lines)).not.toContain('very-secret-password');
    } finally {
      await logged.app.close();
    }
  });

  it("logs the web app's files at debug, and the API and what went wrong at info", async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>HablaBot</title>');
    fs.writeFileSync(path.join(webDist, 'assets/app-1a2b3c.js'), 'console.log(1);');
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        cb();
      },
    });
    const logged = await createTestApi({ webDist, logger: { level: 'debug', stream } });
    try {
      for (const url of ['/assets/app-1a2b3c.js', '/login', '/api/v1/health', '/assets/gone-000000.js']) {
        await logged.app.inject({ method: 'GET', url });
      }
      const levels = Object.fromEntries(
        lines.filter((l) => l.msg === 'request completed').map((l) => [l.url, [l.statusCode, l.level]]),
      );
      expect(levels).toEqual({
        '/assets/app-1a2b3c.js': [200, 20],
        '/login': [200, 20],
        '/api/v1/health': [200, 30],
        '/assets/gone-000000.js': [404, 30],
      });
    } finally {
      await logged.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});

describe("the web app's files", () => {
  it('are sent as the compressed copy the browser accepts (brotli, then gzip), else as they are', async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>HablaBot</title>');
    const script = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `fila ${i}`))};`;
    const file = path.join(webDist, 'assets/chat-9f8e7d.js');
    fs.writeFileSync(file, script);
    // As the web build writes them (apps/web/build-compress.ts).
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(script));
    const api = await createTestApi({ webDist });
    try {
      const get = (encoding?: string) =>
        api.app.inject({
          method: 'GET',
          url: '/assets/chat-9f8e7d.js',
          headers: encoding ? { 'accept-encoding': encoding } : {},
        });
      const br = await get('gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      expect(br.rawPayload.length).toBeLessThan(script.length / 2);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const gz = await get('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
      const plain = await get();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // The page itself is asked for again each time (a new build changes the files it names).
      const page = await api.app.inject({ method: 'GET', url: '/admin/chat' });
      expect(page.headers['cache-control']).toBe('no-cache');
    } finally {
      await api.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});

/** Fastify with the app's zod compilers and the health route on `pingDatabase`. */
async function healthApp(pingDatabase: () => Promise<void>) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(systemRoutes({ health: { engine: 'sqlite', pingDatabase } }));
  return app;
}

describe('health', () => {
  it('callers during a probe share it; a later caller gets a fresh one', async () => {
    let pings = 0;
    let release!: () => void;
    const app = await healthApp(
      () =>
        new Promise<void>((resolve) => {
          pings++;
          release = resolve;
        }),
    );
    const burst = Array.from({ length: 10 }, () => app.inject({ method: 'GET', url: '/health' }));
    await expect.poll(() => pings).toBe(1);
    release();
    const answers = await Promise.all(burst);
    expect(answers.map((a) => a.json().database)).toEqual(Array(10).fill('ok'));
    const later = app.inject({ method: 'GET', url: '/health' });
    await expect.poll(() => pings).toBe(2);
    release();
    expect((await later).statusCode).toBe(200);
    await app.close();
  });

  it('a database that does not answer within 2 s is reported down', async () => {
    const app = await healthApp(() => new Promise<void>(() => {}));
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'degraded', database: 'down' });
    await app.close();
  });
});

describe('SQLite keeps its prepared statements', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-stmt-'));
  const sqlite = new SQLite(path.join(dir, 's.db'));
  sqlite.exec('create table t (id integer primary key, v text)');
  sqlite.exec("insert into t (v) values ('a'), ('b'), ('c')");
  const cached = withStatementCache(sqlite, 3);
  const db = {
    prepare: (sql: string) => cached.prepare(sql) as SQLite.Statement,
    close: () => cached.close(),
  };
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the same statement for the same SQL, never one still being read', () => {
    const sql = 'select v from t where id > ?';
    const first = db.prepare(sql);
    expect(db.prepare(sql)).toBe(first);
    const reading = first.iterate([0]);
    reading.next();
    const meanwhile = db.prepare(sql);
    expect(meanwhile).not.toBe(first);
    expect(meanwhile.all([1])).toEqual([{ v: 'b' }, { v: 'c' }]);
    reading.return?.();
    expect(db.prepare(sql)).toBe(first);
  });

  it("keeps SQL as long as a webhook chunk's insert, and no one-off SQL as long as an import's", () => {
    // ~5,000 characters: a chunk's 100-row insert of 20 columns is as long.
    const chunk = `insert into t (v) values ${Array(1000).fill('(?)').join(', ')}`;
    expect(db.prepare(chunk)).toBe(db.prepare(chunk));
    const long = `select v from t where v in (${Array(20_000).fill("'x'").join(',')})`;
    expect(db.prepare(long)).not.toBe(db.prepare(long));
  });

  it('keeps at most its limit, dropping the statement used least recently', () => {
    const statements = ['select 1', 'select 2', 'select 3'].map((s) => db.prepare(s));
    // 'select 1' used again: 'select 2' is now the least recently used, and goes when 'select 4' comes.
    expect(db.prepare('select 1')).toBe(statements[0]);
    const fourth = db.prepare('select 4');
    expect(db.prepare('select 4')).toBe(fourth);
    expect(db.prepare('select 1')).toBe(statements[0]);
    expect(db.prepare('select 2')).not.toBe(statements[1]);
  });

  it('a kept statement sees a changed schema', () => {
    const select = 'select * from t where id = ?';
    expect(Object.keys(db.prepare(select).get([1]) as object)).toEqual(['id', 'v']);
    sqlite.exec('alter table t add column w text');
    expect(Object.keys(db.prepare(select).get([1]) as object)).toEqual(['id', 'v', 'w']);
  });
});

describe('the segment list, compiled once', () => {
  it('answers each company its own segments in id order with their members counted, call after call', async () => {
    const [a, b] = await Promise.all([api.user({ role: 'admin' }), api.user({ role: 'admin' })]);
    const segment = async (as: TestUser, name: string) =>
      (await api.post('/admin/segment', { name, color: '#7300ff', rules: 'r' }, { as })).json().segment
        .id as number;
    const [a1, a2, b1] = [await segment(a, 'A uno'), await segment(a, 'A dos'), await segment(b, 'B uno')];
    const client = (as: TestUser, phone: string, segments: number[]) =>
      api.post(
        '/admin/client',
        {
          name: 'Ana',
          last_names: 'Ruiz',
          whatsapp_cellphone: phone,
          email: `${phone}@example.test`,
          segments,
        },
        { as },
      );
    expect((await client(a, '34611000001', [a1, a2])).statusCode).toBe(201);
    expect((await client(a, '34611000002', [a1])).statusCode).toBe(201);
    expect((await client(b, '34611000003', [b1])).statusCode).toBe(201);
    for (let call = 0; call < 3; call++) {
      const listA = (await api.get('/admin/segment', { as: a })).json().segments;
      const listB = (await api.get('/admin/segment', { as: b })).json().segments;
      expect(listA.map((s: { id: number; clients_count: number }) => [s.id, s.clients_count])).toEqual([
        [a1, 2],
        [a2, 1],
      ]);
      expect(listB.map((s: { id: number; clients_count: number }) => [s.id, s.clients_count])).toEqual([
        [b1, 1],
      ]);
    }
  });
});
