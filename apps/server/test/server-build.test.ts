// `npm start` runs the server's production build (scripts/server-build.mjs): plain JavaScript in
// apps/server/dist, built when missing or older than its sources, whose stack traces name the TypeScript
// lines through source maps; start.mjs runs it with node, never TypeScript through tsx.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from './wait';
import { ensureServerBuild, serverBuildFile, serverBuildIsStale } from '../../../scripts/server-build.mjs';
import { freePort } from './ports';

const root = path.resolve(import.meta.dirname, '../../..');

const dirs: string[] = [];
const started: ChildProcess[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

describe('the server build', () => {
  it('is built when missing, maps stack traces to the TypeScript, and is rebuilt only when a source is newer', async () => {
    const fake = tempDir('hb-build-');
    const src = path.join(fake, 'apps/server/src');
    fs.mkdirSync(src, { recursive: true });
    fs.writeFileSync(
      path.join(src, 'main.ts'),
      "import { reason } from './reason';\nconst n: number = 1;\nif (n > 0) {\n  throw new Error(reason);\n}\n",
    );
    fs.writeFileSync(path.join(src, 'reason.ts'), "export const reason: string = 'built';\n");
    fs.writeFileSync(path.join(src, 'worker.ts'), 'export {};\n');
    const written = new Date(Date.now() - 20_000);
    for (const file of fs.readdirSync(src)) fs.utimesSync(path.join(src, file), written, written);

    expect(serverBuildIsStale(fake)).toBe(true);
    await ensureServerBuild(fake);
    expect(serverBuildIsStale(fake)).toBe(false);
    const run = spawnSync(process.execPath, ['--enable-source-maps', serverBuildFile(fake, 'main')], {
      encoding: 'utf8',
    });
    expect(run.stderr).toContain('Error: built');
    expect(run.stderr).toContain(`${path.join('apps/server/src/main.ts')}:4`);

    const builtAt = fs.statSync(serverBuildFile(fake, 'main')).mtimeMs;
    await ensureServerBuild(fake);
    expect(fs.statSync(serverBuildFile(fake, 'main')).mtimeMs).toBe(builtAt);

    // A source edited after the build (the sources and then the build set back in time, rather than waiting).
    const earlier = new Date(builtAt - 10_000);
    for (const entry of ['main', 'worker'] as const)
      fs.utimesSync(serverBuildFile(fake, entry), earlier, earlier);
    expect(serverBuildIsStale(fake)).toBe(false);
    fs.writeFileSync(path.join(src, 'reason.ts'), "export const reason: string = 'rebuilt';\n");
    expect(serverBuildIsStale(fake)).toBe(true);
    await ensureServerBuild(fake);
    expect(serverBuildIsStale(fake)).toBe(false);
    const again = spawnSync(process.execPath, [serverBuildFile(fake, 'main')], { encoding: 'utf8' });
    expect(again.stderr).toContain('Error: rebuilt');
  });

  it('is what npm start runs: node with source maps on apps/server/dist/main.js, not tsx', async () => {
    const port = await freePort();
    const proc = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: tempDir('hb-start-'),
        SUPERADMIN_PASSWORD: 'Build-test-super-password',
        HABLABOT_SKIP_WEB_BUILD: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(proc);
    let output = '';
    proc.stdout?.on('data', (d) => {
      output += d.toString();
    });
    proc.stderr?.on('data', (d) => {
      output += d.toString();
    });
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`npm start exited early: ${output}`);
        return (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.ok;
      },
      30_000,
      100,
    ).catch((err: Error) => {
      throw new Error(`the server did not start (${err.message}): ${output}`);
    });
    const [server] = fs
      .readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/);
    const args = fs.readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0').filter(Boolean);
    expect(args.slice(1)).toEqual(['--enable-source-maps', serverBuildFile(root, 'main')]);
    expect(serverBuildIsStale(root)).toBe(false);
    // The bundle finds the web app where the sources do (apps/web/dist), from its own place.
    const webDist = path.join(root, 'apps/web/dist');
    if (fs.existsSync(path.join(webDist, 'index.html'))) {
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.headers.get('content-type')).toContain('text/html');
    } else {
      expect(output).toContain(JSON.stringify({ webDist }).slice(1, -1));
    }
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  });
});
