// The request path: a bare Fastify "hello" and the real HablaBot server (apps/server/src/main.ts, as
// `npm start` runs it, logging included) measured in the same run with autocannon, each server in a
// process of its own, autocannon in this one. Prints req/s and HablaBot's figures as fractions of bare
// Fastify's; fails only when the bench itself breaks (a server does not start, a request is refused).
// Run: node --import tsx bench/request-path.ts   (DATABASE_URL=postgres://… REDIS_URL=redis://… for those)
// Options: BENCH_SECONDS (default 5 per target and round), BENCH_ROUNDS (3), BENCH_CONNECTIONS (32),
// BENCH_ONLY=health,segment (only the HablaBot targets whose name contains one of these; bare Fastify always
// runs), BENCH_CPU_PROF=<dir> (profile the HablaBot process with node --cpu-prof into that folder).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const root = path.resolve(import.meta.dirname, '..');

/** The chat list's company: 2,000 clients, each with a conversation (the scale run's seed, in small). */
const CHAT_LIST_SHAPE = {
  companies: 1,
  clientsPerCompany: 2000,
  messages: 20_000,
  bigConversation: 200,
  days: 30,
};

if (process.argv[2] === '--serve-bare') {
  // The yardstick: Fastify with one route and nothing else, in a process of its own.
  const { default: Fastify } = await import('fastify');
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.argv[3]), host: '127.0.0.1' });
  process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
} else {
  await main();
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** Waits until the process uses under a tenth of a core over half a second (at most 20 s). */
async function settle(pid: number | undefined): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const before = cpuMicrosOf(pid);
    await new Promise((r) => setTimeout(r, 500));
    const used = cpuMicrosOf(pid) - before;
    if (!(used >= 50_000)) return;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Three companies, each with an admin holding a token: two with five segments, a small one (20 clients)
 * and one with 1,000 clients, a third of them with a conversation; and the chat list's company
 * (CHAT_LIST_SHAPE, seeded as the scale run seeds). Returns the three tokens.
 */
async function seed(
  dataDir: string,
  appKey: string,
): Promise<{ small: string; large: string; chats: string }> {
  const { buildApp } = await import('../apps/server/src/app');
  const { createContainer } = await import('../apps/server/src/container');
  const { openInfrastructure } = await import('../apps/server/src/infrastructure');
  const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
  const { addConversations } = await import('./lib');
  const infra = await openInfrastructure({
    dataDir,
    databaseUrl: process.env.DATABASE_URL,
    redisUrl: process.env.REDIS_URL,
    appKey,
  });
  try {
    const container = createContainer(infra);
    const app = await buildApp({ container });
    const { identity, db } = container;
    const role = await identity.findRoleByName('admin');

    const company = async (clientsCount: number) => {
      const stamp = randomBytes(4).toString('hex');
      const userId = await identity.createUser({
        name: 'Bench Admin',
        email: `bench-${stamp}@hablabot.local`,
        passwordHash: 'unused',
        roleIds: [role!.id],
        newCompanyName: `Bench company ${stamp}`,
      });
      const token = generateToken();
      await identity.createToken(userId, hashToken(token), 24 * 60 * 60 * 1000);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const names = ['VIP', 'Leads', 'Clientes Únicos', 'Newsletter', 'Mayoristas'];
      for (const name of names) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/admin/segment',
          headers,
          payload: { name, color: '#7300ff', rules: 'bench' },
        });
        if (res.statusCode !== 201) throw new Error(`seed segment: ${res.statusCode} ${res.body}`);
      }
      const clients = Array.from({ length: clientsCount }, (_, i) => ({
        Nombre: `Cliente ${i}`,
        Apellidos: 'García López',
        Teléfono: `+34 6${String(i).padStart(8, '0')}`,
        Correo: `cliente${i}@example.test`,
        Segmentos: `${names[i % 5]}; ${names[(i + 1) % 5]}`,
      }));
      const imported = await app.inject({
        method: 'POST',
        url: '/api/v1/import/clients',
        headers,
        payload: { clients },
      });
      if (imported.statusCode !== 200)
        throw new Error(`seed clients: ${imported.statusCode} ${imported.body}`);
      const user = (await identity.findUserById(userId))!;
      const ids = await db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', user.company_id)
        .execute();
      await addConversations(db, ids);
      return token;
    };

    const { seedScale } = await import('../apps/server/test/scale-seed');
    const chats = await seedScale(container, CHAT_LIST_SHAPE, {
      appSecret: 'bench-app-secret',
      graphToken: 'bench-graph-token',
      graphUrl: 'http://127.0.0.1:9/v21.0',
    });
    const tokens = {
      small: await company(20),
      large: await company(1000),
      chats: chats.companies[0]!.adminToken,
    };
    await app.close();
    return tokens;
  } finally {
    await infra.close();
  }
}

interface Figure {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  /** The server process's CPU time per request, in microseconds (Linux; NaN elsewhere). */
  cpuMicros: number;
}

/** CPU time (user + system) a process has used so far, in microseconds; NaN without /proc. */
function cpuMicrosOf(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are the 12th and 13th fields after the command name, in clock ticks (100 a second).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

async function cannon(
  name: string,
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
  pid?: number,
): Promise<Figure> {
  // A short warm-up first, so the JIT and the caches are in the state a running server is in.
  await autocannon({ url, connections, duration: 1, headers });
  const cpuBefore = cpuMicrosOf(pid);
  const r = await autocannon({ url, connections, duration: seconds, headers });
  const cpuMicros = (cpuMicrosOf(pid) - cpuBefore) / r.requests.total;
  if (r.errors || r.timeouts || r.non2xx || r.requests.total === 0)
    throw new Error(
      `${name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} answers other than 2xx of ${r.requests.total}`,
    );
  return { name, perSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuMicros };
}

async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-request-path-'));
  const appKey = randomBytes(32).toString('base64');
  const children: ChildProcess[] = [];
  try {
    const tokens = await seed(dataDir, appKey);
    const [barePort, port] = [await freePort(), await freePort()];
    const bare = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'request-path.ts'),
        '--serve-bare',
        String(barePort),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    children.push(bare);
    const prof = process.env.BENCH_CPU_PROF;
    const server = spawn(
      process.execPath,
      [
        ...(prof ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(prof)] : []),
        '--import',
        'tsx',
        path.join(root, 'apps/server/src/main.ts'),
      ],
      {
        cwd: root,
        // As `npm start` runs it: production, log level info; its log lines go nowhere here.
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          APP_KEY: appKey,
          SUPERADMIN_PASSWORD: 'Bench-super-admin-password',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    children.push(server);
    const bareUrl = `http://127.0.0.1:${barePort}/`;
    const api = `http://127.0.0.1:${port}/api/v1`;
    await waitFor(bareUrl, bare);
    await waitFor(`${api}/health`, server);
    // The server's start-up work (compiling modules as they are first used, its background work's first
    // runs) is not the request path: measure once its CPU use has settled.
    await settle(server.pid);
    const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
    const small = { authorization: `Bearer ${tokens.small}` };
    const large = { authorization: `Bearer ${tokens.large}` };

    interface Target {
      name: string;
      url: string;
      headers?: Record<string, string>;
      pid?: number;
    }
    const targets: Target[] = [
      { name: 'bare Fastify GET /', url: bareUrl, pid: bare.pid },
      { name: 'HablaBot GET /api/v1/health', url: `${api}/health` },
      {
        name: 'HablaBot GET /api/v1/admin/segment, signed in, 5 segments of 20 clients',
        url: `${api}/admin/segment`,
        headers: small,
      },
      {
        name: 'HablaBot GET /api/v1/admin/segment, signed in, 5 segments of 1,000 clients (counts 2,000 links)',
        url: `${api}/admin/segment`,
        headers: large,
      },
      {
        name: 'HablaBot GET /api/v1/admin/client/messages-summary?per_page=50&page=2, signed in, chat list of 2,000 clients',
        url: `${api}/admin/client/messages-summary?per_page=50&page=2`,
        headers: { authorization: `Bearer ${tokens.chats}` },
      },
    ]
      .map((t, i) => ({ pid: i === 0 ? bare.pid : server.pid, ...t }))
      .filter((t, i) => i === 0 || only.length === 0 || only.some((o) => t.name.includes(o)));

    // Rounds of every target in turn, keeping each target's best round: other work on the machine comes
    // and goes, and taking turns exposes bare Fastify and HablaBot to it alike.
    const best = new Map<string, Figure>();
    const leanest = new Map<string, number>();
    for (let round = 1; round <= rounds; round++) {
      for (const t of targets) {
        const f = await cannon(t.name, t.url, seconds, connections, t.headers, t.pid);
        console.log(
          `round ${round}: ${Math.round(f.perSecond)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, server CPU ${Math.round(f.cpuMicros)} µs/request  ${f.name}`,
        );
        if (f.perSecond > (best.get(t.name)?.perSecond ?? 0)) best.set(t.name, f);
        if (!(f.cpuMicros >= (leanest.get(t.name) ?? Number.POSITIVE_INFINITY)))
          leanest.set(t.name, f.cpuMicros);
      }
    }
    const yardstick = best.get(targets[0].name)!;
    const bareCpu = leanest.get(targets[0].name) ?? Number.NaN;
    console.log(
      `\nBest of ${rounds} rounds of ${seconds} s, ${connections} connections. Goals as a fraction of bare Fastify:` +
        ' health ≥ 0.60, signed-in small read ≥ 0.30, chat list page ≥ 0.20. The server CPU per request (least of the rounds) is' +
        " the steadier figure on a busy machine; its fraction is bare Fastify's CPU per request over this one.",
    );
    console.log('    req/s  fraction   CPU µs/req  fraction');
    for (const t of targets) {
      const f = best.get(t.name)!;
      const cpu = leanest.get(t.name) ?? Number.NaN;
      console.log(
        `${String(Math.round(f.perSecond)).padStart(9)}  ${(f.perSecond / yardstick.perSecond).toFixed(2).padStart(8)}  ${String(Math.round(cpu)).padStart(11)}  ${(bareCpu / cpu).toFixed(2).padStart(8)}  ${f.name}`,
      );
    }
  } finally {
    await Promise.all(children.map(stop));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
