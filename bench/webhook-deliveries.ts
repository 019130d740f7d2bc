// The super admin's 'Webhooks fallidos' list (GET /super-admin/webhook-deliveries?status=failed) with
// 10,000 failed deliveries among 1,000,000 done ones, the failed spread evenly through the table (one in
// every 101 rows). Prints the query plans of the page and of its count (both must use
// webhook_deliveries_status_idx, never scan the table), then times the first, a middle and the last page
// of 100 over loopback HTTP, one at a time, with the process's CPU time per request (server and client
// are in this process). Budget: p95 under 50 ms for any page.
//
// Run: node --import tsx bench/webhook-deliveries.ts        (DATABASE_URL=postgres://… for PostgreSQL)
import { sql } from 'kysely';
import { measure, report, startBenchServer } from './lib';

const DONE = Number(process.env.BENCH_DONE ?? 1_000_000);
const FAILED = Number(process.env.BENCH_FAILED ?? 10_000);
const PER_PAGE = 100;

const server = await startBenchServer();
const { identity, db } = server.container;
const engine = server.container.infra.database.engine;
const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
const superRole = await identity.findRoleByName('super_admin');
const superId = await identity.createUser({
  name: 'Bench Super',
  email: 'bench-webhooks@hablabot.local',
  passwordHash: 'unused',
  roleIds: [superRole!.id],
});
const token = generateToken();
await identity.createToken(superId, hashToken(token), 60 * 60 * 1000);
const now = new Date().toISOString();
const { id: companyId } = await db
  .insertInto('companies')
  .values({ name: 'Bench webhooks', created_at: now, updated_at: now })
  .returning('id')
  .executeTakeFirstOrThrow();

// One statement on the engine itself: a failed row after every 100 done ones.
const seedStarted = performance.now();
const total = DONE + FAILED;
const every = Math.floor(total / FAILED);
const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
const status = sql`case when n % ${every} = 0 then 'failed' else 'done' end`;
const select = sql`select ${now}, ${body}, ${String(companyId)}, ${status}, 1, ${now},
  case when n % ${every} = 0 then 'bench: refused' else null end,
  case when n % ${every} = 0 then null else ${now} end`;
const columns = sql`(received_at, body, company_ids, status, attempts, next_attempt_at, last_error, processed_at)`;
if (engine === 'postgres')
  await sql`insert into webhook_deliveries ${columns} ${select} from generate_series(1, ${total}) as n`.execute(
    db,
  );
else
  await sql`insert into webhook_deliveries ${columns}
    with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${total}) ${select} from seq`.execute(
    db,
  );
if (engine === 'postgres') await sql`vacuum analyze webhook_deliveries`.execute(db);
else await sql`analyze`.execute(db);
const counts = await db
  .selectFrom('webhook_deliveries')
  .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
  .groupBy('status')
  .execute();
console.log(
  `engine: ${engine}; seeded ${counts.map((c) => `${Number(c.n).toLocaleString('en')} ${c.status}`).join(', ')} in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

// The plans of what the list runs (modules/messaging/webhook-deliveries.ts): the page and its count.
const pageSql = sql`select id, received_at, status, attempts, last_error, company_ids, body from webhook_deliveries where status = 'failed' order by id desc limit 100 offset 9900`;
const countSql = sql`select count(*) from webhook_deliveries where status = 'failed'`;
for (const [name, query] of [
  ['page', pageSql],
  ['count', countSql],
] as const) {
  const explain = engine === 'postgres' ? sql`explain ${query}` : sql`explain query plan ${query}`;
  const rows = (await explain.execute(db)).rows as Record<string, unknown>[];
  const plan = rows.map((r) => String(r['QUERY PLAN'] ?? r.detail)).join(' | ');
  console.log(`plan of the ${name}: ${plan}`);
  if (!/webhook_deliveries_status_idx/.test(plan))
    console.log(`  ^ the ${name} does not use the status index`);
}

// The two statements alone, in this process (no HTTP): what the database spends on a page.
for (const [name, query] of [
  ['page query, offset 9,900', pageSql],
  ['count query', countSql],
] as const) {
  const cpu = process.cpuUsage();
  const stats = await measure(50, 1, async () => {
    await query.execute(db);
  });
  const used = process.cpuUsage(cpu);
  report(`${name} alone`, stats);
  console.log(`  process CPU ${Math.round((used.user + used.system) / stats.requests)} µs a query`);
}

const headers = { authorization: `Bearer ${token}` };
async function page(n: number) {
  const res = await fetch(
    `${server.url}/api/v1/super-admin/webhook-deliveries?status=failed&page=${n}&per_page=${PER_PAGE}`,
    { headers },
  );
  if (res.status !== 200) throw new Error(`page ${n}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: { id: number; status: string }[]; pagination: { total: number } };
}
const last = Math.ceil(FAILED / PER_PAGE);
const first = await page(1);
console.log(`total failed in the answer: ${first.pagination.total}; first page ${first.data.length} rows`);
for (let i = 0; i < 5; i++) await page(1); // warm-up
for (const [name, n] of [
  ['first page', 1],
  ['middle page', Math.ceil(last / 2)],
  ['last page', last],
] as const) {
  const cpu = process.cpuUsage();
  const stats = await measure(50, 1, async () => {
    const answer = await page(n);
    if (answer.data.length !== PER_PAGE || answer.data.some((d) => d.status !== 'failed'))
      throw new Error(`page ${n}: ${answer.data.length} rows`);
  });
  const used = process.cpuUsage(cpu);
  report(`${name} (${n} of ${last}), one at a time`, stats, 'p95 < 50 ms');
  console.log(`  process CPU ${Math.round((used.user + used.system) / stats.requests)} µs a request`);
}
await server.close();
