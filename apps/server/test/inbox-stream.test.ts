// The live stream of the team inbox (issue 25): agents may open it, each event about a conversation reaches
// only the streams allowed to see it (admins: all; an agent: their own, the unassigned, or all when the
// company says so), mass messages reach admins only, a demoted agent's stream ends, and an open stream
// keeps its member online (users.stream_seen_at). Each "did not get it" is asserted after a later event
// the stream did get (events reach a stream in the order they were published; the later one is published
// once an admin's stream showed the first was), never after a sleep.
import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_REFRESH_MS } from '../src/modules/team/presence';
import { createClient } from './clients-factories';
import { type TestContext, createTestContext } from './context';
import { createUser, type TestUser } from './factories';
import { createFakeClock } from './fake-clock';
import { openStream } from './sse';

type Stream = Awaited<ReturnType<typeof openStream>>;

describe('the live stream of the team inbox', () => {
  let ctx: TestContext;
  let base: string;
  let admin: TestUser;
  let companyId: number;
  const clock = createFakeClock();

  beforeAll(async () => {
    // Checks on a timer every 60 s only; presence on a clock the test moves.
    ctx = await createTestContext({
      eventsHeartbeatMs: 60_000,
      streamAccess: { recheckMs: 60_000 },
      presence: { clock },
    });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await createUser(ctx, { role: 'admin' });
    companyId = admin.user.company_id!;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const agent = () => createUser(ctx, { role: 'agent', companyId });

  /** A client with a conversation assigned to `who` (null: unassigned). */
  async function conversation(who: TestUser | null): Promise<number> {
    const client = await createClient(ctx, companyId);
    await ctx.container.clientsRepository.setBotMode(companyId, client.id, 1);
    await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: who?.user.id ?? null })
      .where('client_id', '=', client.id)
      .execute();
    return client.id;
  }

  /** A change of the client's conversation, as the product records it: a bot-mode event after commit. */
  const touch = (clientId: number) =>
    ctx.container.withTransaction(async (tx) => {
      tx.events.emit('conversation.updated', { companyId, clientId, changed: ['bot_mode'] });
    });

  /** The clients the stream heard about, in order (any event naming a client). */
  const clientsOf = (stream: Stream) =>
    stream.events().map((e) => JSON.parse(e.data ?? '{}').client_id as number | undefined);

  async function open(who: TestUser): Promise<Stream> {
    const stream = await openStream(base, who);
    expect(stream.res.status).toBe(200);
    return stream;
  }

  /** Opens the streams and waits until the bus holds them all. */
  async function openAll(users: TestUser[]): Promise<Stream[]> {
    const before = ctx.container.events.listenerCount(companyId);
    const streams = await Promise.all(users.map(open));
    await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(before + users.length);
    return streams;
  }

  /** Closes the streams and waits until the server let them go. */
  async function closeAll(streams: Stream[]) {
    const before = ctx.container.events.listenerCount(companyId);
    for (const s of streams) s.close();
    await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(before - streams.length);
  }

  it("an event about agent A's conversation reaches the admin and A, never B", async () => {
    const [a, b] = [await agent(), await agent()];
    const [mine, unassigned] = [await conversation(a), await conversation(null)];
    const [sAdmin, sA, sB] = await openAll([admin, a, b]);
    await touch(mine);
    await expect.poll(() => clientsOf(sAdmin)).toContain(mine);
    // B's signal: a later event about an unassigned conversation, which everyone gets.
    await touch(unassigned);
    for (const s of [sAdmin, sA, sB]) await expect.poll(() => clientsOf(s)).toContain(unassigned);
    expect(clientsOf(sAdmin)).toEqual([mine, unassigned]);
    expect(clientsOf(sA)).toEqual([mine, unassigned]);
    expect(clientsOf(sB)).toEqual([unassigned]);
    // The audience is never written: the data is the contract's and nothing more.
    expect(JSON.parse(sA.events()[0]!.data!)).toEqual({ client_id: mine, mode_bot: 1 });
    expect(sA.records.some((r) => r.data?.includes('audience'))).toBe(false);

    // The company lets agents see all: B gets it too (judged when the event is published).
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: true });
    await touch(mine);
    await expect.poll(() => clientsOf(sB)).toEqual([unassigned, mine]);
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: false });
    await closeAll([sAdmin, sA, sB]);
  });

  it("a message in A's conversation (an internal note too) reaches everyone who may see it as message.created", async () => {
    const [a, b] = [await agent(), await agent()];
    const [mine, unassigned] = [await conversation(a), await conversation(null)];
    const [sAdmin, sA, sB] = await openAll([admin, a, b]);
    const client = (await ctx.container.clientsRepository.findClient(companyId, mine))!;
    for (const waType of ['text', 'note']) {
      await ctx.container.withTransaction(async (tx) => {
        const row = await tx.messagesRepository.insertMessage(companyId, {
          clientId: mine,
          wamid: null,
          sender: 'admin',
          messageType: 'text',
          waType,
          content: waType === 'note' ? 'Cliente VIP' : 'Hola',
          phone: client.whatsapp_cellphone,
          author: { type: 'user', userId: a.user.id },
          status: waType === 'note' ? MESSAGE_STATUS.sent : MESSAGE_STATUS.pending,
          createdAt: new Date().toISOString(),
        });
        tx.events.emit('message.sent', { companyId, clientId: mine, messageId: row!.id });
      });
    }
    await expect.poll(() => clientsOf(sAdmin)).toHaveLength(2);
    await touch(unassigned);
    for (const s of [sAdmin, sA, sB]) await expect.poll(() => clientsOf(s)).toContain(unassigned);
    const created = (s: Stream) =>
      s
        .events()
        .filter((e) => e.event === 'message.created')
        .map((e) => JSON.parse(e.data!).message.content);
    expect(created(sAdmin)).toEqual(['Hola', 'Cliente VIP']);
    expect(created(sA)).toEqual(['Hola', 'Cliente VIP']);
    expect(created(sB)).toEqual([]);
    await closeAll([sAdmin, sA, sB]);
  });

  it('an assignment change reaches the admin, the new assignee and the one who lost it, and no other agent', async () => {
    const [a, b, c] = [await agent(), await agent(), await agent()];
    const [mine, unassigned] = [await conversation(a), await conversation(null)];
    const { id } = await ctx.container.db
      .selectFrom('conversations')
      .select('id')
      .where('client_id', '=', mine)
      .executeTakeFirstOrThrow();
    const [sAdmin, sA, sB, sC] = await openAll([admin, a, b, c]);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/conversations/${id}/assign`,
      headers: admin.headers,
      payload: { user_id: b.user.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => sAdmin.events().map((e) => e.event)).toContain('conversation.changed');
    await touch(unassigned);
    for (const s of [sAdmin, sA, sB, sC]) await expect.poll(() => clientsOf(s)).toContain(unassigned);
    const changed = (s: Stream) =>
      s
        .events()
        .filter((e) => e.event === 'conversation.changed')
        .map((e) => JSON.parse(e.data!))
        .map((d) => [d.client_id, d.conversation.assignee?.id ?? null]);
    for (const s of [sAdmin, sA, sB]) expect(changed(s)).toEqual([[mine, b.user.id]]);
    expect(changed(sC)).toEqual([]);
    // From now on A no longer hears of it.
    await touch(mine);
    await expect.poll(() => clientsOf(sB).filter((x) => x === mine)).toHaveLength(2);
    await touch(unassigned);
    await expect.poll(() => clientsOf(sA).filter((x) => x === unassigned)).toHaveLength(2);
    expect(clientsOf(sB).filter((x) => x === mine)).toHaveLength(2);
    expect(clientsOf(sA).filter((x) => x === mine)).toHaveLength(1);
    await closeAll([sAdmin, sA, sB, sC]);
  });

  it('a conversation every agent saw unassigned tells every agent it left; a brand-new one assigned at once only its assignee', async () => {
    const [a, b] = [await agent(), await agent()];
    const [seen, fresh, unassigned] = [
      await conversation(a),
      await conversation(a),
      await conversation(null),
    ];
    const [sAdmin, sA, sB] = await openAll([admin, a, b]);
    // Both now assigned to A, from nobody: one was in everyone's 'Sin asignar', one is new.
    for (const [clientId, wasUnassigned] of [
      [seen, true],
      [fresh, false],
    ] as const)
      await ctx.container.withTransaction(async (tx) => {
        tx.events.emit('conversation.changed', {
          companyId,
          clientId,
          changed: ['assignee'],
          previousAssigneeId: null,
          wasUnassigned,
        });
      });
    await expect.poll(() => clientsOf(sAdmin)).toEqual([seen, fresh]);
    await touch(unassigned);
    for (const s of [sAdmin, sA, sB]) await expect.poll(() => clientsOf(s)).toContain(unassigned);
    expect(clientsOf(sA)).toEqual([seen, fresh, unassigned]);
    expect(clientsOf(sB)).toEqual([seen, unassigned]);
    await closeAll([sAdmin, sA, sB]);
  });

  it('a mass message’s progress reaches admins only', async () => {
    const a = await agent();
    const unassigned = await conversation(null);
    const [sAdmin, sA] = await openAll([admin, a]);
    await ctx.container.events.publish(
      companyId,
      { type: 'mass_message.progress', data: { mass_message_id: 1, status: 'sending', counts: {} as never } },
      { kind: 'admins' },
    );
    await touch(unassigned);
    for (const s of [sAdmin, sA]) await expect.poll(() => clientsOf(s)).toContain(unassigned);
    expect(sAdmin.events().map((e) => e.event)).toEqual(['mass_message.progress', 'client.bot_mode']);
    expect(sA.events().map((e) => e.event)).toEqual(['client.bot_mode']);
    await closeAll([sAdmin, sA]);
  });

  it('50 streams of an admin and ten agents each get exactly what they may see', async () => {
    const agents = await Promise.all(Array.from({ length: 10 }, () => agent()));
    const own = new Map<number, number>();
    for (const a of agents) own.set(a.user.id, await conversation(a));
    const unassigned = await conversation(null);
    const last = await conversation(null);
    // The admin holds 10 streams, each agent 4.
    const readers = [...Array(10).fill(admin), ...agents.flatMap((a) => [a, a, a, a])] as TestUser[];
    const streams = await openAll(readers);
    expect(streams).toHaveLength(50);
    for (const clientId of own.values()) await touch(clientId);
    await expect.poll(() => clientsOf(streams[0]!)).toHaveLength(own.size);
    await touch(unassigned);
    await expect.poll(() => clientsOf(streams[0]!)).toContain(unassigned);
    await touch(last);
    for (const s of streams) await expect.poll(() => clientsOf(s), { timeout: 10_000 }).toContain(last);
    for (const [i, s] of streams.entries()) {
      const reader = readers[i]!;
      const expected =
        reader === admin ? [...own.values(), unassigned, last] : [own.get(reader.user.id)!, unassigned, last];
      expect(clientsOf(s), `stream ${i}`).toEqual(expected);
    }
    await closeAll(streams);
  });

  it('ends the stream of an agent who is no longer one', async () => {
    const a = await agent();
    const superAdmin = await createUser(ctx, { role: 'super_admin' });
    const unassigned = await conversation(null);
    const [sA] = await openAll([a]);
    await touch(unassigned);
    await expect.poll(() => clientsOf(sA)).toEqual([unassigned]);
    const role = (await ctx.container.identity.findRoleByName('client'))!;
    const res = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/super-admin/update-user/${a.user.id}`,
      headers: superAdmin.headers,
      payload: { name: a.user.name, email: a.user.email, roles: [role.id], company_id: companyId },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expect.poll(() => sA.ended(), { timeout: 2000 }).toBe(true);
    await touch(unassigned);
    expect(clientsOf(sA)).toEqual([unassigned]);
    // And a new stream is refused.
    expect((await openStream(base, a)).res.status).toBe(403);
  });

  it('keeps a member online while a stream is open: written on open, refreshed, cleared when the last closes', async () => {
    const a = await agent();
    const seenAt = async () =>
      (
        await ctx.container.db
          .selectFrom('users')
          .select('stream_seen_at')
          .where('id', '=', a.user.id)
          .executeTakeFirstOrThrow()
      ).stream_seen_at as string | null;
    const iso = () => new Date(clock.now()).toISOString();
    expect(await seenAt()).toBeNull();

    const others = ctx.container.events.listenerCount(companyId);
    const [first, second] = await openAll([a, a]);
    await expect.poll(seenAt).toBe(iso());
    clock.advance(PRESENCE_REFRESH_MS);
    await expect.poll(seenAt).toBe(iso());
    // One of two closed: still online.
    first.close();
    await expect.poll(() => ctx.container.events.listenerCount(companyId)).toBe(others + 1);
    await ctx.container.streamPresence.settled();
    expect(await seenAt()).toBe(iso());
    clock.advance(PRESENCE_REFRESH_MS);
    await expect.poll(seenAt).toBe(iso());
    // The last one closed: offline at once, and no refresh brings it back.
    second.close();
    await expect.poll(seenAt).toBeNull();
    clock.advance(PRESENCE_REFRESH_MS);
    await ctx.container.streamPresence.settled();
    expect(await seenAt()).toBeNull();
  });
});
