// A mass message recipient's WhatsApp status never goes backwards, by the chat's rule: WhatsApp's reports
// for a sent message come over the real webhook route in any order, and a late `failed` or `sent` never
// replaces `delivered` or `read` (they prove the message arrived).
import type { MassMessage, MassRecipient } from '@hablabot/contract';
import { type FakeGraphApi, createWebhookEmitter, startFakeGraphApi } from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-mass-status-token';
const PHONE_ID = '106540352242981';
const APP_SECRET = 'mass-status-secret';

let ctx: TestContext;
let fake: FakeGraphApi;
let server: { url: string; close(): Promise<void> };
let headers: Record<string, string>;
let companyId: number;

const call = (method: InjectOptions['method'], url: string, body?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });

/** A finished send of an approved template to `n` new clients; its recipients, in the order sent. */
async function sentTo(n: number): Promise<{ send: MassMessage; recipients: () => Promise<MassRecipient[]> }> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await createClient(ctx, companyId)).id);
  const list = await call('POST', '/admin/list-clients', { name: `Lista ${ids[0]}`, client_ids: ids });
  expect(list.statusCode, list.body).toBe(201);
  const at = new Date().toISOString();
  const template = await ctx.container.db
    .insertInto('message_templates')
    .values({
      company_id: companyId,
      meta_id: `95${ids[0]}`,
      name: `estado_${ids[0]}`,
      language: 'es',
      status: 'APPROVED',
      category: 'MARKETING',
      components: JSON.stringify([{ type: 'BODY', format: null, text: 'Hola.', buttons: [] }]),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const res = await call('POST', '/admin/messages-massive', {
    name: 'Estados',
    message_template_id: template.id,
    list_id: list.json().data.id,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  const send = await waitFor(async () => {
    const s = (await call('GET', `/admin/messages-massive/${id}`)).json().data as MassMessage;
    return s.status === 'completed' ? s : undefined;
  });
  const recipients = async () =>
    (await call('GET', `/admin/messages-massive/${id}/recipients?per_page=100`)).json().data
      .data as MassRecipient[];
  return { send, recipients };
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550783891', verified_name: 'S', quality_rating: 'GREEN' },
    ],
  });
  ctx = await createTestContext();
  const cast = await createCast(ctx);
  headers = cast.admin.headers;
  companyId = cast.admin.user.company_id!;
  await connectWhatsApp(ctx.container, companyId, {
    phoneId: PHONE_ID,
    token: TOKEN,
    appSecret: APP_SECRET,
    baseUrl: fake.baseUrl,
  });
  await ctx.container.jobs.start();
  server = await routeWebhooksToApp(ctx.app, fake, APP_SECRET);
});

afterAll(async () => {
  await fake?.flushWebhooks();
  await Promise.all([ctx?.close(), fake?.close(), server?.close()]);
});

describe(`a mass message recipient's status (${engine})`, () => {
  it('never goes backwards, but a failed after sent or delivered is always shown (only read outranks it)', async () => {
    const { recipients } = await sentTo(3);
    await fake.flushWebhooks();
    const [a, b, c] = fake.sent;
    const emitter = createWebhookEmitter({
      url: fake.webhook!.url,
      appSecret: APP_SECRET,
      phoneNumberId: PHONE_ID,
    });
    // c: failed, then a late delivered (failed is final). b: read, then failed (read proves arrival).
    // a: delivered, sent, then failed (shown, never hidden behind the delivered).
    await emitter.statuses([
      { wamid: c.wamid, status: 'failed' },
      { wamid: c.wamid, status: 'delivered' },
      { wamid: b.wamid, status: 'read' },
      { wamid: b.wamid, status: 'failed' },
      { wamid: a.wamid, status: 'delivered' },
      { wamid: a.wamid, status: 'sent' },
      { wamid: a.wamid, status: 'failed' },
    ]);
    const rows = await waitFor(async () => {
      const all = await recipients();
      const by = Object.fromEntries(all.map((r) => [r.wamid, r.status]));
      return by[a.wamid] === 'failed' && by[b.wamid] === 'read' && by[c.wamid] === 'failed' ? all : undefined;
    });
    const byWamid = Object.fromEntries(rows.map((r) => [r.wamid, r]));
    expect(byWamid[a.wamid]).toMatchObject({ status: 'failed' });
    expect(byWamid[a.wamid].delivered_at).not.toBeNull();
    expect(byWamid[a.wamid].error).toMatchObject({ explanation: expect.any(String) });
    expect(byWamid[b.wamid]).toMatchObject({ status: 'read', error_code: null, error: null });
    expect(byWamid[c.wamid]).toMatchObject({ status: 'failed' });
  });

  it('takes a step up from each rung, once', async () => {
    const { recipients } = await sentTo(1);
    await fake.flushWebhooks();
    const a = fake.sent.at(-1)!;
    const repo = ctx.container.massMessagesRepository;
    const at = new Date().toISOString();
    const none = { code: null, message: null };
    expect(await repo.applyStatus(companyId, a.wamid, 'sent', at, none)).toBeUndefined();
    expect(await repo.applyStatus(companyId, a.wamid, 'delivered', at, none)).toBeDefined();
    expect(
      await repo.applyStatus(companyId, a.wamid, 'failed', at, { code: 131026, message: 'x' }),
    ).toBeDefined();
    expect((await recipients())[0]).toMatchObject({
      status: 'failed',
      error_code: 131026,
      error: { code: 131026, title: 'Message undeliverable', resendable: false },
    });
    expect(await repo.applyStatus(companyId, a.wamid, 'failed', at, none)).toBeUndefined();
    expect(await repo.applyStatus(companyId, a.wamid, 'delivered', at, none)).toBeUndefined();
    expect(await repo.applyStatus(companyId, a.wamid, 'read', at, none)).toBeDefined();
    expect(await repo.applyStatus(companyId, a.wamid, 'failed', at, none)).toBeUndefined();
    expect(await repo.applyStatus(companyId, a.wamid, 'delivered', at, none)).toBeUndefined();
    expect(await repo.applyStatus(companyId, 'wamid.unknown', 'read', at, none)).toBeUndefined();
    expect((await recipients())[0]).toMatchObject({ status: 'read', error_code: null });
  });
});
