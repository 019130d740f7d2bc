// The webhook inbox (POST /api/v1/webhooks/whatsapp keeps a delivery, answers 200, processes it after):
// 1. acknowledgement latency at a steady 1,000 deliveries/s (an open loop: each delivery sent at its own
//    time, one customer message each), budget p99 < 250 ms (Meta asks for a median under 250 ms);
// 2. a burst of deliveries sent as fast as 64 connections allow, timed from the first post until the
//    inbox holds nothing waiting (acknowledging and processing share the process);
// 3. processing throughput alone: a backlog kept while the dispatcher is stopped, then timed from its
//    start until the inbox holds nothing waiting (messages stored per second), budget ≥ 2,000/s on SQLite.
// The server runs in a child process (this same file, BENCH_ROLE=server); it counts the stored rows at the
// end, so a run that lost or doubled messages fails instead of reporting.
// Run: node --import tsx bench/webhook-inbox.ts        (DATABASE_URL=postgres://… for PostgreSQL;
//      BENCH_INSTANCES=3 with it for two receiving processes and a third, as a worker)
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { askChild, measure, startServerChild, steadyRate, whatsappDelivery } from './lib';

const RATE = Number(process.env.BENCH_RATE ?? 1000);
const RATE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 5000);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 5000);
const CUSTOMERS = 2_000;
const PHONE_NUMBER_ID = '106540352242923';
const APP_SECRET = 'bench-app-secret-inbox-0123456789';

/** Child: the real server on a temp database with one company whose settings name the phone number id. */
async function serve() {
  const { benchWebhookCompany, startBenchServer, drained } = await import('./lib');
  const server = await startBenchServer();
  const { db, webhookInbox } = server.container;
  // The first process sets the company up; the others share its database.
  if (process.env.BENCH_SETUP !== '0')
    await benchWebhookCompany(server.container, {
      email: 'bench-inbox@hablabot.local',
      name: 'Bench inbox company',
      phoneNumberId: PHONE_NUMBER_ID,
      appSecret: APP_SECRET,
    });
  // 'pause' stops the dispatcher (deliveries are only kept); 'resume' starts it and answers like a drain.
  // Any other question: wait until the inbox is drained, then say when that was and what is stored.
  process.on('message', async (question) => {
    if (question === 'pause') {
      await webhookInbox.stop();
      process.send!({ paused: true });
      return;
    }
    const started = Date.now();
    const cpuBefore = process.cpuUsage();
    if (question === 'resume') webhookInbox.start();
    await drained(db);
    const at = Date.now();
    const used = process.cpuUsage(cpuBefore);
    const cpuMs = (used.user + used.system) / 1000;
    const messages = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const distinct = await db
      .selectFrom('messages')
      .select((eb) => eb.fn.count<number>('wamid').distinct().as('n'))
      .executeTakeFirstOrThrow();
    process.send!({ at, started, cpuMs, messages: Number(messages.n), distinct: Number(distinct.n) });
  });
  process.stdout.write(
    `${JSON.stringify({ url: server.url, engine: server.container.infra.database.engine })}\n`,
  );
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

function delivery(i: number) {
  return whatsappDelivery({
    phoneNumberId: PHONE_NUMBER_ID,
    appSecret: APP_SECRET,
    from: `3461${String(i % CUSTOMERS).padStart(7, '0')}`,
    name: `Cliente ${i % CUSTOMERS}`,
    wamid: `wamid.inbox.${i}`,
    text: `Hola, quería preguntar por el pedido número ${i}, ¿cuándo llega?`,
  });
}

async function main() {
  // BENCH_INSTANCES=3 with DATABASE_URL: the shared shape on PostgreSQL — processes on one database, the
  // first two answering the deliveries in turn, the third receiving none (a worker's part: it processes
  // what the poll finds). Any of them may process a claimed batch; the inbox lets one do it at a time.
  const instances = Number(process.env.BENCH_INSTANCES ?? 1);
  if (instances > 1 && !process.env.DATABASE_URL) throw new Error('BENCH_INSTANCES > 1 needs DATABASE_URL');
  process.env.BENCH_APP_KEY ??= randomBytes(32).toString('base64');
  const children: { child: ChildProcess; info: { url: string; engine: string } }[] = [];
  for (let i = 0; i < instances; i++) {
    process.env.BENCH_SETUP = i === 0 ? '1' : '0';
    children.push(await startServerChild<{ url: string; engine: string }>(import.meta.filename));
  }
  const { child, info } = children[0]!;
  const receivers = children.slice(0, instances > 2 ? instances - 1 : instances);
  const urls = receivers.map((c) => `${c.info.url}/api/v1/webhooks/whatsapp`);
  type Drained = { at: number; started: number; cpuMs: number; messages: number; distinct: number };
  const drain = () => askChild<Drained>(child, 'drain');
  const everyChild = <T>(question: string) =>
    Promise.all(children.map((c) => askChild<T>(c.child, question)));
  let next = 0;
  // At most 100 connections, as a sender keeps a bounded pool: past that, deliveries wait in the sender
  // (and that wait counts in their latency) instead of opening ever more connections.
  const pool = new Agent({ connections: 100 });
  const post = async () => {
    const i = next++;
    const { body, signature } = delivery(i);
    const res = await request(urls[i % urls.length]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body,
      dispatcher: pool,
    });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) throw new Error(`delivery answered ${res.statusCode}`);
  };
  try {
    console.log(
      `engine: ${info.engine}; one customer message per delivery, ${CUSTOMERS} customers; ${instances} process${instances > 1 ? `es, ${urls.length} receiving` : ''}`,
    );
    await measure(500, 32, post);
    await drain();

    // 1. Acknowledgement at a steady rate (an open loop: each delivery at its own time).
    const rated = await steadyRate(RATE * RATE_SECONDS, RATE, () => post());
    const after = await drain();
    console.log(
      `acknowledgement at ${RATE}/s: ${rated.requests} deliveries answered 200 in ${rated.seconds.toFixed(1)} s; p50 ${rated.p50.toFixed(0)} ms, p95 ${rated.p95.toFixed(0)} ms, p99 ${rated.p99.toFixed(0)} ms (budget: p99 < 250 ms); all processed ${((after.at - after.started) / 1000).toFixed(1)} s after the last answer`,
    );

    // 2. Processing throughput: a burst, timed until nothing waits.
    const started = Date.now();
    const burst = await measure(BURST, 64, post);
    const done = await drain();
    const seconds = (done.at - started) / 1000;
    console.log(
      `burst of ${BURST}: acknowledged at ${burst.perSecond.toFixed(0)}/s (p99 ${burst.p99.toFixed(1)} ms); all processed after ${seconds.toFixed(1)} s = ${(BURST / seconds).toFixed(0)} messages/s processed (budget: ≥ 2,000/s on SQLite)`,
    );
    // 3. Processing alone: a backlog kept while the dispatcher is stopped, then drained.
    await everyChild('pause');
    await measure(BACKLOG, 64, post);
    const answers = await everyChild<Drained>('resume');
    const resumed = answers[0]!;
    // The processes' CPU together.
    resumed.cpuMs = answers.reduce((sum, a) => sum + a.cpuMs, 0);
    const backlogSeconds = (resumed.at - resumed.started) / 1000;
    console.log(
      `backlog of ${BACKLOG}: processed in ${backlogSeconds.toFixed(1)} s = ${(BACKLOG / backlogSeconds).toFixed(0)} messages/s (budget: ≥ 2,000/s on SQLite, ≥ 1,500/s on PostgreSQL); server CPU ${((resumed.cpuMs * 1000) / BACKLOG).toFixed(0)} µs a message (${(BACKLOG / (resumed.cpuMs / 1000)).toFixed(0)} messages per CPU second)`,
    );
    // Every acknowledged delivery stored (a timed-out one may be stored too), none twice.
    const acknowledged = 500 + rated.requests + BURST + BACKLOG;
    if (resumed.messages < acknowledged || resumed.distinct !== resumed.messages)
      throw new Error(
        `stored ${resumed.messages} messages (${resumed.distinct} distinct), acknowledged ${acknowledged}`,
      );
    if (after.messages > done.messages || done.messages > resumed.messages)
      throw new Error('messages went missing');
    console.log(`stored: ${resumed.messages} messages, each once`);
  } finally {
    await pool.close();
    for (const c of children) c.child.kill('SIGTERM');
  }
}

if (process.env.BENCH_ROLE === 'server') await serve();
else await main();
