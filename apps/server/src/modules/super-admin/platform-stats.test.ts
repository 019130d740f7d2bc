import { MESSAGE_STATUS } from '@hablabot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../test/clients-factories';
import { type CastApi, createCastApi } from '../../../test/http';
import { SUPER_ADMIN_ONLY, expectRoleMatrix } from '../../../test/role-matrix';

let t: CastApi;
const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const dayKey = (d: Date) => d.toISOString().slice(0, 10);

type Sender = 'client' | 'admin' | 'bot';
async function insertMessages(
  companyId: number,
  rows: { sender: Sender; at: Date; status?: number; count?: number }[],
) {
  const client = await createClient(t.api, companyId);
  const values = rows.flatMap((r) =>
    Array.from({ length: r.count ?? 1 }, () => ({
      company_id: companyId,
      client_id: client.id,
      sender_type: r.sender,
      message_type: 'text',
      wa_type: 'text',
      content: 'hola',
      phone: client.whatsapp_cellphone,
      status: r.status ?? (r.sender === 'client' ? MESSAGE_STATUS.read : MESSAGE_STATUS.sent),
      created_at: r.at.toISOString(),
      updated_at: r.at.toISOString(),
    })),
  );
  await t.api.container.db.insertInto('messages').values(values).execute();
}

beforeAll(async () => {
  t = await createCastApi();
  // Company A: today 3 received, 2 by the bot (one failed), 1 by an admin; earlier this month
  // (when this month has an earlier day) 2 received; last month 5 received (not counted).
  const a = t.companyA;
  const earlierThisMonth = todayStart.getTime() > monthStart.getTime() ? monthStart : null;
  await insertMessages(a, [
    { sender: 'client', at: new Date(todayStart.getTime() + 1000), count: 3 },
    { sender: 'bot', at: new Date(todayStart.getTime() + 2000) },
    { sender: 'bot', at: new Date(todayStart.getTime() + 3000), status: MESSAGE_STATUS.failed },
    { sender: 'admin', at: new Date(todayStart.getTime() + 4000) },
    ...(earlierThisMonth ? [{ sender: 'client' as const, at: earlierThisMonth, count: 2 }] : []),
    { sender: 'client', at: new Date(monthStart.getTime() - 1), count: 5 },
  ]);
  // Company B: 4 received 3 days ago, 1 bot message 40 days ago (outside the chart).
  await insertMessages(t.companyB, [
    { sender: 'client', at: new Date(todayStart.getTime() - 3 * DAY + 5000), count: 4 },
    { sender: 'bot', at: new Date(todayStart.getTime() - 40 * DAY) },
  ]);
  // Company A's WhatsApp settings are filled in; company B has none.
  await t.api.container.db
    .insertInto('channels')
    .values({
      company_id: a,
      phone_number_id: '1234567890',
      access_token_enc: 'sealed',
      api_url: 'https://graph.facebook.com/v21.0',
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .execute();
});
afterAll(async () => {
  await t.api.close();
});

describe(`super-admin figures (${process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'})`, () => {
  for (const route of [
    { method: 'GET', url: '/api/v1/super-admin/overview' },
    { method: 'GET', url: '/api/v1/super-admin/analytics' },
    { method: 'GET', url: '/api/v1/super-admin/companies/overview' },
    { method: 'PUT', url: '/api/v1/super-admin/companies/1', payload: { name: 'X' } },
  ] as const) {
    it(`${route.method} ${route.url} is for the super admin only`, async () => {
      await expectRoleMatrix(t.api, t.cast, { ...route }, SUPER_ADMIN_ONLY);
    });
  }

  it('counts this month’s messages, the bots’ messages today, users and companies', async () => {
    const res = await t.as('superAdmin', 'GET', '/super-admin/overview');
    expect(res.statusCode).toBe(200);
    const earlier = todayStart.getTime() > monthStart.getTime() ? 2 : 0;
    const inB = todayStart.getTime() - 3 * DAY >= monthStart.getTime() ? 4 : 0;
    expect(res.json().data).toEqual({
      messages_this_month: 3 + 2 + 1 + earlier + inB,
      bot_interactions_today: 2,
      users: 4,
      companies: 2,
    });
  });

  it('gives 30 days of messages, today last, for every company or one', async () => {
    const all = await t.as('superAdmin', 'GET', '/super-admin/analytics');
    expect(all.statusCode).toBe(200);
    const body = all.json().data;
    expect(body.days).toHaveLength(30);
    expect(body.to).toBe(dayKey(todayStart));
    expect(body.from).toBe(dayKey(new Date(todayStart.getTime() - 29 * DAY)));
    expect(body.company_id).toBeNull();
    const byDay = Object.fromEntries(body.days.map((d: { day: string }) => [d.day, d]));
    expect(byDay[dayKey(todayStart)]).toEqual({
      day: dayKey(todayStart),
      received: 3,
      sent_by_admins: 1,
      sent_by_bots: 1,
      failed: 1,
    });
    expect(byDay[dayKey(new Date(todayStart.getTime() - 3 * DAY))].received).toBe(4);
    const total = body.days.reduce((n: number, d: { received: number }) => n + d.received, 0);
    // Last month's 5 fall inside the 30 days only when the month started less than 30 days ago.
    const lastMonthIn = monthStart.getTime() - 1 >= todayStart.getTime() - 29 * DAY ? 5 : 0;
    const earlier = todayStart.getTime() > monthStart.getTime() ? 2 : 0;
    expect(total).toBe(3 + 4 + earlier + lastMonthIn);

    const onlyB = (await t.as('superAdmin', 'GET', `/super-admin/analytics?company_id=${t.companyB}`)).json()
      .data;
    expect(onlyB.company_id).toBe(t.companyB);
    expect(onlyB.days.reduce((n: number, d: { received: number }) => n + d.received, 0)).toBe(4);
    expect(onlyB.days.reduce((n: number, d: { sent_by_bots: number }) => n + d.sent_by_bots, 0)).toBe(0);
  });

  it('answers 404 for an unknown company and 422 for a malformed one', async () => {
    expect((await t.as('superAdmin', 'GET', '/super-admin/analytics?company_id=999999')).statusCode).toBe(
      404,
    );
    expect((await t.as('superAdmin', 'GET', '/super-admin/analytics?company_id=abc')).statusCode).toBe(422);
  });

  it('lists companies with admins, clients, this month’s messages and WhatsApp state', async () => {
    const res = await t.as('superAdmin', 'GET', '/super-admin/companies/overview');
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as {
      id: number;
      admins: { id: number }[];
      clients_count: number;
      messages_this_month: number;
      whatsapp_configured: boolean;
      last_webhook_at: string | null;
    }[];
    const a = rows.find((c) => c.id === t.companyA)!;
    const b = rows.find((c) => c.id === t.companyB)!;
    expect(a.admins.map((u) => u.id)).toEqual([t.cast.admin.user.id]);
    expect(a.clients_count).toBe(1);
    expect(a.messages_this_month).toBe(3 + 2 + 1 + (todayStart.getTime() > monthStart.getTime() ? 2 : 0));
    expect(a.whatsapp_configured).toBe(true);
    expect(a.last_webhook_at).toBe(new Date(todayStart.getTime() + 1000).toISOString());
    expect(b.whatsapp_configured).toBe(false);
    expect(b.admins.map((u) => u.id)).toEqual([t.cast.otherAdmin.user.id]);
  });

  it('renames a company, refusing a name another company has', async () => {
    const taken = (await t.api.container.companies.findCompanyById(t.companyB))!.name;
    const refused = await t.as('superAdmin', 'PUT', `/super-admin/companies/${t.companyA}`, { name: taken });
    expect(refused.statusCode).toBe(409);
    const res = await t.as('superAdmin', 'PUT', `/super-admin/companies/${t.companyA}`, {
      name: 'Acme Norte',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Compañía actualizada con éxito.' });
    expect((await t.api.container.companies.findCompanyById(t.companyA))!.name).toBe('Acme Norte');
    expect((await t.as('superAdmin', 'PUT', '/super-admin/companies/999999', { name: 'Z' })).statusCode).toBe(
      404,
    );
  });
});
