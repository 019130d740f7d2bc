import { MESSAGE_STATUS, ZAdminHomeSummaryResponse } from '@hablabot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '../../../test/bots-factories';
import { createClient, setConversation } from '../../../test/clients-factories';
import { type CastApi, createCastApi } from '../../../test/http';
import { ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';
import { createAdminHomeRepository } from './admin-home.repository';
import { createAdminHomeService } from './admin-home.service';

let t: CastApi;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

type Sender = 'client' | 'admin' | 'bot';

/** A client of the company with `unread` customer messages not read yet, and these messages. */
async function clientWith(companyId: number, unread: number, messages: { sender: Sender; at: Date }[]) {
  const client = await createClient(t.api, companyId);
  const db = t.api.container.db;
  await setConversation(t.api, client, { unread_count: unread });
  if (messages.length === 0) return;
  await db
    .insertInto('messages')
    .values(
      messages.map((m) => ({
        company_id: companyId,
        client_id: client.id,
        sender_type: m.sender,
        message_type: 'text',
        wa_type: 'text',
        content: 'hola',
        phone: client.whatsapp_cellphone,
        status: m.sender === 'client' ? MESSAGE_STATUS.delivered : MESSAGE_STATUS.sent,
        created_at: m.at.toISOString(),
        updated_at: m.at.toISOString(),
      })),
    )
    .execute();
}

async function massMessage(companyId: number, name: string, status: string, counts: Record<string, number>) {
  const at = new Date().toISOString();
  await t.api.container.db
    .insertInto('mass_messages')
    .values({
      company_id: companyId,
      name,
      status,
      list_id: null,
      list_name: 'Lista',
      template_id: null,
      template_name: 'plantilla',
      template_language: 'es',
      template_body: 'Hola',
      body_parameters: '{}',
      message: 'Hola',
      messages_per_second: 80,
      counts: JSON.stringify(counts),
      created_at: at,
      updated_at: at,
    })
    .execute();
}

beforeAll(async () => {
  t = await createCastApi();
  const a = t.companyA;
  const today = (ms: number) => new Date(todayStart.getTime() + ms);
  // Company A: two unread conversations; today 2 received, 1 by the bot, 1 by an admin; yesterday 3.
  await clientWith(a, 2, [
    { sender: 'client', at: today(1000) },
    { sender: 'client', at: today(2000) },
    { sender: 'bot', at: today(3000) },
  ]);
  await clientWith(a, 1, [
    { sender: 'admin', at: today(4000) },
    { sender: 'client', at: new Date(todayStart.getTime() - 1) },
    { sender: 'client', at: new Date(todayStart.getTime() - DAY) },
    { sender: 'bot', at: new Date(todayStart.getTime() - 2 * DAY) },
  ]);
  await clientWith(a, 0, []);
  await massMessage(a, 'Primera', 'completed', { total: 10, sent: 10 });
  await massMessage(a, 'Promo de otoño', 'sending', { total: 100, sent: 40, queued: 60 });
  // Its first bot is paused, its second answers.
  await createBot(t.api, a, { bot_name: 'Dormido', state: 0 });
  await createBot(t.api, a, { bot_name: 'Sofía' });
  // Company B: its own figures, none of which may show in A's.
  await clientWith(t.companyB, 5, [{ sender: 'client', at: today(5000) }]);
  await massMessage(t.companyB, 'De otra compañía', 'paused', { total: 1 });
  await createBot(t.api, t.companyB, { bot_name: 'Ajeno' });
});
afterAll(async () => {
  await t.api.close();
});

describe(`admin home figures (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  it('GET /admin/home-summary is for company admins only', async () => {
    await expectRoleMatrix(t.api, t.cast, { method: 'GET', url: '/api/v1/admin/home-summary' }, ADMIN_ONLY);
  });

  it("answers the admin's company figures: unread conversations, today's messages, the last send, the live bot", async () => {
    const res = await t.as('admin', 'GET', '/admin/home-summary');
    expect(res.statusCode).toBe(200);
    const body = ZAdminHomeSummaryResponse.parse(res.json());
    expect(body.data).toMatchObject({
      unread_conversations: 2,
      messages_today: 4,
      last_mass_send: { name: 'Promo de otoño', status: 'sending', scheduled_at: null },
      live_bot: { name: 'Sofía' },
    });
    expect(body.data.last_mass_send!.counts).toMatchObject({ total: 100, sent: 40, queued: 60, failed: 0 });

    const other = ZAdminHomeSummaryResponse.parse(
      (await t.as('otherAdmin', 'GET', '/admin/home-summary')).json(),
    );
    expect(other.data).toMatchObject({
      unread_conversations: 1,
      messages_today: 1,
      last_mass_send: { name: 'De otra compañía', status: 'paused' },
      live_bot: { name: 'Ajeno' },
    });
  });

  it('counts today from midnight UTC by the clock it is given, and answers nulls for a company with nothing', async () => {
    const service = createAdminHomeService({
      repository: createAdminHomeRepository(t.api.container.db),
      now: () => new Date(todayStart.getTime() - 1000),
    });
    // Seen from a second before midnight, the day began a day earlier: yesterday's two messages count too.
    expect((await service.summary(t.companyA)).messages_today).toBe(4 + 2);
    const empty = (await t.api.container.db
      .insertInto('companies')
      .values({ name: 'Vacía', created_at: now.toISOString(), updated_at: now.toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow())!;
    expect(await service.summary(empty.id)).toEqual({
      unread_conversations: 0,
      messages_today: 0,
      last_mass_send: null,
      live_bot: null,
    });
  });

  it('counts unread conversations from the partial index of unread conversations, not the whole company', async () => {
    const db = t.api.container.db;
    const pg = t.api.container.infra.database.engine === 'postgres';
    const query = sql`select count(*) from conversations c where c.company_id = ${t.companyA} and c.unread_count > 0`;
    const rows = await db.transaction().execute(async (trx) => {
      // On a table this small PostgreSQL would rather scan it: ask for the plan it takes when it must not.
      if (pg) await sql`set local enable_seqscan = off`.execute(trx);
      return (
        await sql<Record<string, unknown>>`explain ${pg ? sql`` : sql`query plan `}${query}`.execute(trx)
      ).rows;
    });
    expect(JSON.stringify(rows)).toContain('conversations_company_unread_idx');
  });
});
