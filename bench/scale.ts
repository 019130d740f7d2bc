// The scale run: one database filled with 10 companies, 50,000 clients and 1,000,000 messages
// (apps/server/test/scale-seed.ts), and on it, over loopback HTTP against the real server, every budget
// that depends on the size of the data:
//
// - chat list (`messages-summary`, pages of 50 and a search): p95 < 100 ms;
// - conversation history (the 50,000-message conversation, newest page and 40,000 messages back): p95 < 20 ms;
// - WhatsApp webhook ingest (signed deliveries, 32 in flight, returning and new customers): ≥ 1,000/s and
//   p99 < 50 ms on SQLite;
// - super-admin analytics over every company and one: p95 < 300 ms;
// - the team inbox (bench/scale/inbox.ts): the conversations list per view, with and without a search, for
//   an admin and an agent: p95 < 20 ms; with 50 event streams open, an event reaches only those allowed;
// - a mass send of 2,400 recipients to the fake WhatsApp Cloud API at 80 messages/s: the share of the
//   configured pace it reaches (≥ 95%), and how long accepting it takes.
//
// Run: npm run bench -- --seed          (or node --import tsx bench/scale.ts)
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/hb_scale npm run bench -- --seed   (an empty database)
// BENCH_SCALE=small runs the same on a tenth of the data (a quick check of the script itself).
//
// The server runs in a child process (this file, BENCH_ROLE=server), which seeds the database first; the
// fake Cloud API runs here, in the parent.
import os from 'node:os';
import { FULL_SCALE, type ScaleShape, scaleClientPhone } from '../apps/server/test/scale-seed';
import {
  type SeededServerInfo,
  type Stats,
  askChild,
  countRows,
  measure,
  report,
  serveScaleSeed,
  startScaleFake,
  startServerChild,
  whatsappDelivery,
} from './lib';
import { processMemory, resetPeak } from './proc';
import { inboxAtScale } from './scale/inbox';

const APP_SECRET = 'scale-app-secret-0123456789';
const GRAPH_TOKEN = 'EAAG-scale-token';
const SHAPE: ScaleShape =
  process.env.BENCH_SCALE === 'small'
    ? { companies: 10, clientsPerCompany: 500, messages: 100_000, bigConversation: 50_000, days: 60 }
    : FULL_SCALE;
const INGEST = Number(process.env.BENCH_MESSAGES ?? 10_000);
const MASS_RECIPIENTS = Math.min(2_400, SHAPE.clientsPerCompany);
const MASS_PACE = 80;

async function main() {
  // Our pace is what is measured, not the fake's limit.
  const fake = await startScaleFake(SHAPE, GRAPH_TOKEN);
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; load ${load()} at start`,
  );
  const { child, info } = await startServerChild<SeededServerInfo>(import.meta.filename);
  const { url, engine, seed } = info;
  // Resident memory from here on: what the server holds with the data in place, and its peak while it
  // answers the run (the seed's own peak is left out).
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const atRest = processMemory(child.pid!).rss;
  resetPeak(child.pid!);
  const [first] = seed.companies;
  console.log(
    `engine: ${engine}; seeded ${SHAPE.companies} companies, ${(SHAPE.companies * SHAPE.clientsPerCompany).toLocaleString('en')} clients and ${SHAPE.messages.toLocaleString('en')} messages in ${seed.seconds.toFixed(1)} s`,
  );
  const results: { name: string; figure: string; budget: string; met: boolean }[] = [];
  /** One request at a time; its figure against a p95 budget in milliseconds. */
  const keep = (name: string, s: Stats, p95Ms: number) => {
    const budget = `p95 < ${p95Ms} ms`;
    report(name, s, budget);
    results.push({
      name,
      figure: `p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`,
      budget,
      met: s.p95 < p95Ms,
    });
  };
  const get = async (path: string, token: string) => {
    const res = await fetch(`${url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    return JSON.parse(body) as Record<string, unknown>;
  };
  const send = async (method: string, path: string, token: string, body: unknown) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as { data: { id: number } };
  };
  const one = (n: number, fn: (i: number) => Promise<unknown>) =>
    measure(n, 1, async (i) => {
      await fn(i);
    });

  try {
    const admin = first!.adminToken;
    const pages = Math.floor(SHAPE.clientsPerCompany / 50);
    // Warm-up of each kind of request (the first calls compile and fill caches).
    for (let i = 0; i < 5; i++) {
      await get(`/admin/client/messages-summary?per_page=50&page=${i + 1}`, admin);
      await get(`/admin/client/${seed.bigClientId}/messages`, admin);
      await get('/super-admin/analytics', seed.superAdminToken);
    }

    // --- chat list ---
    keep(
      'chat list, page of 50 (any page)',
      await one(200, (i) =>
        get(`/admin/client/messages-summary?per_page=50&page=${1 + ((i * 37) % pages)}`, admin),
      ),
      100,
    );
    keep(
      'chat list, a search',
      await one(100, (i) =>
        get(
          `/admin/client/messages-summary?per_page=50&search=${encodeURIComponent(`cliente 0-${i * 7}`)}`,
          admin,
        ),
      ),
      100,
    );
    // --- history ---
    keep(
      'history, newest page of the 50,000-message conversation',
      await one(200, () => get(`/admin/client/${seed.bigClientId}/messages`, admin)),
      20,
    );
    keep(
      'history, 40,000 messages back',
      await one(200, () => get(`/admin/client/${seed.bigClientId}/messages?page=4000&per_page=10`, admin)),
      20,
    );
    // --- analytics ---
    keep(
      'analytics, every company (30 days)',
      await one(30, () => get('/super-admin/analytics', seed.superAdminToken)),
      300,
    );
    keep(
      'analytics, one company',
      await one(30, (i) =>
        get(
          `/super-admin/analytics?company_id=${seed.companies[i % SHAPE.companies]!.id}`,
          seed.superAdminToken,
        ),
      ),
      300,
    );

    // --- team inbox: the first company's 10 agents ---
    await inboxAtScale({
      url,
      seed,
      get,
      send,
      one,
      keep,
      check: (name, figure, met) => results.push({ name, figure, budget: 'only the allowed streams', met }),
    });

    // --- webhook ingest: half the customers are the company's clients, half write for the first time ---
    const customers = 2_000;
    const bodies = Array.from({ length: 500 + INGEST }, (_, i) => {
      const k = i % customers;
      const from =
        k % 2 === 0 ? scaleClientPhone(0, k % SHAPE.clientsPerCompany) : `3461${String(k).padStart(7, '0')}`;
      return whatsappDelivery({
        phoneNumberId: first!.phoneNumberId,
        appSecret: APP_SECRET,
        from,
        name: `Cliente ${k}`,
        wamid: `wamid.scale.ingest.${i}`,
        text: `Hola, quería preguntar por el pedido número ${i}, ¿cuándo llega?`,
      });
    });
    const post = async (i: number) => {
      const { body, signature } = bodies[i]!;
      const res = await fetch(`${url}/api/v1/webhooks/whatsapp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`delivery ${i} answered ${res.status}`);
    };
    type Counts = { cpuMs: number; messages: number };
    await measure(500, 32, post);
    const before = await askChild<Counts>(child, 'count');
    const ingest = await measure(INGEST, 32, (i) => post(500 + i));
    const after = await askChild<Counts>(child, 'count');
    if (after.messages - before.messages !== INGEST)
      throw new Error(`stored ${after.messages - before.messages} of ${INGEST} messages`);
    const cpu = ((after.cpuMs - before.cpuMs) / INGEST) * 1000;
    report('webhook ingest', ingest, '≥ 1,000/s, p99 < 50 ms (SQLite)');
    results.push({
      name: 'webhook ingest (32 in flight)',
      figure: `${ingest.perSecond.toFixed(0)}/s, p50 ${ingest.p50.toFixed(1)} ms, p99 ${ingest.p99.toFixed(1)} ms; server CPU ${cpu.toFixed(0)} µs/message`,
      budget: '≥ 1,000/s, p99 < 50 ms (SQLite)',
      met: ingest.perSecond >= 1000 && ingest.p99 < 50,
    });

    // --- mass send ---
    await send('PUT', '/admin/mass-message-settings', admin, { messages_per_second: MASS_PACE });
    const list = await send('POST', '/admin/list-clients', admin, {
      name: 'Escala',
      client_ids: first!.clientIds.slice(0, MASS_RECIPIENTS),
      segment_ids: [],
    });
    fake.reset();
    const t0 = performance.now();
    const created = await send('POST', '/admin/messages-massive', admin, {
      name: 'Escala',
      message_template_id: seed.templateId,
      list_id: list.data.id,
      bodyParameters: { 1: '{{Nombre}}' },
    });
    const acceptMs = performance.now() - t0;
    for (;;) {
      const state = (await get(`/admin/messages-massive/${created.data.id}`, admin)) as {
        data: { status: string };
      };
      if (state.data.status === 'completed') break;
      if (performance.now() - t0 > (MASS_RECIPIENTS / MASS_PACE) * 3000)
        throw new Error(`the mass send did not finish: ${state.data.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const times = fake.sent.map((s) => s.at.getTime()).sort((a, b) => a - b);
    if (times.length !== MASS_RECIPIENTS)
      throw new Error(`the fake got ${times.length} of ${MASS_RECIPIENTS}`);
    const achieved = (times.length - 1) / ((times.at(-1)! - times[0]!) / 1000);
    const share = achieved / MASS_PACE;
    console.log(
      `mass send: ${MASS_RECIPIENTS} recipients accepted in ${acceptMs.toFixed(0)} ms; ${achieved.toFixed(1)} messages/s of ${MASS_PACE} configured = ${(share * 100).toFixed(1)}%`,
    );
    results.push({
      name: `mass send, ${MASS_RECIPIENTS.toLocaleString('en')} recipients at ${MASS_PACE}/s`,
      figure: `${achieved.toFixed(1)}/s = ${(share * 100).toFixed(1)}% of the pace; accepted in ${acceptMs.toFixed(0)} ms`,
      budget: '≥ 95% of the configured pace',
      met: share >= 0.95,
    });

    const memory = processMemory(child.pid!);
    results.push({
      name: `server resident memory (${process.env.BENCH_BUILT === '1' ? 'built JavaScript' : 'through tsx'})`,
      figure: `${mb(atRest)} after the seed, ${mb(memory.rss)} at the end, peak ${mb(memory.peak)} during the run`,
      budget: '—',
      met: true,
    });

    console.log(`\nScale run on ${engine} (load ${load()} at the end):\n`);
    console.log('| Measure | Figure | Budget | Met |\n|---|---|---|---|');
    for (const r of results)
      console.log(`| ${r.name} | ${r.figure} | ${r.budget} | ${r.met ? 'yes' : 'no'} |`);
  } finally {
    child.kill('SIGTERM');
    await fake.close();
  }
}

if (process.env.BENCH_ROLE === 'server')
  await serveScaleSeed(SHAPE, { appSecret: APP_SECRET, graphToken: GRAPH_TOKEN }, async (db) => ({
    messages: await countRows(db, 'messages'),
  }));
else await main();
