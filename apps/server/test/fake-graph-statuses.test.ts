// The fake Graph API reports what happens to a message after it accepted it, as Meta does: signed
// `sent`, `delivered` and `read` status webhooks, in that order, after the delays it is given; only when
// asked (the demo asks), so tests that do not ask see no status webhook at all.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeGraphApi, signWebhookBody, startFakeGraphApi } from '@hablabot/fakes';
import { afterEach, beforeEach, expect, it } from 'vitest';

const TOKEN = 'EAAG-fake-statuses-token';
const PHONE_ID = '106540352242933';
const SECRET = 'fake-statuses-app-secret';

interface Received {
  signed: boolean;
  status: string;
  wamid: string;
  recipient: string;
}

let graph: FakeGraphApi;
let receiver: http.Server;
let received: Received[];

beforeEach(async () => {
  received = [];
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString());
      const status = body.entry[0].changes[0].value.statuses[0];
      received.push({
        signed: req.headers['x-hub-signature-256'] === signWebhookBody(SECRET, raw),
        status: status.status,
        wamid: status.id,
        recipient: status.recipient_id,
      });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  graph = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '+34 600', verified_name: 'Tienda', quality_rating: 'GREEN' },
    ],
  });
  graph.webhook = {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
    appSecret: SECRET,
  };
});
afterEach(async () => {
  await graph.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function send(to = '34600111222'): Promise<string> {
  const res = await fetch(`${graph.baseUrl}/${PHONE_ID}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to, type: 'text', text: { body: 'Hola' } }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: { id: string }[] }).messages[0].id;
}

it('reports no status unless asked', async () => {
  await send();
  await graph.flushWebhooks();
  expect(received).toEqual([]);
});

it('reports sent, delivered and read, signed and in order, after the delays it is given', async () => {
  graph.reportStatuses = { sentMs: 1, deliveredMs: 5, readMs: 10 };
  const first = await send('34600111222');
  const second = await send('34600333444');
  await graph.flushWebhooks();
  expect(received.every((r) => r.signed)).toBe(true);
  for (const [wamid, recipient] of [
    [first, '34600111222'],
    [second, '34600333444'],
  ]) {
    expect(received.filter((r) => r.wamid === wamid)).toEqual(
      ['sent', 'delivered', 'read'].map((status) => ({ signed: true, status, wamid, recipient })),
    );
  }
});

it('leaves a message unread when told to, and a failed send gets only its failure', async () => {
  graph.reportStatuses = { sentMs: 0, deliveredMs: 1, readMs: null };
  const unread = await send();
  graph.failSends({ code: 131026, mode: 'async' });
  const failed = await send();
  await graph.flushWebhooks();
  expect(received.filter((r) => r.wamid === unread).map((r) => r.status)).toEqual(['sent', 'delivered']);
  expect(received.filter((r) => r.wamid === failed).map((r) => r.status)).toEqual(['failed']);
});

it('drops the reports still waiting when it is reset or closed', async () => {
  graph.reportStatuses = { sentMs: 60_000, deliveredMs: 120_000, readMs: 180_000 };
  await send();
  graph.reset();
  expect(graph.reportStatuses).toBeNull();
  await graph.flushWebhooks();
  graph.reportStatuses = { sentMs: 60_000, deliveredMs: 120_000, readMs: 180_000 };
  await send();
  await graph.close();
  await graph.flushWebhooks();
  expect(received).toEqual([]);
  graph = await startFakeGraphApi();
});
