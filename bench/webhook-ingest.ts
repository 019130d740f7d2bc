// WhatsApp webhook ingest (POST /api/v1/webhooks/whatsapp): signed bodies of one customer message each,
// 32 in flight over loopback HTTP, as Meta delivers them. Reports messages/s and latency percentiles for
// new messages (a mix of new and returning customers), then for redeliveries of stored messages (Meta's
// retries, answered without writing). Budget: ≥ 1,000 messages/s with SQLite, p99 < 50 ms. The answer
// comes once a delivery is kept (the webhook inbox); the counts wait until every one was processed.
//
// The server runs in a child process (this same file, BENCH_ROLE=server) so the sending side does not
// share its event loop; afterwards the child counts the stored rows, so a fast run that lost messages
// fails instead of reporting.
// Run: node --import tsx bench/webhook-ingest.ts        (DATABASE_URL=postgres://… for PostgreSQL)
import { askChild, measure, report, startServerChild, whatsappDelivery } from './lib';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 10_000);
const WARMUP = 500;
const CUSTOMERS = 2_000;
const IN_FLIGHT = 32;
const PHONE_NUMBER_ID = '106540352242922';
const APP_SECRET = 'bench-app-secret-0123456789';

/** Child: the real server on a temp database with one company whose settings name the phone number id. */
async function serve() {
  const { benchWebhookCompany, startBenchServer, drained } = await import('./lib');
  const server = await startBenchServer();
  const { db } = server.container;
  await benchWebhookCompany(server.container, {
    email: 'bench-webhook@hablabot.local',
    name: 'Bench webhook company',
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
  });
  process.on('message', async () => {
    // Deliveries are processed after their 200 (the webhook inbox): count once none waits.
    await drained(db);
    const count = async (table: 'messages' | 'clients') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const cpu = process.cpuUsage();
    process.send!({
      messages: await count('messages'),
      clients: await count('clients'),
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
  });
  process.stdout.write(
    `${JSON.stringify({ url: server.url, engine: server.container.infra.database.engine })}\n`,
  );
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

/** The body and signature Meta would send for customer message `i` (customers write in turn). */
function delivery(i: number): { body: string; signature: string } {
  const phone = `3460${String(i % CUSTOMERS).padStart(7, '0')}`;
  return whatsappDelivery({
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
    from: phone,
    name: `Cliente ${i % CUSTOMERS}`,
    wamid: `wamid.bench.${i}`,
    text: `Hola, quería preguntar por el pedido número ${i}, ¿cuándo llega?`,
  });
}

async function main() {
  const { child, info } = await startServerChild<{ url: string; engine: string }>(import.meta.filename);
  const server = { child, ...info };
  const url = `${server.url}/api/v1/webhooks/whatsapp`;
  type Counts = { messages: number; clients: number; cpuMs: number };
  const counts = () => askChild<Counts>(server.child, 'count');
  try {
    const bodies = Array.from({ length: WARMUP + MESSAGES }, (_, i) => delivery(i));
    const post = async (i: number) => {
      const { body, signature } = bodies[i];
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`delivery ${i} answered ${res.status}`);
    };
    console.log(
      `engine: ${server.engine}; ${MESSAGES} messages from ${CUSTOMERS} customers, ${IN_FLIGHT} in flight`,
    );
    await measure(WARMUP, IN_FLIGHT, post);
    const before = await counts();
    const fresh = await measure(MESSAGES, IN_FLIGHT, (i) => post(WARMUP + i));
    report('new messages', fresh, '≥ 1,000/s, p99 < 50 ms');
    const stored = await counts();
    // The server's own CPU time per message: what the machine's other work cannot inflate much.
    const perMessage = (stored.cpuMs - before.cpuMs) / MESSAGES;
    console.log(
      `server CPU per new message: ${(perMessage * 1000).toFixed(0)} µs (one core's ceiling: ${(1000 / perMessage).toFixed(0)} messages/s)`,
    );
    if (stored.messages !== WARMUP + MESSAGES)
      throw new Error(`stored ${stored.messages} messages, expected ${WARMUP + MESSAGES}`);
    const retries = await measure(Math.min(MESSAGES, 5_000), IN_FLIGHT, (i) => post(WARMUP + i));
    report('redeliveries (duplicates)', retries);
    const after = await counts();
    console.log(
      `server CPU per redelivery: ${(((after.cpuMs - stored.cpuMs) / retries.requests) * 1000).toFixed(0)} µs`,
    );
    if (after.messages !== stored.messages) throw new Error('a redelivery stored a second copy');
    console.log(`stored: ${after.messages} messages, ${after.clients} clients`);
  } finally {
    server.child.kill('SIGTERM');
  }
}

if (process.env.BENCH_ROLE === 'server') await serve();
else await main();
