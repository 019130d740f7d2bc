import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import {
  customerMessagesBody,
  type FakeGraphApi,
  fakeTemplate,
  type WebhookEmitter,
} from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { openConversation } from './support/chat';

// /admin/chat live, against the real server and the loopback fake of the WhatsApp Cloud API: customer
// messages arrive through the signed webhook exactly as Meta delivers them, sends go out to the fake,
// whose scripted failures come back as Meta's error bodies.

const WA_TOKEN = 'EAAG-e2e-chat-live-token-0001';
const APP_SECRET = 'e2e-chat-live-app-secret-0001';

const companyAdmin = adminPerWorker({ key: 'chatlive', name: 'Lucía Chat', company: 'Chat en vivo' });

let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;
let phoneNumberId: string;
let wabaId: string;

/** A number of this run's own, so parallel runs and workers never share one. */
function uniquePhone(): string {
  return `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
}

/** A name of this test's own, so list rows and searches never meet another test's client. */
function uniqueName(first: string): string {
  return `${first} ${Math.random().toString(36).slice(2, 7)}`;
}

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer, phoneNumberId, wabaId } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 11 22 33',
    verifiedName: 'Tienda Demo',
    templates: [
      fakeTemplate({ name: 'confirmacion_cita', body: 'Hola {{1}}, tu cita es el {{2}}.' }),
      fakeTemplate({ name: 'oferta_pendiente', status: 'PENDING', category: 'MARKETING' }),
    ],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

const HOUR = 60 * 60 * 1000;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** A customer writes (through the signed webhook); `agoMs` back in time when given. */
async function customerSays(phone: string, name: string, text: string, agoMs = 0) {
  const { statuses } = await customer.text(phone, text, { name, timestamp: seconds(Date.now() - agoMs) });
  expect(statuses).toEqual([200]);
}

async function openChat(page: Page, language: 'es' | 'en' = 'es') {
  await openSession(page, admin, language);
  await page.goto('/admin/chat');
}

/** Opens a client's conversation from the list, found by name. */
const rows = (page: Page, label = 'Clientes') =>
  page.getByRole('list', { name: label }).getByRole('listitem');

test('a customer message arrives live: in the open conversation, and its client goes to the top with a badge', async ({
  page,
}) => {
  const ana = { name: uniqueName('Ana'), phone: uniquePhone() };
  const beto = { name: uniqueName('Beto'), phone: uniquePhone() };
  await customerSays(ana.phone, ana.name, 'Hola, quería preguntar por un pedido', 60_000);
  await customerSays(beto.phone, beto.name, 'Buenos días', 30_000);
  await openChat(page);
  // Beto wrote last: he is on top, Ana below.
  await expect(rows(page).first()).toContainText(beto.name);
  await expect(rows(page).nth(1)).toContainText(ana.name);
  await expect(rows(page).first().getByText('1 mensaje sin leer', { exact: true })).toBeAttached();
  await rows(page)
    .nth(1)
    .getByRole('button', { name: new RegExp(`^${ana.name}`) })
    .click();
  const conversation = page.getByRole('region', { name: ana.name });
  await expect(conversation.getByText('Hola, quería preguntar por un pedido')).toBeVisible();
  // Marks the page: a reload would lose it.
  await page.evaluate(() => {
    (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
  });

  await customerSays(ana.phone, ana.name, '¿Tienen envío a domicilio?');
  await expect(conversation.getByText('¿Tienen envío a domicilio?')).toBeVisible();
  await expect(rows(page).first()).toContainText(ana.name);
  await expect(rows(page).first()).toContainText('¿Tienen envío a domicilio?');

  // Beto writes while Ana's conversation is open: he goes back on top, with his unread badge.
  await customerSays(beto.phone, beto.name, 'Necesito cambiar la dirección');
  await expect(rows(page).first()).toContainText(beto.name);
  await expect(rows(page).first()).toContainText('Necesito cambiar la dirección');
  await expect(rows(page).first().getByText('2 mensajes sin leer')).toBeAttached();
  await expect(conversation.getByText('Necesito cambiar la dirección')).toHaveCount(0);
  // Ana's conversation is open: her messages are marked read after 5 seconds, and her badge goes.
  await expect(rows(page).nth(1)).toContainText(ana.name);
  await expect(rows(page).nth(1).locator('.chat-row__badge')).toHaveCount(0, { timeout: 10_000 });
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
});

test('the 24-hour window: closed means no free text and the template hint; open counts down', async ({
  page,
}) => {
  const closed = { name: uniqueName('Clara'), phone: uniquePhone() };
  const open = { name: uniqueName('Olga'), phone: uniquePhone() };
  await customerSays(closed.phone, closed.name, 'Escribí hace más de un día', 25 * HOUR);
  await customerSays(open.phone, open.name, 'Escribí hace 23 horas', 23 * HOUR);
  await openChat(page);

  let conversation = await openConversation(page, closed.name);
  await expect(conversation.getByText('La ventana de 24 horas ya se ha cerrado')).toBeVisible();
  const input = conversation.getByRole('textbox');
  await expect(input).toBeDisabled();
  await expect(input).toHaveAttribute(
    'placeholder',
    'La ventana de 24 horas está cerrada: usa un mensaje plantilla',
  );
  await expect(conversation.getByRole('button', { name: 'Enviar', exact: true })).toBeDisabled();

  conversation = await openConversation(page, open.name);
  const banner = conversation.getByTestId('chat-window');
  await expect(banner).toHaveText(/^Tiempo restante: 0h 59m \d{1,2}s$/);
  await expect(conversation.getByRole('textbox')).toBeEnabled();
  await expect(conversation.getByRole('textbox')).toHaveAttribute('placeholder', 'Escribe un mensaje...');
  // It counts down live.
  const first = await banner.textContent();
  await expect(banner).not.toHaveText(first ?? '', { timeout: 3_000 });
});

test('a template with placeholders: fields, live preview, send only when filled, then in the conversation', async ({
  page,
}) => {
  const marta = { name: uniqueName('Marta'), phone: uniquePhone() };
  await customerSays(marta.phone, marta.name, 'Hace tiempo que no sé de vosotros', 30 * HOUR);
  await openChat(page);
  const conversation = await openConversation(page, marta.name);
  await conversation.getByRole('button', { name: 'Más opciones' }).click();
  await page.getByRole('menuitem', { name: 'Mensaje plantilla' }).click();
  const modal = page.getByRole('dialog', { name: 'Mensaje plantilla' });
  await modal.getByRole('button', { name: 'Sincronizar Plantillas' }).click();
  await expect(modal.getByText('Plantillas sincronizadas exitosamente!')).toBeVisible();
  await expect(modal.getByRole('radio', { name: /oferta_pendiente/ })).toBeDisabled();
  const send = modal.getByRole('button', { name: 'Enviar mensaje' });
  await expect(send).toBeDisabled();

  await modal.getByText('confirmacion_cita').click();
  await expect(modal.getByRole('radio', { name: /confirmacion_cita/ })).toBeChecked();
  const preview = modal.getByTestId('template-preview');
  await expect(preview).toHaveText('Hola {{1}}, tu cita es el {{2}}.');
  await expect(send).toBeDisabled();
  await modal.getByLabel('Valor de {{1}}').fill('Marta');
  await expect(preview).toHaveText('Hola Marta, tu cita es el {{2}}.');
  await expect(send).toBeDisabled();
  await modal.getByLabel('Valor de {{2}}').fill('   ');
  await expect(send).toBeDisabled();
  await modal.getByLabel('Valor de {{2}}').fill('lunes 3');
  await expect(preview).toHaveText('Hola Marta, tu cita es el lunes 3.');
  await expect(send).toBeEnabled();
  await send.click();

  await expect(modal).toBeHidden();
  await expect(conversation.getByText('Hola Marta, tu cita es el lunes 3.')).toBeVisible();
  const sent = graph.sent.find((m) => m.to === marta.phone);
  expect(sent?.type).toBe('template');
  expect(JSON.stringify(sent?.body)).toContain('lunes 3');
});

test('an unsent message is red with Meta’s reason, and resending it works', async ({ page }) => {
  const rosa = { name: uniqueName('Rosa'), phone: uniquePhone() };
  await customerSays(rosa.phone, rosa.name, '¿Me confirmáis el pedido?');
  await openChat(page);
  const conversation = await openConversation(page, rosa.name);
  // A refusal that resending can help once its cause is fixed (131026, a number not on WhatsApp, hides
  // 'Reenviar'; a passing one like 131000 is retried by the server itself).
  graph.failSends({ code: 131042, message: '(#131042) Business eligibility payment issue' });
  const input = conversation.getByRole('textbox');
  await input.fill('Sí, sale mañana');
  await input.press('Enter');

  const bubble = conversation.locator('.chat-bubble', { hasText: 'Sí, sale mañana' });
  await expect(bubble.getByText('Este mensaje no se ha enviado')).toBeVisible();
  // Our own explanation of Meta's code, then the code and Meta's title.
  await expect(bubble.getByText(/Hay un problema con el método de pago/)).toBeVisible();
  await expect(bubble.getByText(/WhatsApp 131042/)).toBeVisible();
  await expect(bubble.getByRole('img', { name: 'No enviado' })).toBeVisible();
  // Red: the title's colour has much more red than green or blue.
  const [r, g, b] = await bubble
    .getByText('Este mensaje no se ha enviado')
    .evaluate((el) => (getComputedStyle(el).color.match(/\d+/g) ?? []).map(Number));
  expect(r).toBeGreaterThan(150);
  expect(r - Math.max(g, b)).toBeGreaterThan(80);
  expect(graph.sent.filter((m) => m.to === rosa.phone)).toHaveLength(0);

  await bubble.getByRole('button', { name: 'Reenviar' }).click();
  await expect(bubble.getByText('Este mensaje no se ha enviado')).toHaveCount(0);
  await expect(bubble.getByRole('img', { name: 'Enviado' })).toBeVisible();
  await expect(conversation.getByText('Sí, sale mañana')).toHaveCount(1);
  expect(
    graph.sent.filter((m) => m.to === rosa.phone).map((m) => (m.body.text as { body: string }).body),
  ).toEqual(['Sí, sale mañana']);

  // WhatsApp's statuses arrive by webhook and move the ticks on, live.
  const wamid = graph.sent.find((m) => m.to === rosa.phone)?.wamid ?? '';
  expect(await customer.statuses([{ wamid, status: 'delivered', recipientId: rosa.phone }])).toEqual([200]);
  await expect(bubble.getByRole('img', { name: 'Entregado' })).toBeVisible();
  expect(await customer.statuses([{ wamid, status: 'read', recipientId: rosa.phone }])).toEqual([200]);
  await expect(bubble.getByRole('img', { name: 'Leído' })).toBeVisible();
});

test('older messages: "Cargar más mensajes" puts them on top without moving what is on screen', async ({
  page,
}) => {
  const pablo = { name: uniqueName('Pablo'), phone: uniquePhone() };
  const start = Date.now() - 2 * HOUR;
  // 25 messages, a minute apart, in one delivery.
  await customer.post(
    customerMessagesBody(
      { phoneNumberId, wabaId },
      Array.from({ length: 25 }, (_, i) => ({
        from: pablo.phone,
        name: pablo.name,
        type: 'text',
        fields: { body: `Mensaje número ${i + 1}` },
        timestamp: seconds(start + i * 60_000),
      })),
    ),
  );
  await openChat(page);
  const conversation = await openConversation(page, pablo.name);
  const history = conversation.getByTestId('chat-history');
  const message = (n: number) => history.getByText(`Mensaje número ${n}`, { exact: true });
  // The newest ten.
  await expect(message(25)).toBeVisible();
  await expect(message(16)).toBeAttached();
  await expect(message(15)).toHaveCount(0);
  const more = conversation.getByRole('button', { name: 'Cargar más mensajes' });
  await expect(more).toBeVisible();

  // The reader scrolls up to the oldest loaded message, where the control is.
  await history.evaluate((el) => {
    el.scrollTop = 0;
  });
  const y = async () => (await message(16).boundingBox())?.y ?? Number.NaN;
  const before = await y();
  await more.click();
  await expect(message(6)).toBeAttached();
  await expect(message(5)).toHaveCount(0);
  expect(Math.abs((await y()) - before)).toBeLessThanOrEqual(2);
  await expect(message(16)).toBeInViewport();
  await expect(message(6)).not.toBeInViewport();

  await history.evaluate((el) => {
    el.scrollTop = 0;
  });
  await more.click();
  await expect(message(1)).toBeAttached();
  await expect(more).toHaveCount(0);
  // Oldest first, each once.
  expect(await history.getByText(/^Mensaje número \d+$/).allTextContents()).toEqual(
    Array.from({ length: 25 }, (_, i) => `Mensaje número ${i + 1}`),
  );
});

// A 1×1 PNG, and a one-page PDF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** The file's SHA-256 as the webhook names it (the server keeps media only when it matches). */
const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

test('media bubbles: an image and a document, fetched with the token', async ({ page }) => {
  const lola = { name: uniqueName('Lola'), phone: uniquePhone() };
  const imageId = graph.media.add(PNG, 'image/png');
  const documentId = graph.media.add(PDF, 'application/pdf');
  await customer.message({
    from: lola.phone,
    name: lola.name,
    type: 'image',
    fields: { id: imageId, mime_type: 'image/png', sha256: sha256Of(PNG), caption: 'Foto del paquete' },
    timestamp: seconds(Date.now() - 60_000),
  });
  await customer.message({
    from: lola.phone,
    name: lola.name,
    type: 'document',
    fields: {
      id: documentId,
      mime_type: 'application/pdf',
      sha256: sha256Of(PDF),
      filename: 'factura-0042.pdf',
    },
  });
  const fileRequests: { url: string; authorization: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/admin/files/'))
      fileRequests.push({ url: request.url(), authorization: request.headers().authorization });
  });
  await openChat(page);
  const conversation = await openConversation(page, lola.name);

  const image = conversation.getByRole('img', { name: 'Foto del paquete' });
  await expect(image).toBeVisible({ timeout: 10_000 });
  await expect(image).toHaveAttribute('src', /^blob:/);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await expect(conversation.getByText('Foto del paquete', { exact: true })).toBeVisible();

  const download = conversation.getByRole('link', { name: 'Descargar documento' });
  await expect(download).toBeVisible({ timeout: 10_000 });
  await expect(download).toHaveAttribute('href', /^blob:/);
  await expect(download).toHaveAttribute('download', 'factura-0042.pdf');
  await expect(conversation.getByText('factura-0042.pdf', { exact: true })).toBeVisible();
  await expect(conversation.locator('iframe[title="factura-0042.pdf"]')).toBeAttached();

  expect(fileRequests.length).toBeGreaterThanOrEqual(2);
  for (const request of fileRequests) expect(request.authorization).toBe(`Bearer ${admin.token}`);
});

test('takeover: an admin message pauses the bot for that client; the icon resumes it', async ({ page }) => {
  const tomas = { name: uniqueName('Tomás'), phone: uniquePhone() };
  await customerSays(tomas.phone, tomas.name, '¿Puedo hablar con una persona?');
  await openChat(page);
  const conversation = await openConversation(page, tomas.name);
  const pause = page.getByRole('button', { name: `Pausar el bot de ${tomas.name}` });
  const resume = page.getByRole('button', { name: `Reanudar el bot de ${tomas.name}` });
  await expect(pause).toBeVisible();

  const input = conversation.getByRole('textbox');
  await input.fill('Claro, soy Lucía, te atiendo yo.');
  await conversation.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(conversation.getByRole('img', { name: 'Enviado' })).toBeVisible();
  await expect(resume).toBeVisible();
  await expect(pause).toHaveCount(0);
  await expect(input).toHaveValue('');

  await resume.click();
  await expect(pause).toBeVisible();
  const { clients } = await api<{ clients: { mode_bot: number }[] }>(
    'GET',
    `/admin/client/messages-summary?search=${encodeURIComponent(tomas.phone)}`,
    undefined,
    admin.token,
  );
  expect(clients.map((c) => c.mode_bot)).toEqual([1]);
});

test('takeover shows from the send’s answer, even with the live stream down', async ({ page }) => {
  // The events stream never connects: what the page knows comes from its own calls.
  await page.route('**/api/v1/admin/events', (route) => route.abort());
  const ines = { name: uniqueName('Inés'), phone: uniquePhone() };
  await customerSays(ines.phone, ines.name, '¿Hay alguien ahí?');
  await openChat(page);
  const conversation = await openConversation(page, ines.name);
  await expect(page.getByRole('button', { name: `Pausar el bot de ${ines.name}` })).toBeVisible();
  await conversation.getByRole('textbox').fill('Sí, dime.');
  await conversation.getByRole('textbox').press('Enter');
  await expect(conversation.getByRole('img', { name: 'Enviado' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Reanudar el bot de ${ines.name}` })).toBeVisible();
});

const MOBILE_TEXTS = {
  es: {
    search: 'Buscar clientes...',
    list: 'Clientes',
    back: 'Volver',
    window: /^Tiempo restante: 23h \d+m \d+s$/,
    placeholder: 'Escribe un mensaje...',
    send: 'Enviar',
  },
  en: {
    search: 'Search clients...',
    list: 'Clients',
    back: 'Back',
    window: /^Time left: 23h \d+m \d+s$/,
    placeholder: 'Type a message...',
    send: 'Send',
  },
} as const;

for (const language of ['es', 'en'] as const) {
  test(`at 375px (${language}): list, then the conversation alone, then back to the list`, async ({
    page,
  }) => {
    const x = MOBILE_TEXTS[language];
    await page.setViewportSize({ width: 375, height: 740 });
    const vera = { name: uniqueName('Vera'), phone: uniquePhone() };
    await customerSays(vera.phone, vera.name, 'Hola desde el móvil', 5 * 60_000);
    await openChat(page, language);
    const search = page.getByRole('searchbox', { name: x.search });
    await search.fill(vera.name);
    await page.getByRole('button', { name: new RegExp(`^${vera.name}`) }).click();

    const conversation = page.getByRole('region', { name: vera.name });
    await expect(conversation.getByText('Hola desde el móvil')).toBeVisible();
    await expect(conversation.getByText(`+${vera.phone}`)).toBeVisible();
    await expect(conversation.getByTestId('chat-window')).toHaveText(x.window);
    await expect(conversation.getByRole('textbox')).toHaveAttribute('placeholder', x.placeholder);
    await expect(conversation.getByRole('button', { name: x.send, exact: true })).toBeVisible();
    // One pane: no list while the conversation shows, and nothing sticks out sideways.
    await expect(search).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const box = await conversation.boundingBox();
    expect(box?.width).toBeGreaterThan(300);

    await conversation.getByRole('button', { name: x.back }).click();
    await expect(conversation).toHaveCount(0);
    await expect(search).toBeVisible();
    await expect(search).toHaveValue(vera.name);
    await expect(rows(page, x.list).first()).toContainText(vera.name);

    // A longer list, scrolled down: back from a conversation, the list is where it was.
    const others = Array.from({ length: 12 }, (_, i) => ({
      name: uniqueName(`Pía${i}`),
      phone: uniquePhone(),
    }));
    expect(
      await customer.post(
        customerMessagesBody(
          { phoneNumberId, wabaId },
          others.map((o, i) => ({
            from: o.phone,
            name: o.name,
            type: 'text',
            fields: { body: 'Hola' },
            timestamp: seconds(Date.now() - i * 1000),
          })),
        ),
      ),
    ).toEqual([200]);
    // They wrote while the list showed a search: cleared, the list shows them on top.
    await search.fill('');
    const list = page.getByTestId('chat-list-viewport');
    await expect(rows(page, x.list).first()).toContainText(others[0]!.name);
    await list.evaluate((el) => {
      el.scrollTop = 300;
    });
    await page.getByRole('button', { name: new RegExp(`^${others[6]!.name}`) }).click();
    await expect(page.getByRole('region', { name: others[6]!.name })).toBeVisible();
    const scrolled = await list.evaluate((el) => el.scrollTop);
    expect(scrolled).toBeGreaterThan(200);
    await page.getByRole('region', { name: others[6]!.name }).getByRole('button', { name: x.back }).click();
    await expect(search).toBeVisible();
    expect(await list.evaluate((el) => el.scrollTop)).toBe(scrolled);
  });
}

/**
 * Every Spanish text the chat screen and the layout around it may show, cut at its placeholders into the
 * pieces that reach the page; texts the English catalogue keeps the same under the same key are left out.
 */
function spanishTexts(): string[] {
  const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(src, file), 'utf8')) as unknown;
  const texts: string[] = [];
  const walk = (es: unknown, en: unknown) => {
    if (typeof es === 'string') {
      if (es === en) return;
      for (const piece of es.split(/\{\{[^}]+\}\}/)) {
        const text = piece.trim();
        if (text.length >= 4) texts.push(text);
      }
    } else if (es && typeof es === 'object') {
      for (const [key, value] of Object.entries(es))
        walk(value, en && typeof en === 'object' ? (en as Record<string, unknown>)[key] : undefined);
    }
  };
  for (const dir of ['features/chat/locales', 'locales'])
    walk(read(`${dir}/es.json`), read(`${dir}/en.json`));
  return texts;
}

test('in English: the list, a conversation with an unsent message, the menu and the templates modal', async ({
  page,
}) => {
  const spanish = spanishTexts();
  expect(spanish.length).toBeGreaterThan(30);
  const leftovers = async () => {
    const shown = await page.evaluate(() => {
      // What is rendered (innerText), not hidden text: a hidden copy is not a text left in Spanish.
      const attributes = [...document.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].map(
        (el) =>
          ['aria-label', 'placeholder', 'title', 'alt'].map((name) => el.getAttribute(name) ?? '').join(' '),
      );
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
      return `${document.body.innerText}\n${attributes.join('\n')}`;
    });
    return spanish.filter((text) => shown.includes(text));
  };
  const nora = { name: uniqueName('Nora'), phone: uniquePhone() };
  await customerSays(nora.phone, nora.name, 'Hello, is my order ready?', 2 * HOUR);
  await customerSays(nora.phone, nora.name, 'Thanks', HOUR);
  await openChat(page, 'en');
  await expect(page.getByText('Select a client to start chatting')).toBeVisible();
  const conversation = await openConversation(page, nora.name, 'Search clients...');
  await expect(conversation.getByText('UNREAD MESSAGES')).toBeVisible();
  await expect(conversation.getByTestId('chat-window')).toHaveText(/^Time left: 22h \d+m \d+s$/);
  graph.failSends({ code: 131042, message: '(#131042) Business eligibility payment issue' });
  await conversation.getByRole('textbox', { name: 'Type a message...' }).fill('It ships tomorrow');
  await conversation.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(conversation.getByText('This message has not been sent')).toBeVisible();
  await expect(conversation.getByRole('button', { name: 'Resend' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Resume ${nora.name}'s bot` })).toBeVisible();
  expect(await leftovers()).toEqual([]);

  await conversation.getByRole('button', { name: 'More options' }).click();
  await expect(page.getByRole('menuitem', { name: 'Media library' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Client details' })).toBeVisible();
  expect(await leftovers()).toEqual([]);
  await page.getByRole('menuitem', { name: 'Template message' }).click();
  const modal = page.getByRole('dialog', { name: 'Template message' });
  await modal.getByRole('button', { name: 'Sync templates' }).click();
  await expect(modal.getByText('Templates synced successfully!')).toBeVisible();
  await modal.getByText('confirmacion_cita').click();
  await expect(modal.getByLabel('Value of {{1}}')).toBeVisible();
  await expect(modal.getByText('Preview')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Send message' })).toBeDisabled();
  expect(await leftovers()).toEqual([]);
});
