// TRUST_PROXY as a hop count believes a client's own X-Forwarded-For when the app port is
// reachable directly; the server says so when it starts on a non-loopback HOST.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/ports';
import { isLoopbackHost, trustProxyWarning } from './trust-proxy-warning';

const root = path.resolve(import.meta.dirname, '../../../..');
const running: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the TRUST_PROXY start-up warning', () => {
  it('is given for a hop count with a HOST other machines reach, and not otherwise', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', 'example.com', '192.168.1.2'])
      expect(isLoopbackHost(host), host).toBe(false);
    expect(trustProxyWarning('0.0.0.0', 1)).toMatch(/^TRUST_PROXY=1 believes X-Forwarded-For/);
    expect(trustProxyWarning('10.0.0.5', 2)).toContain('reachable only through the proxy');
    expect(trustProxyWarning('127.0.0.1', 1)).toBeUndefined();
    expect(trustProxyWarning('0.0.0.0', false)).toBeUndefined();
    expect(trustProxyWarning('0.0.0.0', ['10.0.0.0/8'])).toBeUndefined();
  });

  it('is logged by the real server started with HOST=0.0.0.0 and TRUST_PROXY=true', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-proxy-'));
    dirs.push(dataDir);
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(await freePort()),
        HOST: '0.0.0.0',
        TRUST_PROXY: 'true',
        DATA_DIR: dataDir,
        SUPERADMIN_PASSWORD: 'Proxy-test-super-password',
        LOG_LEVEL: 'info',
        HABLABOT_SKIP_WEB_BUILD: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.push(proc);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const read = (d: Buffer) => {
        output += d.toString();
        if (output.includes('HablaBot is running')) resolve();
      };
      proc.stdout.on('data', read);
      proc.stderr.on('data', read);
      proc.on('exit', (code) => reject(new Error(`the server exited (${code}): ${output}`)));
    });
    const warning = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => l.msg.startsWith('TRUST_PROXY=1'));
    expect(warning?.level).toBe(40); // pino's warn
    expect(warning?.msg).toContain('HOST=0.0.0.0');
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  }, 60_000);
});
