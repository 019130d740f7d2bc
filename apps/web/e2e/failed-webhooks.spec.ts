import path from 'node:path';
import Database from 'better-sqlite3';
import type { FakeGraphApi } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, type Session } from './support/api';
import { expect, signInAs, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// 'Webhooks fallidos' as the super admin uses it, against the real server: a WhatsApp delivery that ran
// out of retries is listed with its company, content, attempts and error; 'Reintentar' processes it at
// once (the customer's message reaches the company's chat) and the list is empty again — on a desktop in
// Spanish and on a phone (375 px) in English. Then 10,000 failed deliveries: the screen asks the server
// for one page at a time, newest first, forward, back and to the last page.
//
// The tests of this file run one after another: each reads the whole list.
test.describe.configure({ mode: 'serial' });

const companyAdmin = adminPerWorker({ key: 'webhooks', name: 'Wendy Webhooks', company: 'Webhooks SA' });
let graph: FakeGraphApi;
let admin: Session;
let phoneNumberId: string;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, phoneNumberId } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-webhooks-token-0001',
    appSecret: 'e2e-webhooks-app-secret-0001',
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Webhooks SA',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

/**
 * A delivery kept by the webhook whose processing failed on every try: written straight into the
 * server's database, as the inbox leaves one after its last retry (13 minutes of waits in real time).
 */
function failedDelivery(phone: string, text: string): number {
  const companyId = (admin.user as unknown as { company_id: number }).company_id;
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '1',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '34600778899', phone_number_id: phoneNumberId },
              contacts: [{ profile: { name: 'Cliente Reintento' }, wa_id: phone }],
              messages: [
                {
                  from: phone,
                  id: `wamid.e2e.replay.${phone}`,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'text',
                  text: { body: text },
                },
              ],
            },
          },
        ],
      },
    ],
  });
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'hablabot.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const at = new Date().toISOString();
    const row = db
      .prepare(
        `insert into webhook_deliveries (received_at, body, company_ids, status, attempts, next_attempt_at, last_error)
         values (?, ?, ?, 'failed', 6, ?, 'database is locked') returning id`,
      )
      .get(at, body, String(companyId), at) as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

for (const [language, width] of [
  ['es', 1280],
  ['en', 375],
] as const) {
  test(`lists a failed delivery and replays it (${language}, ${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    const phone = `3469${String(Date.now()).slice(-7)}`;
    const text = `Reintento ${language} ${phone}`;
    const id = failedDelivery(phone, text);
    await signInAs(page, 'super_admin', { language });
    await page.goto('/super-admin/webhooks');
    const es = language === 'es';
    await expect(
      page.getByRole('heading', { level: 1, name: es ? 'Webhooks fallidos' : 'Failed webhooks' }),
    ).toBeVisible();
    const replay = page.getByRole('button', {
      name: es ? `Reintentar la entrega ${id}` : `Replay delivery ${id}`,
    });
    await expect(replay).toBeVisible();
    await expect(page.getByText('database is locked').first()).toBeVisible();
    await expect(page.getByText(es ? '1 mensaje, 0 estados' : '1 message, 0 statuses').first()).toBeVisible();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await replay.click();
    await expect(page.getByText(es ? 'Entrega reintentada.' : 'Delivery replayed.')).toBeVisible();
    await expect(replay).toHaveCount(0);
    // The customer's message is in the company's chat now.
    const clients = await api<{
      clients: { whatsapp_cellphone: string; last_message_content: string | null }[];
    }>('GET', `/admin/client?search=${phone}`, undefined, admin.token);
    expect(clients.clients.find((c) => c.whatsapp_cellphone === phone)?.last_message_content).toBe(text);
  });
}

/** The super admin's token the global setup signed in. */
async function superAdminToken(): Promise<string> {
  const sessions = JSON.parse(process.env.E2E_SESSIONS ?? '{}') as Record<string, Session>;
  return sessions.super_admin!.token;
}

/** `count` failed deliveries written at once, as the inbox leaves them; their ids, oldest first. */
function manyFailedDeliveries(count: number): number[] {
  const companyId = (admin.user as unknown as { company_id: number }).company_id;
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'hablabot.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const at = new Date().toISOString();
    const insert = db.prepare(
      `insert into webhook_deliveries (received_at, body, company_ids, status, attempts, next_attempt_at, last_error)
       values (?, '{}', ?, 'failed', 6, ?, ?) returning id`,
    );
    return db.transaction(() =>
      Array.from(
        { length: count },
        (_, n) => (insert.get(at, String(companyId), at, `e2e paging ${n + 1}`) as { id: number }).id,
      ),
    )();
  } finally {
    db.close();
  }
}

/** Takes the deliveries of the paging test out of the list again (done, as if replayed). */
function settle(ids: number[]) {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, 'hablabot.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      `update webhook_deliveries set status = 'done' where id between ? and ? and last_error like 'e2e paging %'`,
    ).run(ids[0], ids.at(-1));
  } finally {
    db.close();
  }
}

test('pages 10,000 failed deliveries on the server, newest first (es, 1280 px)', async ({ page }) => {
  test.slow();
  const ids = manyFailedDeliveries(10_000);
  try {
    const newest = ids.at(-1)!;
    const listed = await api<{ pagination: { total: number; last_page: number } }>(
      'GET',
      '/super-admin/webhook-deliveries?status=failed&page=1&per_page=50',
      undefined,
      await superAdminToken(),
    );
    expect(listed.pagination.total).toBeGreaterThanOrEqual(10_000);
    const requested: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/super-admin/webhook-deliveries')) requested.push(new URL(r.url()).search);
    });
    await signInAs(page, 'super_admin', { language: 'es' });
    await page.goto('/super-admin/webhooks');
    const row = (id: number) =>
      page.getByRole('button', { name: `Reintentar la entrega ${id}`, exact: true });
    await expect(row(newest)).toBeVisible({ timeout: 20_000 });
    await expect(
      page.getByText(`Entregas fallidas: ${listed.pagination.total}, las más recientes primero.`),
    ).toBeVisible();
    await expect(page.getByRole('row')).toHaveCount(51);
    await expect(row(newest - 50)).toHaveCount(0);
    // Forward: the next 50, asked for as page 2.
    await page.getByRole('button', { name: 'Página siguiente' }).click();
    await expect(row(newest - 50)).toBeVisible();
    await expect(row(newest)).toHaveCount(0);
    expect(requested).toContain('?status=failed&page=2&per_page=50');
    // Back to the first.
    await page.getByRole('button', { name: 'Página anterior' }).click();
    await expect(row(newest)).toBeVisible();
    // The last page: the oldest failed deliveries (ours are the oldest unless older ones were left).
    await page.getByRole('button', { name: 'Última página' }).click();
    await expect
      .poll(() => requested.at(-1))
      .toBe(`?status=failed&page=${listed.pagination.last_page}&per_page=50`);
    const last = await api<{ data: { id: number }[] }>(
      'GET',
      `/super-admin/webhook-deliveries?status=failed&page=${listed.pagination.last_page}&per_page=50`,
      undefined,
      await superAdminToken(),
    );
    await expect(row(last.data.at(-1)!.id)).toBeVisible();
    await expect(row(newest)).toHaveCount(0);
  } finally {
    settle(ids);
  }
});
