import type { Page } from '@playwright/test';
import { adminPerWorker, api, openSession } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';

// /admin/chat end to end against the real server, at 1280px and 375px: the list from
// GET /admin/client/messages-summary, a conversation without messages, and the bot toggle.

// axe is injected as a script: the page's Content Security Policy is lifted for this file only.
test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'chat', name: 'Carla Chat', company: 'Chat' });

function uniquePhone(): string {
  return `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
}

async function seed(token: string) {
  const phone = uniquePhone();
  // The company is the worker's: each test's segment needs a name of its own.
  const { segment } = await api<{ segment: { id: number } }>(
    'POST',
    '/admin/segment',
    { name: `Chat ${phone.slice(-6)}`, color: '#128c7e', rules: 'Creado por la prueba' },
    token,
  );
  const { client } = await api<{ client: { id: number } }>(
    'POST',
    '/admin/client',
    {
      name: 'Marta',
      last_names: 'Ruiz',
      whatsapp_cellphone: phone,
      email: `chat.${phone}@example.com`,
      segments: [segment.id],
    },
    token,
  );
  return { id: client.id, phone };
}

async function openChat(page: Page) {
  const admin = await companyAdmin();
  const client = await seed(admin.token);
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
  await expect(conversation.getByText('No hay mensajes para mostrar')).toBeVisible();
  await expect(conversation.getByText('No hay mensajes del cliente')).toBeVisible();
  await expect(conversation.getByRole('textbox')).toBeDisabled();
  await page.getByRole('button', { name: 'Pausar el bot de Marta' }).click();
  await expect(page.getByRole('button', { name: 'Reanudar el bot de Marta' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('chat-1280.png') });
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
  await expect(page.getByRole('searchbox', { name: 'Buscar clientes...' })).toHaveCount(0);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
  await page.screenshot({ path: testInfo.outputPath('chat-375.png') });
  await conversation.getByRole('button', { name: 'Volver' }).click();
  await expect(page.getByRole('searchbox', { name: 'Buscar clientes...' })).toBeVisible();
});
