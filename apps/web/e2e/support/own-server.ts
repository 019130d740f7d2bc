import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Session } from './api';
import { E2E_PASSWORD } from './users';

/**
 * A server of a spec's own, for what the shared e2e server cannot do without disturbing the other specs:
 * being restarted, or running on a clock the spec moves (support/shifted-clock.mjs, loaded only here).
 * The same program as the shared one (apps/server/src/main.ts, production mode, SQLite), with a folder
 * of its own that outlives a restart, on a port of its own, serving the web build the run made.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clockModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'shifted-clock.mjs');

const SUPERADMIN = { email: 'own.superadmin@e2e.hablabot.test', password: E2E_PASSWORD };

export interface OwnServer {
  baseURL: string;
  /** The API's base: `${baseURL}/api/v1`. */
  api: string;
  /** Stops the process (SIGTERM, as a deploy does) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same folder and port. */
  restart(): Promise<void>;
  /** Moves the server's clock to `ms` ahead of the wall clock (read by the server at its next look at the time). */
  setClockOffset(ms: number): void;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
  /** One API call that must succeed. */
  call<T>(method: string, url: string, body?: unknown, token?: string): Promise<T>;
  /** An admin with a company of its own, signed in. */
  createAdmin(who: { key: string; name: string; company: string }): Promise<Session>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startOwnServer(name: string): Promise<OwnServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hablabot-e2e-${name}-`));
  const shared = process.env.E2E_DATA_DIR;
  if (!shared) throw new Error('E2E_DATA_DIR is missing: did the global setup run?');
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(path.join(shared, 'web'), webDist, { recursive: true });
  const clockFile = path.join(dataDir, 'clock-offset-ms');
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  let child: ChildProcess | null = null;
  let signIns = 0;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    SUPERADMIN_EMAIL: SUPERADMIN.email,
    SUPERADMIN_PASSWORD: SUPERADMIN.password,
    TRUST_PROXY: '1',
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1',
    HABLABOT_E2E_CLOCK_FILE: clockFile,
  };
  // SQLite in its folder and the database job queue, whatever the calling shell has set.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;

  async function start(): Promise<void> {
    const log = fs.openSync(logFile, 'a');
    child = spawn(process.execPath, ['--import', 'tsx', '--import', clockModule, 'apps/server/src/main.ts'], {
      cwd: root,
      env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(
          `[e2e] own server exited with ${child.exitCode}: ${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
        );
      try {
        if ((await fetch(`${baseURL}/api/v1/health`)).ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`[e2e] own server did not answer within 60 s`);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  async function call<T>(method: string, url: string, body?: unknown, token?: string): Promise<T> {
    const response = await fetch(`${baseURL}/api/v1${url}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(url === '/auth/login'
          ? { 'X-Forwarded-For': `10.77.${(++signIns >> 8) & 255}.${signIns & 255}` }
          : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = (await response.json().catch(() => null)) as T;
    if (!response.ok) throw new Error(`${method} ${url} → ${response.status} ${JSON.stringify(data)}`);
    return data;
  }

  await start();
  return {
    baseURL,
    api: `${baseURL}/api/v1`,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    setClockOffset(ms: number) {
      // Written whole, then renamed: the server never reads half a number.
      const next = `${clockFile}.next`;
      fs.writeFileSync(next, String(Math.round(ms)));
      fs.renameSync(next, clockFile);
    },
    async dispose() {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    call,
    async createAdmin(who) {
      const superAdmin = await call<Session>('POST', '/auth/login', SUPERADMIN);
      const roles = await call<{ data: { id: number; name: string }[] }>(
        'GET',
        '/super-admin/roles',
        undefined,
        superAdmin.token,
      );
      const adminRole = roles.data.find((role) => role.name === 'admin');
      if (!adminRole) throw new Error('no admin role');
      const email = `${who.key}.${Date.now().toString(36)}@e2e.hablabot.test`;
      await call(
        'POST',
        '/super-admin/create-user',
        { name: who.name, email, password: E2E_PASSWORD, roles: [adminRole.id], company_name: who.company },
        superAdmin.token,
      );
      return call<Session>('POST', '/auth/login', { email, password: E2E_PASSWORD });
    },
  };
}
