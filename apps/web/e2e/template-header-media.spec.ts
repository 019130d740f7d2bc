import type { FakeGraphApi, FakeTemplate, WebhookEmitter } from '../../../packages/fakes/src/index';
import { png } from '../../server/test/media-fixtures';
import { adminPerWorker, apiBase, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { flowCases } from './support/matrix';
import { openConversation } from './support/chat';

// A template with an IMAGE header and a URL button whose link ends in {{1}}, sent from the chat against
// the real server and the loopback fake of the WhatsApp Cloud API: the modal asks for the header file
// (picked from the media library) and the link's end, and the send the fake receives carries the
// header by its public link and the url button's value — at 1280 and 375 px, in Spanish and English,
// with no serious axe violation.

test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'tplheader', name: 'Hugo Cabecera', company: 'Cabeceras SA' });
let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;
let imageName: string;

const ORDER: FakeTemplate = {
  id: '7700101',
  name: 'pedido_listo',
  language: 'es',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hola {{1}}, tu pedido está listo.' },
    {
      type: 'BUTTONS',
      buttons: [{ type: 'URL', text: 'Ver pedido', url: 'https://tienda.example/pedido/{{1}}' }],
    },
  ],
};

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-template-header-0001',
    appSecret: 'e2e-template-header-secret-0001',
    displayPhoneNumber: '+34 600 77 88 98',
    verifiedName: 'Cabeceras SA',
    templates: [ORDER],
  }));
  // The header's image, in the company's media library (once per worker).
  imageName = `pedido-${Math.random().toString(36).slice(2, 7)}.png`;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png(64, 48))], { type: 'image/png' }), imageName);
  const response = await fetch(`${apiBase()}/admin/media/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin.token}`, Accept: 'application/json' },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(201);
});
test.afterAll(async () => {
  await graph?.close();
});

const TEXTS = {
  es: {
    search: 'Buscar clientes...',
    more: 'Más opciones',
    menu: 'Mensaje plantilla',
    sync: 'Sincronizar Plantillas',
    synced: 'Plantillas sincronizadas exitosamente!',
    value: 'Valor de {{1}}',
    link: 'Final del enlace del botón «Ver pedido»',
    choose: 'Elegir de la biblioteca',
    library: 'Biblioteca de medios',
    pick: (name: string) => `Elegir ${name}`,
    send: 'Enviar mensaje',
  },
  en: {
    search: 'Search clients...',
    more: 'More options',
    menu: 'Template message',
    sync: 'Sync templates',
    synced: 'Templates synced successfully!',
    value: 'Value of {{1}}',
    link: 'End of the link of button “Ver pedido”',
    choose: 'Choose from the library',
    library: 'Media library',
    pick: (name: string) => `Choose ${name}`,
    send: 'Send message',
  },
} as const;

for (const [width, language] of flowCases([
  [1280, 'es'],
  [1280, 'en'],
  [375, 'es'],
  [375, 'en'],
] as const)) {
  test(`a template with an image header and a URL parameter sent from the chat at ${width}px in ${language}`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width > 600 ? 800 : 812 });
    const texts = TEXTS[language];
    const name = `Irene ${Math.random().toString(36).slice(2, 7)}`;
    const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    expect((await customer.text(phone, '¿Está listo mi pedido?', { name })).statuses).toEqual([200]);
    await openSession(page, admin, language);
    await page.goto('/admin/chat');
    const conversation = await openConversation(page, name, texts.search);

    await conversation.getByRole('button', { name: texts.more }).click();
    await page.getByRole('menuitem', { name: texts.menu }).click();
    const modal = page.getByRole('dialog', { name: texts.menu });
    await modal.getByRole('button', { name: texts.sync }).click();
    // The sync's outcome shows above the list for a few seconds; the dialog shrinks when it goes, which
    // would move the buttons under a later click: wait until it has gone.
    await expect(modal.getByText(texts.synced)).toBeVisible();
    await expect(modal.getByText(texts.synced)).toBeHidden({ timeout: 15_000 });
    await modal.getByText('pedido_listo').click();
    await modal.getByLabel(texts.value).fill('Irene');
    await modal.getByLabel(texts.link).fill('A-77');
    const send = modal.getByRole('button', { name: texts.send });
    // The header's file is still missing.
    await expect(send).toBeDisabled();
    await modal.getByRole('button', { name: texts.choose }).click();
    const library = page.getByRole('dialog', { name: texts.library });
    await library.getByRole('button', { name: texts.pick(imageName) }).click();
    await expect(library).toBeHidden();
    await expect(modal.getByText(imageName).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await send.click();
    await expect(modal).toBeHidden();
    await expect(conversation.getByText('Hola Irene, tu pedido está listo.')).toBeVisible();

    const sent = graph.sent.find((m) => m.to === phone);
    expect(sent).toBeDefined();
    const components = (sent!.body.template as { components: Record<string, unknown>[] }).components;
    expect(components).toEqual([
      {
        type: 'header',
        parameters: [{ type: 'image', image: { link: expect.stringMatching(/\/storage\/.+\.png$/) } }],
      },
      { type: 'body', parameters: [{ type: 'text', text: 'Irene' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-77' }] },
    ]);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
