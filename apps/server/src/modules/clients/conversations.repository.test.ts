import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedClients, setConversation } from '../../../test/clients-factories';
import { type TestContext, createTestContext } from '../../../test/context';
import { createCast } from '../../../test/factories';
import { chatPageQuery } from './conversations.repository';

const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

describe(`conversations repository (${engine})`, () => {
  let ctx: TestContext;
  let companyId: number;
  let ids: number[];
  beforeAll(async () => {
    ctx = await createTestContext();
    const cast = await createCast(ctx);
    companyId = cast.admin.user.company_id!;
    // 30 clients: the first 20 written (the later the id, the later its last message), 10 never.
    ids = await seedClients(
      ctx,
      companyId,
      Array.from({ length: 30 }, (_, k) => ({
        name: `Cliente ${String.fromCharCode(90 - k)}`,
        last_names: '',
        whatsapp_cellphone: `34611${String(k).padStart(6, '0')}`,
        email: null,
      })),
    );
    for (const [k, id] of ids.slice(0, 20).entries())
      await setConversation(
        ctx,
        { id },
        { last_message_at: new Date(Date.UTC(2026, 10, 1, 0, k)).toISOString() },
      );
    await createCast(ctx).then((other) =>
      seedClients(ctx, other.admin.user.company_id!, [
        { name: 'Otra', last_names: '', whatsapp_cellphone: '34699999999', email: null },
      ]),
    );
  });
  afterAll(async () => {
    await ctx.close();
  });

  const page = async (limit: number, offset: number) =>
    (await ctx.container.clientsRepository.listForChat(companyId, { limit, offset })).map((c) => c.id);

  it('pages through the written conversations, latest first, then the never-written clients by name', async () => {
    const written = ids.slice(0, 20).reverse();
    // Names run Z, Y, X…: by name the never-written are the reverse of their ids.
    const never = ids.slice(20).reverse();
    const all = [...written, ...never];
    expect(await page(100, 0)).toEqual(all);
    for (const [limit, offset] of [
      [7, 0],
      [7, 14],
      [7, 21],
      [5, 20],
      [10, 25],
      [10, 40],
    ] as const)
      expect(await page(limit, offset), `${limit} from ${offset}`).toEqual(all.slice(offset, offset + limit));
  });

  it('reads a page of written conversations from conversations_chat_order_idx, never sorting the company', async () => {
    const { sql: text, parameters } = chatPageQuery(ctx.container.db, companyId, {
      limit: 50,
      offset: 0,
    }).compile();
    const pg = ctx.engine === 'postgres';
    const rows = await ctx.container.db.transaction().execute(async (trx) => {
      // On tables this small PostgreSQL would rather scan and sort: ask for the plan it takes when it must
      // not (a sort still shows when no index gives the order).
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
    expect(plan).toContain('conversations_chat_order_idx');
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
