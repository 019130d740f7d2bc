// The hand-off to a person end to end: customers write through the real webhook, the bot asks the fake
// OpenAI-compatible server, messages go out through the fake WhatsApp Cloud API. By a phrase and by the
// bot's marker: the bot paused, the conversation unassigned (or auto-assigned), the hand-off message
// (with when the team answers outside business hours), the live notice for who may see the conversation.
import { type Client, DEFAULT_HANDOFF_MESSAGE, MESSAGE_STATUS, type ServerEvent } from '@hablabot/contract';
import {
  FAKE_HANDOFF_MARKER,
  type FakeChatRequest,
  type FakeGraphApi,
  type FakeOpenAi,
} from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBotCompany } from '../../../test/bot-company';
import { createClient, uniquePhone } from '../../../test/clients-factories';
import type { TestContext } from '../../../test/context';
import { createFakeClock } from '../../../test/fake-clock';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, nextWamid, signedRequest } from '../../../test/whatsapp-webhook';
import type { PublishedEvent } from '../../platform/events/events';
import { HANDOFF_HEADING, HANDOFF_MARKER } from '../bots/prompt';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'handoff-token';
const OPENAI_KEY = 'sk-fake-handoff';
const PHONE_ID = '555000811';
const BOT_ANSWER = 'Respuesta del bot';

describe(`hand-off to a person (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let openai: FakeOpenAi;
  let companyId: number;
  let agent: TestUser;
  /** Friday 2026-11-27 11:00 UTC. */
  const clock = createFakeClock({ start: Date.parse('2026-11-27T11:00:00.000Z') });
  let published: PublishedEvent[];
  let company: Awaited<ReturnType<typeof startBotCompany>>;

  beforeAll(async () => {
    company = await startBotCompany({
      token: TOKEN,
      openaiKey: OPENAI_KEY,
      phoneId: PHONE_ID,
      displayPhone: '15550811',
      clock,
      botAnswer: BOT_ANSWER,
    });
    ({ ctx, graph, openai, companyId, published } = company);
    // The model hands over when the customer's problem is "complicado" (the fake's own marker answer).
    openai.handoffWhen = ['complicado'];
    agent = await createUser(ctx, { role: 'agent', companyId, name: 'Ana' });
    await company.start();
  });
  afterAll(async () => {
    await company?.close();
  });
  beforeEach(async () => {
    clock.advance(Date.parse('2026-11-27T11:00:00.000Z') - clock.now());
    await ctx.container.inboxSettings.save(companyId, { auto_assign: false });
    await ctx.container.db.deleteFrom('business_hours').execute();
    await ctx.container.db.updateTable('users').set({ stream_seen_at: null }).execute();
  });

  const customerWrites = async (phone: string, text: string) => {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(PHONE_ID, phone, 'text', { text: { body: text } })),
    );
    expect(res.statusCode).toBe(200);
  };
  const textsTo = (phone: string) =>
    graph.sent.filter((s) => s.to === phone).map((s) => (s.body as { text?: { body?: string } }).text?.body);
  const clientOf = async (phone: string) =>
    (
      await ctx.container.db
        .selectFrom('clients')
        .select('id')
        .where('company_id', '=', companyId)
        .where('whatsapp_cellphone', '=', phone)
        .executeTakeFirstOrThrow()
    ).id;
  const conversationOf = async (clientId: number) =>
    ctx.container.db
      .selectFrom('conversations')
      .select(['bot_paused', 'assignee_user_id'])
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
  const notices = (clientId: number) =>
    published.filter(
      (e): e is PublishedEvent & Extract<ServerEvent, { type: 'conversation.handoff' }> =>
        e.type === 'conversation.handoff' && e.data.client_id === clientId,
    );
  const settle = async () => {
    await ctx.container.outbox.idle();
    await ctx.container.outbox.dispatch();
    await ctx.container.outbox.idle();
  };

  it('by a phrase: bot paused, unassigned, the hand-off message instead of the bot, a live notice once', async () => {
    const phone = uniquePhone();
    await customerWrites(phone, 'Hola');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([BOT_ANSWER]);

    await customerWrites(phone, 'Quiero hablar con un AGÉNTE por favor');
    await expect
      .poll(() => textsTo(phone), { timeout: 15_000 })
      .toEqual([BOT_ANSWER, DEFAULT_HANDOFF_MESSAGE]);
    const clientId = await clientOf(phone);
    expect(await conversationOf(clientId)).toEqual({ bot_paused: 1, assignee_user_id: null });
    await expect.poll(() => notices(clientId).length, { timeout: 15_000 }).toBe(1);
    const notice = notices(clientId)[0];
    expect(notice.data).toEqual({ client_id: clientId, reason: 'phrase' });
    // Unassigned: every agent of the company may see it, so the notice is for them.
    expect(notice.audience).toMatchObject({ kind: 'conversation', assigneeId: null });

    // Handed over once: the hand-off run again (a subscriber retried) finds the bot paused and does nothing.
    expect(await ctx.container.handoff.handOff(companyId, clientId, 'phrase')).toBe(false);
    // Asking again, with the bot paused: nothing more (the team has it).
    await customerWrites(phone, 'agente!!');
    await settle();
    await customerWrites(phone, 'control');
    await settle();
    expect(textsTo(phone)).toEqual([BOT_ANSWER, DEFAULT_HANDOFF_MESSAGE]);
    expect(notices(clientId)).toHaveLength(1);
  });

  it('takes a dispatch’s messages together: the customer asking twice is handed over once, the other not', async () => {
    // Straight to the subscriber's handler, as a dispatch of three events hands them over (no bot reply
    // job runs for these messages: they are stored without their events).
    const asks = await createClient(ctx, companyId);
    const greets = await createClient(ctx, companyId);
    const row = (client: Client, content: string) => ({
      clientId: client.id,
      wamid: nextWamid(),
      sender: 'client' as const,
      messageType: 'text' as const,
      waType: 'text',
      content,
      phone: client.whatsapp_cellphone,
      contextWamid: null,
      replyToId: null,
      status: MESSAGE_STATUS.delivered,
      createdAt: new Date(clock.now()).toISOString(),
    });
    const written = [row(asks, 'Quiero un agente'), row(greets, 'Hola'), row(asks, 'un asesor, por favor')];
    const ids = await ctx.container.messagesRepository.insertCustomerMessages(companyId, written);
    await ctx.container.handoff.afterCustomerMessages(
      written.map((w, i) => ({ companyId, clientId: w.clientId, messageId: ids[i]! })),
    );
    await settle();
    expect(textsTo(asks.whatsapp_cellphone)).toEqual([DEFAULT_HANDOFF_MESSAGE]);
    expect(await conversationOf(asks.id)).toMatchObject({ bot_paused: 1 });
    expect(notices(asks.id)).toHaveLength(1);
    expect(textsTo(greets.whatsapp_cellphone)).toEqual([]);
    expect((await ctx.container.clientsRepository.conversationState(companyId, greets.id))?.mode_bot).toBe(1);
  });

  it('the bot never answers a message asking for a person, even when its reply runs before the hand-off', async () => {
    const phone = uniquePhone();
    await customerWrites(phone, 'Hola');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([BOT_ANSWER]);
    const clientId = await clientOf(phone);
    // The phrase stored without its subscribers having run: the bot's reply job goes first.
    const at = new Date(clock.now()).toISOString();
    await ctx.container.db
      .insertInto('messages')
      .values({
        company_id: companyId,
        client_id: clientId,
        wamid: `wamid.handoff-first.${clientId}`,
        sender_type: 'client',
        message_type: 'text',
        wa_type: 'text',
        content: 'Quiero hablar con una persona',
        phone,
        status: 2,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await ctx.container.botReplies.job.handler(
      { companyId, clientId },
      { id: 'handoff-first', name: 'messaging.bot-reply', attempt: 1 },
    );
    expect(textsTo(phone)).toEqual([BOT_ANSWER]);
  });

  it('by a phrase with auto-assign on: the online agent gets it and the notice', async () => {
    await ctx.container.inboxSettings.save(companyId, { auto_assign: true });
    const phone = uniquePhone();
    // The conversation starts with nobody online, so it is not auto-assigned at its first message.
    await customerWrites(phone, 'Hola');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([BOT_ANSWER]);
    await ctx.container.db
      .updateTable('users')
      .set({ stream_seen_at: new Date(clock.now()).toISOString() })
      .where('id', '=', agent.user.id)
      .execute();
    await customerWrites(phone, 'necesito un asesor');
    const clientId = await clientOf(phone);
    await expect.poll(() => notices(clientId).length, { timeout: 15_000 }).toBe(1);
    expect(await conversationOf(clientId)).toEqual({ bot_paused: 1, assignee_user_id: agent.user.id });
    expect(notices(clientId)[0].audience).toMatchObject({ kind: 'conversation', assigneeId: agent.user.id });
  });

  it("by the bot's marker: the prompt asks for it, the model's text is not sent, the hand-off is", async () => {
    const phone = uniquePhone();
    openai.reset();
    await customerWrites(phone, 'Tengo un problema complicado con mi pedido');
    await expect.poll(() => textsTo(phone), { timeout: 15_000 }).toEqual([DEFAULT_HANDOFF_MESSAGE]);
    const clientId = await clientOf(phone);
    await expect
      .poll(() => notices(clientId).map((n) => n.data.reason), { timeout: 15_000 })
      .toEqual(['bot']);
    expect((await conversationOf(clientId)).bot_paused).toBe(1);
    const system = (openai.requests.at(-1)!.body as FakeChatRequest).messages[0].content;
    expect(system).toContain(HANDOFF_HEADING);
    expect(system).toContain(HANDOFF_MARKER);
    // The fake answers with the marker the prompt asks for.
    expect(FAKE_HANDOFF_MARKER).toBe(HANDOFF_MARKER);
  });

  it('outside business hours the message says when the team answers, and no away message comes too', async () => {
    await ctx.container.businessHours.save(companyId, {
      timezone: 'UTC',
      days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '10:00', close: '18:00' })),
      holidays: [],
      away_enabled: true,
      away_message: 'Estamos cerrados.',
      away_with_bot: true,
    });
    // Friday 20:00 UTC: closed until Monday 10:00.
    clock.advance(9 * 3_600_000);
    const phone = uniquePhone();
    await customerWrites(phone, 'quiero hablar con alguien');
    await expect
      .poll(() => textsTo(phone), { timeout: 15_000 })
      .toEqual([`${DEFAULT_HANDOFF_MESSAGE} Nuestro equipo responde a partir del lunes 10:00.`]);
    await settle();
    expect(textsTo(phone)).toHaveLength(1);
  });

  it('a company without a live bot: a phrase hands nothing over (the team already answers)', async () => {
    const other = await createUser(ctx, { role: 'admin' });
    const otherCompany = other.user.company_id!;
    expect(await ctx.container.handoff.handOff(otherCompany, 1, 'phrase')).toBe(false);
  });
});
