// Production start: how long `npm start` (scripts/start.mjs) takes to answer its first request, and the
// server's resident memory idle and under load. Each run starts scripts/start.mjs twice on a fresh data
// folder (SQLite) and a free port: the first start (database created, first super admin) is not measured;
// the second, warm one (file cache, database and server build in place) is. The bench asks
// GET /api/v1/health every 5 ms until it answers 200, then reads the server process's VmRSS (start.mjs's
// child) after 3 s idle, and again after 20,000 health requests, 32 in flight (autocannon), with the peak
// (VmHWM). The web build check is skipped (HABLABOT_SKIP_WEB_BUILD=1): it is the same either way.
// Run: node --import tsx bench/start.ts        (BENCH_RUNS=5 by default; BENCH_START=scripts/<file> to
// measure another start script)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { processMemory } from './proc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A process's resident memory in MB: now, and its peak. */
function memory(pid: number): { rss: number; hwm: number } {
  const { rss, peak } = processMemory(pid);
  return { rss: rss / 1024 / 1024, hwm: peak / 1024 / 1024 };
}

function childOf(pid: number): number {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return Number(children[0]);
}

async function start(dataDir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/v1/health`;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, process.env.BENCH_START ?? 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      HABLABOT_SKIP_WEB_BUILD: '1',
    },
    stdio: 'ignore',
  });
  let firstAnswer = 0;
  while (!firstAnswer) {
    try {
      const res = await fetch(url);
      if (res.status === 200) firstAnswer = performance.now() - started;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const server = childOf(child.pid!);
  await new Promise((r) => setTimeout(r, 3000));
  const idle = memory(server);
  await autocannon({ url, connections: 32, amount: 20_000 });
  const loaded = memory(server);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { firstAnswer, idle: idle.rss, loaded: loaded.rss, peak: loaded.hwm };
}

async function once() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hb-start-'));
  await start(dataDir);
  const warm = await start(dataDir);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return warm;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

await once();
const runs = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
console.log(`npm start → first answer, ms: ${range(runs.map((r) => r.firstAnswer))}`);
console.log(`server RSS idle, MB: ${range(runs.map((r) => r.idle))}`);
console.log(`server RSS after 20,000 requests, MB: ${range(runs.map((r) => r.loaded))}`);
console.log(`server peak RSS (VmHWM), MB: ${range(runs.map((r) => r.peak))}`);
