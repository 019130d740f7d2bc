// The real server process stops when told, and only once it has answered what it was answering:
// apps/server/src/main.ts and scripts/start.mjs (what `npm start` runs) spawned with node, sent
// SIGTERM/SIGINT (once and twice) with an open keep-alive connection, with a request in flight, with a
// stalled upload and with a closed stdout. Time limits are generous on purpose (a busy CI machine);
// the stop itself takes well under a second.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './ports';
import { waitFor } from './wait';

const root = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(root, 'apps/server/src/main.ts');
const START = path.join(root, 'scripts/start.mjs');
/** A stop that takes longer than this has gone wrong (it takes well under a second here). */
const STOP_LIMIT_MS = 5000;
/** main.ts cuts requests still open this long into a stop; a stop that needed no cut is faster. */
const GRACE_MS = 3000;

interface Running {
  proc: ChildProcess;
  port: number;
  /** Resolves when the process has exited, with how long after `since` it took. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  output: () => string;
}

const started: ChildProcess[] = [];
/** Processes started by the ones above (start.mjs's server): killed too, should a test fail. */
const descendants: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const p of started.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  for (const pid of descendants.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts main.ts (or start.mjs, or a shell command) on a fresh data folder and waits until it listens. */
async function launch(
  script = MAIN,
  options: { detached?: boolean; stdout?: 'pipe' | 'ignore'; closeStdout?: boolean } = {},
): Promise<Running> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-stop-'));
  dirs.push(dataDir);
  const [command, args] =
    script === MAIN
      ? [process.execPath, ['--import', 'tsx', script]]
      : script === START
        ? [process.execPath, [script]]
        : ['sh', ['-c', script]];
  const proc = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SUPERADMIN_PASSWORD: 'Stop-test-super-password',
      LOG_LEVEL: 'info',
      HABLABOT_SKIP_WEB_BUILD: '1',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    detached: options.detached,
  });
  started.push(proc);
  if (options.closeStdout) proc.stdout?.destroy();
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d.toString();
  });
  proc.stderr?.on('data', (d) => {
    output += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`the server exited early: ${output}`);
      return (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined))?.ok;
    },
    30_000,
    100,
  ).catch((err: Error) => {
    throw new Error(`the server did not start (${err.message}): ${output}`);
  });
  return { proc, port, exited, output: () => output };
}

/** A raw connection: `send` writes, `answers` collects what came back, `closed` resolves when it ends. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => {
    text += d.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const ready = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return {
    ready,
    send: (data: string) => socket.write(data),
    answers: () => text,
    closed,
    socket,
  };
}

/** A connection that sends a request's headers and the start of its body, then nothing more. */
async function stalledUpload(port: number) {
  const conn = connect(port);
  await conn.ready;
  conn.send(
    'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
  );
  // A fixed wait, on purpose: the server must have read the request's start (else the connection is
  // idle and closed at once), and a stalled request shows nothing outside the process until it is cut.
  await new Promise((r) => setTimeout(r, 200));
  return conn;
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`;

/** A process's children (start.mjs's server), from /proc; remembered for the clean-up. */
function childrenOf(pid: number): number[] {
  let found: number[] = [];
  try {
    found = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  } catch {}
  descendants.push(...found);
  return found;
}

/** A process's process group, from /proc. */
const groupOf = (pid: number) =>
  Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('main.ts stops on a signal', () => {
  it('SIGTERM with an idle keep-alive connection: the connection is closed and the process exits 0', async () => {
    const server = await launch();
    const conn = connect(server.port);
    await conn.ready;
    conn.send(get('/api/v1/health'));
    await expect.poll(() => conn.answers()).toMatch(/^HTTP\/1\.1 200/);
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    // Closed as idle, not cut when the grace period ran out.
    expect(at - t0).toBeLessThan(GRACE_MS);
    await conn.closed;
  });

  it('SIGINT with a request in flight: the request is answered, then the process exits 0', async () => {
    const server = await launch();
    const conn = connect(server.port);
    await conn.ready;
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
    // Half the request now, the rest after the signal: the server is mid-request when it is told to stop.
    conn.send(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    // A fixed wait, on purpose: the server must have read the request's start before the signal, and a
    // request whose body has not come shows nothing outside the process.
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    server.proc.kill('SIGINT');
    // The rest of the body once the server is stopping (its log says so).
    await waitFor(() => server.output().includes('stopping'), STOP_LIMIT_MS, 10);
    conn.send(body.slice(10));
    await conn.closed;
    expect(conn.answers()).toMatch(/^HTTP\/1\.1 401/);
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    // Its connection was closed once answered, not cut when the grace period ran out.
    expect(at - t0).toBeLessThan(GRACE_MS);
    // A new connection is refused once the server has stopped listening.
    await expect(fetch(`http://127.0.0.1:${server.port}/api/v1/health`)).rejects.toThrow();
  });

  it('a stalled upload does not hold the stop: it is cut after the grace period', async () => {
    const server = await launch();
    const conn = await stalledUpload(server.port);
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(GRACE_MS + STOP_LIMIT_MS);
    await conn.closed;
  });

  it('a second signal exits at once, even while the first stop is waiting', async () => {
    const server = await launch();
    await stalledUpload(server.port);
    server.proc.kill('SIGTERM');
    // The second signal once the first stop is under way (its log says so).
    await waitFor(() => server.output().includes('stopping'), STOP_LIMIT_MS, 10);
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    const { code, at } = await server.exited;
    expect(code).toBe(128 + os.constants.signals.SIGTERM);
    expect(at - t0).toBeLessThan(2000);
  });

  it('a closed stdout (EPIPE) neither crashes the server nor hangs its stop', async () => {
    // Our end of the pipe closed before the server writes anything: its start-up line and every log line
    // fail with EPIPE.
    const server = await launch(MAIN, { closeStdout: true });
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/health`);
      expect(res.status).toBe(200);
    }
    const t0 = Date.now();
    server.proc.kill('SIGTERM');
    const { code, at } = await server.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(STOP_LIMIT_MS);
  });
});

describe('scripts/start.mjs (npm start) never outlives the server, nor the server it', () => {
  it('passes SIGTERM on; both exit 0', async () => {
    const parent = await launch(START);
    const [child] = childrenOf(parent.proc.pid!);
    expect(child).toBeGreaterThan(0);
    const t0 = Date.now();
    parent.proc.kill('SIGTERM');
    const { code, at } = await parent.exited;
    expect(code).toBe(0);
    expect(at - t0).toBeLessThan(STOP_LIMIT_MS);
    expect(alive(child)).toBe(false);
  });

  it('a Ctrl-C (SIGINT to the whole terminal group) reaches the server once: a clean stop, exit 0', async () => {
    const parent = await launch(START, { detached: true });
    const [child] = childrenOf(parent.proc.pid!);
    // The server is outside the terminal's group: otherwise it would get the Ctrl-C twice, from the
    // terminal and passed on, and take the second as "exit at once" (the kernel often merges the two,
    // which is why the exit code alone cannot show it).
    expect(groupOf(child)).not.toBe(groupOf(parent.proc.pid!));
    process.kill(-parent.proc.pid!, 'SIGINT');
    const { code } = await parent.exited;
    expect(code).toBe(0);
    expect(alive(child)).toBe(false);
  });

  it('when it is killed outright, the server stops by itself', async () => {
    const parent = await launch(START, { stdout: 'ignore' });
    const [child] = childrenOf(parent.proc.pid!);
    expect(alive(child)).toBe(true);
    parent.proc.kill('SIGKILL');
    await parent.exited;
    await expect.poll(() => alive(child), { timeout: STOP_LIMIT_MS, interval: 50 }).toBe(false);
  });

  it('when its own parent goes (npm killed, its shell gone), it stops the server and exits', async () => {
    // A shell that stays the parent of start.mjs (`; true` keeps it from exec-ing node), as npm's does.
    const shell = await launch(`node ${START}; true`);
    const [parent] = childrenOf(shell.proc.pid!);
    const [child] = childrenOf(parent);
    expect(alive(child)).toBe(true);
    shell.proc.kill('SIGKILL');
    await expect
      .poll(() => alive(parent) || alive(child), { timeout: STOP_LIMIT_MS, interval: 50 })
      .toBe(false);
  });

  it('when the server dies, it exits too, with the server’s status', async () => {
    const parent = await launch(START);
    const [child] = childrenOf(parent.proc.pid!);
    const t0 = Date.now();
    process.kill(child, 'SIGKILL');
    const { code, at } = await parent.exited;
    expect(code).toBe(128 + os.constants.signals.SIGKILL);
    expect(at - t0).toBeLessThan(STOP_LIMIT_MS);
  });
});

describe('worker.ts (npm run worker) on the SQLite default', () => {
  it('stays up while its queue is idle, runs a job queued later, and exits 0 on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-stop-worker-'));
    dirs.push(dataDir);
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/worker.ts')], {
      cwd: root,
      // No REDIS_URL nor DATABASE_URL: the database queue on the data folder's SQLite file.
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
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
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      proc.on('exit', (code) => resolve({ code, at: Date.now() })),
    );
    await expect.poll(() => output, { timeout: 30_000, interval: 50 }).toMatch(/worker running/);
    // Several idle polls later it is still there. A fixed wait, on purpose: what is checked is that the
    // process does not exit while nothing happens, and an idle poll shows nothing outside the process.
    await new Promise((r) => setTimeout(r, 2500));
    expect(proc.exitCode, output).toBe(null);

    // A job queued by another process (as the app does) is taken: its row leaves the pending state.
    const { default: Sqlite } = await import('better-sqlite3');
    const file = new Sqlite(path.join(dataDir, 'hablabot.db'));
    try {
      const at = new Date().toISOString();
      const { lastInsertRowid } = file
        .prepare(
          `insert into jobs (name, payload, state, run_at, max_attempts, backoff_ms, created_at, updated_at)
           values ('templates.sync', '{"companyId":999999}', 'pending', ?, 1, 1000, ?, ?)`,
        )
        .run(at, at, at);
      await expect
        .poll(
          () =>
            file.prepare('select state, attempts_made from jobs where id = ?').get(lastInsertRowid) as
              | { state: string; attempts_made: number }
              | undefined,
          { timeout: 15_000, interval: 100 },
        )
        .not.toEqual({ state: 'pending', attempts_made: 0 });
    } finally {
      file.close();
    }

    const t0 = Date.now();
    proc.kill('SIGTERM');
    const { code, at } = await exited;
    expect(code, output).toBe(0);
    expect(at - t0).toBeLessThan(STOP_LIMIT_MS);
  });
});
