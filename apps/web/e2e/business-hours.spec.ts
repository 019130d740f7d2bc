import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// Business hours and the hand-off in the browser, against the real server: the 'Horario de atención'
// screen (a range added, a wrong one refused on its field, saved) at 1280 px in Spanish and 375 px in
// English; and a customer asking for a person through the signed webhook raises the chat's live notice.

const WA_TOKEN = 'EAAG-e2e-hours-token-0001';
const APP_SECRET = 'e2e-hours-app-secret-0001';

// axe is injected as a script tag.
test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'hours', name: 'Marta Horarios', company: 'Horarios' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

const uniquePhone = () => `34${String(6e8 + Math.floor(Math.random() * 1e8))}`;
const uniqueName = (first: string) => `${first} ${Math.random().toString(36).slice(2, 7)}`;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Tienda Horarios',
    templates: [],
  }));
  // A live bot answers the company's customers: a hand-off phrase hands them to the team.
  await api('POST', '/admin/bot', { bot_name: 'Sofía', personality: 'Eres Sofía.' }, admin.token);
});
test.afterAll(async () => {
  await graph?.close();
});

const SCREENS = [
  {
    language: 'es',
    width: 1280,
    addTuesday: 'Añadir horario el Martes',
    closes: 'Cierra (Martes)',
    order: 'La hora de cierre debe ser posterior a la de apertura.',
    save: 'Guardar horario',
    saved: 'Horario de atención guardado.',
    title: 'Horario de atención',
  },
  {
    language: 'en',
    width: 375,
    addTuesday: 'Add hours on Tuesday',
    closes: 'Closes (Tuesday)',
    order: 'The closing time must be after the opening time.',
    save: 'Save hours',
    saved: 'Business hours saved.',
    title: 'Business hours',
  },
] as const;

for (const x of SCREENS) {
  test(`business hours screen at ${x.width}px (${x.language}): a wrong range refused, then saved`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: x.width, height: 900 });
    // The company's hours start empty (the other language's run may have saved some).
    const empty = { timezone: 'UTC', days: [], holidays: [], away_enabled: false, away_message: 'Cerrado.' };
    await api('PUT', '/admin/business-hours', { ...empty, away_with_bot: false }, admin.token);
    await openSession(page, admin, x.language);
    await page.goto('/admin/setting/business-hours');
    await expect(page.getByRole('heading', { name: x.title, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: x.addTuesday }).click();
    await page.getByLabel(x.closes).last().fill('08:00');
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByText(x.order)).toBeVisible();
    await page.getByLabel(x.closes).last().fill('18:00');
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByText(x.saved)).toBeVisible();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(x.width);
    expect(await seriousViolations(page)).toEqual([]);
    const saved = await api<{ data: { days: { day: number }[] } }>(
      'GET',
      '/admin/business-hours',
      undefined,
      admin.token,
    );
    expect(saved.data.days.filter((d) => d.day === 2).length).toBeGreaterThan(0);
  });
}

const NOTICES = [
  {
    language: 'es',
    width: 1280,
    says: 'Quiero hablar con un agente',
    notice: 'pidió hablar con una persona',
  },
  { language: 'en', width: 375, says: 'I want a human please', notice: 'asked for a person' },
] as const;

for (const x of NOTICES) {
  test(`a customer asking for a person raises the chat's notice at ${x.width}px (${x.language})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: x.width, height: 800 });
    await openSession(page, admin, x.language);
    await page.goto('/admin/chat');
    const nora = { name: uniqueName('Nora'), phone: uniquePhone() };
    // The chat's stream is open before the customer writes.
    await expect(page.getByRole('searchbox')).toBeVisible();
    const { statuses } = await customer.text(nora.phone, x.says, { name: nora.name });
    expect(statuses).toEqual([200]);
    await expect(page.getByRole('status').filter({ hasText: x.notice })).toBeVisible();
    await expect
      .poll(() => graph.sent.filter((m) => m.to === nora.phone).length, { timeout: 10_000 })
      .toBe(1);
  });
}
