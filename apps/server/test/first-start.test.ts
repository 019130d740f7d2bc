// What someone starting HablaBot for the first time reads: a bad PORT names the variable, the value and
// what is allowed; a port already taken says so in one line; the first-start box (the first super admin's
// password) comes last, just before the "running" line, not buried among log lines. The real server
// process (apps/server/src/main.ts) spawned with node, on a fresh data folder.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { freePort } from './ports';

const root = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(root, 'apps/server/src/main.ts');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

/**
 * Runs main.ts with these variables until it exits, or until its stdout holds `until` (then it is
 * stopped with SIGTERM, and waited for).
 */
function run(env: Record<string, string>, until?: RegExp): Promise<Run> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-first-start-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: root,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const result: Run = { stdout: '', stderr: '', code: null };
  proc.stdout.on('data', (d) => {
    result.stdout += d;
    if (until?.test(result.stdout)) proc.kill('SIGTERM');
  });
  proc.stderr.on('data', (d) => {
    result.stderr += d;
  });
  return new Promise((resolve) =>
    proc.on('close', (code) => {
      result.code = code;
      resolve(result);
    }),
  );
}

it('refuses PORT=abc in one line that names the variable, the value and what is allowed', async () => {
  const result = await run({ PORT: 'abc' });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    "Invalid environment variable PORT: 'abc' is not a port: it must be a whole number from 0 to 65535 (3000 when unset)\n",
  );
}, 30_000);

it('says in one line that the port is taken, and still shows the password it generated', async () => {
  const port = await freePort();
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => taken.close());
  const result = await run({ PORT: String(port) });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    `HablaBot could not start: port ${port} on 127.0.0.1 is already in use (is HablaBot already running?); stop what uses it or set PORT to a free port\n`,
  );
  // The super admin was made before the port was tried: its password, shown only once, is not lost.
  expect(result.stdout).toMatch(/│ {3}password: [A-Za-z0-9]{20} +│/);
}, 30_000);

it('prints the first-start box last, just before the running line', async () => {
  const port = await freePort();
  const result = await run({ PORT: String(port) }, /HablaBot is running at/);
  const lines = result.stdout.split('\n');
  const running = lines.findIndex((l) => l.startsWith('HablaBot is running at'));
  expect(running).toBeGreaterThan(0);
  const before = lines.slice(0, running).filter((l) => l.trim() !== '');
  expect(before.at(-1)).toMatch(/^└─+┘$/);
  expect(before.at(-3)).toMatch(/^│ {3}password: [A-Za-z0-9]{20} +│$/);
  // Log lines were written, all of them above the box.
  const top = before.findIndex((l) => l.startsWith('┌'));
  expect(before.slice(0, top).some((l) => l.includes('"first super admin created"'))).toBe(true);
}, 30_000);
