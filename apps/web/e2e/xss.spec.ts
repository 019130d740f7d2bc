import type { Page } from '@playwright/test';
import { type FakeGraphApi, fakeTemplate, type WebhookEmitter } from '../../../packages/fakes/src/index';
import { api, createCompanyAdmin, openSession, type Session } from './support/api';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';

// Markup in everything the app shows: a customer's WhatsApp message and profile name (through the signed
// webhook, with the chat's **bold** and __italic__ mixed in), client and segment names, client lists,
// mass sends and their report, bots and instructions, and users and companies for the super admin.
// Each must show as the characters it is: no element made from it, no handler run, no dialog.
//
// The page's Content Security Policy would stop an injected handler from running, and then only the DOM
// would tell: it is lifted here, so markup that got into the page would also fire its alert.
test.use({ bypassCSP: true });

const WA_TOKEN = 'EAAG-e2e-xss-token-0001';
const APP_SECRET = 'e2e-xss-app-secret-0001';

/** Markup that runs when a page takes it for HTML. */
const IMG = '<img src=x onerror=alert(1)>';
const SCRIPT = '<script>alert(2)</script>';
const BOLD = '<b onmouseover=alert(3)>';

let graph: FakeGraphApi;
let admin: Session;
let tag: string;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  const made = await createCompanyAdmin({ key: 'xss', name: `Xavi ${IMG}`, company: `Empresa ${SCRIPT}` });
  admin = made.admin;
  tag = made.tag.slice(-6);
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 99 88 77',
    verifiedName: 'X',
    templates: [fakeTemplate({ name: 'saludo_xss', body: 'Hola {{1}}, {{2}}.' })],
  }));
});
test.afterAll(async () => {
  await graph?.close();
});

/** Fails the test on any dialog: an alert can only come from markup that ran. */
function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

/** Nothing in the page was made from the payloads, and no dialog opened. */
async function expectNoInjectedMarkup(page: Page, dialogs: string[]) {
  expect(dialogs).toEqual([]);
  const found = await page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"]').length,
    handlers: document.querySelectorAll('[onerror], [onmouseover], [onload]').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => s.textContent?.includes('alert(')).length,
  }));
  expect(found).toEqual({ images: 0, handlers: 0, scripts: 0 });
}

/** A pattern that matches text starting with `text`, taken literally. */
const startsWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

function uniquePhone(): string {
  return `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
}

test('a customer message with markup and formatting shows as text in the chat list and the conversation', async ({
  page,
}) => {
  const dialogs = watchDialogs(page);
  const phone = uniquePhone();
  const name = `${BOLD}Eva ${tag}`;
  const text = `${IMG}${SCRIPT} **negrita ${tag}** y __cursiva__ &amp; "fin"`;
  const { statuses } = await customer.text(phone, text, { name });
  expect(statuses).toEqual([200]);

  await openSession(page, admin, 'es');
  await page.goto('/admin/chat');
  await page.getByRole('searchbox', { name: 'Buscar clientes...' }).fill(phone);
  const row = page.getByRole('button', { name: startsWith(name) });
  await expect(row).toHaveCount(1);
  // The preview is the text as it came (the list shows it without formatting, or with it: never as HTML).
  await expect(row).toContainText(`${IMG}${SCRIPT}`);
  await row.click();
  const conversation = page.getByRole('region', { name });
  await expect(conversation.getByRole('heading', { name })).toBeVisible();
  // The chat's own formatting works next to the markup; the markup made nothing and stays characters.
  await expect(conversation.locator('strong', { hasText: `negrita ${tag}` })).toBeVisible();
  await expect(conversation.locator('em', { hasText: 'cursiva' })).toBeVisible();
  await expectNoInjectedMarkup(page, dialogs);
  await expect(conversation.getByText(`${IMG}${SCRIPT}`)).toBeVisible();
  await expect(conversation.getByText('&amp; "fin"')).toBeVisible();
});

test('clients, segments, client lists, mass sends and their report, bots and instructions show markup as text', async ({
  page,
}) => {
  const dialogs = watchDialogs(page);
  const segmentName = `Seg ${tag} ${IMG}`;
  const { segment } = await api<{ segment: { id: number } }>(
    'POST',
    '/admin/segment',
    { name: segmentName, color: '#7300ff', rules: `${SCRIPT} reglas` },
    admin.token,
  );
  const clientName = `Ana ${tag} ${IMG}`;
  const lastNames = `${SCRIPT}`;
  const phone = uniquePhone();
  const { client } = await api<{ client: { id: number } }>(
    'POST',
    '/admin/client',
    {
      name: clientName,
      last_names: lastNames,
      whatsapp_cellphone: phone,
      email: `xss.${phone}@example.com`,
      projects: `${IMG} notas`,
      segments: [segment.id],
    },
    admin.token,
  );
  const listName = `Lista ${tag} ${BOLD}`;
  const { data: list } = await api<{ data: { id: number } }>(
    'POST',
    '/admin/list-clients',
    { name: listName, client_ids: [client.id] },
    admin.token,
  );
  await api('GET', '/templates/sync', undefined, admin.token);
  const templates = await api<{ data: { id: number; name: string }[] }>(
    'GET',
    '/templates',
    undefined,
    admin.token,
  );
  const template = templates.data.find((t) => t.name === 'saludo_xss');
  if (!template) throw new Error('the template did not sync');
  const sendName = `Envío ${tag} ${IMG}`;
  await api(
    'POST',
    '/admin/messages-massive',
    {
      name: sendName,
      message_template_id: template.id,
      list_id: list.id,
      bodyParameters: { 1: '{{Nombre}}', 2: SCRIPT },
    },
    admin.token,
  );
  const botName = `Bot ${tag} ${IMG}`;
  const { bot } = await api<{ bot: { id: number } }>(
    'POST',
    '/admin/bot',
    { bot_name: botName, personality: `${SCRIPT} personalidad` },
    admin.token,
  );
  const ask = `¿Precio ${tag}? ${IMG}`;
  await api(
    'POST',
    '/admin/instruction',
    { bot_id: bot.id, ask, reply: `${SCRIPT} respuesta`, segments: [segment.id] },
    admin.token,
  );

  await openSession(page, admin, 'es');

  // Clients and segments.
  await page.goto('/admin/clients');
  const clientsTable = page.getByRole('table', { name: 'Clientes' });
  await expect(clientsTable.getByText(clientName, { exact: false }).first()).toBeVisible();
  await expect(clientsTable.getByText(SCRIPT, { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Segmentos' }).getByText(segmentName).first()).toBeVisible();
  await expectNoInjectedMarkup(page, dialogs);

  // Client lists, the history of sends and a send's report.
  await page.goto('/admin/messages-massive');
  await expect(page.getByRole('button', { name: listName }).first()).toBeVisible();
  const history = page.getByRole('table', { name: 'Todos los envíos' });
  const row = history.getByRole('row').filter({ hasText: sendName });
  await expect(row).toBeVisible();
  await expectNoInjectedMarkup(page, dialogs);
  await row.getByRole('button', { name: `Ver informe de ${sendName}` }).click();
  const report = page.getByRole('dialog');
  await expect(
    report.getByRole('table', { name: 'Destinatarios' }).getByText(clientName, { exact: false }),
  ).toBeVisible();
  await expectNoInjectedMarkup(page, dialogs);
  // WhatsApp got the parameter as it was typed.
  await expect.poll(() => graph.sent.filter((m) => m.to === phone).length, { timeout: 15_000 }).toBe(1);
  expect(JSON.stringify(graph.sent.find((m) => m.to === phone)?.body)).toContain(SCRIPT);
  await page.keyboard.press('Escape');

  // Bots and their instructions.
  await page.goto('/admin/bots');
  await expect(page.getByRole('table', { name: 'Instrucciones' }).getByText(ask)).toBeVisible();
  await expectNoInjectedMarkup(page, dialogs);
  await expect(page.locator('.bot-card', { hasText: botName })).toBeVisible();
});

test('the super admin sees user and company names with markup as text', async ({ page }) => {
  const dialogs = watchDialogs(page);
  await test.step('users of the company', async () => {
    const sessions = JSON.parse(process.env.E2E_SESSIONS ?? '{}') as Record<string, Session>;
    const superAdmin = sessions.super_admin;
    if (!superAdmin) throw new Error('no super admin session');
    const users = await api<{
      data: { id: number; name: string; company_id: number | null; company_name?: string }[];
    }>('GET', '/super-admin/users', undefined, superAdmin.token);
    const mine = users.data.find((u) => u.name === `Xavi ${IMG}` && (u.company_name ?? '').includes(tag));
    if (!mine?.company_id) throw new Error('the admin of this run is not listed');
    const company = mine.company_id;
    await openSession(page, superAdmin, 'es');
    await page.goto(`/super-admin/users?company=${company}`);
    await expect(page.getByRole('table').getByText(`Xavi ${IMG}`).first()).toBeVisible();
    await expectNoInjectedMarkup(page, dialogs);
    await page.goto('/super-admin/companies');
    await page.getByRole('searchbox', { name: 'Filtrar' }).fill(tag);
    await expect(
      page.getByRole('table').getByText(`Empresa ${SCRIPT}`, { exact: false }).first(),
    ).toBeVisible();
    await expect(page.getByRole('table').getByText(`Xavi ${IMG}`).first()).toBeVisible();
    await expectNoInjectedMarkup(page, dialogs);
  });
});
