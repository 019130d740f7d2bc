import { createHash } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { openConversation } from './support/chat';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// A customer's photo in /admin/chat while the server fetches it from the (fake) WhatsApp Cloud API:
// 'Descargando…' until it is stored, then the picture, live; when WhatsApp no longer gives it,
// 'Reintentar', which asks the server to try again.

const WA_TOKEN = 'EAAG-e2e-chat-media-token-0001';
const APP_SECRET = 'e2e-chat-media-app-secret-0001';

const companyAdmin = adminPerWorker({ key: 'chatmedia', name: 'Marta Media', company: 'Fotos en vivo' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 44 55 66',
    verifiedName: 'Tienda Fotos',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const uniquePhone = () => `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
const uniqueName = (first: string) => `${first} ${Math.random().toString(36).slice(2, 7)}`;

/** The customer sends photo `mediaId` with a caption. */
async function customerSendsPhoto(who: { name: string; phone: string }, mediaId: string, caption: string) {
  const { statuses } = await customer.message({
    from: who.phone,
    name: who.name,
    type: 'image',
    fields: { id: mediaId, mime_type: 'image/png', sha256: sha256Of(PNG), caption },
  });
  expect(statuses).toEqual([200]);
}

async function openChatOf(page: Page, name: string): Promise<Locator> {
  await openSession(page, admin, 'es');
  await page.goto('/admin/chat');
  return openConversation(page, name);
}

test("a photo shows 'Descargando…' while WhatsApp holds it, then the picture, live", async ({ page }) => {
  const ines = { name: uniqueName('Inés'), phone: uniquePhone() };
  const mediaId = graph.media.add(PNG, 'image/png');
  // WhatsApp answers this media's address only when the test lets it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  graph.route('GET', '/:version/:id', async (_request, { id }) => {
    if (id === mediaId) await held;
    return undefined;
  });
  await customerSendsPhoto(ines, mediaId, 'Foto del recibo');
  const conversation = await openChatOf(page, ines.name);
  await expect(conversation.getByRole('status').filter({ hasText: 'Descargando…' })).toBeVisible();
  await expect(conversation.getByRole('img', { name: 'Foto del recibo' })).toHaveCount(0);

  release();
  const image = conversation.getByRole('img', { name: 'Foto del recibo' });
  await expect(image).toBeVisible({ timeout: 10_000 });
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect(conversation.getByText('Descargando…')).toHaveCount(0);
});

test("a photo WhatsApp no longer gives shows why and 'Reintentar', which brings it", async ({ page }) => {
  const pablo = { name: uniqueName('Pablo'), phone: uniquePhone() };
  const mediaId = graph.media.add(PNG, 'image/png');
  // WhatsApp does not know the media once (a permanent answer): the server gives up at once.
  graph.media.failNext(mediaId, { status: 404 });
  await customerSendsPhoto(pablo, mediaId, 'Foto del paquete');
  const conversation = await openChatOf(page, pablo.name);
  const retry = conversation.getByRole('button', { name: 'Reintentar' });
  await expect(retry).toBeVisible({ timeout: 10_000 });
  await expect(
    conversation.getByText('No se pudo descargar el archivo: WhatsApp ya no lo tiene disponible.'),
  ).toBeVisible();

  // WhatsApp has it again: the retry brings it.
  await retry.click();
  const image = conversation.getByRole('img', { name: 'Foto del paquete' });
  await expect(image).toBeVisible({ timeout: 10_000 });
  await expect(retry).toHaveCount(0);
});
