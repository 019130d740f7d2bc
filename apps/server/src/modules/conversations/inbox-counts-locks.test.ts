import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, setConversation } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { type TestUser, createCast, createUser } from '../../../test/factories';
import { waitFor } from '../../../test/wait';

// Assignment changes in opposite directions at the same time never deadlock on the inbox's counters
// (`inbox_counts`, kept by a trigger that takes its row locks in one order). PostgreSQL only: SQLite
// writes one transaction at a time.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'inbox counters under opposite assignments (postgres)',
  () => {
    let ctx: TestContext;
    let cast: Awaited<ReturnType<typeof createCast>>;
    let companyId: number;
    let ana: TestUser;
    let beto: TestUser;
    /** Ends the transaction holding a counter row (also when a test failed before it did). */
    let release = () => {};

    beforeAll(async () => {
      ctx = await createTestContext();
      cast = await createCast(ctx);
      companyId = cast.admin.user.company_id!;
      ana = await createUser(ctx, { role: 'agent', companyId, name: 'Ana Agente' });
      beto = await createUser(ctx, { role: 'agent', companyId, name: 'Beto Agente' });
    });
    afterAll(async () => {
      release();
      await ctx.close();
    });

    /** A listed conversation (it has a message) held by `who`. */
    async function held(who: TestUser): Promise<number> {
      const client = await createClient(ctx, companyId);
      await setConversation(ctx, client, {
        last_message_at: new Date().toISOString(),
        last_message_content: 'hola',
      });
      const row = await ctx.container.db
        .updateTable('conversations')
        .set({ assignee_user_id: who.user.id })
        .where('client_id', '=', client.id)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }

    const counts = async () =>
      Object.fromEntries(
        (
          await ctx.container.db
            .selectFrom('inbox_counts')
            .select(['assignee_user_id', 'n'])
            .where('company_id', '=', companyId)
            .where('status', '=', 'open')
            .execute()
        ).map((r) => [r.assignee_user_id, Number(r.n)]),
      );

    const assign = (id: number, to: TestUser) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/admin/conversations/${id}/assign`,
        headers: cast.admin.headers,
        payload: { user_id: to.user.id },
      });

    it('two changes queued behind the same counter row both finish (no deadlock)', async () => {
      const fromAna = await held(ana);
      const fromBeto = await held(beto);
      let holderPid = 0;
      /** How many sessions wait for the holder (or for one that waits for it). */
      const waiting = async () =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from pg_stat_activity a
            where ${holderPid} = any(pg_blocking_pids(a.pid)) or exists (select 1 from pg_stat_activity b
              where b.pid = any(pg_blocking_pids(a.pid)) and ${holderPid} = any(pg_blocking_pids(b.pid)))`.execute(
              ctx.container.db,
            )
          ).rows[0]!.n,
        );
      const released = new Promise<void>((r) => {
        release = r;
      });
      let locked = () => {};
      const holding = new Promise<void>((r) => {
        locked = r;
      });
      // Another transaction holds Ana's counter row; both changes queue behind it, then run together.
      const holder = ctx.container.db.transaction().execute(async (trx) => {
        holderPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        await sql`select n from inbox_counts where company_id = ${companyId} and status = 'open'
        and assignee_user_id = ${ana.user.id} for update`.execute(trx);
        locked();
        await released;
      });
      const move = (id: number, to: TestUser) =>
        ctx.container.db
          .updateTable('conversations')
          .set({ assignee_user_id: to.user.id })
          .where('id', '=', id)
          .execute();
      await holding;
      const first = move(fromAna, beto);
      await waitFor(async () => (await waiting()) === 1);
      const second = move(fromBeto, ana);
      await waitFor(async () => (await waiting()) === 2);
      release();
      const results = await Promise.allSettled([holder, first, second]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual([
        'ok',
        'ok',
        'ok',
      ]);
      expect(await counts()).toMatchObject({ [ana.user.id]: 1, [beto.user.id]: 1 });
    });

    it('many opposite assign calls at once all answer 200 and leave the counts right', async () => {
      await ctx.container.db.deleteFrom('conversations').execute();
      const anas = await Promise.all(Array.from({ length: 8 }, () => held(ana)));
      const betos = await Promise.all(Array.from({ length: 8 }, () => held(beto)));
      for (let round = 0; round < 2; round++) {
        const [give, take] = round % 2 === 0 ? [beto, ana] : [ana, beto];
        const answers = await Promise.all([
          ...anas.map((id) => assign(id, give)),
          ...betos.map((id) => assign(id, take)),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      }
      expect(await counts()).toMatchObject({ [ana.user.id]: 8, [beto.user.id]: 8 });
    }, 90_000);
  },
);
