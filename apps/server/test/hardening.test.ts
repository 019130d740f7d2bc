// Bounded work per connection and safe defaults: request ids, timeouts, proxies, file permissions and
// the first super admin's password.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { ConfigError, loadConfig } from '../src/config/env';
import { openInfrastructure } from '../src/infrastructure';
import { type TestApi, createTestApi } from './http';
import { inboundBody } from './whatsapp-webhook';

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('X-Request-Id', () => {
  it('echoes a short plain id the caller sends', async () => {
    const res = await api.get('/health', { headers: { 'x-request-id': 'req-42.A_b' } });
    expect(res.headers['x-request-id']).toBe('req-42.A_b');
  });

  it.each([
    ['6,000 characters', 'a'.repeat(6000)],
    ['65 characters', 'a'.repeat(65)],
    ['spaces and markup', 'id <script>'],
    ['a line break', 'a\nb'.replace('\n', '%0A')],
    ['non-ASCII', 'ñandú'],
  ])('replaces %s with a generated id', async (_label, sent) => {
    const res = await api.get('/health', { headers: { 'x-request-id': sent } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('timeouts', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = await buildApp({
      container: api.container,
      timeouts: { headers: 400, request: 600, idle: 3000, keepAlive: 1000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  /** Sends `text`, then waits for the server to close the socket; resolves with what it answered. */
  function sendAndWait(
    text: string,
    limitMs = 5000,
  ): Promise<{ closed: boolean; answer: string; ms: number }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.on('data', (d) => {
        answer += d.toString();
      });
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, answer, ms: Date.now() - started });
      }, limitMs);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closed: true, answer, ms: Date.now() - started });
      });
      socket.on('error', () => {});
    });
  }

  it('cuts a connection that sends half a body and stops', async () => {
    const body = '{"email":"a@b.test","password":"';
    const r = await sendAndWait(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n${body}`,
    );
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(3000);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a connection that sends half its headers and stops', async () => {
    const r = await sendAndWait('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(3000);
  });

  it('cuts a WhatsApp webhook sender that trickles its body: nothing stored, other deliveries answered meanwhile', async () => {
    const admin = await api.user();
    const companyId = admin.user.company_id!;
    // No app secret: unsigned deliveries are taken, so only the timeouts stand in the way.
    await api.container.settingsRepository.upsertSettings(companyId, { whatsapp_phone_id: '555000111' });
    const countFor = async (phone: string) =>
      Number(
        (
          await api.container.db
            .selectFrom('clients')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('company_id', '=', companyId)
            .where('whatsapp_cellphone', '=', phone)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const slowBody = JSON.stringify(
      inboundBody('555000111', '5215500000001', 'text', { text: { body: 'lento' } }),
    );
    const head = `POST /api/v1/webhooks/whatsapp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${slowBody.length}\r\n\r\n`;
    // A few bytes every 100 ms: the body would take far longer than the request timeout (600 ms here).
    const slow = new Promise<{ answer: string; ms: number }>((resolve) => {
      const started = Date.now();
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
      let answer = '';
      let sent = 0;
      const drip = setInterval(() => {
        if (sent >= slowBody.length) return;
        socket.write(slowBody.slice(sent, sent + 4));
        sent += 4;
      }, 100);
      socket.on('data', (d) => {
        answer += d.toString();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ answer, ms: Date.now() - started });
      });
    });
    // Meanwhile, an ordinary delivery is answered at once.
    const quick = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(inboundBody('555000111', '5215500000002', 'text', { text: { body: 'rápido' } })),
    });
    expect(quick.status).toBe(200);
    const r = await slow;
    expect(r.ms).toBeLessThan(3000);
    expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(await countFor('5215500000001')).toBe(0);
    expect(await countFor('5215500000002')).toBe(1);
  });

  it('closes an idle keep-alive connection after its timeout', async () => {
    const r = await sendAndWait('GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(r.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(3000);
  });
});

describe('TRUST_PROXY', () => {
  it('reads false, true (one hop), hop counts and lists of proxies; refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10,loopback, fd00::/8' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      'loopback',
      'fd00::/8',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/1'])
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(
        /^Invalid environment variable TRUST_PROXY: /,
      );
  });

  async function ipSeenWith(trustProxy: false | number | string[], forwardedFor: string, from: string) {
    const app = await buildApp({ container: api.container, trustProxy });
    app.get('/__ip', async (request) => ({ ip: request.ip }));
    await app.ready();
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/__ip',
        headers: { 'x-forwarded-for': forwardedFor },
        remoteAddress: from,
      });
      return res.json().ip as string;
    } finally {
      await app.close();
    }
  }

  it('with one hop, an address the client wrote into X-Forwarded-For is not believed', async () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; our proxy (10.0.0.2) appended the real 203.0.113.9.
    expect(await ipSeenWith(1, '6.6.6.6, 203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    expect(await ipSeenWith(false, '6.6.6.6, 203.0.113.9', '10.0.0.2')).toBe('10.0.0.2');
    expect(await ipSeenWith(2, '6.6.6.6, 203.0.113.9, 10.0.0.3', '10.0.0.2')).toBe('203.0.113.9');
  });

  it('with a list, only the listed proxies are trusted', async () => {
    expect(await ipSeenWith(['10.0.0.0/8'], '6.6.6.6, 203.0.113.9', '10.0.0.2')).toBe('203.0.113.9');
    // A request straight from the internet cannot choose its own address.
    expect(await ipSeenWith(['10.0.0.0/8'], '6.6.6.6', '198.51.100.1')).toBe('198.51.100.1');
  });
});

describe('SUPERADMIN_PASSWORD follows the password policy', () => {
  it.each([
    ['12345678', /at least 10 characters/],
    ['          ', /must not be blank/],
    ['admin12345', /too common/],
    ['Admin-2026-x', /based on SUPERADMIN_EMAIL/],
  ])('refuses %j', (password, reason) => {
    expect(() => loadConfig({ SUPERADMIN_PASSWORD: password })).toThrow(ConfigError);
    expect(() => loadConfig({ SUPERADMIN_PASSWORD: password })).toThrow(reason);
  });

  it('accepts a good one', () => {
    expect(loadConfig({ SUPERADMIN_PASSWORD: 'Lemon-tree-by-the-sea' }).superAdmin.password).toBe(
      'Lemon-tree-by-the-sea',
    );
  });
});

describe('data folder permissions', () => {
  it('creates DATA_DIR 0700 and the SQLite database 0600', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-perm-'));
    const dataDir = path.join(parent, 'data', 'nested');
    const infra = await openInfrastructure({ dataDir });
    try {
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dataDir, 'hablabot.db')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dataDir, 'app.key')).mode & 0o777).toBe(0o600);
    } finally {
      await infra.close();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
