import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { openConversation } from './support/chat';

// 'Programar envío' in /admin/chat against the real server and the loopback fake of the WhatsApp Cloud
// API: a message scheduled from the composer shows 'Programado para …' with 'Editar' and 'Cancelar',
// nothing reaches WhatsApp, and a cancel takes it out of the conversation. At 1280px in Spanish and
// 375px in English.

const WA_TOKEN = 'EAAG-e2e-chat-schedule-token-0001';
const APP_SECRET = 'e2e-chat-schedule-app-secret-0001';

// axe is injected as an inline script, which the server's CSP forbids; these tests bypass it.
test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'chatschedule', name: 'Sara Programa', company: 'Programados' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Tienda Programada',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

const texts = {
  es: {
    search: 'Buscar clientes...',
    more: 'Más opciones',
    schedule: 'Programar envío',
    confirm: 'Programar',
    scheduledFor: /^Programado para /,
    edit: 'Editar',
    cancel: 'Cancelar',
    cancelSend: 'Cancelar envío',
  },
  en: {
    search: 'Search clients...',
    more: 'More options',
    schedule: 'Schedule send',
    confirm: 'Schedule',
    scheduledFor: /^Scheduled for /,
    edit: 'Edit',
    cancel: 'Cancel',
    cancelSend: 'Cancel send',
  },
} as const;

for (const [language, width] of [
  ['es', 1280],
  ['en', 375],
] as const) {
  test(`at ${width}px in ${language}: schedule a message, see it waiting, cancel it`, async ({
    page,
  }, testInfo) => {
    const t = texts[language];
    await page.setViewportSize({ width, height: 900 });
    const name = `Paula ${Math.random().toString(36).slice(2, 7)}`;
    const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    const first = await customer.text(phone, '¿Me avisáis mañana?', { name });
    expect(first.statuses).toEqual([200]);

    await openSession(page, admin, language);
    await page.goto('/admin/chat');
    const conversation = await openConversation(page, name, t.search);
    await conversation.getByRole('textbox').fill('Mañana a las 10 tenemos tu pedido.');
    await conversation.getByRole('button', { name: t.more }).click();
    await page.getByRole('menuitem', { name: t.schedule }).click();
    const dialog = page.getByRole('dialog', { name: t.schedule });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // The suggested time (the next full hour at least 30 minutes away) is taken as it is.
    await dialog.getByRole('button', { name: t.confirm, exact: true }).click();
    await expect(dialog).toHaveCount(0);

    const bubble = conversation.locator('.chat-message', { hasText: 'Mañana a las 10 tenemos tu pedido.' });
    const info = bubble.getByTestId('scheduled-info');
    await expect(info.locator('.chat-bubble__scheduled-when')).toHaveText(t.scheduledFor);
    await expect(info.getByRole('button', { name: t.edit })).toBeVisible();
    await expect(info.getByRole('button', { name: t.cancel })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(graph.sent.filter((m) => m.to === phone)).toHaveLength(0);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(width);
    await page.screenshot({ path: testInfo.outputPath(`chat-schedule-${width}-${language}.png`) });

    await info.getByRole('button', { name: t.cancel }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: t.cancelSend }).click();
    await expect(bubble).toHaveCount(0);
    // Read again from the server: it is gone there too.
    await page.reload();
    await openConversation(page, name, t.search);
    await expect(page.getByRole('region', { name }).getByText('¿Me avisáis mañana?')).toBeVisible();
    await expect(
      page.getByRole('region', { name }).getByText('Mañana a las 10 tenemos tu pedido.'),
    ).toHaveCount(0);
    expect(graph.sent.filter((m) => m.to === phone)).toHaveLength(0);
  });
}
