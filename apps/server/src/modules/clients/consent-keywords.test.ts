// A consent word is consent's alone: customers write through the real webhook to a company with a live
// bot (the fake OpenAI-compatible server), outside business hours with the away message on (also when the
// bot answers) and a hand-off phrase that is a consent word too. STOP, ALTA and ALTO change the
// customer's consent and get nothing else: no bot answer, no away message, no hand-off. An ordinary
// message afterwards gets all of them as usual (the bot is asked about it alone).
import type { ServerEvent } from '@hablabot/contract';
import type { FakeChatRequest, FakeGraphApi, FakeOpenAi } from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotCompany } from '../../../test/bot-company';
import { uniquePhone } from '../../../test/clients-factories';
import type { TestContext } from '../../../test/context';
import { createFakeClock } from '../../../test/fake-clock';
import { waitFor } from '../../../test/wait';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import type { PublishedEvent } from '../../platform/events/events';
import { BOT_REPLY_JOB } from '../messaging/bot-reply';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'consent-words-token';
const OPENAI_KEY = 'sk-fake-consent-words';
const PHONE_ID = '555000733';
const BOT_ANSWER = 'Respuesta del bot';
const AWAY = 'Estamos cerrados, te respondemos el lunes.';
const HANDOFF = 'Te paso con una persona del equipo.';

describe(`consent words are consent's alone (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let openai: FakeOpenAi;
  let companyId: number;
  /** Friday 2026-11-27 20:00 UTC: closed until Monday 10:00. */
  const clock = createFakeClock({ start: Date.parse('2026-11-27T20:00:00.000Z') });
  let published: PublishedEvent[];
  let company: Awaited<ReturnType<typeof startBotCompany>>;

  beforeAll(async () => {
    company = await startBotCompany({
      token: TOKEN,
      openaiKey: OPENAI_KEY,
      phoneId: PHONE_ID,
      displayPhone: '15550733',
      clock,
      botAnswer: BOT_ANSWER,
    });
    ({ ctx, graph, openai, companyId, published } = company);
    await ctx.container.businessHours.save(companyId, {
      timezone: 'UTC',
      days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '10:00', close: '18:00' })),
      holidays: [],
      away_enabled: true,
      away_message: AWAY,
      away_with_bot: true,
    });
    // No opt-out reply: nothing at all goes back for a consent word. 'alto' is both an opt-out word (by
    // default) and a hand-off phrase here.
    await ctx.container.inboxSettings.save(companyId, {
      opt_out_reply: null,
      handoff_phrases: ['alto', 'agente'],
      handoff_message: HANDOFF,
    });
    await company.start();
  });
  afterAll(async () => {
    await company?.close();
  });

  const textsTo = (phone: string) =>
    graph.sent.filter((s) => s.to === phone).map((s) => (s.body as { text?: { body?: string } }).text?.body);
  const clientOf = async (phone: string) =>
    ctx.container.db
      .selectFrom('clients')
      .select(['id', 'opted_out_at'])
      .where('company_id', '=', companyId)
      .where('whatsapp_cellphone', '=', phone)
      .executeTakeFirstOrThrow();
  /** Whether the client's bot reply job is still waiting or running. */
  const botJobPending = async (clientId: number) =>
    (await ctx.container.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', BOT_REPLY_JOB)
      .where('dedupe_key', '=', `${companyId}:${clientId}`)
      .executeTakeFirst()) !== undefined;
  /**
   * The customer writes `text` through the webhook; resolves once every subscriber of the message ran
   * (consent, away message, hand-off) and the bot's job for it, if one was queued, is over.
   */
  const customerWrites = async (phone: string, text: string) => {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(PHONE_ID, phone, 'text', { text: { body: text } })),
    );
    expect(res.statusCode).toBe(200);
    await ctx.container.outbox.idle();
    await ctx.container.outbox.dispatch();
    await ctx.container.outbox.idle();
    const { id } = await clientOf(phone);
    await waitFor(async () => !(await botJobPending(id)));
    await ctx.container.outbox.idle();
  };
  const handoffs = (clientId: number) =>
    published.filter(
      (e): e is PublishedEvent & Extract<ServerEvent, { type: 'conversation.handoff' }> =>
        e.type === 'conversation.handoff' && e.data.client_id === clientId,
    );
  const botPaused = async (clientId: number) =>
    (
      await ctx.container.db
        .selectFrom('conversations')
        .select('bot_paused')
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).bot_paused;

  it('STOP, ALTA and ALTO change consent only: no bot answer, no away message, no hand-off', async () => {
    const phone = uniquePhone();
    const asked = openai.requests.length;

    await customerWrites(phone, 'STOP');
    const client = await clientOf(phone);
    expect(client.opted_out_at).toEqual(expect.any(String));
    expect(textsTo(phone)).toEqual([]);

    await customerWrites(phone, ' Álta ');
    expect((await clientOf(phone)).opted_out_at).toBeNull();
    expect(textsTo(phone)).toEqual([]);

    // An opt-out word that is also a hand-off phrase: consent's, not a hand-off.
    await customerWrites(phone, 'Alto');
    expect((await clientOf(phone)).opted_out_at).toEqual(expect.any(String));
    expect(textsTo(phone)).toEqual([]);
    expect(handoffs(client.id)).toEqual([]);
    expect(await botPaused(client.id)).toBe(0);
    expect(openai.requests.length).toBe(asked);
    const away = await ctx.container.db
      .selectFrom('away_replies')
      .select('period')
      .where('client_id', '=', client.id)
      .execute();
    expect(away).toEqual([]);

    // An ordinary message gets the away message and the bot's answer, the bot asked about it alone.
    await customerWrites(phone, 'Hola, ¿tienen envíos?');
    await waitFor(() => textsTo(phone).length === 2);
    expect(textsTo(phone).sort()).toEqual([AWAY, BOT_ANSWER].sort());
    const prompt = (openai.requests.at(-1)!.body as FakeChatRequest).messages.at(-1)!.content;
    expect(prompt).toContain('Hola, ¿tienen envíos?');
    expect(prompt).not.toMatch(/STOP|Álta|Alto/);
    expect(handoffs(client.id)).toEqual([]);
  });
});
