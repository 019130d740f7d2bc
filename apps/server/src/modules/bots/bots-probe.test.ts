// "Probar bot" (POST /admin/bot/{id}/test): the prompt the engine would build, and the model's reply
// over real HTTP from the fake OpenAI-compatible server.
import { type FakeChatRequest, type FakeOpenAi, startFakeOpenAi } from '@hablabot/fakes';
import { ZBotTestResponse } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, createInstruction } from '../../../test/bots-factories';
import { createClient, createSegment } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser, type TestUser } from '../../../test/factories';
import { createChatCompletionsClient } from '../../integrations/ai/chat-completions';
import type { BotModelSettings } from './bot-model-settings';
import { HANDOFF_MARKER, INSTRUCTIONS_HEADING, handoffSection } from './prompt';

let ctx: TestContext;
let fake: FakeOpenAi;
const FAKE_KEY = 'sk-fake-openai';
const sentBody = (index = -1) => fake.requests.at(index)?.body as FakeChatRequest;
/** The settings each company has; a company missing here has none. */
const settings = new Map<number, BotModelSettings>();
let withSettings: TestUser;
let withoutSettings: TestUser;

beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKeys: [FAKE_KEY] });
  fake.reply = (request) => `Respuesta de prueba a: ${request.messages.at(-1)?.content ?? ''}`;
  ctx = await createTestContext({
    botModelSettings: { forCompany: async (companyId) => settings.get(companyId) ?? null },
    chatCompletions: createChatCompletionsClient({ maxRetries: 1, sleep: async () => {} }),
  });
  withSettings = await createUser(ctx, { role: 'admin' });
  withoutSettings = await createUser(ctx, { role: 'admin' });
  settings.set(withSettings.user.company_id!, {
    endpoint: fake.endpoint,
    apiKey: FAKE_KEY,
    model: 'gpt-4o-mini',
  });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

function probe(who: TestUser, botId: number, payload: unknown, lang?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1/admin/bot/${botId}/test`,
    headers: { ...who.headers, ...(lang ? { 'accept-language': lang } : {}) },
    payload: payload as object,
  });
}

/** A bot with three instructions over two segments, in the admin's company. */
async function scenario(who: TestUser) {
  const company = who.user.company_id!;
  const vip = await createSegment(ctx, company, { name: `VIP ${Math.random()}` });
  const wholesale = await createSegment(ctx, company, { name: `Mayoristas ${Math.random()}` });
  const bot = await createBot(ctx, company, { personality: 'Eres Sofía, de Muebles Roble.' });
  const hours = await createInstruction(ctx, company, bot.id, [vip.id, wholesale.id], {
    ask: 'Horario',
    reply: 'Abrimos de 9 a 18 h.',
  });
  const discount = await createInstruction(ctx, company, bot.id, [vip.id], {
    ask: 'Descuento VIP',
    reply: 'Ofrece un 10 % de descuento.',
  });
  const tax = await createInstruction(ctx, company, bot.id, [wholesale.id], {
    ask: 'CIF',
    reply: 'Pide el CIF antes de cotizar.',
  });
  return { company, vip, wholesale, bot, hours, discount, tax };
}

describe(`Probar bot (${engine})`, () => {
  it('without OpenAI settings it answers the prompt that would be sent, built from the segment’s instructions', async () => {
    const { bot, vip, hours, discount } = await scenario(withoutSettings);
    const requestsBefore = fake.requests.length;
    const res = await probe(withoutSettings, bot.id, { message: '¿Tienen descuentos?', segment_id: vip.id });
    expect(res.statusCode).toBe(200);
    const body = ZBotTestResponse.parse(res.json());
    expect(body).toEqual({
      prompt: [
        {
          role: 'system',
          content: `Eres Sofía, de Muebles Roble.\n\n${INSTRUCTIONS_HEADING}\n\n## Horario\nAbrimos de 9 a 18 h.\n\n## Descuento VIP\nOfrece un 10 % de descuento.\n\n${handoffSection(HANDOFF_MARKER)}`,
        },
        { role: 'user', content: '¿Tienen descuentos?' },
      ],
      instruction_ids: [hours.id, discount.id],
      reply: null,
      model: null,
      model_error: null,
      message: 'No hay configuración de OpenAI: se muestra el prompt que se enviaría al modelo.',
    });
    expect(fake.requests.length).toBe(requestsBefore);
    const en = await probe(withoutSettings, bot.id, { message: 'Hi', segment_id: vip.id }, 'en');
    expect(en.json().message).toBe('No OpenAI settings: showing the prompt that would be sent to the model.');
  });

  it('with a client, the instructions of every segment of the client apply', async () => {
    const { company, bot, vip, wholesale, hours, discount, tax } = await scenario(withoutSettings);
    const client = await createClient(ctx, company, { segments: [vip.id, wholesale.id] });
    const res = await probe(withoutSettings, bot.id, { message: 'Hola', client_id: client.id });
    expect(res.json().instruction_ids).toEqual([hours.id, discount.id, tax.id]);
    const onlyWholesale = await createClient(ctx, company, { segments: [wholesale.id] });
    const res2 = await probe(withoutSettings, bot.id, { message: 'Hola', client_id: onlyWholesale.id });
    expect(res2.json().instruction_ids).toEqual([hours.id, tax.id]);
    expect(res2.json().prompt[0].content).not.toContain('Descuento VIP');
  });

  it('the prompt is the one the messaging engine gets from the service (one builder for both)', async () => {
    const { company, bot, vip } = await scenario(withoutSettings);
    const fromService = await ctx.container.bots.promptFor(company, bot, [vip.id], '¿Abren el sábado?');
    const res = await probe(withoutSettings, bot.id, { message: '¿Abren el sábado?', segment_id: vip.id });
    expect(res.json().prompt).toEqual(fromService.messages);
    expect(res.json().instruction_ids).toEqual(fromService.instructionIds);
  });

  it('with settings it asks the model over HTTP and shows its reply', async () => {
    const { bot, wholesale, hours, tax } = await scenario(withSettings);
    const before = fake.requests.length;
    const res = await probe(withSettings, bot.id, {
      message: 'Quiero comprar 200 sillas',
      segment_id: wholesale.id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      reply: 'Respuesta de prueba a: Quiero comprar 200 sillas',
      model: 'gpt-4o-mini',
      model_error: null,
      instruction_ids: [hours.id, tax.id],
      message: 'Respuesta del modelo obtenida.',
    });
    expect(fake.requests.length).toBe(before + 1);
    const sent = fake.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
    expect(sentBody().model).toBe('gpt-4o-mini');
    expect(sentBody().messages).toEqual(res.json().prompt);
    expect(sent.body).not.toHaveProperty('max_tokens');
  });

  it('a retired model, a wrong key or a provider failure is shown plainly, with the prompt that was sent', async () => {
    const { company, bot, vip } = await scenario(withSettings);
    const good = settings.get(company)!;
    try {
      settings.set(company, { ...good, model: 'gpt-4' });
      const retired = await probe(withSettings, bot.id, { message: 'Hola', segment_id: vip.id });
      expect(retired.statusCode).toBe(200);
      expect(retired.json()).toMatchObject({
        reply: null,
        model: 'gpt-4',
        model_error:
          'El modelo «gpt-4» no existe o tu cuenta no tiene acceso a él. Elige otro modelo en Configuraciones.',
        message: 'El modelo no respondió; se muestra el prompt que se le envió.',
      });
      expect(retired.json().prompt).toHaveLength(2);
      const retiredEn = await probe(withSettings, bot.id, { message: 'Hola', segment_id: vip.id }, 'en');
      expect(retiredEn.json().model_error).toBe(
        'The model "gpt-4" does not exist or your account has no access to it. Choose another model in Settings.',
      );

      settings.set(company, { ...good, apiKey: 'sk-wrong' });
      const wrongKey = await probe(withSettings, bot.id, { message: 'Hola', segment_id: vip.id });
      expect(wrongKey.json().model_error).toBe(
        'El proveedor de IA rechazó la clave de API. Revísala en Configuraciones.',
      );

      settings.set(company, good);
      fake.failNext({ status: 500, body: { error: { message: 'boom', type: 'server_error', code: null } } });
      fake.failNext({
        status: 503,
        body: { error: { message: 'The engine is currently overloaded.', type: 'server_error', code: null } },
      });
      const overloaded = await probe(withSettings, bot.id, { message: 'Hola', segment_id: vip.id });
      // Our own sentence from the status: the provider's text is not repeated.
      expect(overloaded.json().model_error).toBe('El proveedor de IA respondió con un error (HTTP 503).');
      expect(overloaded.body).not.toContain('overloaded');

      settings.set(company, { ...good, endpoint: 'http://127.0.0.1:9/v1/chat/completions' });
      const unreachable = await probe(withSettings, bot.id, { message: 'Hola', segment_id: vip.id });
      expect(unreachable.statusCode).toBe(200);
      expect(unreachable.json().model_error).toBe(
        'No se pudo conectar con el proveedor de IA. Revisa la dirección del endpoint en Configuraciones.',
      );
    } finally {
      settings.set(company, good);
    }
  });

  it('counts with the connection tests: 20 calls per company per minute, then 429', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const company = admin.user.company_id!;
    settings.set(company, { endpoint: fake.endpoint, apiKey: FAKE_KEY, model: 'gpt-4o-mini' });
    const { bot, vip } = await scenario(admin);
    for (let i = 0; i < 15; i++) {
      const test = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/admin/setting/test/openai',
        headers: admin.headers,
        payload: {},
      });
      expect(test.statusCode).toBe(200);
    }
    const requestsBefore = fake.requests.length;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await probe(admin, bot.id, { message: 'Hola', segment_id: vip.id })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(fake.requests.length - requestsBefore).toBe(5);
    const limited = await probe(admin, bot.id, { message: 'Hola', segment_id: vip.id }, 'en');
    expect(limited.headers['retry-after']).toBeDefined();
    // Another company's limit is its own.
    const { bot: otherBot, vip: otherVip } = await scenario(withoutSettings);
    expect(
      (await probe(withoutSettings, otherBot.id, { message: 'Hola', segment_id: otherVip.id })).statusCode,
    ).toBe(200);
  });

  it('asks for exactly one of segment or client, and a message', async () => {
    const { bot, vip, company } = await scenario(withoutSettings);
    const client = await createClient(ctx, company, { segments: [vip.id] });
    for (const body of [{ message: 'Hola' }, { message: 'Hola', segment_id: vip.id, client_id: client.id }]) {
      const res = await probe(withoutSettings, bot.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().errors).toEqual({ segment_id: ['Elige un segmento o un cliente (uno de los dos).'] });
    }
    const noMessage = await probe(withoutSettings, bot.id, { message: '  ', segment_id: vip.id }, 'en');
    expect(noMessage.json().errors).toEqual({ message: ['The message field is required.'] });
    const unknown = await probe(withoutSettings, bot.id, { message: 'Hola', segment_id: 987654 });
    expect(unknown.json().errors).toEqual({ segment_id: ['Uno o más segmentos no existen.'] });
    const missingBot = await probe(withoutSettings, 987654, { message: 'Hola', segment_id: vip.id });
    expect(missingBot.statusCode).toBe(404);
  });
});
