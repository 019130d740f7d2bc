// The client table's list (GET /api/v1/admin/client) for a company of 10,000 clients whose project notes
// are long (~3 KB each): the bytes and time of one answer, then 20 answers at once — their wall time, the
// /health latency meanwhile, and the server's peak memory.
//
// The server runs in a child process (this same file, BENCH_ROLE=server) so the measuring side does not
// share its event loop or its memory; requests are real HTTP over loopback.
// Run: node --import tsx bench/client-list.ts        (DATABASE_URL=postgres://… for PostgreSQL)
//
// It measures whatever code it runs in: on code that answers every client at once (no `pagination` in the
// answer) it measures that whole list; on code that answers pages, the default page (1000), a page of
// 50, and the whole list fetched page by page.
import { type ChildProcess, spawn } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { processMemory, resetPeak } from './proc';

const CLIENTS = 10_000;
const CONCURRENT = 20;

/** Child: the real server on a temp database, seeded through the import API; prints where it listens. */
async function serve() {
  const { startBenchServer } = await import('./lib');
  const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
  const server = await startBenchServer();
  const { identity, segmentsRepository } = server.container;
  const role = await identity.findRoleByName('admin');
  const userId = await identity.createUser({
    name: 'Bench Admin',
    email: 'bench-list@hablabot.local',
    passwordHash: 'unused',
    roleIds: [role!.id],
    newCompanyName: 'Bench list company',
  });
  const companyId = (await identity.findUserById(userId))!.company_id!;
  const token = generateToken();
  await identity.createToken(userId, hashToken(token), 60 * 60 * 1000);
  const segments = ['VIP', 'Leads', 'Clientes Únicos', 'Newsletter', 'Mayoristas'];
  for (const name of segments)
    await segmentsRepository.createSegment(companyId, { name, color: '#7300ff', rules: 'bench' });

  // ~3 KB of notes per client, different for each one, with accents and line breaks.
  const sentence =
    'Reforma integral de cocina y baño, presupuesto aprobado; revisar acabados con el cliente. ';
  const notes = (i: number) => `Proyecto ${i}:\n${sentence.repeat(33)}`.slice(0, 3000);
  const rows = Array.from({ length: CLIENTS }, (_, i) => ({
    nombre: `Cliente ${i}`,
    apellidos: i % 2 ? 'García López' : 'Núñez Peña',
    celular: `346${String(i).padStart(8, '0')}`,
    correo: `cliente${i}@example.test`,
    proyectos: notes(i),
    segmentos: `${segments[i % 5]}; ${segments[(i + 2) % 5]}`,
  }));
  for (let i = 0; i < rows.length; i += 5000) {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/import/clients',
      headers: { authorization: `Bearer ${token}` },
      payload: { clients: rows.slice(i, i + 5000) },
    });
    if (res.statusCode !== 200 || res.json().data.error.length > 0)
      throw new Error(`seeding answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
  // The parent asks for the event loop's delay over a phase: 'reset' at its start, 'read' at its end.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (m) => {
    if (m === 'reset') loop.reset();
    process.send!({ max: loop.max / 1e6, p99: loop.percentile(99) / 1e6 });
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, token })}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  headers: Record<string, string>;
}

async function startChild(): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    env: { ...process.env, BENCH_ROLE: 'server' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server process ended (${code}) before listening`)));
  });
  const { url, token } = JSON.parse(line) as { url: string; token: string };
  return { child, url, headers: { authorization: `Bearer ${token}` } };
}

/** The child's event-loop delay since the last 'reset' (max and p99, ms). */
function loopDelay(server: Server, message: 'reset' | 'read'): Promise<{ max: number; p99: number }> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve(m as { max: number; p99: number }));
    server.child.send(message);
  });
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function get(
  server: Server,
  path: string,
): Promise<{ status: number; bytes: number; body: ArrayBuffer }> {
  const res = await fetch(`${server.url}${path}`, { headers: server.headers });
  const body = await res.arrayBuffer();
  return { status: res.status, bytes: body.byteLength, body };
}

/** One answer at a time: the median of five, after one to warm up. */
async function single(server: Server, path: string) {
  await get(server, path);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = await get(server, path);
    times.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  return { bytes, median: times[2] };
}

/** `CONCURRENT` answers at once, with /health asked every 10 ms meanwhile; the server's peak memory. */
async function concurrent(server: Server, path: string) {
  const pid = server.child.pid!;
  resetPeak(pid);
  const before = processMemory(pid).rss;
  await loopDelay(server, 'reset');
  let running = true;
  const health: number[] = [];
  const poller = (async () => {
    while (running) {
      const t0 = performance.now();
      await get(server, '/api/v1/health');
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: CONCURRENT }, () => get(server, path)));
  const wall = performance.now() - t0;
  const loop = await loopDelay(server, 'read');
  running = false;
  await poller;
  if (results.some((r) => r.status !== 200)) throw new Error(`${path}: not every answer was 200`);
  health.sort((a, b) => a - b);
  return {
    wall,
    health: { n: health.length, p50: pct(health, 50), p95: pct(health, 95), max: health[health.length - 1] },
    rssBefore: before,
    peak: processMemory(pid).peak,
    loop,
  };
}

async function measureAll() {
  const server = await startChild();
  try {
    const first = JSON.parse(new TextDecoder().decode((await get(server, '/api/v1/admin/client')).body));
    const paged = 'pagination' in first;
    console.log(
      `${CLIENTS} clients with ~3 KB of notes each; ${paged ? 'code that answers pages' : 'code that answers every client at once'}; server process RSS at rest ${mb(processMemory(server.child.pid!).rss)}`,
    );
    const cases = paged
      ? [
          ['default page (1000)', '/api/v1/admin/client'],
          ['page of 50', '/api/v1/admin/client?per_page=50&page=3'],
        ]
      : [['whole list (asked per_page=10000)', '/api/v1/admin/client?per_page=10000']];
    for (const [label, path] of cases) {
      const one = await single(server, path);
      const many = await concurrent(server, path);
      console.log(
        `GET ${path} — ${label}: one answer ${mb(one.bytes)} in ${ms(one.median)} (median of 5); ` +
          `${CONCURRENT} at once: ${ms(many.wall)} wall; /health meanwhile p50 ${ms(many.health.p50)}, ` +
          `p95 ${ms(many.health.p95)}, max ${ms(many.health.max)} (${many.health.n} checks); ` +
          `server peak RSS ${mb(many.peak)} (${mb(many.rssBefore)} before); ` +
          `server event loop delay max ${ms(many.loop.max)}, p99 ${ms(many.loop.p99)}`,
      );
    }
    if (paged) {
      // What a screen that wants every client does with pages: ask them one after another.
      const t0 = performance.now();
      let bytes = 0;
      for (let page = 1; page <= first.pagination.last_page; page++)
        bytes += (await get(server, `/api/v1/admin/client?page=${page}`)).bytes;
      console.log(
        `whole list page by page: ${first.pagination.last_page} pages of 1000, ${mb(bytes)} in ${ms(performance.now() - t0)}`,
      );
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}

if (process.env.BENCH_ROLE === 'server') await serve();
else await measureAll();
