// What a 100 MB upload costs the server in memory: the real server in its own process (so its resident
// memory is what is measured), uploads streamed to it over HTTP from a file on disk, the server's RSS
// sampled every 5 ms from /proc while each upload runs. The delta is peak RSS minus the RSS just before.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { processMemory } from './proc';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;
const PASSWORD = 'Quokka-Lantern-Orbit-57';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function json<T>(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(data)}`);
  return data;
}

/** Streams a file from disk as a multipart upload (field `file`); resolves with the status and seconds. */
function upload(
  port: number,
  token: string,
  file: string,
  name: string,
): Promise<{ status: number; seconds: number }> {
  const boundary = '----hablabot-bench-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/admin/media/upload',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, seconds: (performance.now() - started) / 1000 }),
        );
      },
    );
    req.on('error', reject);
    req.write(head);
    const body = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    body.on('end', () => req.end(tail));
    body.pipe(req, { end: false });
  });
}

/** Runs `work` while sampling the server's memory; answers the RSS before and the peak during it. */
async function sampled<T>(pid: number, work: () => Promise<T>) {
  const before = processMemory(pid).rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, processMemory(pid).rss);
  }, 5);
  const result = await work();
  clearInterval(timer);
  peak = Math.max(peak, processMemory(pid).rss);
  return { result, before, peak };
}

/** A PDF header, then filler up to `bytes`: a document the server accepts (or refuses for size). */
function makePdf(dir: string, name: string, bytes: number): string {
  const file = path.join(dir, name);
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  const chunk = Buffer.alloc(MB, 0x20);
  let left = bytes - fs.fstatSync(fd).size;
  while (left > 0) {
    left -= fs.writeSync(fd, chunk, 0, Math.min(left, chunk.length));
  }
  fs.closeSync(fd);
  return file;
}

const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-bench-media-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;
try {
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SUPERADMIN_EMAIL: 'bench.super@hablabot.local',
      SUPERADMIN_PASSWORD: PASSWORD,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {}
    if (i > 240) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = server.pid!;
  const sup = await json<{ token: string }>(base, 'POST', '/auth/login', {
    email: 'bench.super@hablabot.local',
    password: PASSWORD,
  });
  const roles = await json<{ data: { id: number; name: string }[] }>(
    base,
    'GET',
    '/super-admin/roles',
    undefined,
    sup.token,
  );
  await json(
    base,
    'POST',
    '/super-admin/create-user',
    {
      name: 'Bench Media',
      email: 'bench.media@hablabot.local',
      password: PASSWORD,
      roles: [roles.data.find((r) => r.name === 'admin')!.id],
    },
    sup.token,
  );
  const { token } = await json<{ token: string }>(base, 'POST', '/auth/login', {
    email: 'bench.media@hablabot.local',
    password: PASSWORD,
  });

  const files = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-bench-files-'));
  try {
    const small = makePdf(files, 'small.pdf', 64 * 1024);
    const exact = makePdf(files, 'max.pdf', 100 * MB);
    const over = makePdf(files, 'over.pdf', 100 * MB + MB);
    const quarter = makePdf(files, 'quarter.pdf', 25 * MB);

    // Warm up: the upload path's modules and buffers are loaded before anything is measured.
    for (let i = 0; i < 3; i++) await upload(port, token, small, 'warm.pdf');
    console.log(`server RSS at rest after warm-up: ${mb(processMemory(pid).rss)}`);

    const runs: [string, () => Promise<{ status: number; seconds: number }[]>][] = [
      ['one 100 MB upload (accepted)', async () => [await upload(port, token, exact, 'max.pdf')]],
      ['one 101 MB upload (refused at 100 MB)', async () => [await upload(port, token, over, 'over.pdf')]],
      [
        'four 25 MB uploads at once',
        () => Promise.all([1, 2, 3, 4].map((i) => upload(port, token, quarter, `q${i}.pdf`))),
      ],
      ['one 100 MB upload again', async () => [await upload(port, token, exact, 'max2.pdf')]],
    ];
    for (const [label, work] of runs) {
      const { result, before, peak } = await sampled(pid, work);
      const seconds = Math.max(...result.map((r) => r.seconds));
      console.log(
        `${label}: status ${result.map((r) => r.status).join(', ')} in ${seconds.toFixed(2)} s; server RSS ${mb(before)} → peak ${mb(peak)} (delta ${mb(peak - before)})`,
      );
    }
    console.log(`server RSS high-water mark over the whole run: ${mb(processMemory(pid).peak)}`);
  } finally {
    fs.rmSync(files, { recursive: true, force: true });
  }
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
