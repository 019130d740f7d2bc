import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig } from '@playwright/test';
import { E2E_PASSWORD, E2E_USERS, type E2ERole } from './users';
import { ensureWebBuild } from './web-build';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

async function waitForHealth(baseURL: string, server: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`[e2e] the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${baseURL}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`[e2e] the server did not answer ${baseURL}/api/v1/health within ${timeoutMs / 1000}s`);
}

async function call<T>(
  baseURL: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const response = await fetch(`${baseURL}/api/v1${url}`, {
    method,
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await response.json().catch(() => null)) as T;
  if (!response.ok) throw new Error(`[e2e] ${method} ${url} → ${response.status} ${JSON.stringify(data)}`);
  return data;
}

interface LoginBody {
  token: string;
  user: { name: string; roles: { name: string }[] };
}

/**
 * Builds the web app if needed, starts the real server (temp database, known super admin) on the port
 * the config chose, creates the admin and client users through the API, and signs each role in once
 * (the tokens are shared with the tests so they stay under the server's sign-in rate limit).
 */
export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0].use.baseURL as string;
  const port = new URL(baseURL).port;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-e2e-'));
  // The server's folder (its SQLite database): a spec that needs a state the app cannot reach in a
  // test's time (a webhook delivery out of retries) writes it there.
  process.env.E2E_DATA_DIR = dataDir;
  // The server gets a private copy of the build: a rebuild of apps/web/dist by someone else (npm run
  // size, another e2e run) must not pull chunks from under the running tests.
  const webDist = path.join(dataDir, 'web');
  fs.cpSync(ensureWebBuild(root), webDist, { recursive: true });
  const logFile = `${config.projects[0].outputDir.replace(/[\\/]+$/, '')}-server.log`;
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');

  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: port,
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      SUPERADMIN_EMAIL: E2E_USERS.super_admin.email,
      SUPERADMIN_PASSWORD: E2E_PASSWORD,
      // The specs' API sign-ins name an address of their own in X-Forwarded-For (support/api.ts).
      TRUST_PROXY: '1',
      // The fake WhatsApp and OpenAI servers the specs start listen on 127.0.0.1 over http.
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1,::1',
    },
    stdio: ['ignore', log, log],
  });

  const teardown = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          server.kill('SIGKILL');
          resolve(null);
        }, 5000);
        server.once('exit', () => {
          clearTimeout(timer);
          resolve(null);
        });
      });
    }
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseURL, server);
    const superAdmin = await call<LoginBody>(baseURL, 'POST', '/auth/login', {
      email: E2E_USERS.super_admin.email,
      password: E2E_PASSWORD,
    });
    const roles = await call<{ data: { id: number; name: string }[] }>(
      baseURL,
      'GET',
      '/super-admin/roles',
      undefined,
      superAdmin.token,
    );
    const roleId = (name: string) => {
      const role = roles.data.find((r) => r.name === name);
      if (!role) throw new Error(`[e2e] role ${name} is missing`);
      return role.id;
    };
    for (const key of Object.keys(E2E_USERS) as E2ERole[]) {
      const user = E2E_USERS[key];
      if (user.role === 'super_admin') continue;
      await call(
        baseURL,
        'POST',
        '/super-admin/create-user',
        {
          name: user.name,
          email: user.email,
          password: E2E_PASSWORD,
          roles: [roleId(user.role)],
          ...(user.role === 'admin' ? { company_name: `${user.name} S.A.` } : {}),
        },
        superAdmin.token,
      );
    }
    const sessions: Record<string, LoginBody> = { super_admin: superAdmin };
    for (const key of ['admin', 'client'] as const) {
      sessions[key] = await call<LoginBody>(baseURL, 'POST', '/auth/login', {
        email: E2E_USERS[key].email,
        password: E2E_PASSWORD,
      });
    }
    process.env.E2E_SESSIONS = JSON.stringify(sessions);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
