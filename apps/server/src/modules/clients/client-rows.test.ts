// The chat list's page read (createClientReader.inOrder) gives each client exactly as a single client is
// read (`one`): on SQLite it is built as JSON by the database, so every field, null, number and odd
// character must come out the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createSegment, setConversation, uniquePhone } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createUser } from '../../../test/factories';
import { createClientReader } from './client-rows';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe(`clients read by id for the chat list (${engine})`, () => {
  it('are the clients as read one by one, in the order asked, only of the company', async () => {
    const companyOf = async () => (await createUser(ctx, { role: 'admin' })).user.company_id!;
    const [company, other] = [await companyOf(), await companyOf()];
    const odd = 'Comillas " \\ barra\nlínea\ttab \u0001 ñ 😀 </script>';
    const [vip, quoted] = [
      await createSegment(ctx, company, { name: 'VIP', color: '#7300ff' }),
      await createSegment(ctx, company, { name: odd.slice(0, 40), color: '#ABCDEF' }),
    ];
    const plain = await createClient(ctx, company, { segments: [] });
    const strange = await createClient(ctx, company, {
      name: odd,
      last_names: 'Núñez "el Ñoño"',
      projects: `Proyecto ${odd}`,
      segments: [quoted.id, vip.id],
    });
    const paused = await createClient(ctx, company, {
      segments: [vip.id],
      whatsapp_cellphone: uniquePhone(),
    });
    const emptyChat = await createClient(ctx, company, { segments: [] });
    await setConversation(ctx, strange, {
      unread_count: 3,
      last_message_content: odd,
      last_message_at: '2026-11-20T10:11:12.345Z',
    });
    await setConversation(ctx, paused, { bot_paused: 1, last_message_content: '', last_message_at: null });
    await setConversation(ctx, emptyChat, {});
    const foreign = await createClient(ctx, other, { segments: [] });

    const reader = createClientReader(ctx.container.db);
    const order = [paused.id, foreign.id, strange.id, 999_999, emptyChat.id, plain.id];
    const read = await reader.inOrder(company, order);
    const oneByOne = [];
    for (const id of [paused.id, strange.id, emptyChat.id, plain.id])
      oneByOne.push(await reader.one(company, id));
    expect(read).toEqual(oneByOne);
    // Same values and the same JSON, key by key.
    expect(JSON.stringify(read)).toBe(JSON.stringify(oneByOne));
    expect(read[0]).toMatchObject({ mode_bot: 0, unread_messages_count: 0, last_message_content: '' });
    expect(read[1]).toMatchObject({
      name: odd,
      mode_bot: 1,
      unread_messages_count: 3,
      last_message_content: odd,
      last_message_date: '2026-11-20T10:11:12.345Z',
      segments: [
        { id: vip.id, name: 'VIP', color: '#7300ff' },
        { id: quoted.id, name: odd.slice(0, 40), color: '#ABCDEF' },
      ].sort((a, b) => a.id - b.id),
    });
    expect(read[3]).toMatchObject({
      segments: [],
      mode_bot: 1,
      last_message_content: null,
      last_message_date: null,
    });
    expect(await reader.inOrder(company, [])).toEqual([]);
    expect(await reader.inOrder(other, [strange.id])).toEqual([]);
  });
});
