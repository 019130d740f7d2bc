import { ZBotsResponse, ZInstructionsResponse } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot, createInstruction } from '../../../test/bots-factories';
import { createClient, createSegment } from '../../../test/clients-factories';
import { createUser } from '../../../test/factories';
import { type Cast, type CastApi, createCastApi, type TestApi } from '../../../test/http';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { createChatCompletionsClient } from '../../integrations/ai/chat-completions';
import { noBotModelSettings } from './bot-model-settings';
import { createBotsService } from './bots.service';

let ctx: TestApi;
let cast: Cast;
let companyA: number;
let companyB: number;
/** Calls as one of the cast: `call('admin', 'GET', '/admin/bot')`. */
let call: CastApi['as'];

beforeAll(async () => {
  ({ api: ctx, cast, companyA, companyB, as: call } = await createCastApi());
});
afterAll(async () => {
  await ctx.close();
});

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const instructionBody = (botId: number, segments: number[], overrides: Record<string, unknown> = {}) => ({
  bot_id: botId,
  ask: 'Horario de atención',
  reply: 'Atendemos de lunes a viernes de 9 a 18 h.',
  segments,
  ...overrides,
});

describe(`bots (${engine})`, () => {
  it('creates, lists, updates and deletes a bot; new bots start active', async () => {
    const created = await call('admin', 'POST', '/admin/bot', {
      bot_name: '  Sofía  ',
      personality: 'Eres Sofía, asistente de Muebles Roble.\nResponde en español.',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe('Bot creado con éxito.');
    const bot = created.json().bot;
    expect(bot).toMatchObject({
      bot_name: 'Sofía',
      personality: 'Eres Sofía, asistente de Muebles Roble.\nResponde en español.',
      state: 1,
      instructions_count: 0,
    });
    expect(bot.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const list = await call('admin', 'GET', '/admin/bot');
    expect(list.statusCode).toBe(200);
    expect(list.json().message).toBe('Bots obtenidos con éxito.');
    expect(list.json().bots).toContainEqual(bot);
    expect(ZBotsResponse.parse(list.json())).toEqual(list.json());
    expect((await call('admin', 'GET', '/admin/bot', undefined, 'en')).json().message).toBe(
      'Bots retrieved successfully.',
    );

    const updated = await call('admin', 'PUT', `/admin/bot/${bot.id}`, {
      bot_name: 'Sofía 2',
      personality: 'Nueva personalidad',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      message: 'Bot actualizado con éxito.',
      bot: { id: bot.id, bot_name: 'Sofía 2', personality: 'Nueva personalidad', state: 1 },
    });
    const enUpdate = await call(
      'admin',
      'PUT',
      `/admin/bot/${bot.id}`,
      { bot_name: 'Sofía 2', personality: 'Nueva personalidad' },
      'en',
    );
    expect(enUpdate.json().message).toBe('Bot updated successfully.');

    const deleted = await call('admin', 'DELETE', `/admin/bot/${bot.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Bot eliminado con éxito.' });
    expect((await call('admin', 'DELETE', `/admin/bot/${bot.id}`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/admin/bot/${bot.id}`, undefined, 'en')).json()).toEqual({
      message: 'The bot does not exist.',
    });
  });

  it('validates the bot form: bot_name and personality required, with maximum lengths', async () => {
    const empty = await call('admin', 'POST', '/admin/bot', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      bot_name: ['El campo nombre del bot es obligatorio.'],
      personality: ['El campo personalidad es obligatorio.'],
    });
    const blank = await call(
      'admin',
      'POST',
      '/admin/bot',
      { bot_name: ' \u200B ', personality: '\n\n' },
      'en',
    );
    expect(blank.json().errors).toEqual({
      bot_name: ['The bot name field is required.'],
      personality: ['The personality field is required.'],
    });
    const long = await call('admin', 'POST', '/admin/bot', {
      bot_name: 'x'.repeat(101),
      personality: 'p'.repeat(20_001),
    });
    expect(long.json().errors).toEqual({
      bot_name: ['El campo nombre del bot no puede exceder los 100 caracteres.'],
      personality: ['El campo personalidad no puede exceder los 20000 caracteres.'],
    });
    const longest = await call('admin', 'POST', '/admin/bot', {
      bot_name: 'x'.repeat(100),
      personality: 'p'.repeat(20_000),
    });
    expect(longest.statusCode).toBe(201);
    const control = await call('admin', 'POST', '/admin/bot', { bot_name: 'a\u202Eb', personality: 'ok' });
    expect(control.statusCode).toBe(422);
    expect(control.json().errors.bot_name).toHaveLength(1);
  });

  it('toggles the state with 0 or 1 only, and answers the bot with a message', async () => {
    const bot = await createBot(ctx, companyA);
    const off = await call('admin', 'POST', `/admin/bot/${bot.id}/toggle-bot-state`, { state: 0 });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: 'Bot desactivado con éxito.',
      bot: { id: bot.id, state: 0 },
    });
    const on = await call('admin', 'POST', `/admin/bot/${bot.id}/toggle-bot-state`, { state: 1 }, 'en');
    expect(on.json()).toMatchObject({
      message: 'Bot activated successfully.',
      bot: { id: bot.id, state: 1 },
    });
    for (const state of [2, -1, '1', true, null, 0.5]) {
      const res = await call('admin', 'POST', `/admin/bot/${bot.id}/toggle-bot-state`, { state });
      expect(res.statusCode, JSON.stringify(state)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['state']);
    }
    const missing = await call('admin', 'POST', `/admin/bot/${bot.id}/toggle-bot-state`, {});
    expect(missing.json().errors).toEqual({ state: ['El campo estado es obligatorio.'] });
    expect((await ctx.container.botsRepository.findBot(companyA, bot.id))!.state).toBe(1);
  });

  it('the live bot is the company’s lowest-id bot with state 1, per company', async () => {
    const { user } = await createUser(ctx, { role: 'admin' });
    const company = user.company_id!;
    const { bots } = ctx.container;
    expect(await bots.liveBot(company)).toBeUndefined();

    const first = await createBot(ctx, company, { state: 0 });
    const second = await createBot(ctx, company);
    const third = await createBot(ctx, company);
    expect((await bots.liveBot(company))?.id).toBe(second.id);

    await bots.setState(company, first.id, 1);
    expect((await bots.liveBot(company))?.id).toBe(first.id);
    await bots.setState(company, first.id, 0);
    await bots.setState(company, second.id, 0);
    expect((await bots.liveBot(company))?.id).toBe(third.id);
    await bots.remove(company, third.id);
    expect(await bots.liveBot(company)).toBeUndefined();

    // Another company's active bots never count, even with a lower id.
    const other = await createBot(ctx, companyB);
    expect(other.id).toBeLessThan((await createBot(ctx, company)).id);
    const live = await bots.liveBot(company);
    expect(live).toBeDefined();
    expect(live!.id).not.toBe(other.id);

    // The list names the same bot.
    const { liveBotId } = await bots.list(company);
    expect(liveBotId).toBe(live!.id);
  });

  it('GET /admin/bot names the live bot, or null when every bot is inactive', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const company = admin.user.company_id!;
    const get = () =>
      ctx.app
        .inject({ method: 'GET', url: '/api/v1/admin/bot', headers: admin.headers })
        .then((r) => r.json());
    expect(await get()).toMatchObject({ bots: [], live_bot_id: null });
    const a = await createBot(ctx, company, { state: 0 });
    const b = await createBot(ctx, company);
    expect((await get()).live_bot_id).toBe(b.id);
    await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/bot/${b.id}/toggle-bot-state`,
      headers: admin.headers,
      payload: { state: 0 },
    });
    const body = await get();
    expect(body.live_bot_id).toBeNull();
    expect(body.bots.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
  });
});

describe(`instructions (${engine})`, () => {
  it('creates, lists, updates and deletes instructions; segments come back as id strings', async () => {
    const bot = await createBot(ctx, companyA);
    const vip = await createSegment(ctx, companyA);
    const leads = await createSegment(ctx, companyA);

    const created = await call(
      'admin',
      'POST',
      '/admin/instruction',
      instructionBody(bot.id, [leads.id, vip.id, leads.id], { ask: '  Horario de atención ' }),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe('Instrucción creada con éxito.');
    const instruction = created.json().data;
    expect(instruction).toMatchObject({
      bot_id: bot.id,
      ask: 'Horario de atención',
      reply: 'Atendemos de lunes a viernes de 9 a 18 h.',
      segments: [String(Math.min(vip.id, leads.id)), String(Math.max(vip.id, leads.id))],
    });

    const list = await call('admin', 'GET', `/admin/instructions/${bot.id}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [instruction], message: 'Instrucciones obtenidas con éxito.' });
    expect(ZInstructionsResponse.parse(list.json())).toEqual(list.json());
    expect(
      (await call('admin', 'GET', `/admin/instructions/${bot.id}`, undefined, 'en')).json().message,
    ).toBe('Instructions retrieved successfully.');
    expect(
      (await call('admin', 'GET', '/admin/bot')).json().bots.find((b: { id: number }) => b.id === bot.id),
    ).toMatchObject({ instructions_count: 1 });

    const updated = await call(
      'admin',
      'PUT',
      `/admin/instruction/${instruction.id}`,
      instructionBody(bot.id, [vip.id], { ask: 'Horario', reply: 'De 10 a 14 h.' }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      message: 'Instrucción actualizada con éxito.',
      data: { id: instruction.id, ask: 'Horario', reply: 'De 10 a 14 h.', segments: [String(vip.id)] },
    });

    // An instruction may move to another bot of the company.
    const other = await createBot(ctx, companyA);
    const moved = await call(
      'admin',
      'PUT',
      `/admin/instruction/${instruction.id}`,
      instructionBody(other.id, [vip.id]),
      'en',
    );
    expect(moved.json()).toMatchObject({
      message: 'Instruction updated successfully.',
      data: { bot_id: other.id },
    });
    expect((await call('admin', 'GET', `/admin/instructions/${bot.id}`)).json().data).toEqual([]);

    const deleted = await call('admin', 'DELETE', '/admin/instruction', { ids: [instruction.id] });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Instrucciones eliminadas con éxito.' });
    const links = await ctx.container.db
      .selectFrom('instruction_segments')
      .selectAll()
      .where('instruction_id', '=', instruction.id)
      .execute();
    expect(links).toEqual([]);
    const again = await call(
      'admin',
      'PUT',
      `/admin/instruction/${instruction.id}`,
      instructionBody(bot.id, [vip.id]),
    );
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'La instrucción no existe.' });
  });

  it('checks every rule of the instruction form with its exact message, in Spanish and in English', async () => {
    const bot = await createBot(ctx, companyA);
    const s = await createSegment(ctx, companyA);

    const empty = await call('admin', 'POST', '/admin/instruction', {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      bot_id: ['El campo bot es obligatorio.'],
      ask: ['El nombre de la instrucción es obligatorio'],
      reply: ['La descripción de la instrucción es obligatoria'],
      segments: ['Debe seleccionar al menos un segmento'],
    });

    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ ask: '' }, 'ask', 'El nombre de la instrucción es obligatorio', 'The instruction name is required'],
      [
        { ask: '   ' },
        'ask',
        'El nombre de la instrucción es obligatorio',
        'The instruction name is required',
      ],
      [
        { ask: 'ab' },
        'ask',
        'El nombre debe tener al menos 3 caracteres',
        'The name must have at least 3 characters',
      ],
      [
        { ask: ' ab ' },
        'ask',
        'El nombre debe tener al menos 3 caracteres',
        'The name must have at least 3 characters',
      ],
      [
        { ask: 'x'.repeat(101) },
        'ask',
        'El nombre no puede exceder los 100 caracteres',
        'The name cannot exceed 100 characters',
      ],
      [
        { reply: '' },
        'reply',
        'La descripción de la instrucción es obligatoria',
        'The instruction description is required',
      ],
      [
        { reply: 'x'.repeat(1001) },
        'reply',
        'La descripción no puede exceder los 1000 caracteres',
        'The description cannot exceed 1000 characters',
      ],
      [
        { segments: [] },
        'segments',
        'Debe seleccionar al menos un segmento',
        'You must select at least one segment',
      ],
      [
        { segments: undefined },
        'segments',
        'Debe seleccionar al menos un segmento',
        'You must select at least one segment',
      ],
      [
        { segments: [987654] },
        'segments',
        'Uno o más segmentos no existen.',
        'One or more segments do not exist.',
      ],
      [{ bot_id: 987654 }, 'bot_id', 'El bot no existe.', 'The bot does not exist.'],
    ];
    for (const [overrides, field, es, en] of cases) {
      const body = instructionBody(bot.id, [s.id], overrides);
      const resEs = await call('admin', 'POST', '/admin/instruction', body);
      expect(resEs.statusCode, JSON.stringify(overrides)).toBe(422);
      expect(resEs.json(), JSON.stringify(overrides)).toEqual({ message: es, errors: { [field]: [es] } });
      const resEn = await call('admin', 'POST', '/admin/instruction', body, 'en');
      expect(resEn.json(), JSON.stringify(overrides)).toEqual({ message: en, errors: { [field]: [en] } });
    }

    // The bounds themselves pass: 3 and 100 characters of name, 1000 of description, line breaks kept.
    for (const [ask, reply] of [
      ['abc', 'r'],
      ['x'.repeat(100), `${'y'.repeat(998)}\n!`],
    ]) {
      const ok = await call(
        'admin',
        'POST',
        '/admin/instruction',
        instructionBody(bot.id, [s.id], { ask, reply }),
      );
      expect(ok.statusCode, `${ask.length}/${reply.length}`).toBe(201);
      expect(ok.json().data.reply).toBe(reply);
    }

    // The same rules on update.
    const instruction = await createInstruction(ctx, companyA, bot.id, [s.id]);
    const update = await call(
      'admin',
      'PUT',
      `/admin/instruction/${instruction.id}`,
      instructionBody(bot.id, [], { ask: 'ab', reply: 'x'.repeat(1001) }),
    );
    expect(update.json().errors).toEqual({
      ask: ['El nombre debe tener al menos 3 caracteres'],
      reply: ['La descripción no puede exceder los 1000 caracteres'],
      segments: ['Debe seleccionar al menos un segmento'],
    });

    // Ids are strict.
    for (const bad of [0, '1.5', true, [1]]) {
      const res = await call(
        'admin',
        'POST',
        '/admin/instruction',
        instructionBody(bot.id, [s.id], { bot_id: bad }),
      );
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['bot_id']);
    }
  });

  it('an unknown bot and unknown segments are reported together, and nothing is written', async () => {
    const before = await ctx.container.db
      .selectFrom('instructions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await call('admin', 'POST', '/admin/instruction', instructionBody(987654, [987655]));
    expect(res.json()).toEqual({
      message: 'El bot no existe.',
      errors: { bot_id: ['El bot no existe.'], segments: ['Uno o más segmentos no existen.'] },
    });
    const after = await ctx.container.db
      .selectFrom('instructions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a bot or segment deleted between the check and the write is still a 422, never a 500', async () => {
    const { botsRepository, segmentsRepository, clientsRepository, db } = ctx.container;
    const bot = await createBot(ctx, companyA);
    const segment = await createSegment(ctx, companyA);
    // The real repository, with the bot deleted by "someone else" just before the insert.
    const racing = createBotsService({
      botsRepository: {
        ...botsRepository,
        createInstruction: async (values, segmentIds) => {
          await db.deleteFrom('bots').where('id', '=', values.bot_id).execute();
          return botsRepository.createInstruction(values, segmentIds);
        },
      },
      segmentsRepository,
      clientsRepository,
      modelSettings: noBotModelSettings,
      chatCompletions: createChatCompletionsClient(),
    });
    const input = { bot_id: bot.id, ask: 'Horario', reply: 'r', segments: [segment.id] };
    await expect(racing.createInstruction(companyA, input)).rejects.toMatchObject({
      statusCode: 422,
      fieldErrors: { bot_id: ['bots.unknown_bot'] },
    });
  });

  it('GET /admin/instructions of a missing bot is a 404', async () => {
    const res = await call('admin', 'GET', '/admin/instructions/987654');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'El bot no existe.' });
    expect((await call('admin', 'GET', '/admin/instructions/abc')).statusCode).toBe(422);
  });

  it('deletes several instructions at once, all or none', async () => {
    const bot = await createBot(ctx, companyA);
    const s = await createSegment(ctx, companyA);
    const [i1, i2, i3] = [
      await createInstruction(ctx, companyA, bot.id, [s.id]),
      await createInstruction(ctx, companyA, bot.id, [s.id]),
      await createInstruction(ctx, companyA, bot.id, [s.id]),
    ];
    const botB = await createBot(ctx, companyB);
    const segB = await createSegment(ctx, companyB);
    const b1 = await createInstruction(ctx, companyB, botB.id, [segB.id]);

    const mixed = await call('admin', 'DELETE', '/admin/instruction', { ids: [i1.id, b1.id] });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toEqual({ message: 'La instrucción no existe.' });
    expect((await call('admin', 'DELETE', '/admin/instruction', { ids: [i1.id, 987654] })).statusCode).toBe(
      404,
    );
    const ids = async () =>
      (await call('admin', 'GET', `/admin/instructions/${bot.id}`))
        .json()
        .data.map((i: { id: number }) => i.id);
    expect(await ids()).toEqual([i1.id, i2.id, i3.id]);
    expect((await call('otherAdmin', 'GET', `/admin/instructions/${botB.id}`)).json().data).toHaveLength(1);

    const two = await call('admin', 'DELETE', '/admin/instruction', { ids: [i1.id, i2.id, i2.id] }, 'en');
    expect(two.json()).toEqual({ message: 'Instructions deleted successfully.' });
    expect(await ids()).toEqual([i3.id]);
    expect((await call('admin', 'DELETE', '/admin/instruction', { ids: [] })).statusCode).toBe(422);
    expect((await call('admin', 'DELETE', '/admin/instruction', {})).statusCode).toBe(422);
  });

  it('deleting a bot deletes its instructions and their segment links, and nothing else', async () => {
    const bot = await createBot(ctx, companyA);
    const keep = await createBot(ctx, companyA);
    const s = await createSegment(ctx, companyA);
    const gone = [
      await createInstruction(ctx, companyA, bot.id, [s.id]),
      await createInstruction(ctx, companyA, bot.id, [s.id]),
    ];
    const kept = await createInstruction(ctx, companyA, keep.id, [s.id]);

    expect((await call('admin', 'DELETE', `/admin/bot/${bot.id}`)).statusCode).toBe(200);
    const { db } = ctx.container;
    const rows = await db
      .selectFrom('instructions')
      .select('id')
      .where(
        'id',
        'in',
        gone.map((i) => i.id),
      )
      .execute();
    expect(rows).toEqual([]);
    const links = await db
      .selectFrom('instruction_segments')
      .select('instruction_id')
      .where(
        'instruction_id',
        'in',
        gone.map((i) => i.id),
      )
      .execute();
    expect(links).toEqual([]);
    expect((await call('admin', 'GET', `/admin/instructions/${keep.id}`)).json().data).toEqual([
      expect.objectContaining({ id: kept.id, segments: [String(s.id)] }),
    ]);
    expect(
      (await call('admin', 'GET', '/admin/segment')).json().segments.map((x: { id: number }) => x.id),
    ).toContain(s.id);
  });

  it('the database itself cascades a bot delete to its instructions (foreign keys on both engines)', async () => {
    const bot = await createBot(ctx, companyA);
    const s = await createSegment(ctx, companyA);
    const instruction = await createInstruction(ctx, companyA, bot.id, [s.id]);
    await ctx.container.db.deleteFrom('bots').where('id', '=', bot.id).execute();
    const left = await ctx.container.db
      .selectFrom('instruction_segments')
      .select('segment_id')
      .where('instruction_id', '=', instruction.id)
      .execute();
    expect(left).toEqual([]);
    expect(await ctx.container.botsRepository.findInstruction(companyA, instruction.id)).toBeUndefined();
  });

  it('deleting a segment through the segments API takes it off instructions and keeps the instructions', async () => {
    const bot = await createBot(ctx, companyA);
    const s1 = await createSegment(ctx, companyA);
    const s2 = await createSegment(ctx, companyA);
    const both = await createInstruction(ctx, companyA, bot.id, [s1.id, s2.id]);
    const onlyS1 = await createInstruction(ctx, companyA, bot.id, [s1.id]);
    await createClient(ctx, companyA, { segments: [s1.id] });

    const res = await call('admin', 'DELETE', `/admin/segment/${s1.id}`);
    expect(res.statusCode).toBe(200);
    const list = (await call('admin', 'GET', `/admin/instructions/${bot.id}`)).json().data;
    expect(list).toEqual([
      expect.objectContaining({ id: both.id, segments: [String(s2.id)] }),
      // Left with no segment, it applies to nobody until it gets one again.
      expect.objectContaining({ id: onlyS1.id, segments: [] }),
    ]);
  });

  it('lists and deletes 10,000 instructions of one bot', async () => {
    const bot = await createBot(ctx, companyA);
    const s = await createSegment(ctx, companyA);
    const { db } = ctx.container;
    const at = new Date().toISOString();
    const ids: number[] = [];
    for (let start = 0; start < 10_000; start += 500) {
      const rows = await db
        .insertInto('instructions')
        .values(
          Array.from({ length: 500 }, (_, k) => ({
            bot_id: bot.id,
            ask: `Instrucción ${start + k}`,
            reply: 'r',
            created_at: at,
            updated_at: at,
          })),
        )
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
      await db
        .insertInto('instruction_segments')
        .values(rows.map((r) => ({ instruction_id: r.id, segment_id: s.id })))
        .execute();
    }
    const list = await call('admin', 'GET', `/admin/instructions/${bot.id}`);
    expect(list.statusCode).toBe(200);
    const data = list.json().data as { id: number; segments: string[] }[];
    expect(data).toHaveLength(10_000);
    expect(data.every((i) => i.segments.length === 1 && i.segments[0] === String(s.id))).toBe(true);

    const deleted = await call('admin', 'DELETE', '/admin/instruction', { ids });
    expect(deleted.statusCode).toBe(200);
    expect((await call('admin', 'GET', `/admin/instructions/${bot.id}`)).json().data).toEqual([]);
  });
});

describe(`bots and instructions: roles and company isolation (${engine})`, () => {
  it('every route: anonymous 401, client 403, super admin 403, admin 2xx, another company 404 on ids', async () => {
    const botA = await createBot(ctx, companyA);
    const segA = await createSegment(ctx, companyA);
    const instructionA = await createInstruction(ctx, companyA, botA.id, [segA.id]);
    const lists = { ...ADMIN_ONLY, admin: 200, otherAdmin: 200 };
    const own = { ...ADMIN_ONLY, admin: 200, otherAdmin: 404 };

    await expectRoleMatrix(ctx, cast, { method: 'GET', url: '/api/v1/admin/bot' }, lists);
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url: '/api/v1/admin/bot', payload: { bot_name: 'Nuevo', personality: 'p' } },
      { ...ADMIN_ONLY, admin: 201, otherAdmin: 201 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'PUT', url: `/api/v1/admin/bot/${botA.id}`, payload: { bot_name: 'A', personality: 'p' } },
      own,
    );
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url: `/api/v1/admin/bot/${botA.id}/toggle-bot-state`, payload: { state: 1 } },
      own,
    );
    await expectRoleMatrix(
      ctx,
      cast,
      {
        method: 'POST',
        url: `/api/v1/admin/bot/${botA.id}/test`,
        payload: { message: 'Hola', segment_id: segA.id },
      },
      { ...ADMIN_ONLY, admin: 200, otherAdmin: 404 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      async () => ({ method: 'DELETE', url: `/api/v1/admin/bot/${(await createBot(ctx, companyA)).id}` }),
      own,
    );
    await expectRoleMatrix(ctx, cast, { method: 'GET', url: `/api/v1/admin/instructions/${botA.id}` }, own);
    // Another company's admin sending this company's bot and segment ids: they do not exist for them.
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url: '/api/v1/admin/instruction', payload: instructionBody(botA.id, [segA.id]) },
      { ...ADMIN_ONLY, admin: 201, otherAdmin: 422 },
    );
    await expectRoleMatrix(
      ctx,
      cast,
      {
        method: 'PUT',
        url: `/api/v1/admin/instruction/${instructionA.id}`,
        payload: instructionBody(botA.id, [segA.id]),
      },
      own,
    );
    await expectRoleMatrix(
      ctx,
      cast,
      async () => ({
        method: 'DELETE',
        url: '/api/v1/admin/instruction',
        payload: { ids: [(await createInstruction(ctx, companyA, botA.id, [segA.id])).id] },
      }),
      own,
    );
  });

  it('the OpenAPI document describes every bot and instruction route', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/docs' })).json();
    expect(doc.paths['/api/v1/admin/bot'].get.tags).toEqual(['bots']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/admin/bot/{id}',
        '/api/v1/admin/bot/{id}/toggle-bot-state',
        '/api/v1/admin/bot/{id}/test',
        '/api/v1/admin/instructions/{botId}',
        '/api/v1/admin/instruction',
        '/api/v1/admin/instruction/{id}',
      ]),
    );
    const body = doc.paths['/api/v1/admin/instruction'].post.requestBody.content['application/json'].schema;
    expect([...body.required].sort()).toEqual(['ask', 'bot_id', 'reply', 'segments']);
    expect(body.properties.ask.maxLength).toBe(100);
  });

  it('callers without rights learn nothing from validation: 401/403 come before 422', async () => {
    for (const [method, url] of [
      ['POST', '/api/v1/admin/bot'],
      ['PUT', '/api/v1/admin/bot/1'],
      ['POST', '/api/v1/admin/bot/1/toggle-bot-state'],
      ['POST', '/api/v1/admin/bot/1/test'],
      ['POST', '/api/v1/admin/instruction'],
      ['PUT', '/api/v1/admin/instruction/1'],
      ['DELETE', '/api/v1/admin/instruction'],
    ] as const) {
      await expectRoleMatrix(
        ctx,
        cast,
        { method, url, payload: { nonsense: true } },
        { anonymous: 401, client: 403, superAdmin: 403, admin: 422 },
      );
    }
  });

  it("company B never sees company A's bots or instructions, and cannot touch or use them", async () => {
    const botA = await createBot(ctx, companyA, { bot_name: 'Secreto A', personality: 'Solo A' });
    const segA = await createSegment(ctx, companyA);
    const clientA = await createClient(ctx, companyA, { segments: [segA.id] });
    const instructionA = await createInstruction(ctx, companyA, botA.id, [segA.id]);
    const botB = await createBot(ctx, companyB);
    const segB = await createSegment(ctx, companyB);
    const instructionB = await createInstruction(ctx, companyB, botB.id, [segB.id]);

    const listB = (await call('otherAdmin', 'GET', '/admin/bot')).json();
    expect(listB.bots.map((b: { id: number }) => b.id)).not.toContain(botA.id);
    const ownB = await ctx.container.db
      .selectFrom('bots')
      .select('id')
      .where('company_id', '=', companyB)
      .execute();
    expect(listB.bots.map((b: { id: number }) => b.id).sort()).toEqual(ownB.map((b) => b.id).sort());

    const attempts = [
      await call('otherAdmin', 'GET', `/admin/instructions/${botA.id}`),
      await call('otherAdmin', 'PUT', `/admin/bot/${botA.id}`, { bot_name: 'Robado', personality: 'x' }),
      await call('otherAdmin', 'DELETE', `/admin/bot/${botA.id}`),
      await call('otherAdmin', 'POST', `/admin/bot/${botA.id}/toggle-bot-state`, { state: 0 }),
      await call('otherAdmin', 'POST', `/admin/bot/${botA.id}/test`, {
        message: 'hola',
        segment_id: segB.id,
      }),
      await call(
        'otherAdmin',
        'PUT',
        `/admin/instruction/${instructionA.id}`,
        instructionBody(botB.id, [segB.id]),
      ),
      await call('otherAdmin', 'DELETE', '/admin/instruction', { ids: [instructionA.id] }),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect(attempts[0].json()).toEqual({ message: 'El bot no existe.' });
    expect(attempts[5].json()).toEqual({ message: 'La instrucción no existe.' });

    // B cannot attach A's segments, nor hang an instruction on A's bot, nor test with A's client or segment.
    const foreignSegment = await call(
      'otherAdmin',
      'POST',
      '/admin/instruction',
      instructionBody(botB.id, [segB.id, segA.id]),
    );
    expect(foreignSegment.json()).toEqual({
      message: 'Uno o más segmentos no existen.',
      errors: { segments: ['Uno o más segmentos no existen.'] },
    });
    const foreignBot = await call(
      'otherAdmin',
      'POST',
      '/admin/instruction',
      instructionBody(botA.id, [segB.id]),
      'en',
    );
    expect(foreignBot.json()).toEqual({
      message: 'The bot does not exist.',
      errors: { bot_id: ['The bot does not exist.'] },
    });
    const foreignUpdate = await call(
      'otherAdmin',
      'PUT',
      `/admin/instruction/${instructionB.id}`,
      instructionBody(botB.id, [segA.id]),
    );
    expect(foreignUpdate.statusCode).toBe(422);
    expect(
      (
        await call('otherAdmin', 'POST', `/admin/bot/${botB.id}/test`, { message: 'x', segment_id: segA.id })
      ).json(),
    ).toEqual({
      message: 'Uno o más segmentos no existen.',
      errors: { segment_id: ['Uno o más segmentos no existen.'] },
    });
    expect(
      (
        await call('otherAdmin', 'POST', `/admin/bot/${botB.id}/test`, {
          message: 'x',
          client_id: clientA.id,
        })
      ).json(),
    ).toEqual({ message: 'El cliente no existe.', errors: { client_id: ['El cliente no existe.'] } });

    // Nothing of A changed.
    expect(await ctx.container.botsRepository.findBot(companyA, botA.id)).toMatchObject({
      bot_name: 'Secreto A',
      personality: 'Solo A',
      state: 1,
    });
    expect(await ctx.container.botsRepository.findInstruction(companyA, instructionA.id)).toEqual(
      instructionA,
    );
    expect(await ctx.container.botsRepository.findInstruction(companyB, instructionB.id)).toEqual(
      instructionB,
    );
  });
});
