import type { FakeGraphApi, FakeTemplate, WebhookEmitter } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { openConversation } from './support/chat';

// A template with quick replies from the chat, against the real server and the loopback fake of the
// WhatsApp Cloud API: the modal previews its buttons, the send carries each quick reply's payload as
// Meta expects (the fake refuses a wrong one), and the customer's tap comes back by the signed webhook
// and shows in the conversation as what they pressed, marked 'Botón' — at 1280 px in Spanish and 375 px
// in English, with no axe violation.

test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'tplbuttons', name: 'Berta Botones', company: 'Botones SA' });
let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

const CONFIRM: FakeTemplate = {
  id: '7700001',
  name: 'confirmar_cita',
  language: 'es',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'BODY', text: 'Hola {{1}}, ¿confirmas tu cita de mañana?' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Sí, confirmo' },
        { type: 'QUICK_REPLY', text: 'Cambiar hora' },
      ],
    },
  ],
};

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-template-buttons-0001',
    appSecret: 'e2e-template-buttons-secret-0001',
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Botones SA',
    templates: [CONFIRM],
  }));
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
    value: 'Valor de {{1}}',
    buttons: 'Botones de la plantilla',
    send: 'Enviar mensaje',
    tag: 'Botón',
  },
  en: {
    search: 'Search clients...',
    more: 'More options',
    menu: 'Template message',
    sync: 'Sync templates',
    value: 'Value of {{1}}',
    buttons: 'Template buttons',
    send: 'Send message',
    tag: 'Button',
  },
} as const;

for (const [width, language] of [
  [1280, 'es'],
  [375, 'en'],
] as const) {
  test.describe(`template buttons at ${width}px in ${language}`, () => {
    test.use({ viewport: { width, height: width > 600 ? 800 : 812 } });
    test.describe.configure({ timeout: 120_000 });

    test("sent from the chat with their payloads, the customer's tap shows as a button", async ({ page }) => {
      const texts = TEXTS[language];
      const name = `Elena ${Math.random().toString(36).slice(2, 7)}`;
      const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
      expect((await customer.text(phone, 'Hola, tengo cita mañana', { name })).statuses).toEqual([200]);
      await openSession(page, admin, language);
      await page.goto('/admin/chat');
      const conversation = await openConversation(page, name, texts.search);

      await conversation.getByRole('button', { name: texts.more }).click();
      await page.getByRole('menuitem', { name: texts.menu }).click();
      const modal = page.getByRole('dialog', { name: texts.menu });
      await modal.getByRole('button', { name: texts.sync }).click();
      await modal.getByText('confirmar_cita').click();
      await modal.getByLabel(texts.value).fill('Elena');
      const buttons = modal.getByRole('list', { name: texts.buttons });
      await expect(buttons.getByRole('listitem')).toHaveText(['Sí, confirmo', 'Cambiar hora']);
      expect(await seriousViolations(page)).toEqual([]);
      await modal.getByRole('button', { name: texts.send }).click();
      await expect(modal).toBeHidden();
      await expect(conversation.getByText('Hola Elena, ¿confirmas tu cita de mañana?')).toBeVisible();

      const sent = graph.sent.find((m) => m.to === phone)!;
      expect((sent.body.template as { components: unknown[] }).components.slice(1)).toEqual([
        {
          type: 'button',
          sub_type: 'quick_reply',
          index: '0',
          parameters: [{ type: 'payload', payload: 'Sí, confirmo' }],
        },
        {
          type: 'button',
          sub_type: 'quick_reply',
          index: '1',
          parameters: [{ type: 'payload', payload: 'Cambiar hora' }],
        },
      ]);

      // The customer taps 'Sí, confirmo' under the template: it arrives live, as a button.
      const tap = await customer.buttonReply(phone, { text: 'Sí, confirmo', contextWamid: sent.wamid });
      expect(tap.statuses).toEqual([200]);
      const answer = conversation.locator('.chat-bubble__button-answer');
      await expect(answer).toBeVisible();
      await expect(answer.getByText(texts.tag, { exact: true })).toBeVisible();
      await expect(answer.getByText('Sí, confirmo', { exact: true })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
