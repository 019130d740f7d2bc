// The super admin's figures with 1,000,000 messages in the database: 10 companies of 500 clients, the
// messages spread over the last 60 days (half of them inside the analytics chart's 30 days), customers,
// admins and bots taking turns, some not sent. Times, over loopback HTTP, one at a time:
// GET /super-admin/analytics (every company, and one), GET /super-admin/overview (the dashboard) and
// GET /super-admin/companies/overview. Budget: p95 under 300 ms for the analytics of every company.
//
// Run: node --import tsx bench/super-admin-figures.ts        (DATABASE_URL=postgres://… for PostgreSQL)
import { sql } from 'kysely';
import { measure, report, startBenchServer } from './lib';

const COMPANIES = 10;
const CLIENTS_PER_COMPANY = 500;
const MESSAGES = 1_000_000;
const DAYS = 60;
const BATCH = 1000;

const server = await startBenchServer();
const { identity, db } = server.container;
const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
const superRole = await identity.findRoleByName('super_admin');
const superId = await identity.createUser({
  name: 'Bench Super',
  email: 'bench-figures@hablabot.local',
  passwordHash: 'unused',
  roleIds: [superRole!.id],
});
const token = generateToken();
await identity.createToken(superId, hashToken(token), 60 * 60 * 1000);

const seedStarted = performance.now();
const now = new Date().toISOString();
const companyIds: number[] = [];
const clientsOf = new Map<number, number[]>();
for (let c = 0; c < COMPANIES; c++) {
  const { id } = await db
    .insertInto('companies')
    .values({ name: `Bench company ${c}`, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  companyIds.push(id);
  await db
    .insertInto('clients')
    .values(
      Array.from({ length: CLIENTS_PER_COMPANY }, (_, k) => ({
        company_id: id,
        name: `Cliente ${c}-${k}`,
        whatsapp_cellphone: `521${String(c).padStart(2, '0')}${String(k).padStart(8, '0')}`,
        email: null,
        avatar: null,
        projects: null,
        wa_user_id: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  clientsOf.set(
    id,
    (await db.selectFrom('clients').select('id').where('company_id', '=', id).execute()).map((r) => r.id),
  );
}

const SENDERS = ['client', 'bot', 'client', 'admin'] as const;
const span = DAYS * 24 * 60 * 60 * 1000;
const start = Date.now() - span;
let pending: object[] = [];
for (let n = 0; n < MESSAGES; n++) {
  const companyId = companyIds[n % COMPANIES]!;
  const clients = clientsOf.get(companyId)!;
  const sender = SENDERS[n % SENDERS.length]!;
  // Oldest first, evenly over the 60 days.
  const at = new Date(start + Math.floor((n / MESSAGES) * span)).toISOString();
  pending.push({
    company_id: companyId,
    client_id: clients[Math.floor(n / COMPANIES) % clients.length]!,
    wamid: `wamid.bench.${n}`,
    sender_type: sender,
    message_type: 'text',
    wa_type: 'text',
    content: `Mensaje ${n}`,
    phone: '5215500000000',
    status: sender === 'client' ? 2 : n % 50 === 1 ? 4 : 1,
    created_at: at,
    updated_at: at,
  });
  if (pending.length === BATCH) {
    await db
      .insertInto('messages')
      .values(pending as never)
      .execute();
    pending = [];
  }
}
if (pending.length)
  await db
    .insertInto('messages')
    .values(pending as never)
    .execute();
// The steady state: PostgreSQL's autovacuum keeps the visibility map that index-only scans read.
if (server.container.infra.database.engine === 'postgres') await sql`vacuum analyze`.execute(db);
console.log(
  `engine: ${server.container.infra.database.engine}; seeded ${COMPANIES} companies, ${COMPANIES * CLIENTS_PER_COMPANY} clients and ${MESSAGES.toLocaleString('en')} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const headers = { authorization: `Bearer ${token}` };
async function get(path: string) {
  const res = await fetch(`${server.url}/api/v1${path}`, { headers });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: unknown }>;
}
const all = (await get('/super-admin/analytics')) as {
  data: { days: { received: number; sent_by_admins: number; sent_by_bots: number; failed: number }[] };
};
const counted = all.data.days.reduce(
  (s, d) => s + d.received + d.sent_by_admins + d.sent_by_bots + d.failed,
  0,
);
console.log(`analytics of every company: ${counted.toLocaleString('en')} messages in the 30 days`);

for (let i = 0; i < 5; i++) await get('/super-admin/analytics'); // warm-up
const cases: [string, (i: number) => Promise<unknown>, string?][] = [
  ['analytics, every company', () => get('/super-admin/analytics'), 'p95 < 300 ms'],
  ['analytics, one company', (i) => get(`/super-admin/analytics?company_id=${companyIds[i % COMPANIES]}`)],
  ['dashboard overview', () => get('/super-admin/overview')],
  ['companies overview', () => get('/super-admin/companies/overview')],
];
for (const [name, run, budget] of cases) {
  report(
    `${name}, one at a time`,
    await measure(30, 1, async (i) => {
      await run(i);
    }),
    budget,
  );
}
await server.close();
