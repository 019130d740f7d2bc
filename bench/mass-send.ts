// Mass sends at the paces a company may set: the share of the configured pace the sender reaches against
// the fake WhatsApp Cloud API (goal ≥ 95%), at WhatsApp's default 80 messages/s, at 500/s and at 1,000/s
// (a number Meta says has high throughput), how long accepting the send takes, and what each recipient
// costs the server: CPU, and rows written.
//
// Run: node --import tsx bench/mass-send.ts   (part of `npm run bench`; DATABASE_URL for PostgreSQL)
//      BENCH_SECONDS=10 shortens each send (default 24 s of sending per pace); BENCH_PACES=500 runs one pace.
//
// The real server runs in a child process (this file, BENCH_ROLE=server) with its jobs in-process, as
// `npm start` runs them, on a temp SQLite file or DATABASE_URL, seeded with one company (WhatsApp
// settings, 12,000 clients, an approved template with one placeholder). The fake Cloud API runs here, in
// the parent, so its clock — the time each send reached it — is the one the pace is measured on, and the
// server's requests cross a real process boundary with the production send timeout (15 s).
import os from 'node:os';
import type { ScaleShape } from '../apps/server/test/scale-seed';
import {
  type SeededServerInfo,
  askChild,
  countRows,
  serveScaleSeed,
  startScaleFake,
  startServerChild,
} from './lib';

const APP_SECRET = 'mass-bench-app-secret-0123456789';
const GRAPH_TOKEN = 'EAAG-mass-bench-token';
const SHAPE: ScaleShape = {
  companies: 1,
  clientsPerCompany: 12_000,
  messages: 12_000,
  bigConversation: 0,
  days: 1,
};
const SECONDS = Number(process.env.BENCH_SECONDS ?? 24);
const PACES = (process.env.BENCH_PACES ?? '80,500,1000').split(',').map(Number);

interface Counts {
  cpuMs: number;
  messages: number;
  recipients: number;
}

async function main() {
  // Our pace is what is measured, not the fake's limit.
  const fake = await startScaleFake(SHAPE, GRAPH_TOKEN);
  const load = () => os.loadavg()[0]!.toFixed(1);
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; load ${load()} at start`,
  );
  const { child, info } = await startServerChild<SeededServerInfo>(import.meta.filename);
  const { url, engine, seed } = info;
  const company = seed.companies[0]!;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${company.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as { data: { id: number; status: string; sent?: number } };
  };
  const rows: string[] = [];
  try {
    // Meta says the number has high throughput and no daily limit; the connection test reads it, so the
    // company's pace (up to 1,000/s) is the one kept.
    for (const phone of fake.phoneNumbers.values()) {
      phone.throughput = { level: 'HIGH' };
      phone.messaging_limit_tier = 'TIER_UNLIMITED';
    }
    await call('POST', '/admin/setting/test/whatsapp', {});
    // A first, unmeasured send of 300 at 500/s: the code paths of a send are compiled before the
    // measured ones, so the first pace does not carry that cost.
    for (const pace of [0, ...PACES]) {
      const warmUp = pace === 0;
      const recipients = warmUp ? 300 : Math.min(SHAPE.clientsPerCompany, pace * SECONDS);
      await call('PUT', '/admin/mass-message-settings', { messages_per_second: warmUp ? 500 : pace });
      const list = await call('POST', '/admin/list-clients', {
        name: `Ritmo ${pace}`,
        client_ids: company.clientIds.slice(0, recipients),
        segment_ids: [],
      });
      fake.reset();
      const before = await askChild<Counts>(child, 'count');
      const t0 = performance.now();
      const created = await call('POST', '/admin/messages-massive', {
        name: `Ritmo ${pace}`,
        message_template_id: seed.templateId,
        list_id: list.data.id,
        bodyParameters: { 1: '{{Nombre}}' },
      });
      const acceptMs = performance.now() - t0;
      let status = '';
      while (status !== 'completed') {
        status = (await call('GET', `/admin/messages-massive/${created.data.id}`)).data.status;
        // Generous on a busy machine (a shared 2-core box reaches a fraction of the pace): the CPU a
        // recipient costs is measured even when the pace is not reached.
        if (performance.now() - t0 > recipients * 40 + 30_000)
          throw new Error(`the mass send at ${pace}/s did not finish: ${status}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      const after = await askChild<Counts>(child, 'count');
      if (warmUp) continue;
      const times = fake.sent.map((s) => s.at.getTime()).sort((a, b) => a - b);
      // On a starved machine some requests time out (15 s) and their recipients are `unknown`: reported,
      // and the pace is measured on the requests the fake got.
      const missing = recipients - times.length;
      if (missing > 0) {
        const { counts } = (await call('GET', `/admin/messages-massive/${created.data.id}`))
          .data as unknown as {
          counts: Record<string, number>;
        };
        console.log(
          `${pace}/s: the fake got ${times.length} of ${recipients}; counts ${JSON.stringify(counts)}`,
        );
      }
      const seconds = (times.at(-1)! - times[0]!) / 1000;
      const achieved = (times.length - 1) / seconds;
      // Sends per second in each whole second of the run: how even the pace is.
      const perSecond = new Map<number, number>();
      for (const t of times) {
        const s = Math.floor((t - times[0]!) / 1000);
        perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
      }
      const full = [...perSecond.entries()].filter(([s]) => s < Math.floor(seconds)).map(([, n]) => n);
      // The longest pauses between two sends, and when (s from the first): where the pace is lost.
      const gaps = times
        .slice(1)
        .map((t, i) => ({ ms: t - times[i]!, at: (times[i]! - times[0]!) / 1000 }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5)
        .map((g) => `${g.ms} ms at ${g.at.toFixed(1)} s`);
      console.log(`${pace}/s: longest pauses between two sends: ${gaps.join(', ')}`);
      console.log(`${pace}/s per second: ${[...perSecond.values()].join(' ')}`);
      const cpuUs = ((after.cpuMs - before.cpuMs) / recipients) * 1000;
      const messageRows = (after.messages - before.messages) / recipients;
      const recipientRows = (after.recipients - before.recipients) / recipients;
      const line = `| ${pace}/s | ${recipients.toLocaleString('en')} | ${acceptMs.toFixed(0)} ms | ${seconds.toFixed(2)} s | **${achieved.toFixed(1)}/s = ${((achieved / pace) * 100).toFixed(1)}%** | ${Math.min(...full)}–${Math.max(...full)} | ${cpuUs.toFixed(0)} µs | ${recipientRows.toFixed(0)} + ${messageRows.toFixed(0)} |`;
      console.log(
        `${pace}/s: ${recipients} recipients accepted in ${acceptMs.toFixed(0)} ms; reached ${achieved.toFixed(1)}/s (${((achieved / pace) * 100).toFixed(1)}% of the pace, goal ≥ 95%); server CPU ${cpuUs.toFixed(0)} µs per recipient; load ${load()}`,
      );
      rows.push(line);
    }
    console.log(`\nMass sends on ${engine} (load ${load()} at the end):\n`);
    console.log(
      '| Pace | Recipients | Accepted in | First to last send | Reached | Sends in each whole second (min–max) | Server CPU / recipient | Rows per recipient (recipient + conversation message) |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    child.kill('SIGTERM');
    await fake.close();
  }
}

if (process.env.BENCH_ROLE === 'server')
  await serveScaleSeed(SHAPE, { appSecret: APP_SECRET, graphToken: GRAPH_TOKEN }, async (db) => ({
    messages: await countRows(db, 'messages'),
    recipients: await countRows(db, 'mass_message_recipients'),
  }));
else await main();
