// How long one signed WhatsApp delivery at the limit (500 messages from new customers and 500 statuses,
// in ten changes) holds the event loop at a time while it is stored and processed. The work is cut into
// turns (a chunk of 100 messages, then the next turn of the loop: modules/messaging/inbound.service.ts);
// the test (webhook-limits.test.ts) checks that another request is answered between the chunks, and this
// measures the longest turn: per turn the smaller of its wall clock (which also counts other processes
// of a busy machine) and the process's CPU time (which also counts V8's own threads). Goal: < 50 ms.
//
// Run: node --import tsx bench/webhook-turns.ts        (BENCH_ROUNDS=5 by default)
import { WEBHOOK_LIMITS } from '../apps/server/src/integrations/whatsapp/webhook';
import { uniquePhone } from '../apps/server/test/clients-factories';
import { nextWamid, signedRequest, webhookBody } from '../apps/server/test/whatsapp-webhook';
import { startBenchServer } from './lib';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECRET = 'bench-webhook-turns-secret';
const PHONE_ID = '700000000000077';

const server = await startBenchServer();
const { container } = server;
const now = new Date().toISOString();
const { id: companyId } = await container.db
  .insertInto('companies')
  .values({ name: 'Bench turns', created_at: now, updated_at: now })
  .returning('id')
  .executeTakeFirstOrThrow();
await container.settingsRepository.upsertSettings(companyId, {
  whatsapp_phone_id: PHONE_ID,
  whatsapp_app_secret_enc: container.secrets.encrypt(SECRET),
});

/** One change with `n` messages from new customers and `n` statuses. */
function change(n: number) {
  const from = Array.from({ length: n }, () => uniquePhone());
  const at = String(Math.floor(Date.now() / 1000));
  return (
    webhookBody(PHONE_ID, {
      contacts: from.map((wa_id) => ({ profile: { name: 'Cliente' }, wa_id })),
      messages: from.map((f) => ({
        from: f,
        id: nextWamid(),
        timestamp: at,
        type: 'text',
        text: { body: 'hola' },
      })),
      statuses: Array.from({ length: n }, () => ({
        id: nextWamid(),
        status: 'delivered',
        timestamp: at,
        recipient_id: '34600000000',
      })),
    }).entry as object[]
  )[0]!;
}

/** The longest hold of the loop while it runs (see the head of this file). */
function loopProbe() {
  let running = true;
  let longest = 0;
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const tick = () => {
    if (!running) return;
    const nowWall = performance.now();
    const used = process.cpuUsage(cpu);
    longest = Math.max(longest, Math.min(nowWall - wall, (used.user + used.system) / 1000));
    wall = nowWall;
    cpu = process.cpuUsage();
    setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    return longest;
  };
}

const half = WEBHOOK_LIMITS.updates / 2;
const turns: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const body = {
    object: 'whatsapp_business_account',
    entry: Array.from({ length: 10 }, () => change(half / 10)),
  };
  const stop = loopProbe();
  const res = await server.app.inject(signedRequest(body, SECRET));
  if (res.statusCode !== 200) throw new Error(`webhook: ${res.statusCode} ${res.body}`);
  await container.webhookInbox.idle();
  turns.push(stop());
}
turns.sort((a, b) => a - b);
console.log(
  `delivery of ${half} messages + ${half} statuses, ${ROUNDS} rounds: longest turn median ${turns[Math.floor(ROUNDS / 2)]!.toFixed(1)} ms, max ${turns.at(-1)!.toFixed(1)} ms (goal < 50 ms)`,
);
await server.close();
