import type { Page } from '@playwright/test';
import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// /admin/chat end to end against the real server, at 1280, 768 and 375px: the list from
// GET /admin/conversations (a client is in it once they wrote: the customer writes through the signed
// webhook), its view tabs, a conversation with its header, and the bot toggle.

// axe is injected as a script: the page's Content Security Policy is lifted for this file only.
test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'chat', name: 'Carla Chat', company: 'Chat' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-chat-token-0001',
    appSecret: 'e2e-chat-app-secret-0001',
    displayPhoneNumber: '+34 600 44 55 66',
    verifiedName: 'Tienda Chat',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

function uniquePhone(): string {
  return `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
}

/** A client of this test's own: Marta writes to the company. */
async function seed() {
  const phone = uniquePhone();
  const { statuses } = await customer.text(phone, 'Hola, ¿tienen cita mañana?', { name: 'Marta' });
  expect(statuses).toEqual([200]);
  return { phone };
}

async function openChat(page: Page) {
  const client = await seed();
  await openSession(page, admin, 'es');
  await page.goto('/admin/chat');
  return client;
}

test('chat at 1280px: two panes, a conversation, the bot toggle', async ({ page }, testInfo) => {
  const client = await openChat(page);
  await expect(page.getByText('Selecciona un cliente para comenzar a chatear')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Buscar clientes...' }).fill(client.phone);
  const row = page.getByRole('button', { name: /^Marta/ });
  await expect(row).toHaveCount(1);
  await row.click();
  const conversation = page.getByRole('region', { name: 'Marta' });
  await expect(conversation.getByText(`+${client.phone}`)).toBeVisible();
  await expect(conversation.getByText('Hola, ¿tienen cita mañana?')).toBeVisible();
  await expect(conversation.getByText('Hoy', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Todos/ })).toHaveAttribute('aria-selected', 'true');
  await expect(conversation.getByRole('combobox', { name: 'Asignado a' })).toHaveValue('');
  await page.getByRole('button', { name: 'Pausar el bot de Marta' }).click();
  await expect(page.getByRole('button', { name: 'Reanudar el bot de Marta' })).toBeVisible();
  await expect(conversation.getByText('El bot está en pausa para este cliente')).toBeVisible();
  // The admin takes it: it moves to 'Míos'.
  await conversation.getByRole('combobox', { name: 'Asignado a' }).selectOption({ label: 'Carla Chat' });
  await page.getByRole('tab', { name: /^Míos/ }).click();
  await expect(page.getByRole('button', { name: /^Marta/ })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('chat-1280.png') });
});

test('chat at 768px (the phone layout): the conversation fits, its header wraps its controls', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 768, height: 900 });
  const client = await openChat(page);
  await page.getByRole('searchbox', { name: 'Buscar clientes...' }).fill(client.phone);
  await expect(page.getByRole('button', { name: /^Marta/ })).toHaveCount(1);
  await page.getByRole('button', { name: /^Marta/ }).click();
  const conversation = page.getByRole('region', { name: 'Marta' });
  await expect(conversation.getByRole('button', { name: 'Resolver' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(768);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('chat-768.png') });
});

test('chat at 375px: one pane at a time', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const client = await openChat(page);
  await page.getByRole('searchbox', { name: 'Buscar clientes...' }).fill(client.phone);
  // The search answers after its debounce: until then the list holds the worker's other Martas too.
  await expect(page.getByRole('button', { name: /^Marta/ })).toHaveCount(1);
  await page.getByRole('button', { name: /^Marta/ }).click();
  const conversation = page.getByRole('region', { name: 'Marta' });
  await expect(conversation.getByText(`+${client.phone}`)).toBeVisible();
  await expect(conversation.getByRole('button', { name: 'Resolver' })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Buscar clientes...' })).toHaveCount(0);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await page.screenshot({ path: testInfo.outputPath('chat-375.png') });
  await conversation.getByRole('button', { name: 'Volver' }).click();
  await expect(page.getByRole('searchbox', { name: 'Buscar clientes...' })).toBeVisible();
});
