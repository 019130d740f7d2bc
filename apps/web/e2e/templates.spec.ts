import type { FakeGraphApi } from '../../../packages/fakes/src/index';
import { adminPerWorker, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { runsFlow } from './support/matrix';

// 'Plantillas' against the real server and the loopback fake of the WhatsApp Cloud API: a template is
// written in HablaBot, each broken Meta rule (name, numbering, examples, header 60, body 1,024, footer
// 60, button text 25) is refused on its field before anything reaches Meta, a valid one with a quick
// reply is created on the fake (PENDING), and Meta's rejection arrives by the signed status webhook and
// shows at once, without a reload — at 1280 and 375 px, in Spanish and English, with no axe violation.

test.use({ bypassCSP: true });

const companyAdmin = adminPerWorker({ key: 'templates', name: 'Tere Plantillas', company: 'Plantillas SA' });
let graph: FakeGraphApi;
let admin: Session;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-templates-token-0001',
    appSecret: 'e2e-templates-app-secret-0001',
    displayPhoneNumber: '+34 600 44 55 66',
    verifiedName: 'Plantillas SA',
    templates: [],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

const TEXTS = {
  es: {
    title: 'Plantillas',
    create: 'Nueva plantilla',
    submit: 'Enviar a revisión',
    name: /^Nombre/,
    body: /^Cuerpo del mensaje/,
    example: /^Ejemplo de la variable 1/,
    header: /^Encabezado/,
    headerText: /^Texto del encabezado/,
    headerKind: 'Texto',
    noHeader: 'Sin encabezado',
    footer: /^Pie/,
    addButton: 'Añadir botón',
    buttonText: /^Texto del botón 1/,
    badName: 'El nombre solo puede llevar minúsculas, números y guiones bajos (_).',
    gap: 'Las variables se numeran desde {{1}} sin saltos: falta la 1.',
    rules: [
      'El encabezado puede tener como máximo 60 caracteres.',
      'Falta el ejemplo de la variable 1.',
      'El pie puede tener como máximo 60 caracteres.',
      'El texto del botón puede tener como máximo 25 caracteres.',
    ],
    bodyTooLong: 'El cuerpo puede tener como máximo 1024 caracteres.',
    created: (name: string) => `Plantilla «${name}» enviada a WhatsApp para su revisión.`,
    pending: 'En revisión',
    rejected: 'Rechazada',
    reason: 'Motivo: formato no válido',
  },
  en: {
    title: 'Templates',
    create: 'New template',
    submit: 'Send for review',
    name: /^Name/,
    body: /^Message body/,
    example: /^Example of variable 1/,
    header: /^Header(?! text)/,
    headerText: /^Header text/,
    headerKind: 'Text',
    noHeader: 'No header',
    footer: /^Footer/,
    addButton: 'Add button',
    buttonText: /^Text of button 1/,
    badName: 'The name may only hold lower-case letters, digits and underscores (_).',
    gap: 'Variables are numbered from {{1}} without gaps: 1 is missing.',
    rules: [
      'The header may be at most 60 characters long.',
      'The example of variable 1 is missing.',
      'The footer may be at most 60 characters long.',
      'The button text may be at most 25 characters long.',
    ],
    bodyTooLong: 'The body may be at most 1024 characters long.',
    created: (name: string) => `Template “${name}” sent to WhatsApp for review.`,
    pending: 'In review',
    rejected: 'Rejected',
    reason: 'Reason: invalid format',
  },
} as const;

const creations = () =>
  graph.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message_templates'));

for (const width of [1280, 375] as const) {
  for (const language of ['es', 'en'] as const) {
    if (!runsFlow(language, width)) continue;
    test.describe(`templates at ${width}px in ${language}`, () => {
      test.use({ viewport: { width, height: width > 600 ? 800 : 812 } });
      test.describe.configure({ timeout: 120_000 });

      test('a broken rule is refused on its field, a valid template goes to Meta, its rejection shows live', async ({
        page,
      }) => {
        const texts = TEXTS[language];
        const name = `pedido_${language}_${width}_${Math.random().toString(36).slice(2, 7)}`;
        await openSession(page, admin, language);
        await page.goto('/admin/templates');
        await expect(page.getByRole('heading', { level: 1, name: texts.title })).toBeVisible();

        await page.getByRole('button', { name: texts.create }).click();
        const form = page.getByRole('dialog', { name: texts.create });
        await form.getByLabel(texts.name).fill('Pedido Listo');
        await form.getByLabel(texts.body).fill('Hola {{2}}');
        const sentBefore = creations().length;
        await page.getByRole('button', { name: texts.submit }).click();
        await expect(form.getByText(texts.badName)).toBeVisible();
        await expect(form.getByText(texts.gap)).toBeVisible();
        expect(creations()).toHaveLength(sentBefore);
        expect(await seriousViolations(page)).toEqual([]);

        // Meta's lengths and the examples: each on its own field, all at once.
        await form.getByLabel(texts.name).fill(name);
        await form.getByLabel(texts.header).selectOption({ label: texts.headerKind });
        await form.getByLabel(texts.headerText).fill('P'.repeat(61));
        await form.getByLabel(texts.body).fill('Hola {{1}}, tu pedido está listo.');
        await form.getByLabel(texts.footer).fill('F'.repeat(61));
        await form.getByRole('button', { name: texts.addButton }).click();
        await form.getByLabel(texts.buttonText).fill('B'.repeat(26));
        await page.getByRole('button', { name: texts.submit }).click();
        for (const rule of texts.rules) await expect(form.getByText(rule, { exact: true })).toBeVisible();
        await form.getByLabel(texts.body).fill('x'.repeat(1025));
        await expect(form.getByText(texts.bodyTooLong, { exact: true })).toBeVisible();
        expect(creations()).toHaveLength(sentBefore);
        expect(await seriousViolations(page)).toEqual([]);

        // Fixed: a valid template with a quick reply, previewed as WhatsApp shows it.
        await form.getByLabel(texts.header).selectOption({ label: texts.noHeader });
        await form.getByLabel(texts.body).fill('Hola {{1}}, tu pedido está listo.');
        await form.getByLabel(texts.example).fill('Ana');
        await form.getByLabel(texts.footer).fill('Tienda Sol');
        await form.getByLabel(texts.buttonText).fill('Gracias');
        await expect(form.getByTestId('template-preview')).toContainText('Hola Ana, tu pedido está listo.');
        await expect(form.getByRole('listitem').filter({ hasText: 'Gracias' })).toBeVisible();
        await page.getByRole('button', { name: texts.submit }).click();
        await expect(page.getByRole('status').filter({ hasText: texts.created(name) })).toBeVisible();
        expect(creations()).toHaveLength(sentBefore + 1);
        expect((creations().at(-1)!.body as { components: unknown[] }).components).toEqual([
          { type: 'BODY', text: 'Hola {{1}}, tu pedido está listo.', example: { body_text: [['Ana']] } },
          { type: 'FOOTER', text: 'Tienda Sol' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Gracias' }] },
        ]);

        // A table row at 1280 px, a card (also a row) at 375 px.
        const row = page.getByRole('row').filter({ hasText: name });
        await expect(row.getByText(texts.pending)).toBeVisible();

        // Meta's review: the signed status webhook, and the row changes without a reload.
        expect(
          await graph.reviewTemplate({ name, language: 'es' }, 'REJECTED', { reason: 'INVALID_FORMAT' }),
        ).toEqual([200]);
        await expect(row.getByText(texts.reason)).toBeVisible();
        await expect(row.getByText(texts.rejected, { exact: true })).toBeVisible();

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        expect(await seriousViolations(page)).toEqual([]);
      });
    });
  }
}
