import type { Conversation, ConversationsResponse } from '@hablabot/contract';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, setConversation } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createCast, createUser } from '../../../test/factories';
import { expectRoleMatrix } from '../../../test/role-matrix';
import { type DomainEventPayload, on } from '../../platform/events/domain-events';
import { createInboxRepository } from './conversations.repository';
import { fewCandidates } from './conversations-search';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

// The inbox's views, counts, privacy between agents, assignment rules, resolving and reopening.
describe(`conversations: views, assignment and status (${engine})`, () => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let companyId: number;
  let ana: TestUser;
  let beto: TestUser;
  const changes: DomainEventPayload<'conversation.changed'>[] = [];
  /** Minutes count down so each conversation made later is older in the list (deterministic order). */
  let minute = 0;

  beforeAll(async () => {
    ctx = await createTestContext({
      subscribers: [on('conversation.changed', 'test.changed', async (e) => void changes.push(e))],
    });
    cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    ana = await createUser(ctx, { role: 'agent', companyId, name: 'Ana Agente' });
    beto = await createUser(ctx, { role: 'agent', companyId, name: 'Beto Agente' });
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
    await ctx.close();
  });
  beforeEach(async () => {
    // Each test starts from an empty inbox.
    await ctx.container.db.deleteFrom('conversations').execute();
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: false });
    changes.length = 0;
  });

  /** A conversation with a message, `minutes` before a fixed time, assigned and in the status given. */
  async function conversation(
    o: { name?: string; assignee?: TestUser | null; status?: 'open' | 'resolved'; company?: number } = {},
  ): Promise<{ id: number; clientId: number }> {
    const company = o.company ?? companyId;
    const client = await createClient(ctx, company, { name: o.name ?? `Cliente ${minute}` });
    const at = new Date(Date.parse('2026-11-20T12:00:00.000Z') - ++minute * 60_000).toISOString();
    await setConversation(ctx, client, { last_message_at: at, last_message_content: `hola ${minute}` });
    const row = await ctx.container.db
      .updateTable('conversations')
      .set({ assignee_user_id: o.assignee?.user.id ?? null, status: o.status ?? 'open' })
      .where('client_id', '=', client.id)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, clientId: client.id };
  }

  async function list(who: { headers: Record<string, string> }, query = '') {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/admin/conversations${query}`,
      headers: who.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ConversationsResponse;
  }
  const ids = (body: ConversationsResponse) => body.data.map((c) => c.id);

  const post = (who: { headers: Record<string, string> }, id: number, action: string, payload?: object) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/admin/conversations/${id}/${action}`,
      headers: who.headers,
      ...(payload ? { payload } : {}),
    });

  it('lists each view latest first, with the counts as the caller sees them', async () => {
    const anas = await conversation({ assignee: ana });
    const free = await conversation({ assignee: null });
    const betos = await conversation({ assignee: beto });
    const done = await conversation({ assignee: ana, status: 'resolved' });
    const donebeto = await conversation({ assignee: beto, status: 'resolved' });
    // A client never written to, and a conversation without a message (a paused bot), are not listed.
    await createClient(ctx, companyId);
    const silent = await createClient(ctx, companyId);
    await setConversation(ctx, silent, { bot_paused: 1 });
    // Another company's conversations never show.
    await conversation({ company: cast.otherAdmin.user.company_id! });

    const all = await list(cast.admin, '?view=all');
    expect(ids(all)).toEqual([anas.id, free.id, betos.id]);
    expect(all.counts).toEqual({ mine: 0, unassigned: 1, all: 3 });
    expect(all.pagination).toEqual({ current_page: 1, per_page: 50, total: 3, last_page: 1 });
    // The caller sees every conversation: the web shows the four tabs.
    expect(all.sees_all).toBe(true);
    expect(all.data[0]).toMatchObject({
      id: anas.id,
      client: { id: anas.clientId },
      status: 'open',
      assignee: { id: ana.user.id, name: 'Ana Agente' },
      unread_count: 0,
      last_message_content: 'hola 1',
      mode_bot: 1,
      window_expires_at: null,
    });
    expect(ids(await list(cast.admin, '?view=unassigned'))).toEqual([free.id]);
    expect(ids(await list(cast.admin, '?view=resolved'))).toEqual([done.id, donebeto.id]);

    // Ana, without agents_see_all: hers and the unassigned ones only.
    const hers = await list(ana, '?view=all');
    expect(ids(hers)).toEqual([anas.id, free.id]);
    expect(hers.counts).toEqual({ mine: 1, unassigned: 1, all: 2 });
    expect(hers.sees_all).toBe(false);
    expect(ids(await list(ana, '?view=mine'))).toEqual([anas.id]);
    expect(ids(await list(ana, '?view=resolved'))).toEqual([done.id]);
    expect(ids(await list(beto, '?view=all'))).toEqual([free.id, betos.id]);

    // With agents_see_all, an agent sees what an admin sees.
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: true });
    const everything = await list(ana, '?view=all');
    expect(ids(everything)).toEqual([anas.id, free.id, betos.id]);
    expect(everything.counts).toEqual({ mine: 1, unassigned: 1, all: 3 });
    expect(everything.sees_all).toBe(true);
  });

  it('searches inside a view and pages it', async () => {
    const a = await conversation({ name: 'Lucía Buscada', assignee: ana });
    await conversation({ name: 'Otro Nombre', assignee: ana });
    const c = await conversation({ name: 'Lucia Tambien', assignee: null });
    const d = await conversation({ name: 'Lucía De Beto', assignee: beto });

    expect(ids(await list(cast.admin, '?view=all&search=lucia'))).toEqual([a.id, c.id, d.id]);
    expect(ids(await list(cast.admin, '?view=mine&search=lucia'))).toEqual([]);
    // Read from the clients first (few candidates) or from the view in its order (many): both match alike.
    expect(ids(await list(ana, '?view=unassigned&search=lucia'))).toEqual([c.id]);
    expect(ids(await list(ana, '?view=mine&search=lucia'))).toEqual([a.id]);
    const anaSearch = await list(ana, '?view=all&search=LUCÍA');
    expect(ids(anaSearch)).toEqual([a.id, c.id]);
    // The counts are the views' sizes, not the search's.
    expect(anaSearch.counts).toEqual({ mine: 2, unassigned: 1, all: 3 });

    const page2 = await list(cast.admin, '?view=all&search=lucia&per_page=2&page=2');
    expect(ids(page2)).toEqual([d.id]);
    expect(page2.pagination).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    const plain = await list(cast.admin, '?view=all&per_page=3&page=2');
    expect(ids(plain)).toEqual([d.id]);
    expect(plain.pagination).toEqual({ current_page: 2, per_page: 3, total: 4, last_page: 2 });
  });

  it("counts a search's matches up to the end of the next page, from either side alike", async () => {
    const lucias = [];
    for (let i = 0; i < 5; i++) lucias.push(await conversation({ name: `Lucía ${i}`, assignee: null }));
    await conversation({ name: 'Otro Nombre', assignee: null });
    await conversation({ name: 'Lucía Resuelta', status: 'resolved' });
    const expected = lucias.map((c) => c.id);
    expect(await fewCandidates(ctx.container.db, companyId, 'lucia')).toBe(true);
    expect(await fewCandidates(ctx.container.db, companyId, 'lu')).toBe(false);
    // 'lucia' has few candidates in the search index: the matching clients are read first. 'lu' is too
    // short for the index: the view is walked in its order. Same rows, same order, same totals.
    for (const search of ['lucia', 'lu']) {
      for (const view of ['all', 'unassigned']) {
        const seen: number[] = [];
        const totals: number[] = [];
        for (let page = 1; page <= 3; page++) {
          const body = await list(cast.admin, `?view=${view}&search=${search}&per_page=2&page=${page}`);
          seen.push(...ids(body));
          totals.push(body.pagination.total);
          // There is a next page exactly while matches are left.
          expect(body.pagination.last_page > page, `${search} ${view} ${page}`).toBe(page * 2 < 5);
        }
        expect(seen, `${search} ${view}`).toEqual(expected);
        // Counted up to offset + 2 × per_page: 4 of 5 on page 1, then all 5.
        expect(totals, `${search} ${view}`).toEqual([4, 5, 5]);
      }
      const resolved = await list(cast.admin, `?view=resolved&search=${search}`);
      expect(resolved.data.map((c) => c.client.name)).toEqual(['Lucía Resuelta']);
      expect(resolved.pagination.total).toBe(1);
      // A page past the end: nothing, and the matches counted.
      const past = await list(cast.admin, `?view=all&search=${search}&per_page=2&page=4`);
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(5);
    }
    // The route walks views this small whatever the search; without the view's size the repository
    // picks its plan by the candidates ('lucia': the clients first). Same pages, same totals.
    const repository = createInboxRepository(ctx.container.db);
    for (const search of ['lucia', 'lu']) {
      for (let page = 1; page <= 4; page++) {
        const o = {
          view: 'all' as const,
          userId: cast.admin.user.id,
          visibility: { kind: 'all' as const },
          search,
          limit: 2,
          offset: (page - 1) * 2,
        };
        const byCandidates = await repository.searchView(companyId, o);
        const walked = await repository.searchView(companyId, { ...o, viewSize: 6 });
        expect(
          byCandidates.rows.map((c) => c.id),
          `${search} ${page}`,
        ).toEqual(walked.rows.map((c) => c.id));
        expect(byCandidates.total, `${search} ${page}`).toBe(walked.total);
        expect(walked.rows.map((c) => c.id)).toEqual(expected.slice(o.offset, o.offset + 2));
      }
    }
  });

  it("keeps another agent's conversation away from an agent: 404 on assign, resolve, reopen and notes", async () => {
    const betos = await conversation({ assignee: beto });
    for (const [action, payload] of [
      ['assign', { user_id: ana.user.id }],
      ['resolve', undefined],
      ['reopen', undefined],
      ['notes', { text: 'Nota' }],
    ] as const) {
      const res = await post(ana, betos.id, action, payload);
      expect(res.statusCode, action).toBe(404);
    }
    expect(await ctx.container.inboxRepository.state(companyId, betos.id)).toMatchObject({
      assigneeId: beto.user.id,
      status: 'open',
    });
    // Another company's admin: 404 too.
    expect((await post(cast.otherAdmin, betos.id, 'resolve')).statusCode).toBe(404);
  });

  it('assigns: admins to any admin or agent of the company, agents take or give back only', async () => {
    const c = await conversation({ assignee: null });
    const assign = (who: TestUser, userId: number | null) => post(who, c.id, 'assign', { user_id: userId });

    // An agent takes an unassigned conversation for themself...
    const taken = await assign(ana, ana.user.id);
    expect(taken.statusCode, taken.body).toBe(200);
    expect((taken.json() as { data: Conversation }).data.assignee).toEqual({
      id: ana.user.id,
      name: 'Ana Agente',
    });
    await settle();
    expect(changes).toEqual([
      {
        companyId,
        clientId: c.clientId,
        changed: ['assignee'],
        previousAssigneeId: null,
        wasUnassigned: true,
      },
    ]);
    // ...but may not give it to someone else, nor take another's, nor assign an unassigned one to others.
    expect((await assign(ana, beto.user.id)).statusCode).toBe(403);
    await ctx.container.inboxSettings.save(companyId, { agents_see_all: true });
    expect((await assign(beto, beto.user.id)).statusCode).toBe(403);
    expect((await assign(beto, null)).statusCode).toBe(403);
    // Ana gives it back.
    const back = await assign(ana, null);
    expect(back.statusCode).toBe(200);
    expect((back.json() as { data: Conversation }).data.assignee).toBeNull();
    expect((await assign(beto, ana.user.id)).statusCode).toBe(403);

    // The admin assigns to an agent, to themself, to nobody.
    expect((await assign(cast.admin, beto.user.id)).json().data.assignee.id).toBe(beto.user.id);
    expect((await assign(cast.admin, cast.admin.user.id)).json().data.assignee.id).toBe(cast.admin.user.id);
    expect((await assign(cast.admin, null)).json().data.assignee).toBeNull();
    // Not a member of the company (another company's admin, a client user, nobody): 422 on user_id.
    for (const stranger of [cast.otherAdmin.user.id, cast.client.user.id, 999_999]) {
      const res = await assign(cast.admin, stranger);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['user_id']);
    }
    await settle();
    expect(changes.at(-1)).toEqual({
      companyId,
      clientId: c.clientId,
      changed: ['assignee'],
      previousAssigneeId: cast.admin.user.id,
      wasUnassigned: false,
    });
  });

  it('resolves and reopens, each change one event', async () => {
    const c = await conversation({ assignee: ana });
    const resolved = await post(ana, c.id, 'resolve');
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().data).toMatchObject({
      id: c.id,
      status: 'resolved',
      assignee: { id: ana.user.id },
    });
    const row = await ctx.container.db
      .selectFrom('conversations')
      .select(['status', 'resolved_at'])
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('resolved');
    expect(row.resolved_at).not.toBeNull();
    expect((await list(ana, '?view=resolved')).data.map((x) => x.id)).toEqual([c.id]);
    expect((await list(ana, '?view=mine')).data).toEqual([]);
    // Resolving again changes nothing and says nothing.
    expect((await post(ana, c.id, 'resolve')).statusCode).toBe(200);
    const reopened = await post(cast.admin, c.id, 'reopen');
    expect(reopened.json().data.status).toBe('open');
    await settle();
    expect(changes).toEqual([
      { companyId, clientId: c.clientId, changed: ['status'], wasUnassigned: false },
      { companyId, clientId: c.clientId, changed: ['status'], wasUnassigned: false },
    ]);
    // An unassigned one was in every agent's 'Sin asignar': the change is for all of them.
    const free = await conversation({ assignee: null });
    expect((await post(ana, free.id, 'resolve')).statusCode).toBe(200);
    await settle();
    expect(changes.at(-1)).toEqual({
      companyId,
      clientId: free.clientId,
      changed: ['status'],
      wasUnassigned: true,
    });
    expect((await post(cast.admin, 999_999, 'reopen')).statusCode).toBe(404);
  });

  it('reads a page of each view from its index, never sorting the company (no search, or a search walking the view)', async () => {
    const pg = ctx.engine === 'postgres';
    const cases = [
      ['mine', 'conversations_assignee_view_idx', { kind: 'all' }],
      ['unassigned', 'conversations_assignee_view_idx', { kind: 'all' }],
      ['all', 'conversations_view_idx', { kind: 'all' }],
      ['all', 'conversations_view_idx', { kind: 'own', userId: ana.user.id }],
      ['resolved', 'conversations_view_idx', { kind: 'all' }],
    ] as const;
    // A search with many candidates walks the same index in its order, testing each client.
    const searched = [undefined, 'lu'] as const;
    for (const [view, index, visibility] of cases)
      for (const search of searched) {
        const { sql: text, parameters } = ctx.container.inboxRepository
          .pageQuery(companyId, {
            view,
            userId: ana.user.id,
            visibility,
            limit: 50,
            offset: 0,
            ...(search ? { search, from: 'conversations' as const } : {}),
          })
          .compile();
        const rows = await ctx.container.db.transaction().execute(async (trx) => {
          // On tables this small PostgreSQL would rather scan and sort: ask for the plan it takes when it
          // must not (a sort still shows when no index gives the order).
          if (pg)
            for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort'])
              await sql`set local ${sql.raw(setting)} = off`.execute(trx);
          return (
            await trx.executeQuery<Record<string, string>>(
              CompiledQuery.raw(`${pg ? 'explain' : 'explain query plan'} ${text}`, [...parameters]),
            )
          ).rows;
        });
        const plan = rows.map((r) => r.detail ?? r['QUERY PLAN']).join(' | ');
        // PostgreSQL on a near-empty table may take either inbox index for 'unassigned'; both give the order.
        if (pg) expect(plan, view).toMatch(/conversations_(assignee_)?view_idx/);
        else expect(plan, view).toContain(index);
        expect(plan, view).not.toMatch(/TEMP B-TREE|Sort/);
      }
  });

  it('lets only the company team in', async () => {
    const c = await conversation({ assignee: null });
    const matrix = { anonymous: 401, client: 403, superAdmin: 403, otherAdmin: 404, admin: 200 } as const;
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'POST', url: `/api/v1/admin/conversations/${c.id}/reopen` },
      matrix,
    );
    await expectRoleMatrix(
      ctx,
      cast,
      { method: 'GET', url: '/api/v1/admin/conversations' },
      { ...matrix, otherAdmin: 200 },
    );
    // The other company's admin lists their own (empty) inbox.
    expect((await list(cast.otherAdmin)).data).toEqual([]);
  });
});
