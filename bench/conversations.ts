// The team inbox's list (GET /api/v1/admin/conversations) for a company of 50,000 conversations and 10
// agents: each view ('mine', 'unassigned', 'all', 'resolved'), with and without a search, for an admin
// and for an agent who sees only their own and the unassigned ones (the default). One request at a time
// through the app (inject: routing, auth, validation and serialisation included, no sockets).
// Budget (issue 25): p95 < 20 ms per view, with and without search, on both engines.
//
// Run: node --import tsx bench/conversations.ts
//      TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/conversations.ts
//      (PostgreSQL: a schema of its own, dropped at the end)
import { sql } from 'kysely';
import { createTestContext } from '../apps/server/test/context';
import { createUser } from '../apps/server/test/factories';
import { derivedColumns } from '../apps/server/src/modules/clients/client-rows';
import { measure, report } from './lib';

const CONVERSATIONS = 50_000;
const AGENTS = 10;
const BATCH = 500;
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const FIRST = ['María', 'José', 'Lucía', 'Carlos', 'Ana', 'Luis', 'Sofía', 'Pedro', 'Elena', 'Jorge'];
const LAST = ['García', 'Pérez', 'López', 'Sánchez', 'Romero', 'Torres', 'Flores', 'Ruiz', 'Díaz', 'Vega'];

const ctx = await createTestContext();
const { db } = ctx.container;
const engine = ctx.engine;
const seedStarted = performance.now();
const admin = await createUser(ctx, { role: 'admin', name: 'Bench Admin' });
const companyId = admin.user.company_id!;
const agents = [];
for (let a = 0; a < AGENTS; a++)
  agents.push(await createUser(ctx, { role: 'agent', companyId, name: `Agente ${a}` }));
const agent = agents[0]!;

const now = Date.now();
for (let from = 0; from < CONVERSATIONS; from += BATCH) {
  const at = new Date().toISOString();
  const clients = await db
    .insertInto('clients')
    .values(
      Array.from({ length: BATCH }, (_, i) => {
        const k = from + i;
        const name = `${FIRST[k % FIRST.length]} ${k}`;
        const last_names = `${LAST[Math.floor(k / 10) % LAST.length]} ${LAST[k % 7]}`;
        const email = `cliente${k}@example.test`;
        return {
          company_id: companyId,
          name,
          last_names,
          whatsapp_cellphone: `5255${String(k).padStart(8, '0')}`,
          email,
          ...derivedColumns({ name, last_names, email }),
          created_at: at,
          updated_at: at,
        };
      }),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('conversations')
    .values(
      clients.map(({ id }, i) => {
        const k = from + i;
        // A tenth resolved; a quarter unassigned and the rest spread over the agents.
        const resolved = Math.floor(k / 10) % 10 === 0;
        const assignee = k % 4 === 0 ? null : agents[k % AGENTS]!.user.id;
        const last = new Date(now - k * 37_000).toISOString();
        return {
          company_id: companyId,
          client_id: id,
          status: resolved ? 'resolved' : 'open',
          assignee_user_id: assignee,
          unread_count: k % 3,
          last_message_content: `Mensaje ${k}`,
          last_message_at: last,
          customer_last_message_at: last,
          messages_count: 5,
          resolved_at: resolved ? last : null,
          created_at: at,
          updated_at: at,
        };
      }),
    )
    .execute();
}
if (engine === 'postgres') await sql`vacuum analyze`.execute(db);
else await sql`analyze`.execute(db);
if (process.env.BENCH_KEEP_DB && engine === 'sqlite') {
  // A copy of the seeded database, to profile its statements apart (sqlite3 or a script).
  await sql`vacuum into ${process.env.BENCH_KEEP_DB}`.execute(db);
  console.log(`kept a copy in ${process.env.BENCH_KEEP_DB}`);
}
console.log(
  `${engine}: seeded ${CONVERSATIONS} conversations, ${AGENTS} agents in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const searches = [
  ['', 'no search'],
  ['&search=lucia', "search 'lucia' (a tenth)"],
  ['&search=4242', "search '4242' (a phone, a few)"],
  ['&search=nadie', "search 'nadie' (none)"],
] as const;
for (const [who, user] of [
  ['admin', admin],
  ['agent', agent],
] as const) {
  for (const view of ['mine', 'unassigned', 'all', 'resolved'] as const) {
    for (const [search, label] of searches) {
      const url = `/api/v1/admin/conversations?view=${view}${search}`;
      const warm = await ctx.app.inject({ method: 'GET', url, headers: user.headers });
      if (warm.statusCode !== 200) throw new Error(`${url}: ${warm.statusCode} ${warm.body}`);
      const total = warm.json().pagination.total;
      const cpu = process.cpuUsage();
      const stats = await measure(REQUESTS, 1, async () => {
        await ctx.app.inject({ method: 'GET', url, headers: user.headers });
      });
      // This process's CPU time per request: on SQLite the whole request (the database runs here too),
      // on PostgreSQL the app's share; far steadier than wall times on a busy machine.
      const used = process.cpuUsage(cpu);
      const cpuMs = ((used.user + used.system) / 1000 / REQUESTS).toFixed(2);
      report(
        `${engine} ${who} ${view}, ${label}, ${total} in view (CPU ${cpuMs} ms/request)`,
        stats,
        'p95 < 20 ms',
      );
    }
  }
}
await ctx.close();
