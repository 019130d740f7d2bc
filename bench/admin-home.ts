// The admin home's figures (GET /admin/home-summary) for a company of 50,000 clients (one in five with
// unread messages) and 1,000,000 messages over the last 60 days, a second company beside it, 50 mass
// sends and two bots. Times, over loopback HTTP, one at a time. Budget: p95 under 100 ms.
//
// Run: node --import tsx bench/admin-home.ts        (DATABASE_URL=postgres://… for PostgreSQL)
import { sql } from 'kysely';
import { measure, report, startBenchServer } from './lib';

const CLIENTS = 50_000;
const MESSAGES = 1_000_000;
const DAYS = 60;
const BATCH = 1000;

const server = await startBenchServer();
const { identity, db } = server.container;
const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
const now = new Date().toISOString();
const seedStarted = performance.now();

const companyIds: number[] = [];
for (const name of ['Bench home', 'Bench neighbour']) {
  const { id } = await db
    .insertInto('companies')
    .values({ name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  companyIds.push(id);
}
const [companyId, neighbourId] = companyIds as [number, number];
const adminRole = await identity.findRoleByName('admin');
const adminId = await identity.createUser({
  name: 'Bench Admin',
  email: 'bench-home@hablabot.local',
  passwordHash: 'unused',
  roleIds: [adminRole!.id],
  companyId,
});
const token = generateToken();
await identity.createToken(adminId, hashToken(token), 60 * 60 * 1000);

for (const id of companyIds) {
  for (let from = 0; from < CLIENTS; from += BATCH) {
    await db
      .insertInto('clients')
      .values(
        Array.from({ length: BATCH }, (_, i) => {
          const k = from + i;
          return {
            company_id: id,
            name: `Cliente ${k}`,
            whatsapp_cellphone: `52${id}${String(k).padStart(9, '0')}`,
            email: null,
            avatar: null,
            projects: null,
            wa_user_id: null,
            created_at: now,
            updated_at: now,
          };
        }),
      )
      .execute();
  }
}
const clientIds = (
  await db.selectFrom('clients').select('id').where('company_id', '=', companyId).execute()
).map((r) => r.id);

const SENDERS = ['client', 'bot', 'client', 'admin'] as const;
const span = DAYS * 24 * 60 * 60 * 1000;
const start = Date.now() - span;
let pending: object[] = [];
for (let n = 0; n < MESSAGES; n++) {
  const sender = SENDERS[n % SENDERS.length]!;
  const at = new Date(start + Math.floor((n / MESSAGES) * span)).toISOString();
  pending.push({
    company_id: companyId,
    client_id: clientIds[n % clientIds.length]!,
    wamid: `wamid.home.${n}`,
    sender_type: sender,
    message_type: 'text',
    wa_type: 'text',
    content: `Mensaje ${n}`,
    phone: '5215500000000',
    status: sender === 'client' ? 2 : 1,
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
// A fifth of the clients of both companies have 2 unread messages in their conversation.
await sql`
  insert into conversations (company_id, client_id, unread_count, created_at, updated_at)
  select company_id, id, 2, ${now}, ${now} from clients where id % 5 = 0
  on conflict (client_id) do update set unread_count = 2`.execute(db);
for (let s = 0; s < 50; s++) {
  for (const id of [companyId, neighbourId]) {
    await db
      .insertInto('mass_messages')
      .values({
        company_id: id,
        name: `Envío ${s}`,
        status: 'completed',
        list_id: null,
        list_name: 'Lista',
        template_id: null,
        template_name: 'plantilla',
        template_language: 'es',
        template_body: 'Hola',
        body_parameters: '{}',
        message: 'Hola',
        messages_per_second: 80,
        counts: JSON.stringify({ total: 1000, sent: 1000 }),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}
for (const [name, state] of [
  ['Pausado', 0],
  ['Sofía', 1],
] as const) {
  await db
    .insertInto('bots')
    .values({
      company_id: companyId,
      bot_name: name,
      personality: 'Amable.',
      state,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
if (server.container.infra.database.engine === 'postgres') await sql`vacuum analyze`.execute(db);
console.log(
  `engine: ${server.container.infra.database.engine}; seeded 2 companies of ${CLIENTS.toLocaleString('en')} clients and ${MESSAGES.toLocaleString('en')} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const headers = { authorization: `Bearer ${token}` };
async function summary() {
  const res = await fetch(`${server.url}/api/v1/admin/home-summary`, { headers });
  if (res.status !== 200) throw new Error(`home-summary: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: unknown }>;
}
console.log(JSON.stringify((await summary()).data));
for (let i = 0; i < 5; i++) await summary(); // warm-up
report(
  'admin home figures, one at a time',
  await measure(50, 1, async () => {
    await summary();
  }),
  'p95 < 100 ms',
);
await server.close();
