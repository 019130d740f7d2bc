// The bot answering customers, end to end over real HTTP: the webhook stores the customer's message, the
// job builds the prompt, asks the fake OpenAI-compatible server, and sends the answer through the fake
// WhatsApp Cloud API; failures are published and stored in the conversation.
import { MESSAGE_STATUS, type Message, type ServerEvent } from '@hablabot/contract';
import {
  type FakeChatRequest,
  type FakeGraphApi,
  type FakeOpenAi,
  OPENAI_ERRORS,
  startFakeGraphApi,
  startFakeOpenAi,
} from '@hablabot/fakes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, createInstruction } from '../../../test/bots-factories';
import { createClient, createSegment, uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createUser } from '../../../test/factories';
import { inboundBody, signedRequest } from '../../../test/whatsapp-webhook';
import { createChatCompletionsClient } from '../../integrations/ai/chat-completions';
import { INSTRUCTIONS_HEADING } from '../bots/prompt';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-bot-reply-token';
const OPENAI_KEY = 'sk-fake-bot-reply';
const MODEL = 'gpt-4o-mini';
const PHONE_A = '555000401';
const PHONE_B = '555000402';
const PHONE_C = '555000403';
const PERSONALITY = 'Eres Sofía, asesora de Muebles Roble. Respondes breve y con amabilidad.';

describe(`bot replies (${engine})`, () => {
  let ctx: TestContext;
  let graph: FakeGraphApi;
  let openai: FakeOpenAi;
  let admin: TestUser;
  let companyA: number;
  let companyB: number;
  let companyC: number;
  let vip: number;
  const events: Record<number, ServerEvent[]> = {};
  /** A phone whose model request makes the admin take the conversation over meanwhile. */
  let takeoverPhone: string | null = null;

  beforeAll(async () => {
    graph = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [PHONE_A, PHONE_B, PHONE_C].map((id) => ({
        id,
        display_phone_number: `1555${id}`,
        verified_name: 'Muebles Roble',
        quality_rating: 'GREEN' as const,
      })),
    });
    openai = await startFakeOpenAi({ apiKeys: [OPENAI_KEY] });
    openai.reply = (request) => `Respuesta a: ${request.messages.at(-1)?.content ?? ''}`;
    ctx = await createTestContext({
      botReplyDelayMs: 400,
      chatCompletions: createChatCompletionsClient({ maxRetries: 1, sleep: async () => {} }),
      outboundRetry: { attempts: 2, backoffMs: 10 },
    });
    admin = await createUser(ctx, { role: 'admin' });
    const adminB = await createUser(ctx, { role: 'admin' });
    const adminC = await createUser(ctx, { role: 'admin' });
    companyA = admin.user.company_id!;
    companyB = adminB.user.company_id!;
    companyC = adminC.user.company_id!;
    const { settingsRepository, secrets } = ctx.container;
    for (const [company, phoneId] of [
      [companyA, PHONE_A],
      [companyB, PHONE_B],
      [companyC, PHONE_C],
    ] as const) {
      await settingsRepository.upsertSettings(company, {
        whatsapp_api_key_enc: secrets.encrypt(TOKEN),
        whatsapp_phone_id: phoneId,
        facebook_messages_api_url: graph.baseUrl,
        // B has no OpenAI settings.
        ...(company === companyB
          ? {}
          : {
              openai_api_key_enc: secrets.encrypt(OPENAI_KEY),
              openai_model: MODEL,
              openai_chat_endpoint: openai.endpoint,
            }),
      });
      events[company] = [];
      await ctx.container.events.subscribe(company, (e) => void events[company].push(e));
    }

    // A: a live bot with an instruction for VIP customers and one for wholesalers.
    vip = (await createSegment(ctx, companyA, { name: 'VIP' })).id;
    const wholesale = (await createSegment(ctx, companyA, { name: 'Mayoristas' })).id;
    const bot = await createBot(ctx, companyA, { personality: PERSONALITY });
    await createInstruction(ctx, companyA, bot.id, [vip], {
      ask: 'Horario',
      reply: 'Abrimos de lunes a sábado de 9 a 18 h.',
    });
    await createInstruction(ctx, companyA, bot.id, [wholesale], {
      ask: 'Descuentos por volumen',
      reply: 'A partir de 50 unidades, 15 % de descuento.',
    });
    // B: a live bot but no OpenAI settings. C: only a paused bot.
    await createBot(ctx, companyB, { personality: 'Bot de B' });
    await createBot(ctx, companyC, { personality: 'Bot de C', state: 0 });

    // The takeover: the admin pauses the bot while the model is answering, then the model answers.
    openai.route('POST', '/v1/chat/completions', async (request) => {
      const body = request.body as FakeChatRequest;
      if (takeoverPhone && JSON.stringify(body.messages).includes('me atiende alguien del equipo')) {
        const clientId = await clientByPhone(companyA, takeoverPhone);
        const res = await ctx.app.inject({
          method: 'POST',
          url: `/api/v1/admin/client/${clientId}/toggle-bot-mode`,
          headers: admin.headers,
          payload: { mode: 0 },
        });
        expect(res.statusCode).toBe(200);
      }
      return undefined;
    });
    await ctx.container.jobs.start();
  });
  afterAll(async () => {
    await ctx?.close();
    await graph?.close();
    await openai?.close();
  });

  const customerWrites = async (phoneId: string, phone: string, text: string) => {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(phoneId, phone, 'text', { text: { body: text } })),
    );
    expect(res.statusCode).toBe(200);
  };
  const sentTo = (phone: string) => graph.sent.filter((s) => s.to === phone);
  const chatRequestsAbout = (text: string) =>
    openai.requests.filter((r) => JSON.stringify((r.body as FakeChatRequest)?.messages ?? []).includes(text));
  const conversation = async (companyId: number, clientId: number): Promise<Message[]> =>
    ctx.container.messagesRepository.listPage(companyId, clientId, { page: 1, perPage: 50 });
  const clientByPhone = async (companyId: number, phone: string) => {
    const row = await ctx.container.db
      .selectFrom('clients')
      .select('id')
      .where('company_id', '=', companyId)
      .where('whatsapp_cellphone', '=', phone)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  /** A customer of A who gets an answer: proof that the jobs queued before it have run their course. */
  const controlReply = async () => {
    const phone = uniquePhone();
    await customerWrites(PHONE_A, phone, 'control');
    await expect.poll(() => sentTo(phone).length, { timeout: 15_000 }).toBe(1);
  };

  it('answers with the personality, the matching instruction and the conversation, as the bot', async () => {
    const client = await createClient(ctx, companyA, { segments: [vip] });
    const phone = client.whatsapp_cellphone;
    // An earlier exchange.
    await customerWrites(PHONE_A, phone, 'Hola, buenas');
    await expect.poll(() => sentTo(phone).length, { timeout: 15_000 }).toBe(1);
    openai.reset();

    await customerWrites(PHONE_A, phone, '¿Qué horario tenéis?');
    await expect.poll(() => sentTo(phone).length, { timeout: 15_000 }).toBe(2);

    expect(openai.requests).toHaveLength(1);
    const request = openai.requests[0].body as FakeChatRequest;
    expect(request.model).toBe(MODEL);
    expect(openai.requests[0].headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    const [system, ...rest] = request.messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain(PERSONALITY);
    expect(system.content).toContain(INSTRUCTIONS_HEADING);
    expect(system.content).toContain('## Horario\nAbrimos de lunes a sábado de 9 a 18 h.');
    expect(system.content).not.toContain('Descuentos por volumen');
    expect(rest).toEqual([
      { role: 'user', content: 'Hola, buenas' },
      { role: 'assistant', content: 'Respuesta a: Hola, buenas' },
      { role: 'user', content: '¿Qué horario tenéis?' },
    ]);

    // WhatsApp got the answer as text, to the customer, from A's number.
    const sent = sentTo(phone)[1];
    expect(sent.phoneNumberId).toBe(PHONE_A);
    expect(sent.type).toBe('text');
    expect(sent.body).toMatchObject({ text: { body: 'Respuesta a: ¿Qué horario tenéis?' } });

    // Stored as the bot's, sent, and announced. WhatsApp records the send before our server has stored
    // its answer, so the stored status is waited for.
    await expect
      .poll(async () => (await conversation(companyA, client.id)).at(-1)?.status, { timeout: 15_000 })
      .toBe(MESSAGE_STATUS.sent);
    const messages = await conversation(companyA, client.id);
    const last = messages.at(-1)!;
    expect(last).toMatchObject({
      sender_type: 'bot',
      content: 'Respuesta a: ¿Qué horario tenéis?',
      status: MESSAGE_STATUS.sent,
      kind: 'message',
    });
    expect(
      events[companyA].some(
        (e) =>
          e.type === 'message.created' &&
          e.data.message.id === last.id &&
          e.data.message.sender_type === 'bot',
      ),
    ).toBe(true);
  });

  it('gives a burst of five messages one answer, to all of them', async () => {
    const phone = uniquePhone();
    const lines = ['Hola', 'quería preguntar', 'por el sofá', 'de tres plazas', '¿tenéis en gris?'];
    for (const line of lines) await customerWrites(PHONE_A, phone, line);
    await expect.poll(() => sentTo(phone).length, { timeout: 15_000 }).toBe(1);
    const asked = chatRequestsAbout('por el sofá');
    expect(asked).toHaveLength(1);
    expect((asked[0].body as FakeChatRequest).messages.at(-1)).toEqual({
      role: 'user',
      content: lines.join('\n'),
    });
    await controlReply();
    expect(sentTo(phone)).toHaveLength(1);
    expect(chatRequestsAbout('por el sofá')).toHaveLength(1);
  });

  it('stays silent for a client whose bot is paused, and for a company without a live bot', async () => {
    const paused = await createClient(ctx, companyA, { segments: [vip] });
    await ctx.container.clients.setBotMode(companyA, paused.id, 0);
    await customerWrites(PHONE_A, paused.whatsapp_cellphone, 'pausado: ¿hay alguien?');
    const inC = uniquePhone();
    await customerWrites(PHONE_C, inC, 'sin bot: ¿hay alguien?');
    await controlReply();
    expect(chatRequestsAbout('¿hay alguien?')).toHaveLength(0);
    expect(sentTo(paused.whatsapp_cellphone)).toHaveLength(0);
    expect(sentTo(inC)).toHaveLength(0);
    expect(events[companyC].some((e) => e.type === 'bot.failed')).toBe(false);

    // The job itself checks too: run for the paused client, it asks nobody.
    await ctx.container.botReplies.run({ companyId: companyA, clientId: paused.id });
    expect(chatRequestsAbout('¿hay alguien?')).toHaveLength(0);
  });

  it('sends nothing when an admin takes over while the model is answering', async () => {
    const phone = uniquePhone();
    await customerWrites(PHONE_A, phone, 'placeholder para crear el cliente');
    await expect.poll(() => sentTo(phone).length, { timeout: 15_000 }).toBe(1);
    takeoverPhone = phone;
    await customerWrites(PHONE_A, phone, '¿me atiende alguien del equipo?');
    await expect
      .poll(() => chatRequestsAbout('me atiende alguien del equipo').length, { timeout: 15_000 })
      .toBe(1);
    await controlReply();
    takeoverPhone = null;
    expect(sentTo(phone)).toHaveLength(1);
    const clientId = await clientByPhone(companyA, phone);
    const messages = await conversation(companyA, clientId);
    expect(messages.filter((m) => m.sender_type === 'bot')).toHaveLength(1);
    expect((await ctx.container.clientsRepository.findClient(companyA, clientId))?.mode_bot).toBe(0);
  });

  const FAILURES = [
    {
      name: 'a rejected API key (401)',
      arrange: async () => {
        await ctx.container.settingsRepository.upsertSettings(companyA, {
          openai_api_key_enc: ctx.container.secrets.encrypt('sk-wrong'),
        });
      },
      reason:
        'El bot no pudo responder: el proveedor de IA rechazó la clave de API. Revísala en Configuraciones.',
    },
    {
      name: 'a retired model (404 model_not_found)',
      arrange: async () => {
        await ctx.container.settingsRepository.upsertSettings(companyA, { openai_model: 'gpt-4' });
      },
      reason:
        'El bot no pudo responder: el modelo «gpt-4» no existe o la cuenta no tiene acceso a él. Elige otro modelo en Configuraciones.',
    },
    {
      name: 'no quota left (429 insufficient_quota)',
      arrange: async () => {
        openai.failNext(OPENAI_ERRORS.insufficientQuota());
      },
      reason: 'El bot no pudo responder: la cuenta del proveedor de IA no tiene saldo o cuota disponible.',
    },
  ];

  for (const f of FAILURES) {
    it(`publishes and stores the failure on ${f.name}, and never resends it`, async () => {
      await f.arrange();
      const phone = uniquePhone();
      const text = `fallo: ${f.name}`;
      try {
        await customerWrites(PHONE_A, phone, text);
        const clientId = await clientByPhone(companyA, phone);
        await expect
          .poll(
            () => events[companyA].some((e) => e.type === 'bot.failed' && e.data.client_id === clientId),
            {
              timeout: 15_000,
            },
          )
          .toBe(true);
        const failed = events[companyA].find((e) => e.type === 'bot.failed' && e.data.client_id === clientId);
        const customerMessage = (await conversation(companyA, clientId)).find((m) => m.content === text)!;
        expect(failed?.data).toEqual({
          client_id: clientId,
          reason: f.reason,
          message_id: customerMessage.id,
        });

        // Shown in the conversation after a reload: red (status 4), no text, the reason.
        const res = await ctx.app.inject({
          method: 'GET',
          url: `/api/v1/admin/client/${clientId}/messages`,
          headers: admin.headers,
        });
        const note = (res.json().messages as Message[]).at(-1)!;
        expect(note).toMatchObject({
          sender_type: 'bot',
          kind: 'bot_failure',
          status: MESSAGE_STATUS.failed,
          content: '',
          error_message: f.reason,
        });
        expect(sentTo(phone)).toHaveLength(0);

        // Resending the note is refused: there is no text to send.
        const resend = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/admin/message',
          headers: admin.headers,
          payload: { id: note.id, client_id: clientId, content: 'x', phone },
        });
        expect(resend.statusCode).toBe(422);
        expect(resend.json().message).toBe('Este aviso del bot no es un mensaje y no se puede reenviar.');
        await expect(
          ctx.container.outbound.resend({ companyId: companyA, clientId, messageId: note.id }),
        ).rejects.toMatchObject({ statusCode: 422, key: 'messaging.bot_failure_not_resendable' });
        expect(sentTo(phone)).toHaveLength(0);
        expect((await conversation(companyA, clientId)).at(-1)).toMatchObject({ id: note.id, status: 4 });
      } finally {
        await ctx.container.settingsRepository.upsertSettings(companyA, {
          openai_api_key_enc: ctx.container.secrets.encrypt(OPENAI_KEY),
          openai_model: MODEL,
        });
      }
    });
  }

  it('publishes and stores the failure when the OpenAI settings are missing', async () => {
    const phone = uniquePhone();
    await customerWrites(PHONE_B, phone, 'Hola B');
    const clientId = await clientByPhone(companyB, phone);
    await expect
      .poll(() => events[companyB].some((e) => e.type === 'bot.failed' && e.data.client_id === clientId), {
        timeout: 15_000,
      })
      .toBe(true);
    const reason =
      'El bot no pudo responder: falta la clave de API o el modelo de OpenAI en Configuraciones.';
    expect((await conversation(companyB, clientId)).at(-1)).toMatchObject({
      kind: 'bot_failure',
      error_message: reason,
    });
    // Published to B only.
    expect(events[companyA].some((e) => e.type === 'bot.failed' && e.data.client_id === clientId)).toBe(
      false,
    );
  });
});
