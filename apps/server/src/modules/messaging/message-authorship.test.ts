// Who wrote each message, what it quotes and every status it went through: over the API, with customers'
// messages and statuses through the real webhook route and agents' sends to the fake Graph API.
import type { Message } from '@hablabot/contract';
import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast, createUser } from '../../../test/factories';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { inboundBody, signedRequest, statusBody } from '../../../test/whatsapp-webhook';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const TOKEN = 'EAAG-authorship-token';
const PHONE_ID = '106540352200001';
const APP_SECRET = 'authorship-app-secret';

describe(`message authors, quotes and status history (${engine})`, () => {
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
          display_phone_number: '15550783881',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
      ],
    });
    ctx = await createTestContext({ cloudApiTimeoutMs: 2000 });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      appSecret: APP_SECRET,
      baseUrl: fake.baseUrl,
    });
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), fake.close()]);
  });
  beforeEach(() => fake.reset());

  /** A customer's message through the webhook, quoting `context` when given; its stored id. */
  async function customerWrites(phone: string, text: string, context?: string): Promise<number> {
    const wamid = `wamid.in.${phone}.${text.replace(/\W/g, '')}`;
    const res = await ctx.app.inject(
      signedRequest(
        inboundBody(
          PHONE_ID,
          phone,
          'text',
          { text: { body: text }, ...(context ? { context: { from: phone, id: context } } : {}) },
          { wamid },
        ),
        APP_SECRET,
      ),
    );
    expect(res.statusCode).toBe(200);
    const row = await ctx.container.db
      .selectFrom('messages')
      .select('id')
      .where('wamid', '=', wamid)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const reply = (body: Record<string, unknown>, headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'POST', url: '/api/v1/admin/message', headers, payload: body });
  const detail = (id: number, headers = cast.admin.headers) =>
    ctx.app.inject({ method: 'GET', url: `/api/v1/admin/messages/${id}`, headers });
  const history = async (clientId: number): Promise<Message[]> =>
    (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/admin/client/${clientId}/messages`,
        headers: cast.admin.headers,
      })
    ).json().messages;
  const wamidOf = async (id: number) =>
    (
      await ctx.container.db
        .selectFrom('messages')
        .select('wamid')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).wamid!;

  it('an agent replies to a message: WhatsApp is asked to quote it, and the answer names the agent and the quote', async () => {
    const client = await createClient(ctx, companyId);
    const phone = client.whatsapp_cellphone;
    const first = await customerWrites(phone, 'Hola, ¿abrís hoy?');

    const res = await reply({
      client_id: client.id,
      content: 'Sí, hasta las 20:00',
      reply_to_id: first,
    });
    expect(res.statusCode).toBe(201);
    const sent = res.json().data;
    expect(sent).toMatchObject({
      status: 1,
      status_name: 'sent',
      author: { type: 'user', id: cast.admin.user.id, name: cast.admin.user.name },
      reply_to: { id: first, content: 'Hola, ¿abrís hoy?', author: { type: 'customer' } },
    });
    expect(fake.sent).toHaveLength(1);
    expect(fake.sent[0]!.contextMessageId).toBe(await wamidOf(first));
    expect(fake.sent[0]!.body.context).toEqual({ message_id: await wamidOf(first) });

    // The customer quotes the agent's answer (WhatsApp's context.id): the history shows it, and the
    // agent's name as it is now.
    const answer = await customerWrites(phone, 'Perfecto, gracias', fake.sent[0]!.wamid);
    await ctx.container.db
      .updateTable('users')
      .set({ name: 'Lucía Nueva' })
      .where('id', '=', cast.admin.user.id)
      .execute();
    const page = await history(client.id);
    expect(page.map((m) => [m.id, m.author.type, m.reply_to?.id ?? null, m.status_name])).toEqual([
      [first, 'customer', null, 'delivered'],
      [sent.id, 'user', first, 'sent'],
      [answer, 'customer', sent.id, 'delivered'],
    ]);
    expect(page[2]!.reply_to).toEqual({
      id: sent.id,
      content: 'Sí, hasta las 20:00',
      author: { type: 'user', id: cast.admin.user.id, name: 'Lucía Nueva' },
    });
    await ctx.container.db
      .updateTable('users')
      .set({ name: cast.admin.user.name })
      .where('id', '=', cast.admin.user.id)
      .execute();
  });

  it('a deleted agent’s messages stay theirs by type, without id or name', async () => {
    const agent = await createUser(ctx, { role: 'admin', companyId, name: 'Pablo Temporal' });
    const client = await createClient(ctx, companyId);
    await customerWrites(client.whatsapp_cellphone, 'Hola');
    const sent = (await reply({ client_id: client.id, content: 'Te atiendo yo' }, agent.headers)).json().data;
    expect(sent.author).toEqual({ type: 'user', id: agent.user.id, name: 'Pablo Temporal' });
    await ctx.container.db.deleteFrom('access_tokens').where('user_id', '=', agent.user.id).execute();
    await ctx.container.db.deleteFrom('user_roles').where('user_id', '=', agent.user.id).execute();
    await ctx.container.db.deleteFrom('users').where('id', '=', agent.user.id).execute();
    const page = await history(client.id);
    expect(page.at(-1)).toMatchObject({ id: sent.id, author: { type: 'user', name: null } });
    expect(page.at(-1)!.author).not.toHaveProperty('id');
  });

  it('a reply to another client’s or company’s message, or to one that never reached WhatsApp, is refused', async () => {
    const client = await createClient(ctx, companyId);
    const other = await createClient(ctx, companyId);
    await customerWrites(client.whatsapp_cellphone, 'Hola');
    const theirs = await customerWrites(other.whatsapp_cellphone, 'Soy otro');
    // Not a message of this conversation: a mistake in the request, 422 on the field.
    for (const replyTo of [theirs, 99_999_999]) {
      const refused = await reply({ client_id: client.id, content: 'x', reply_to_id: replyTo });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toHaveProperty('reply_to_id');
    }
    const note = await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: null,
      sender: 'bot',
      messageType: 'text',
      waType: 'bot_failure',
      content: '',
      phone: client.whatsapp_cellphone,
      status: 4,
      createdAt: new Date().toISOString(),
    });
    const refused = await reply({ client_id: client.id, content: 'x', reply_to_id: note!.id });
    expect(refused.statusCode).toBe(422);
    expect(fake.sent).toHaveLength(0);
  });

  it('GET /admin/messages/{id} lists every status with its time, and Meta’s code and title for a failure', async () => {
    const client = await createClient(ctx, companyId);
    await customerWrites(client.whatsapp_cellphone, '¿Hay stock?');
    const delivered = (await reply({ client_id: client.id, content: 'Sí' })).json().data as Message;
    const failed = (await reply({ client_id: client.id, content: 'Te lo reservo' })).json().data as Message;
    const [okWamid, badWamid] = [fake.sent[0]!.wamid, fake.sent[1]!.wamid];
    const t0 = Math.floor(Date.now() / 1000);
    for (const body of [
      statusBody(PHONE_ID, okWamid, 'delivered', { timestamp: t0 + 1 }),
      statusBody(PHONE_ID, okWamid, 'read', { timestamp: t0 + 2 }),
      // Older news after a newer one: not a step up, not kept.
      statusBody(PHONE_ID, okWamid, 'delivered', { timestamp: t0 + 3 }),
      statusBody(PHONE_ID, badWamid, 'failed', {
        timestamp: t0 + 4,
        errors: [
          {
            code: 131047,
            title: 'Re-engagement message',
            error_data: { details: 'More than 24 hours have passed since the customer last replied.' },
          },
        ],
      }),
    ])
      expect((await ctx.app.inject(signedRequest(body, APP_SECRET))).statusCode).toBe(200);

    const ok = await detail(delivered.id);
    expect(ok.statusCode).toBe(200);
    const okBody = ok.json().data;
    expect(okBody).toMatchObject({
      id: delivered.id,
      status: 2,
      status_name: 'read',
      author: { type: 'user' },
    });
    expect(okBody.statuses.map((s: { status: string }) => s.status)).toEqual([
      'pending',
      'sent',
      'delivered',
      'read',
    ]);
    expect(okBody.statuses[2]).toEqual({
      status: 'delivered',
      at: new Date((t0 + 1) * 1000).toISOString(),
      error_code: null,
      error_title: null,
    });

    const bad = (await detail(failed.id)).json().data;
    expect(bad.status_name).toBe('failed');
    expect(bad.statuses.map((s: { status: string }) => s.status)).toEqual(['pending', 'sent', 'failed']);
    expect(bad.statuses[2]).toMatchObject({ error_code: 131047, error_title: 'Re-engagement message' });

    // A customer's message has no status history of its own.
    const [customerMessage] = await history(client.id);
    expect((await detail(customerMessage!.id)).json().data).toMatchObject({
      author: { type: 'customer' },
      statuses: [],
    });
  });

  it('only the company’s admins read one of its messages: 404 for another company’s or a missing one', async () => {
    const client = await createClient(ctx, companyId);
    const id = await customerWrites(client.whatsapp_cellphone, 'Privado');
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: `/api/v1/admin/messages/${id}` },
      {
        ...ADMIN_ONLY,
        admin: 200,
        otherAdmin: 404,
      },
    );
    expect((await detail(99_999_999)).statusCode).toBe(404);
    expect((await detail(id, cast.otherAdmin.headers)).json()).not.toHaveProperty('data');
  });
});
