// Consent over real HTTP: customers write the opt-out and opt-in words through the fake Cloud API's
// webhooks, Meta's 131050 arrives as a failed status, mass sends skip who opted out (the fake never gets
// them) and a template from the chat to them needs the agent's confirmation.
import type { Client, MassMessage, MassRecipient } from '@hablabot/contract';
import {
  type FakeGraphApi,
  type WebhookEmitter,
  createWebhookEmitter,
  startFakeGraphApi,
} from '@hablabot/fakes';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createCast } from '../../../test/factories';
import { openStream } from '../../../test/sse';
import { waitFor } from '../../../test/wait';
import { nextWamid, webhookBody } from '../../../test/whatsapp-webhook';
import { connectWhatsApp, routeWebhooksToApp } from '../../../test/whatsapp-company';
import { consentKeyword, consentWord } from './consent';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-consent-token';
const PHONE_ID = '106540352299050';
const APP_SECRET = 'consent-secret';
const REPLY =
  'Listo, ya no te enviaremos mensajes de campañas. Si quieres volver a recibirlos, escribe ALTA.';

let ctx: TestContext;
let fake: FakeGraphApi;
let emitter: WebhookEmitter;
let server: { url: string; close(): Promise<void> };
let headers: Record<string, string>;
let companyId: number;
let phoneSeq = 0;

const call = (method: InjectOptions['method'], url: string, body?: unknown) =>
  ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });

const clientOf = async (id: number) => (await call('GET', `/admin/client/${id}`)).json().client as Client;

/** A new client of the company with a phone of their own. */
async function newClient() {
  const phone = `3465${String(++phoneSeq).padStart(7, '0')}`;
  return createClient(ctx, companyId, { whatsapp_cellphone: phone });
}

/** The customer writes `text` through the fake's webhook; resolves once it was stored and handled. */
async function customerWrites(phone: string, text: string): Promise<void> {
  const before = await messagesOf(phone);
  await emitter.text(phone, text);
  await ctx.container.webhookInbox.idle();
  await waitFor(async () => (await messagesOf(phone)) > before);
  await ctx.container.outbox.idle();
}

async function messagesOf(phone: string): Promise<number> {
  const row = await ctx.container.db
    .selectFrom('messages')
    .innerJoin('clients', 'clients.id', 'messages.client_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('clients.whatsapp_cellphone', '=', phone)
    .where('messages.sender_type', '=', 'client')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The client stored for a phone (created by its first message when new). */
async function clientIdOf(phone: string): Promise<number> {
  const row = await ctx.container.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', companyId)
    .where('whatsapp_cellphone', '=', phone)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function approvedTemplate(name: string): Promise<number> {
  const at = new Date().toISOString();
  const row = await ctx.container.db
    .insertInto('message_templates')
    .values({
      company_id: companyId,
      meta_id: `77${name.length}${Date.now()}`,
      name,
      language: 'es',
      status: 'APPROVED',
      category: 'MARKETING',
      components: JSON.stringify([
        { type: 'BODY', format: null, text: 'Hola, tenemos ofertas.', buttons: [] },
      ]),
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  fake = await startFakeGraphApi({
    tokens: [TOKEN],
    phoneNumbers: [
      { id: PHONE_ID, display_phone_number: '15550789050', verified_name: 'C', quality_rating: 'GREEN' },
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
  emitter = createWebhookEmitter({ url: fake.webhook!.url, appSecret: APP_SECRET, phoneNumberId: PHONE_ID });
});

afterAll(async () => {
  await fake?.flushWebhooks();
  await Promise.all([ctx?.close(), fake?.close(), server?.close()]);
});

describe('consent words', () => {
  it('match the whole message, any case, accents and spaces ignored', () => {
    const words = { opt_out_keywords: ['STOP', 'BAJA', 'CANCELAR', 'ALTO'], opt_in_keywords: ['ALTA'] };
    expect(consentWord('  Cancelár ')).toBe('cancelar');
    for (const text of ['STOP', 'stop', 'baja ', 'Cancelár', '  ALTO\n', 'Bája'])
      expect(consentKeyword(text, words), text).toBe('opt_out');
    for (const text of ['alta', 'Álta ']) expect(consentKeyword(text, words), text).toBe('opt_in');
    for (const text of ['stop please', 'quiero darme de baja', 'stopp', '', 'S T O P'])
      expect(consentKeyword(text, words), text).toBeNull();
  });
});

describe(`consent (${engine})`, () => {
  it('STOP marks the client and confirms once in the chat; ALTA clears it; "stop please" does not count', async () => {
    const phone = '34611000001';
    await customerWrites(phone, 'Hola');
    const id = await clientIdOf(phone);
    expect((await clientOf(id)).opted_out_at).toBeNull();

    await customerWrites(phone, 'stop please');
    expect((await clientOf(id)).opted_out_at).toBeNull();

    await customerWrites(phone, ' Stop ');
    expect((await clientOf(id)).opted_out_at).toEqual(expect.any(String));
    // The confirmation went out through the normal path: in the chat as the bot's, and to WhatsApp.
    const confirmation = await waitFor(async () => {
      const history = (await call('GET', `/admin/client/${id}/messages`)).json().messages as {
        content: string;
        sender_type: string;
      }[];
      return history.find((m) => m.content === REPLY);
    });
    expect(confirmation.sender_type).toBe('bot');
    await waitFor(() => fake.sent.some((m) => m.to === phone && JSON.stringify(m.body).includes('ALTA')));
    const list = (await call('GET', `/admin/client?search=${phone}`)).json().clients as Client[];
    expect(list.map((c) => c.opted_out_at)).toEqual([expect.any(String)]);

    // A second opt-out word changes nothing and sends nothing more.
    await customerWrites(phone, 'BAJA');
    await ctx.container.outbox.idle();
    expect(fake.sent.filter((m) => m.to === phone)).toHaveLength(1);

    await customerWrites(phone, 'Álta');
    expect((await clientOf(id)).opted_out_at).toBeNull();

    // A tap on a template's quick reply whose text is an opt-out word counts as well.
    await emitter.buttonReply(phone, { text: 'Baja', payload: 'optout' });
    await ctx.container.webhookInbox.idle();
    await ctx.container.outbox.idle();
    expect(await waitFor(async () => (await clientOf(id)).opted_out_at)).toEqual(expect.any(String));
  });

  it('one delivery with several customers’ words: each applied in order, one confirmation each', async () => {
    // The subscriber takes a dispatch's messages together (one read for them all): these three messages
    // arrive in one delivery, so they are handled in one dispatch.
    const [ana, beto] = ['34611000091', '34611000092'];
    const message = (from: string, body: string) => ({
      from,
      id: nextWamid(),
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'text',
      text: { body },
    });
    const statuses = await emitter.post(
      webhookBody(PHONE_ID, {
        contacts: [
          { profile: { name: 'Ana' }, wa_id: ana },
          { profile: { name: 'Beto' }, wa_id: beto },
        ],
        messages: [message(ana, 'STOP'), message(beto, 'Hola'), message(ana, 'ALTA'), message(beto, 'Baja')],
      }),
    );
    expect(statuses).toEqual([200]);
    await ctx.container.webhookInbox.idle();
    await ctx.container.outbox.idle();
    // Ana opted out, then in again: she ends opted in, and got the one confirmation of her opt-out.
    expect((await clientOf(await clientIdOf(ana))).opted_out_at).toBeNull();
    // Beto's 'Hola' is no word; his 'Baja' is.
    expect((await clientOf(await clientIdOf(beto))).opted_out_at).toEqual(expect.any(String));
    await waitFor(() => fake.sent.filter((m) => m.to === ana || m.to === beto).length === 2);
    expect(fake.sent.filter((m) => m.to === ana)).toHaveLength(1);
    expect(fake.sent.filter((m) => m.to === beto)).toHaveLength(1);
  });

  it('a change of consent reaches the chat’s stream live as client.updated, once per change', async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(base, { headers } as TestUser);
    const updates = () =>
      stream
        .events()
        .filter((e) => e.event === 'client.updated')
        .map((e) => JSON.parse(e.data!) as { client_id: number; opted_out_at: string | null });
    try {
      await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(1);
      const phone = '34611000077';
      await customerWrites(phone, 'Hola');
      const id = await clientIdOf(phone);
      await customerWrites(phone, 'STOP');
      await customerWrites(phone, 'BAJA');
      await customerWrites(phone, 'ALTA');
      await ctx.container.outbox.idle();
      // Opted out, then back in; the second opt-out word changed nothing, so it said nothing.
      expect(updates()).toEqual([
        { client_id: id, opted_out_at: expect.any(String) },
        { client_id: id, opted_out_at: null },
      ]);
    } finally {
      stream.close();
    }
  });

  it("Meta's 131050 on a status marks the client", async () => {
    const client = await newClient();
    fake.failFor(client.whatsapp_cellphone, { code: 131050, mode: 'async' });
    const res = await call('POST', '/admin/messages/send-template-message', {
      client_id: client.id,
      templateName: await approvedTemplate(`oferta_${client.id}`).then(() => `oferta_${client.id}`),
      confirm_opted_out: false,
      language: 'es',
    });
    expect(res.statusCode, res.body).toBe(201);
    await fake.flushWebhooks();
    await ctx.container.webhookInbox.idle();
    const marked = await waitFor(async () => (await clientOf(client.id)).opted_out_at);
    expect(marked).toEqual(expect.any(String));
    fake.failFor(client.whatsapp_cellphone, null);
  });

  it('a mass send skips who opted out: skipped with the reason, the fake never gets it, counts right', async () => {
    const phone = '34611000002';
    await customerWrites(phone, 'CANCELAR');
    const optedOut = await clientIdOf(phone);
    expect((await clientOf(optedOut)).opted_out_at).toEqual(expect.any(String));
    const others = [await newClient(), await newClient()];
    const list = await call('POST', '/admin/list-clients', {
      name: 'Con bajas',
      client_ids: [optedOut, ...others.map((c) => c.id)],
    });
    expect(list.statusCode, list.body).toBe(201);
    const sentBefore = fake.sent.length;
    const res = await call('POST', '/admin/messages-massive', {
      name: 'Ofertas',
      message_template_id: await approvedTemplate('ofertas_masivas'),
      list_id: list.json().data.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    const send = await waitFor(async () => {
      const s = (await call('GET', `/admin/messages-massive/${id}`)).json().data as MassMessage;
      return s.status === 'completed' ? s : undefined;
    });
    expect(send.counts).toMatchObject({ total: 3, queued: 0, skipped: 1, sent: 2 });
    const sentNow = fake.sent.slice(sentBefore).map((m) => m.to);
    expect(sentNow.sort()).toEqual(others.map((c) => c.whatsapp_cellphone).sort());
    expect(sentNow).not.toContain(phone);

    const report = (await call('GET', `/admin/messages-massive/${id}/recipients?per_page=100`)).json().data
      .data as MassRecipient[];
    const skipped = report.find((r) => r.client_id === optedOut)!;
    expect(skipped).toMatchObject({
      status: 'skipped',
      skip_reason: 'opted_out',
      error_message: 'Omitido: se dio de baja',
    });
    const filtered = (await call('GET', `/admin/messages-massive/${id}/recipients?status=skipped`)).json()
      .data;
    expect(filtered.data.map((r: MassRecipient) => r.client_id)).toEqual([optedOut]);

    // After ALTA the next send reaches them again.
    await customerWrites(phone, 'alta');
    const again = await call('POST', '/admin/messages-massive', {
      name: 'Ofertas 2',
      message_template_id: await approvedTemplate('ofertas_masivas_2'),
      list_id: list.json().data.id,
    });
    const againId = again.json().data.id as number;
    const second = await waitFor(async () => {
      const s = (await call('GET', `/admin/messages-massive/${againId}`)).json().data as MassMessage;
      return s.status === 'completed' ? s : undefined;
    });
    expect(second.counts).toMatchObject({ total: 3, skipped: 0, sent: 3 });
  });

  it('a template from the chat to an opted-out client needs confirm_opted_out; free text stays allowed', async () => {
    const phone = '34611000003';
    await customerWrites(phone, 'alto');
    const id = await clientIdOf(phone);
    const name = `recordatorio_${id}`;
    await approvedTemplate(name);
    const sentBefore = fake.sent.length;
    const refused = await call('POST', '/admin/messages/send-template-message', {
      client_id: id,
      templateName: name,
      language: 'es',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.confirm_opted_out[0]).toMatch(/se dio de baja/);
    const confirmed = await call('POST', '/admin/messages/send-template-message', {
      client_id: id,
      templateName: name,
      language: 'es',
      confirm_opted_out: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    // A free-text reply inside the 24-hour window needs nothing.
    const text = await call('POST', '/admin/message', { client_id: id, content: 'Claro, te ayudo.' });
    expect(text.statusCode, text.body).toBeLessThan(300);
    await waitFor(() => fake.sent.length >= sentBefore + 2);
  });
});
