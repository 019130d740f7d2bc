// A flood of oversized unsigned webhooks, against a listening server in a child process that logs as production
// does (JSON lines on stdout through platform/log-destination.ts): for 15 s, 4 senders post unsigned
// 880 KB bodies of 8,000 entries for unknown phone number ids while one client asks GET /api/v1/health
// in a loop. Reported: what the flood got back, the client's latency, and how many of the client's
// request lines reached the log (every one must).
//   node --import tsx bench/webhook-flood.ts        (FLOOD_SECONDS=15, FLOOD_SENDERS=4)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 15);
const SENDERS = Number(process.env.FLOOD_SENDERS ?? 4);

if (process.env.BENCH_ROLE === 'server') {
  const { buildApp, LOG_REDACT } = await import('../apps/server/src/app');
  const { createContainer } = await import('../apps/server/src/container');
  const { openInfrastructure } = await import('../apps/server/src/infrastructure');
  const { createLogDestination } = await import('../apps/server/src/platform/log-destination');
  const log = createLogDestination();
  const infra = await openInfrastructure({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-flood-')),
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    appKey: randomBytes(32).toString('base64'),
  });
  const container = createContainer(infra, { webhook: { requireSignature: true } });
  const app = await buildApp({
    container,
    logger: { level: 'info', redact: { paths: LOG_REDACT, censor: '[redacted]' }, stream: log.stream },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  app.log.info({ benchUrl: url }, 'bench server listening');
  process.on('SIGTERM', async () => {
    await app.close();
    log.flush();
    process.exit(0);
  });
} else {
  const child = spawn(process.execPath, ['--import', 'tsx', process.argv[1]!], {
    env: { ...process.env, BENCH_ROLE: 'server' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let lines = 0;
  let bytes = 0;
  const normalLogged = new Set<string>();
  let resolveUrl: (url: string) => void;
  const listening = new Promise<string>((resolve) => {
    resolveUrl = resolve;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines++;
    bytes += line.length + 1;
    const entry = JSON.parse(line) as { benchUrl?: string; reqId?: string; msg?: string };
    if (entry.benchUrl) resolveUrl(entry.benchUrl);
    if (entry.msg === 'request completed' && entry.reqId?.startsWith('normal-'))
      normalLogged.add(entry.reqId);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await listening;

  const payload = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: Array.from({ length: 8000 }, (_, i) => ({
      id: String(i),
      changes: [{ field: 'messages', value: { metadata: { phone_number_id: String(8e14 + i) } } }],
    })),
  });
  const until = Date.now() + SECONDS * 1000;
  const floodAnswers: Record<number, number> = {};
  const sender = async () => {
    while (Date.now() < until) {
      const res = await fetch(`${url}/api/v1/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: payload,
      });
      await res.arrayBuffer();
      floodAnswers[res.status] = (floodAnswers[res.status] ?? 0) + 1;
    }
  };
  const latencies: number[] = [];
  const client = async () => {
    for (let n = 0; Date.now() < until; n++) {
      const start = performance.now();
      const res = await fetch(`${url}/api/v1/health`, { headers: { 'x-request-id': `normal-${n}` } });
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all([client(), ...Array.from({ length: SENDERS }, sender)]);
  child.kill('SIGTERM');
  await exited;

  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(`flood: ${payload.length} bytes a body, ${SENDERS} senders for ${SECONDS} s`, floodAnswers);
  console.log(
    `GET /health meanwhile: ${latencies.length} requests, p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
  );
  console.log(
    `log: ${lines} lines (${(bytes / 1024).toFixed(0)} KB); the client's request lines: ${normalLogged.size} of ${latencies.length}`,
  );
}
