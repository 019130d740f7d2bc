import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// A WhatsApp token Meta refuses (190, expired or revoked), against the real server and the loopback
// fake of the Cloud API: a send refused with 190 marks the company's token, every admin screen shows the
// banner with a link to the settings, and a connection test that works there takes it away. At 1280 px
// in Spanish and at 375 px in English.

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

for (const [language, width] of [
  ['es', 1280],
  ['en', 375],
] as const) {
  test(`a 190 on a send puts the banner on every admin screen; a connection test clears it (${language}, ${width} px)`, async ({
    page,
  }) => {
    const x = TEXTS[language];
    await page.setViewportSize({ width, height: 800 });
    await sendRefusedWith190();
    await openSession(page, admin, language);
    await page.goto('/admin/clients');
    // The first screen of a cold start can take a while on a busy machine.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });
    const banner = page.getByRole('alert').filter({ hasText: x.banner });
    await expect(banner).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // It follows the admin from screen to screen, and its link leads to the settings.
    await page.goto('/admin/templates');
    await expect(banner).toBeVisible();
    await banner.getByRole('link', { name: x.link }).click();
    await expect(page).toHaveURL(/\/admin\/setting$/);
    await expect(page.getByRole('heading', { name: x.settingsTitle, level: 1 })).toBeVisible();
    await expect(banner).toBeVisible();
    // The stored token works again: the test says so and the banner goes at once.
    await page.getByRole('button', { name: x.test }).click();
    await expect(page.getByText(x.ok)).toBeVisible();
    await expect(banner).toHaveCount(0);
    const setting = await api<{ whatsapp_status: string }>('GET', '/admin/setting', undefined, admin.token);
    expect(setting.whatsapp_status).toBe('ok');
  });
}
