import { type FakeGraphApi, startFakeGraphApi } from '@hablabot/fakes';
import { MESSAGE_STATUS, type Message } from '@hablabot/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationOf, createClient } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createFakeClock } from '../../../test/fake-clock';
import { type TestUser, createCast, createUser } from '../../../test/factories';
import { waitFor } from '../../../test/wait';
import { connectWhatsApp } from '../../../test/whatsapp-company';
import { inboundBody, signedRequest, webhookBody } from '../../../test/whatsapp-webhook';
import { type DomainEventPayload, on } from '../../platform/events/domain-events';
import { ONLINE_WINDOW_MS } from '../team/presence';
import { chooseAgent } from './auto-assign';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';
const PHONE_ID = '555000222';
const TOKEN = 'arrival-token';

// A customer's message and its conversation: reopening a resolved one, auto-assign; internal notes.
describe(`conversations: customer messages, auto-assign and notes (${engine})`, () => {
  let ctx: TestContext;
  let fake: FakeGraphApi;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;
  let agents: TestUser[];
  const clock = createFakeClock();
  const changes: DomainEventPayload<'conversation.changed'>[] = [];
  const sent: DomainEventPayload<'message.sent'>[] = [];
  let phones = 0;

  beforeAll(async () => {
    fake = await startFakeGraphApi({
      tokens: [TOKEN],
      phoneNumbers: [
        {
          id: PHONE_ID,
          display_phone_number: '15550783882',
          verified_name: 'HablaBot',
          quality_rating: 'GREEN',
        },
      ],
    });
    ctx = await createTestContext({
      presence: { clock },
      subscribers: [
        on('conversation.changed', 'test.changed', async (e) => void changes.push(e)),
        on('message.sent', 'test.sent', async (e) => void sent.push(e)),
      ],
    });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    await connectWhatsApp(ctx.container, companyId, {
      phoneId: PHONE_ID,
      token: TOKEN,
      baseUrl: fake.baseUrl,
    });
    agents = [];
    for (const name of ['Ana', 'Beto', 'Carla'])
      agents.push(await createUser(ctx, { role: 'agent', companyId, name }));
    await ctx.container.jobs.start();
  });
  /**
   * Every domain event written so far handed to the subscribers: a commit wakes a dispatch of its own,
   * which may hold the rows while this one looks (PostgreSQL), so wait for it, dispatch, wait again.
   */
  async function settle() {
    await ctx.container.outbox.idle();
    await ctx.container.outbox.dispatch();
    await ctx.container.outbox.idle();
  }
  afterAll(async () => {
    await Promise.all([ctx.close(), fake.close()]);
  });
  beforeEach(async () => {
    await ctx.container.inboxSettings.save(companyId, { auto_assign: false, agent_capacity: 20 });
    await ctx.container.db.deleteFrom('inbox_agent_turns').execute();
    await ctx.container.db.updateTable('conversations').set({ assignee_user_id: null }).execute();
    for (const a of agents) await presence(a, null);
    changes.length = 0;
    sent.length = 0;
    fake.reset();
  });

  /** Shows the agent online (their stream seen `ago` ms before the clock's now) or offline (null). */
  async function presence(agent: TestUser, ago: number | null) {
    await ctx.container.db
      .updateTable('users')
      .set({ stream_seen_at: ago === null ? null : new Date(clock.now() - ago).toISOString() })
      .where('id', '=', agent.user.id)
      .execute();
  }

  /** A customer's text message through the real webhook route; the client's id. */
  async function customerWrites(phone: string, text = 'Hola'): Promise<number> {
    const res = await ctx.app.inject(
      signedRequest(inboundBody(PHONE_ID, phone, 'text', { text: { body: text } })),
    );
    expect(res.statusCode, res.body).toBe(200);
    const client = await ctx.container.db
      .selectFrom('clients')
      .select('id')
      .where('company_id', '=', companyId)
      .where('whatsapp_cellphone', '=', phone)
      .executeTakeFirstOrThrow();
    return client.id;
  }
  const newPhone = () => `5215512${String(++phones).padStart(6, '0')}`;

  async function give(agent: TestUser, count: number) {
    for (let i = 0; i < count; i++) {
      const clientId = await customerWrites(newPhone());
      await ctx.container.db
        .updateTable('conversations')
        .set({ assignee_user_id: agent.user.id })
        .where('client_id', '=', clientId)
        .execute();
    }
  }
  const assigneeOf = async (clientId: number) =>
    (await conversationOf(ctx, clientId))?.assignee_user_id ?? null;

  it('a customer writing to a resolved conversation reopens it, keeping its assignee', async () => {
    const clientId = await customerWrites(newPhone());
    const conversation = (await conversationOf(ctx, clientId))!;
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: agents[1]!.user.id, status: 'resolved' })
      .where('id', '=', conversation.id)
      .execute();
    await settle();
    changes.length = 0;

    const phone = (
      await ctx.container.db
        .selectFrom('clients')
        .select('whatsapp_cellphone')
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).whatsapp_cellphone;
    await customerWrites(phone, 'Sigo aquí');
    const after = (await conversationOf(ctx, clientId))!;
    expect(after).toMatchObject({ status: 'open', assignee_user_id: agents[1]!.user.id, resolved_at: null });
    await settle();
    expect(changes).toEqual([{ companyId, clientId, changed: ['status'], wasUnassigned: false }]);
    // An open conversation's next message changes neither.
    await customerWrites(phone, 'Otra vez');
    await settle();
    expect(changes).toHaveLength(1);
  });

  it('auto-assign: the online agent with the fewest open conversations under capacity, ties in turn', async () => {
    await ctx.container.inboxSettings.save(companyId, { auto_assign: true, agent_capacity: 3 });
    const [ana, beto, carla] = agents as [TestUser, TestUser, TestUser];
    await give(ana, 1);
    await give(beto, 2);
    await presence(ana, 10_000);
    await presence(beto, 30_000);
    // Carla has none, but her stream was last seen past the online window: offline.
    await presence(carla, ONLINE_WINDOW_MS + 1000);

    const first = await customerWrites(newPhone());
    expect(await assigneeOf(first)).toBe(ana.user.id);
    await settle();
    expect(changes.at(-1)).toEqual({
      companyId,
      clientId: first,
      changed: ['assignee'],
      previousAssigneeId: null,
      // Brand new: no other agent ever saw it.
      wasUnassigned: false,
    });
    // Ana 2, Beto 2: a tie; Beto was never served by auto-assign, Ana just was: Beto's turn.
    const second = await customerWrites(newPhone());
    expect(await assigneeOf(second)).toBe(beto.user.id);
    const third = await customerWrites(newPhone());
    expect(await assigneeOf(third)).toBe(ana.user.id);
    // 3 each: both at capacity; nobody left, so it stays unassigned.
    const fourth = await customerWrites(newPhone());
    expect(await assigneeOf(fourth)).toBe(null);

    // The clock moves on: the online window of Ana and Beto passes; Carla comes back.
    clock.advance(ONLINE_WINDOW_MS);
    await presence(carla, 0);
    const fifth = await customerWrites(newPhone());
    expect(await assigneeOf(fifth)).toBe(carla.user.id);
    clock.advance(ONLINE_WINDOW_MS + 1);
    expect(await assigneeOf(await customerWrites(newPhone()))).toBe(null);
  });

  it('auto-assign hands out a reopened unassigned conversation, never an open one already met', async () => {
    const clientId = await customerWrites(newPhone());
    const phone = (
      await ctx.container.db
        .selectFrom('clients')
        .select('whatsapp_cellphone')
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow()
    ).whatsapp_cellphone;
    await ctx.container.inboxSettings.save(companyId, { auto_assign: true });
    await presence(agents[2]!, 1000);
    await customerWrites(phone, 'Sigo esperando');
    expect(await assigneeOf(clientId)).toBe(null);
    await ctx.container.db
      .updateTable('conversations')
      .set({ status: 'resolved' })
      .where('client_id', '=', clientId)
      .execute();
    await customerWrites(phone, 'Vuelvo');
    expect(await assigneeOf(clientId)).toBe(agents[2]!.user.id);
    await settle();
    expect(changes.at(-1)).toEqual({
      companyId,
      clientId,
      changed: ['status', 'assignee'],
      previousAssigneeId: null,
      wasUnassigned: true,
    });
  });

  it("auto-assign hands out a conversation the company started at the customer's first answer only", async () => {
    await ctx.container.inboxSettings.save(companyId, { auto_assign: true });
    await presence(agents[1]!, 1000);
    // A campaign's message to a new client starts the conversation; nobody holds it.
    const client = await createClient(ctx, companyId, { whatsapp_cellphone: newPhone() });
    await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: `wamid.campaign.${client.id}`,
      sender: 'admin',
      messageType: 'text',
      waType: 'template',
      content: 'Oferta de noviembre',
      phone: client.whatsapp_cellphone,
      author: { type: 'campaign', massMessageId: null },
      status: MESSAGE_STATUS.sent,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(await assigneeOf(client.id)).toBe(null);
    await customerWrites(client.whatsapp_cellphone, 'Me interesa');
    expect(await assigneeOf(client.id)).toBe(agents[1]!.user.id);
    await settle();
    expect(changes.at(-1)).toEqual({
      companyId,
      clientId: client.id,
      changed: ['assignee'],
      previousAssigneeId: null,
      wasUnassigned: true,
    });
    // Given back, the customer's next message does not hand it out again.
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: null })
      .where('client_id', '=', client.id)
      .execute();
    await customerWrites(client.whatsapp_cellphone, '¿Hola?');
    expect(await assigneeOf(client.id)).toBe(null);
  });

  it('auto-assign: first messages that arrive together count as one arrival (a new and a started conversation)', async () => {
    await ctx.container.inboxSettings.save(companyId, { auto_assign: true });
    await presence(agents[0]!, 1000);
    /** Two texts of one customer in one delivery (stored in one batch); the client's id. */
    const writesTwice = async (phone: string) => {
      const at = String(Math.floor(Date.now() / 1000));
      const body = webhookBody(PHONE_ID, {
        contacts: [{ profile: { name: 'Cliente' }, wa_id: phone }],
        messages: ['Hola', '¿Hay alguien?'].map((text, i) => ({
          from: phone,
          id: `wamid.together.${phone}.${i}`,
          timestamp: at,
          type: 'text',
          text: { body: text },
        })),
      });
      expect((await ctx.app.inject(signedRequest(body))).statusCode).toBe(200);
      return (
        await ctx.container.db
          .selectFrom('clients')
          .select('id')
          .where('company_id', '=', companyId)
          .where('whatsapp_cellphone', '=', phone)
          .executeTakeFirstOrThrow()
      ).id;
    };
    const fresh = await writesTwice(newPhone());
    expect(await assigneeOf(fresh)).toBe(agents[0]!.user.id);
    expect(await conversationOf(ctx, fresh)).toMatchObject({
      unread_count: 2,
      last_message_content: '¿Hay alguien?',
    });
    // A conversation the company started: the customer's first two answers together hand it out.
    const client = await createClient(ctx, companyId, { whatsapp_cellphone: newPhone() });
    await ctx.container.messagesRepository.insertMessage(companyId, {
      clientId: client.id,
      wamid: `wamid.campaign.${client.id}`,
      sender: 'admin',
      messageType: 'text',
      waType: 'template',
      content: 'Oferta de noviembre',
      phone: client.whatsapp_cellphone,
      author: { type: 'campaign', massMessageId: null },
      status: MESSAGE_STATUS.sent,
      createdAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(await writesTwice(client.whatsapp_cellphone)).toBe(client.id);
    expect(await assigneeOf(client.id)).toBe(agents[0]!.user.id);
    await settle();
    expect(changes.filter((c) => c.clientId === fresh || c.clientId === client.id)).toHaveLength(2);
  });

  it('auto-assign off: nothing is assigned', async () => {
    await presence(agents[0]!, 0);
    expect(await assigneeOf(await customerWrites(newPhone()))).toBe(null);
  });

  it('chooses by load, then turn, then id', () => {
    const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 0, m)).toISOString();
    expect(
      chooseAgent(
        [
          { userId: 1, open: 2, lastAssignedAt: null },
          { userId: 2, open: 1, lastAssignedAt: at(5) },
          { userId: 3, open: 1, lastAssignedAt: at(1) },
        ],
        5,
      )?.userId,
    ).toBe(3);
    expect(chooseAgent([{ userId: 1, open: 5, lastAssignedAt: null }], 5)).toBeUndefined();
  });

  it('an internal note: kind note, author the user, never unread, never sent to WhatsApp', async () => {
    const clientId = await customerWrites(newPhone(), 'Quiero información');
    const conversation = (await conversationOf(ctx, clientId))!;
    const agent = agents[0]!;
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: agent.user.id })
      .where('id', '=', conversation.id)
      .execute();

    // A message of the company does reach the fake (so the count below can tell).
    const reply = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/message',
      headers: cast.admin.headers,
      payload: { client_id: clientId, content: 'Hola, te ayudo' },
    });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    await waitFor(() => fake.sent.length === 1);
    const before = (await conversationOf(ctx, clientId))!;

    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/conversations/${conversation.id}/notes`,
      headers: agent.headers,
      payload: { text: 'Cliente VIP: ofrecer descuento' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = res.json().data as Message;
    expect(note).toMatchObject({
      client_id: clientId,
      kind: 'note',
      sender_type: 'admin',
      content: 'Cliente VIP: ofrecer descuento',
      status_name: 'sent',
      author: { type: 'user', id: agent.user.id, name: 'Ana' },
    });
    // In the history, with its kind; the list's last message and the unread count stay.
    const history = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/client/${clientId}/messages`,
      headers: cast.admin.headers,
    });
    expect((history.json().messages as Message[]).at(-1)).toMatchObject({ id: note.id, kind: 'note' });
    const after = (await conversationOf(ctx, clientId))!;
    expect(after.last_message_content).toBe(before.last_message_content);
    expect(after.unread_count).toBe(before.unread_count);
    // Not in the bot's prompt.
    const turns = await ctx.container.messagesRepository.recentConversation(companyId, clientId, 10);
    expect(turns.map((t) => t.id)).not.toContain(note.id);

    await settle();
    expect(sent.map((e) => e.messageId)).toContain(note.id);
    // Whatever runs after the note (jobs, the sweeper of pending sends) never sends it.
    await ctx.container.outbound.sweepStale({ olderThanMs: 0 });
    expect(fake.sent).toHaveLength(1);
    // A note cannot be resent either.
    const resend = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/message',
      headers: cast.admin.headers,
      payload: { id: note.id, client_id: clientId, content: 'x' },
    });
    expect(resend.statusCode).toBe(422);
    expect(fake.sent).toHaveLength(1);

    // Another agent who may not see it: 404; an empty note: 422.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/v1/admin/conversations/${conversation.id}/notes`,
          headers: agents[1]!.headers,
          payload: { text: 'Hola' },
        })
      ).statusCode,
    ).toBe(404);
    const empty = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/conversations/${conversation.id}/notes`,
      headers: agent.headers,
      payload: { text: '   ' },
    });
    expect(empty.statusCode).toBe(422);
  });
});
