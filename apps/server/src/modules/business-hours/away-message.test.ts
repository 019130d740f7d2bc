// The away message end to end: customers write through the real webhook, the away message goes out
// through the fake WhatsApp Cloud API, the business hours are judged on a fake clock. Once per closed
// period per customer; nothing while open; a customer the live bot answers gets the bot instead, both
// when the company asks for both; and the bot's prompt says whether the business is open.
import type { BusinessHours } from '@hablabot/contract';
import {
  type FakeChatRequest,
  type FakeGraphApi,
  type FakeOpenAi,
  startFakeGraphApi,
  startFakeOpenAi,
} from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBot } from '../../../test/bots-factories';
import { uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createFakeClock } from '../../../test/fake-clock';
import { createUser } from '../../../test/factories';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { createChatCompletionsClient } from '../../integrations/ai/chat-completions';
import { HOURS_HEADING } from '../bots/prompt';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'away-token';
const OPENAI_KEY = 'sk-fake-away';
const PHONE_PLAIN = '555000711';
const PHONE_BOT = '555000712';
const PHONE_BOTH = '555000713';
const HOUR = 3_600_000;
const AWAY = 'Estamos cerrados; te respondemos al abrir.';

/** Monday to Friday 10:00–18:00 UTC. The clock starts on Friday 2026-11-27 at 09:00 UTC: closed. */
const hours: BusinessHours = {
  timezone: 'UTC',
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '10:00', close: '18:00' })),
  holidays: [],
  away_enabled: true,
  away_message: AWAY,
  away_with_bot: false,
};

describe(`away message (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let openai: FakeOpenAi;
  const clock = createFakeClock({ start: Date.parse('2026-11-27T09:00:00.000Z') });
  const company: Record<string, number> = {};

  beforeAll(async () => {
    graph = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [PHONE_PLAIN, PHONE_BOT, PHONE_BOTH].map((id) => ({
        id,
        display_phone_number: `1555${id}`,
        verified_name: 'Muebles Roble',
        quality_rating: 'GREEN' as const,
      })),
    });
    openai = await startFakeOpenAi({ apiKeys: [OPENAI_KEY] });
    openai.reply = () => 'Respuesta del bot';
    ctx = await createTestContext({
      hoursClock: clock,
      botReplyDelayMs: 50,
      chatCompletions: createChatCompletionsClient({ maxRetries: 1, sleep: async () => {} }),
    });
    for (const phoneId of [PHONE_PLAIN, PHONE_BOT, PHONE_BOTH]) {
      const admin = await createUser(ctx, { role: 'admin' });
      const companyId = admin.user.company_id!;
      company[phoneId] = companyId;
      await connectWhatsApp(ctx.container, companyId, { phoneId, token: TOKEN, baseUrl: graph.baseUrl });
      await ctx.container.settingsRepository.upsertSettings(companyId, {
        openai_api_key_enc: ctx.container.secrets.encrypt(OPENAI_KEY),
        openai_model: 'gpt-4o-mini',
        openai_chat_endpoint: openai.endpoint,
      });
      await ctx.container.businessHours.save(companyId, {
        ...hours,
        away_with_bot: phoneId === PHONE_BOTH,
      });
      if (phoneId !== PHONE_PLAIN) await createBot(ctx, companyId, { personality: 'Eres Sofía.' });
    }
    await ctx.container.jobs.start();
  });
  afterAll(async () => {
    await ctx?.close();
    await graph?.close();
    await openai?.close();
  });
  beforeEach(() => {
    // Friday 09:00 UTC, closed until 10:00.
    clock.advance(Date.parse('2026-11-27T09:00:00.000Z') - clock.now());
  });

  const customerWrites = async (phoneId: string, phone: string, text: string) => {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(phoneId, phone, 'text', { text: { body: text } })),
    );
    expect(res.statusCode).toBe(200);
  };
  const sentTo = (phone: string) => graph.sent.filter((s) => s.to === phone);
  const textsTo = (phone: string) =>
    sentTo(phone).map((s) => (s.body as { text?: { body?: string } }).text?.body);
  /** The customer messages stored for a phone. */
  const stored = async (companyId: number, phone: string) => {
    const row = await ctx.container.db
      .selectFrom('messages')
      .innerJoin('clients', 'clients.id', 'messages.client_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('clients.company_id', '=', companyId)
      .where('clients.whatsapp_cellphone', '=', phone)
      .where('messages.sender_type', '=', 'client')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  /** Every event of the messages stored so far handed to the subscribers. */
  const settle = async (phoneId: string, phone: string, count: number) => {
    await expect.poll(() => stored(company[phoneId], phone), { timeout: 15_000 }).toBe(count);
    await ctx.container.outbox.idle();
    await ctx.container.outbox.dispatch();
    await ctx.container.outbox.idle();
  };

  it('answers the first message of a closed period once, nothing while open, again the next closed period', async () => {
    const phone = uniquePhone();
    await customerWrites(PHONE_PLAIN, phone, 'Hola, ¿están?');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([AWAY]);
    await customerWrites(PHONE_PLAIN, phone, '¿Hola?');
    await settle(PHONE_PLAIN, phone, 2);
    expect(textsTo(phone)).toEqual([AWAY]);

    // Friday 11:00: open, no away message.
    clock.advance(2 * HOUR);
    await customerWrites(PHONE_PLAIN, phone, 'Ya abrieron');
    await settle(PHONE_PLAIN, phone, 3);
    expect(textsTo(phone)).toEqual([AWAY]);

    // Friday 19:00: the weekend's closed period, answered once again.
    clock.advance(8 * HOUR);
    await customerWrites(PHONE_PLAIN, phone, 'Una pregunta más');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([AWAY, AWAY]);
    // Saturday: still the same closed period.
    clock.advance(20 * HOUR);
    await customerWrites(PHONE_PLAIN, phone, 'Sábado');
    await settle(PHONE_PLAIN, phone, 5);
    expect(textsTo(phone)).toEqual([AWAY, AWAY]);

    // Stored as the bot's message in the conversation.
    const last = await ctx.container.db
      .selectFrom('messages')
      .select(['sender_type', 'content'])
      .where('company_id', '=', company[PHONE_PLAIN])
      .where('content', '=', AWAY)
      .execute();
    expect(last).toHaveLength(2);
    expect(last.every((m) => m.sender_type === 'bot')).toBe(true);
  });

  it('another customer of the same closed period gets their own away message', async () => {
    const one = uniquePhone();
    const two = uniquePhone();
    await customerWrites(PHONE_PLAIN, one, 'Uno');
    await customerWrites(PHONE_PLAIN, two, 'Dos');
    await expect.poll(() => [textsTo(one), textsTo(two)], { timeout: 15_000 }).toEqual([[AWAY], [AWAY]]);
  });

  it('nothing when the away message is off', async () => {
    await ctx.container.businessHours.save(company[PHONE_PLAIN], { ...hours, away_enabled: false });
    const phone = uniquePhone();
    await customerWrites(PHONE_PLAIN, phone, 'Hola');
    await settle(PHONE_PLAIN, phone, 1);
    expect(textsTo(phone)).toEqual([]);
    await ctx.container.businessHours.save(company[PHONE_PLAIN], hours);
  });

  it('a customer the live bot answers gets the bot instead, and the prompt says the business is closed', async () => {
    const phone = uniquePhone();
    openai.reset();
    await customerWrites(PHONE_BOT, phone, 'Hola, ¿están?');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual(['Respuesta del bot']);
    await settle(PHONE_BOT, phone, 1);
    expect(textsTo(phone)).toEqual(['Respuesta del bot']);
    const system = (openai.requests[0].body as FakeChatRequest).messages[0].content;
    expect(system).toContain(HOURS_HEADING);
    expect(system).toContain('The business is closed now. It opens next on Friday 10:00 (UTC).');
  });

  it('with away_with_bot the customer gets both; open, the prompt says so', async () => {
    const phone = uniquePhone();
    await customerWrites(PHONE_BOTH, phone, 'Hola');
    await expect
      .poll(() => textsTo(phone).sort(), { timeout: 15_000 })
      .toEqual([AWAY, 'Respuesta del bot'].sort());

    clock.advance(2 * HOUR);
    openai.reset();
    const other = uniquePhone();
    await customerWrites(PHONE_BOTH, other, 'Hola de día');
    await expect.poll(() => textsTo(other), { timeout: 15_000 }).toEqual(['Respuesta del bot']);
    const system = (openai.requests[0].body as FakeChatRequest).messages[0].content;
    expect(system).toContain('The business is open now');
  });
});
