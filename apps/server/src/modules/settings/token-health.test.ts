import { MESSAGE_STATUS, type Message, type Settings } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser } from '../../../test/factories';
import { openStream } from '../../../test/sse';
import { connectWhatsApp } from '../../../test/whatsapp-company';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-token-health-test';
const PHONE_ID = '106540352249999';
const WABA_ID = '419561257919999';
const HOUR = 60 * 60 * 1000;

describe(`a WhatsApp token Meta refuses, and failures explained (${engine})`, () => {
  let ctx: TestContext;
  let fake: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;

  beforeAll(async () => {
    fake = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550783899',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
      ],
    });
    ctx = await createTestContext({ outboundRetry: { attempts: 1, backoffMs: 10 }, cloudApiTimeoutMs: 2000 });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      baseUrl: fake.baseUrl,
    });
    await ctx.container.settingsRepository.upsertSettings(companyId, {
      whatsapp_business_account_id: WABA_ID,
    });
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), fake.close()]);
  });
  beforeEach(() => {
    fake.reset();
    fake.tokens.add(TOKEN);
  });

  const call = (method: 'GET' | 'POST', url: string, body?: unknown, lang = 'es', as = cast.admin) =>
    ctx.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...as.headers, 'accept-language': lang },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
  /** The app over real HTTP (the streams), listening once for every test that needs it. */
  let address: string | undefined;
  const listening = async () => (address ??= await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
  const setting = async () => (await call('GET', '/admin/setting')).json() as Settings;

  /** A client who wrote an hour ago (the 24-hour window is open). */
  async function customer() {
    const client = await createClient(ctx, companyId);
    await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: `wamid.in.${client.id}`,
      sender: 'client',
      messageType: 'text',
      waType: 'text',
      content: 'Hola',
      phone: client.whatsapp_cellphone,
      status: MESSAGE_STATUS.delivered,
      createdAt: new Date(Date.now() - HOUR).toISOString(),
    });
    return client;
  }

  it('a 190 on a send marks the token refused; a connection test that works clears it', async () => {
    expect(await setting()).toMatchObject({ whatsapp_status: 'ok', whatsapp_token_refused_at: null });
    const client = await customer();
    fake.failSends({ code: 190 });
    const res = await call('POST', '/admin/message', { content: 'Hola', client_id: client.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      status: MESSAGE_STATUS.failed,
      error_code: 190,
      error: { code: 190, title: 'Access token has expired', resendable: true },
    });
    expect(res.json().data.error.explanation).toMatch(/token de acceso: caducó o fue revocado/);
    const refused = await setting();
    expect(refused.whatsapp_status).toBe('token_invalid');
    expect(Date.parse(refused.whatsapp_token_refused_at!)).not.toBeNaN();

    const test = await call('POST', '/admin/setting/test/whatsapp', {});
    expect(test.json()).toMatchObject({ success: true });
    expect(await setting()).toMatchObject({ whatsapp_status: 'ok', whatsapp_token_refused_at: null });
  });

  it('a revoked token refused by the templates sync or the connection test shows; a send that works clears it', async () => {
    fake.tokens.delete(TOKEN);
    expect((await call('GET', '/templates/sync')).statusCode).toBe(422);
    expect((await setting()).whatsapp_status).toBe('token_invalid');
    // A test of a token typed and not saved says nothing about the stored one.
    expect(
      (await call('POST', '/admin/setting/test/whatsapp', { whatsAppApiKey: 'EAAG-other' })).json(),
    ).toMatchObject({
      success: false,
    });
    expect((await call('POST', '/admin/setting/test/whatsapp', {})).json()).toMatchObject({
      problem: 'bad_token',
    });
    expect((await setting()).whatsapp_status).toBe('token_invalid');

    fake.tokens.add(TOKEN);
    const client = await customer();
    const sent = await call('POST', '/admin/message', { content: 'Hola', client_id: client.id });
    expect(sent.json().data).toMatchObject({ status: MESSAGE_STATUS.sent, error: null });
    expect((await setting()).whatsapp_status).toBe('ok');
  });

  it('says not_configured for a company without a token or number', async () => {
    const other = await call('GET', '/admin/setting', undefined, 'es', cast.otherAdmin);
    expect(other.json().whatsapp_status).toBe('not_configured');
  });

  it('explains a failure in the request’s language in the history, the message and the send’s answer', async () => {
    const client = await customer();
    fake.failSends({ code: 131026 });
    const res = await call('POST', '/admin/message', { content: 'Hola', client_id: client.id }, 'en');
    const failed = res.json().data as Message;
    expect(failed.error).toMatchObject({ code: 131026, title: 'Message undeliverable', resendable: false });
    expect(failed.error!.explanation).toMatch(/could not deliver the message to this number/);
    expect(res.json().message).toContain(failed.error!.explanation);

    const history = async (lang: string) =>
      (
        (await call('GET', `/admin/client/${client.id}/messages`, undefined, lang)).json()
          .messages as Message[]
      ).find((m) => m.id === failed.id)!;
    expect((await history('es')).error!.explanation).toMatch(/no pudo entregar el mensaje a este número/);
    expect((await history('en')).error!.explanation).toBe(failed.error!.explanation);
    const detail = (await call('GET', `/admin/messages/${failed.id}`, undefined, 'es')).json().data;
    expect(detail.error.explanation).toMatch(/no pudo entregar/);
    expect(detail.statuses.at(-1)).toMatchObject({ status: 'failed', error_code: 131026 });
  });

  it('tells the admins’ streams live when the token is refused and when it works again, once per change', async () => {
    const base = await listening();
    const agent = await createUser(ctx, { role: 'agent', companyId });
    const [admin, agentStream] = [await openStream(base, cast.admin), await openStream(base, agent)];
    const statuses = (stream: typeof admin) =>
      stream
        .events()
        .filter((e) => e.event === 'channel.whatsapp_status')
        .map((e) => JSON.parse(e.data!) as Pick<Settings, 'whatsapp_status' | 'whatsapp_token_refused_at'>);
    try {
      await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(2);
      const client = await customer();
      fake.failSends({ code: 190 });
      await call('POST', '/admin/message', { content: 'Hola', client_id: client.id });
      await expect.poll(() => statuses(admin).length).toBe(1);
      expect(statuses(admin)[0]!.whatsapp_status).toBe('token_invalid');
      expect(Date.parse(statuses(admin)[0]!.whatsapp_token_refused_at!)).not.toBeNaN();
      // Refused again (the templates' sync): the column does not change, so no second event.
      fake.tokens.delete(TOKEN);
      expect((await call('GET', '/templates/sync')).statusCode).toBe(422);
      fake.tokens.add(TOKEN);
      const test = await call('POST', '/admin/setting/test/whatsapp', {});
      expect(test.json()).toMatchObject({ success: true });
      await expect.poll(() => statuses(admin).length).toBe(2);
      expect(statuses(admin)).toEqual([
        expect.objectContaining({ whatsapp_status: 'token_invalid' }),
        { whatsapp_status: 'ok', whatsapp_token_refused_at: null },
      ]);
      // The outbox is drained: everything published has reached the streams; the agent got none of it.
      await ctx.container.outbox.idle();
      expect(statuses(agentStream)).toEqual([]);
      expect(statuses(admin)).toHaveLength(2);
    } finally {
      admin.close();
      agentStream.close();
    }
  });

  it('explains a failure on the live stream in each stream’s language', async () => {
    const base = await listening();
    const english = { ...cast.admin, headers: { ...cast.admin.headers, 'accept-language': 'en' } };
    const [es, en] = [await openStream(base, cast.admin), await openStream(base, english)];
    try {
      await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(2);
      const client = await customer();
      fake.failSends({ code: 132001 });
      await call('POST', '/admin/message', { content: 'Hola', client_id: client.id });
      const failure = async (stream: typeof es) => {
        await expect
          .poll(() => stream.events().find((e) => e.event === 'message.status' && e.data?.includes('132001')))
          .toBeDefined();
        const event = stream
          .events()
          .find((e) => e.event === 'message.status' && e.data?.includes('132001'))!;
        return JSON.parse(event.data!).error_detail;
      };
      expect(await failure(es)).toMatchObject({ code: 132001, resendable: false });
      expect((await failure(es)).explanation).toMatch(/^La plantilla no existe en ese idioma/);
      expect((await failure(en)).explanation).toMatch(/^The template does not exist in that language/);
    } finally {
      es.close();
      en.close();
    }
  });
});
