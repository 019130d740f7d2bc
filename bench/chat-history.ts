// A conversation's history (GET /api/v1/admin/client/{id}/messages, 10 a page, page 1 the newest) with
// 1,000,000 messages in the database: 50,000 clients, five of them with 50,000 messages each and the rest
// with 15. The company's side alternates the bot and an agent, and each agent's message quotes the
// customer's before it, so a page names authors and quotes as a real one does. Times page 1 (what the chat opens with), page 2 and a deep page (older and older history) of a
// long conversation, and page 1 of a short one, each over loopback HTTP, one at a time and 8 in flight.
// Budget: p95 under 20 ms.
//
// The server runs in this process (the requests are sequential or few, so the sending side costs little).
// Run: node --import tsx bench/chat-history.ts        (DATABASE_URL=postgres://… for PostgreSQL)
import { sql } from 'kysely';
import { measure, report, startBenchServer } from './lib';

const CLIENTS = 50_000;
const LONG_CONVERSATIONS = 5;
const LONG_LENGTH = 50_000;
const SHORT_LENGTH = 15;
const BATCH = 1000;

const server = await startBenchServer();
const { identity, db } = server.container;
const { generateToken, hashToken } = await import('../apps/server/src/platform/tokens');
const role = await identity.findRoleByName('admin');
const userId = await identity.createUser({
  name: 'Bench Admin',
  email: 'bench-history@hablabot.local',
  passwordHash: 'unused',
  roleIds: [role!.id],
  newCompanyName: 'Bench history company',
});
const companyId = (await identity.findUserById(userId))!.company_id!;
const token = generateToken();
await identity.createToken(userId, hashToken(token), 60 * 60 * 1000);

const seedStarted = performance.now();
const now = new Date().toISOString();
for (let i = 0; i < CLIENTS; i += BATCH) {
  await db
    .insertInto('clients')
    .values(
      Array.from({ length: Math.min(BATCH, CLIENTS - i) }, (_, k) => ({
        company_id: companyId,
        name: `Cliente ${i + k}`,
        whatsapp_cellphone: `52155${String(i + k).padStart(8, '0')}`,
        email: null,
        avatar: null,
        projects: null,
        wa_user_id: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}
const ids = (
  await db.selectFrom('clients').select('id').where('company_id', '=', companyId).orderBy('id').execute()
).map((r) => r.id);
const longIds = ids.slice(0, LONG_CONVERSATIONS);
const shortIds = ids.slice(LONG_CONVERSATIONS);

/**
 * The messages of a client, oldest first, one a minute back from now: a customer's, then the bot's or an
 * agent's in turn.
 */
function* messagesOf(clientId: number, count: number) {
  const start = Date.now() - count * 60_000;
  for (let n = 0; n < count; n++) {
    const at = new Date(start + n * 60_000).toISOString();
    const fromCustomer = n % 2 === 0;
    const byAgent = n % 4 === 3;
    yield {
      company_id: companyId,
      client_id: clientId,
      wamid: `wamid.bench.${clientId}.${n}`,
      sender_type: fromCustomer ? 'client' : byAgent ? 'admin' : 'bot',
      author_kind: fromCustomer ? 'customer' : byAgent ? 'user' : 'bot',
      author_user_id: byAgent ? userId : null,
      message_type: 'text',
      wa_type: 'text',
      content: fromCustomer ? `Hola, pregunta número ${n}` : `Respuesta del bot a la pregunta ${n - 1}`,
      phone: '5215500000000',
      status: fromCustomer ? 2 : 1,
      created_at: at,
      updated_at: at,
    };
  }
}

let pending: ReturnType<typeof messagesOf> extends Generator<infer T> ? T[] : never = [];
let total = 0;
async function flush() {
  if (pending.length === 0) return;
  await db.insertInto('messages').values(pending).execute();
  total += pending.length;
  pending = [];
}
async function add(clientId: number, count: number) {
  for (const m of messagesOf(clientId, count)) {
    pending.push(m);
    if (pending.length === BATCH) await flush();
  }
}
for (const id of longIds) await add(id, LONG_LENGTH);
for (const id of shortIds) await add(id, SHORT_LENGTH);
await flush();
// Each agent's message answers the customer's message stored just before it.
await sql`update messages set reply_to_id = id - 1 where company_id = ${companyId} and author_kind = 'user'`.execute(
  db,
);
console.log(
  `engine: ${server.container.infra.database.engine}; seeded ${CLIENTS} clients and ${total.toLocaleString('en')} messages in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const headers = { authorization: `Bearer ${token}` };
async function page(clientId: number, n: number) {
  const res = await fetch(`${server.url}/api/v1/admin/client/${clientId}/messages?page=${n}&per_page=10`, {
    headers,
  });
  const body = (await res.json()) as { messages: unknown[] };
  if (res.status !== 200 || body.messages.length !== 10) throw new Error(`page ${n}: ${res.status}`);
}

const longest = longIds[0]!;
const cases: [string, (i: number) => Promise<void>][] = [
  ['long conversation, page 1', (i) => page(longIds[i % LONG_CONVERSATIONS]!, 1)],
  ['long conversation, page 2', (i) => page(longIds[i % LONG_CONVERSATIONS]!, 2)],
  ['long conversation, page 500 (5,000 back)', () => page(longest, 500)],
  ['long conversation, page 4,000 (40,000 back)', () => page(longest, 4000)],
  ['short conversation, page 1', (i) => page(shortIds[(i * 7919) % shortIds.length]!, 1)],
];
for (let i = 0; i < 50; i++) await page(longest, 1); // warm-up
for (const [name, run] of cases) {
  report(`${name}, one at a time`, await measure(300, 1, run), 'p95 < 20 ms');
  report(`${name}, 8 in flight`, await measure(800, 8, run));
}
await server.close();
