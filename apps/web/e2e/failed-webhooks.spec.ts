import path from 'node:path';
import Database from 'better-sqlite3';
import type { FakeGraphApi } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, type Session } from './support/api';
import { expect, signInAs, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// 'Webhooks fallidos' as the super admin uses it, against the real server: a WhatsApp delivery that ran
// out of retries is listed with its company, content, attempts and error; 'Reintentar' processes it at
// once (the customer's message reaches the company's chat) and the list is empty again — on a desktop in
// Spanish and on a phone (375 px) in English.

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
