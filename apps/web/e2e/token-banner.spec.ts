import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// A WhatsApp token Meta refuses (190, expired or revoked), against the real server and the loopback
// fake of the Cloud API: a send refused with 190 marks the company's token and the open admin screen
// shows the banner live (the server's 'channel.whatsapp_status' event), with a link to the settings; a
// connection test that works — from the API or the screen's button — takes it away live. At 1280 px in
// Spanish and at 375 px in English.

const WA_TOKEN = 'EAAG-e2e-token-banner-0001';
const APP_SECRET = 'e2e-token-banner-app-secret';

const companyAdmin = adminPerWorker({ key: 'token-banner', name: 'Tomás Token', company: 'Token Caducado' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

const TEXTS = {
  es: {
    banner: 'El token de WhatsApp caducó o fue revocado — actualízalo en Configuración',
    link: 'Configuración',
    test: 'Probar conexión con WhatsApp',
    ok: /Conexión correcta con WhatsApp/,
    settingsTitle: 'Configuraciones',
  },
  en: {
    banner: 'The WhatsApp token expired or was revoked — update it in Settings',
    link: 'Settings',
    test: 'Test connection with WhatsApp',
    ok: /Connected to WhatsApp/,
    settingsTitle: 'Settings',
  },
} as const;

// axe is injected as a script, which the app's Content-Security-Policy refuses.
test.use({ bypassCSP: true });

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Tienda Token',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

/** A customer writes, then the company's answer is refused by Meta with 190. */
async function sendRefusedWith190() {
  const phone = `34${String(6e8 + Math.floor(Math.random() * 1e8))}`;
  const { statuses } = await customer.text(phone, 'Hola', { name: 'Cliente Token' });
  expect(statuses).toEqual([200]);
  // The webhook is stored first and processed right after: the client appears shortly.
  let clientId: number | undefined;
  await expect
    .poll(async () => {
      const { clients } = await api<{ clients: { id: number }[] }>(
        'GET',
        `/admin/client?search=${phone}`,
        undefined,
        admin.token,
      );
      clientId = clients[0]?.id;
      return clientId;
    })
    .toBeDefined();
  graph.failSends({ code: 190 });
  const sent = await api<{ data: { status: number; error: { code: number } | null } }>(
    'POST',
    '/admin/message',
    { content: 'Hola, ¿en qué te ayudo?', client_id: clientId },
    admin.token,
  );
  expect(sent.data).toMatchObject({ status: 4, error: { code: 190 } });
  const setting = await api<{ whatsapp_status: string }>('GET', '/admin/setting', undefined, admin.token);
  expect(setting.whatsapp_status).toBe('token_invalid');
}

/** A connection test of the stored token, through the API (another admin, another tab). */
async function connectionTestWorks() {
  const res = await api<{ success: boolean }>('POST', '/admin/setting/test/whatsapp', {}, admin.token);
  expect(res.success).toBe(true);
}

for (const [language, width] of [
  ['es', 1280],
  ['en', 375],
] as const) {
  test(`the banner comes and goes live on every admin screen as WhatsApp refuses or accepts the token (${language}, ${width} px)`, async ({
    page,
  }) => {
    // Two refusals and two connection tests against the server, besides the screens: more than the
    // default 30 s on a busy machine.
    test.slow();
    const x = TEXTS[language];
    await page.setViewportSize({ width, height: 800 });
    await connectionTestWorks();
    await openSession(page, admin, language);
    await page.goto('/admin/clients');
    // The first screen of a cold start can take a while on a busy machine.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
    const banner = page.getByRole('alert').filter({ hasText: x.banner });
    await expect(banner).toHaveCount(0);
    // A send refused with 190 elsewhere: the open screen shows the banner without a reload.
    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    await sendRefusedWith190();
    await expect(banner).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // It follows the admin from screen to screen, and its link leads to the settings.
    await banner.getByRole('link', { name: x.link }).click();
    await expect(page).toHaveURL(/\/admin\/setting$/);
    await expect(page.getByRole('heading', { name: x.settingsTitle, level: 1 })).toBeVisible();
    await expect(banner).toBeVisible();
    // A connection test made through the API works: the banner goes from this screen, live.
    await connectionTestWorks();
    await expect(banner).toHaveCount(0);
    // Refused again, then the screen's own test button: it comes back live, and goes at once.
    await sendRefusedWith190();
    await expect(banner).toBeVisible();
    await page.getByRole('button', { name: x.test }).click();
    await expect(page.getByText(x.ok)).toBeVisible();
    await expect(banner).toHaveCount(0);
    // None of it reloaded the page.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
    const setting = await api<{ whatsapp_status: string }>('GET', '/admin/setting', undefined, admin.token);
    expect(setting.whatsapp_status).toBe('ok');
  });
}
