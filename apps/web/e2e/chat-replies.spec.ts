import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { openConversation } from './support/chat';

// Quoted replies and authors in /admin/chat, at a tablet's 768px, against the real server and the
// loopback fake of the WhatsApp Cloud API: a customer's message comes through the signed webhook, the
// agent answers it with 'Responder', WhatsApp is asked to quote it, and the customer quotes the answer.

const WA_TOKEN = 'EAAG-e2e-chat-replies-token-0001';
const APP_SECRET = 'e2e-chat-replies-app-secret-0001';

const companyAdmin = adminPerWorker({ key: 'chatreplies', name: 'Nora Respuestas', company: 'Respuestas' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 44 55 66',
    verifiedName: 'Tienda Respuestas',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

test('at 768px: reply to a customer with Responder; the quote shows above the reply and the customer’s answer', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 768, height: 900 });
  const name = `Irene ${Math.random().toString(36).slice(2, 7)}`;
  const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
  const first = await customer.text(phone, '¿Tenéis la talla M en azul?', { name });
  expect(first.statuses).toEqual([200]);

  await openSession(page, admin, 'es');
  await page.goto('/admin/chat');
  const conversation = await openConversation(page, name);
  const question = conversation.locator('.chat-message', { hasText: '¿Tenéis la talla M en azul?' });
  await question.hover();
  await question.getByRole('button', { name: 'Responder' }).click();
  await expect(conversation.getByTestId('chat-reply-preview')).toContainText(`Respondiendo a ${name}`);
  await conversation.getByRole('textbox').fill('Sí, nos quedan dos.');
  await conversation.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(conversation.getByTestId('chat-reply-preview')).toHaveCount(0);

  const answer = conversation.locator('.chat-message', { hasText: 'Sí, nos quedan dos.' });
  await expect(answer.getByRole('img', { name: 'Enviado' })).toBeVisible();
  await expect(answer.locator('.chat-bubble__author')).toHaveText('Tú');
  await expect(answer.locator('.chat-quote')).toContainText('¿Tenéis la talla M en azul?');
  const sent = graph.sent.find((m) => m.to === phone);
  expect(sent?.contextMessageId).toBe(first.wamid);

  // The customer answers quoting the agent's message: it arrives live with the quote.
  const reply = await customer.text(phone, '¡Genial, la reservo!', { name, contextWamid: sent?.wamid });
  expect(reply.statuses).toEqual([200]);
  const quoted = conversation.locator('.chat-message', { hasText: '¡Genial, la reservo!' });
  await expect(quoted.locator('.chat-quote')).toContainText('Sí, nos quedan dos.');
  await expect(quoted.locator('.chat-quote__author')).toHaveText('Tú');

  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(768);
  await page.screenshot({ path: testInfo.outputPath('chat-replies-768.png') });
});
