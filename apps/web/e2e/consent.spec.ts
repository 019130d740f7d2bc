import type { Page } from '@playwright/test';
import { type FakeGraphApi, fakeTemplate, type WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { openConversation } from './support/chat';

// Consent in the browser, against the real server and the loopback fake of the WhatsApp Cloud API: a
// customer writes STOP through the signed webhook, the open chat shows 'Dado de baja' and the opt-out
// reply, and a template to them asks the agent to confirm before it goes.

const WA_TOKEN = 'EAAG-e2e-consent-token-0001';
const APP_SECRET = 'e2e-consent-app-secret-0001';

const companyAdmin = adminPerWorker({ key: 'consent', name: 'Lucía Bajas', company: 'Bajas' });

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
    displayPhoneNumber: '+34 600 44 55 66',
    verifiedName: 'Tienda Bajas',
    templates: [
      fakeTemplate({ name: 'novedades', body: 'Tenemos novedades para ti.', category: 'MARKETING' }),
    ],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

async function customerSays(phone: string, name: string, text: string) {
  const { statuses } = await customer.text(phone, text, { name });
  expect(statuses).toEqual([200]);
}

async function openChatOf(page: Page, name: string) {
  await openSession(page, admin, 'es');
  await page.goto('/admin/chat');
  return openConversation(page, name);
}

test('STOP through the webhook: the open chat shows "Dado de baja" and the reply; a template asks first', async ({
  page,
}) => {
  const eva = { name: uniqueName('Eva'), phone: uniquePhone() };
  await customerSays(eva.phone, eva.name, 'Hola, ¿qué tal?');
  const conversation = await openChatOf(page, eva.name);
  await expect(conversation.getByText('Dado de baja', { exact: true })).toHaveCount(0);

  await customerSays(eva.phone, eva.name, 'STOP');
  await expect(conversation.getByText('STOP', { exact: true })).toBeVisible();
  await expect(conversation.getByText(/Listo, ya no te enviaremos mensajes de campañas/)).toBeVisible();
  await expect(conversation.getByText('Dado de baja', { exact: true })).toBeVisible();

  // A template to her: the agent is asked, and only a confirmation sends it.
  await conversation.getByRole('button', { name: 'Más opciones' }).click();
  await page.getByRole('menuitem', { name: 'Mensaje plantilla' }).click();
  const modal = page.getByRole('dialog', { name: 'Mensaje plantilla' });
  await modal.getByRole('button', { name: 'Sincronizar Plantillas' }).click();
  await expect(modal.getByText('Plantillas sincronizadas exitosamente!')).toBeVisible();
  await modal.getByText('novedades').click();
  await modal.getByRole('button', { name: 'Enviar mensaje' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cliente dado de baja' });
  await expect(confirm.getByText(/se dio de baja de las campañas/)).toBeVisible();
  expect(graph.sent.filter((m) => m.to === eva.phone && m.type === 'template')).toHaveLength(0);
  await confirm.getByRole('button', { name: 'Enviar de todos modos' }).click();
  await expect(modal).toBeHidden();
  await expect(conversation.getByText('Tenemos novedades para ti.')).toBeVisible();
  expect(graph.sent.filter((m) => m.to === eva.phone && m.type === 'template')).toHaveLength(1);
});
