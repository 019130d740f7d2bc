import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LOG_REDACT } from '../src/app';
import { ensureSuperAdmin } from '../src/bootstrap';
import { ConfigError, loadConfig } from '../src/config/env';
import { createDatabase } from '../src/db/database';
import { migrateDown, migrateToLatest } from '../src/db/migrate';
import { createIdentityRepository } from '../src/modules/identity/identity.repository';
import { resolveLanguage } from '../src/platform/locale';
import { hashPassword, verifyPassword } from '../src/platform/passwords';
import { createSecretBox, loadOrCreateAppKey } from '../src/platform/secrets';
import { generateKey } from '../src/platform/tokens';
import { createTestApi } from './http';

describe('errors never leak internals', () => {
  it('a database failure answers 500 with a generic localised message, and logs carry no secrets', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const api = await createTestApi({
      logger: { level: 'info', stream, redact: { paths: LOG_REDACT, censor: '[redacted]' } },
    });
    const user = await api.user({ role: 'admin', password: 'very-secret-password' });
    const ok = await api.post('/auth/login', { email: user.user.email, password: 'very-secret-password' });
    const token = ok.json().token as string;
    await api.container.infra.database.destroy();
    const res = await api.post(
      '/auth/login',
      { email: user.user.email, password: 'very-secret-password' },
      { as: token, lang: 'en' },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'An internal error occurred' });
    expect(res.body).not.toMatch(/stack|sqlite|select|kysely|at /i);
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).not.toContain('very-secret-password');
    expect(log).not.toContain(token);
    expect(log).not.toContain(user.token);
    await api.app.close();
  });

  it('an unknown API route answers a JSON 404', async () => {
    const api = await createTestApi();
    try {
      const res = await api.get('/nope', { lang: 'en' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Route not found.' });
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await api.close();
    }
  });
});

describe('health and API document', () => {
  it('reports the database and the queue', async () => {
    const api = await createTestApi();
    try {
      const res = await api.get('/health');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        status: 'ok',
        database: 'ok',
        queue: process.env.REDIS_URL ? 'ok' : 'in-process',
        engine: api.engine,
        // No WhatsApp delivery waits to be processed.
        webhook_lag_seconds: 0,
      });
      const docs = await api.get('/docs');
      expect(docs.statusCode).toBe(200);
      const doc = docs.json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/auth/login',
          '/api/v1/super-admin/users',
          '/api/v1/super-admin/roles/{id}',
        ]),
      );
      expect(
        doc.paths['/api/v1/auth/login'].post.requestBody.content['application/json'].schema.required,
      ).toEqual(['email', 'password']);
    } finally {
      await api.close();
    }
  });
});

describe('migrations', () => {
  it('run up, down and up again on this engine', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-mig-'));
    const schema = `m_${randomBytes(4).toString('hex')}`;
    let database = createDatabase({ sqliteFile: path.join(dir, 'm.db') });
    if (url) {
      const setup = createDatabase({ url });
      await setup.db.schema.createSchema(schema).execute();
      await setup.destroy();
      database = createDatabase({ url, pgSchema: schema });
    }
    try {
      expect((await migrateToLatest(database.db, url ? schema : undefined)).length).toBeGreaterThan(0);
      await migrateDown(database.db, url ? schema : undefined);
      expect(await migrateToLatest(database.db, url ? schema : undefined)).toContain(
        '20261122000000_identity',
      );
      const roles = await database.db.selectFrom('roles').select('name').orderBy('id').execute();
      expect(roles.map((r) => r.name)).toEqual(['super_admin', 'admin', 'client', 'agent']);
    } finally {
      await database.destroy();
      if (url) {
        const drop = createDatabase({ url });
        await drop.db.schema.dropSchema(schema).cascade().execute();
        await drop.destroy();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('first start', () => {
  it('creates the first super admin once, with a printed generated password that works', async () => {
    const api = await createTestApi();
    try {
      const printed: string[] = [];
      const log = { info: () => {}, warn: () => {} };
      const first = await ensureSuperAdmin(
        api.container.identity,
        { email: 'boss@hablabot.local' },
        log,
        (t) => printed.push(t),
      );
      expect(first.created).toBe(true);
      expect(printed.join('')).toContain(first.password!);
      const login = await api.post('/auth/login', { email: 'boss@hablabot.local', password: first.password });
      expect(login.json().user.roles[0].name).toBe('super_admin');
      const second = await ensureSuperAdmin(
        api.container.identity,
        { email: 'boss@hablabot.local' },
        log,
        (t) => printed.push(t),
      );
      expect(second.created).toBe(false);
      expect(createIdentityRepository).toBeTypeOf('function');
    } finally {
      await api.close();
    }
  });
});

describe('configuration', () => {
  it('applies the embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, redisUrl: undefined });
    expect(c.dataDir).toBe(path.resolve('./data'));
  });

  it('stops with one line naming a bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/^Invalid environment variable PORT: /);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ APP_KEY: 'short' })).toThrow(/APP_KEY/);
  });
});

describe('secrets and passwords', () => {
  it('keeps the generated APP_KEY in DATA_DIR with mode 0600 and reuses it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-key-'));
    const a = loadOrCreateAppKey(dir);
    const b = loadOrCreateAppKey(dir);
    expect(a.equals(b)).toBe(true);
    expect(fs.statSync(path.join(dir, 'app.key')).mode & 0o777).toBe(0o600);
    fs.rmSync(dir, { recursive: true });
  });

  it('encrypts secrets with authentication: tampering is detected', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.encrypt('EAAG-whatsapp-token');
    expect(sealed).not.toContain('EAAG');
    expect(box.decrypt(sealed)).toBe('EAAG-whatsapp-token');
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
    expect(() => createSecretBox(randomBytes(32)).decrypt(sealed)).toThrow();
  });

  it('hashes passwords with a salt and verifies them', async () => {
    const h1 = await hashPassword('contraseña segura');
    const h2 = await hashPassword('contraseña segura');
    expect(h1).not.toBe(h2);
    expect(await verifyPassword('contraseña segura', h1)).toBe(true);
    expect(await verifyPassword('contrasena segura', h1)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });

  it("generates keys of the settings' lengths (32, and 64 with 'HB-') from its alphabet", () => {
    expect(generateKey(32)).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const wp = generateKey(64, 'HB-');
    expect(wp).toHaveLength(64);
    expect(wp.startsWith('HB-')).toBe(true);
  });
});

describe('languages', () => {
  it('reads Accept-Language with quality values and falls back to es', () => {
    expect(resolveLanguage(undefined)).toBe('es');
    expect(resolveLanguage('en')).toBe('en');
    expect(resolveLanguage('fr-FR,fr;q=0.9,en;q=0.8')).toBe('en');
    expect(resolveLanguage('de')).toBe('es');
    expect(resolveLanguage('en;q=0.2,es-MX;q=0.9')).toBe('es');
  });
});
