import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FakeGraphApi, fakeTemplate, startFakeGraphApi } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { flowCases } from './support/matrix';

// /admin/messages-massive end to end against the real server and the fake WhatsApp: a client list made
// with the server-searched picker, a send with placeholders and a quick insert, the accepted send in
// 'Todos los envíos' with its progress from the event stream, the messages the fake received, the report.

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);

const WA_TOKEN = 'EAAe2eMassToken0001';
// A WhatsApp number belongs to one company: each worker's company (adminPerWorker) has its own.
const WORKER = Number(process.env.TEST_WORKER_INDEX ?? 0);
const PHONE_ID = String(106540352249001 + WORKER);
const WABA_ID = String(200540352249001 + WORKER);

const companyAdmin = adminPerWorker({ key: 'mass', name: 'Marta Masivos', company: 'Masivos' });

let graph: FakeGraphApi;

test.beforeAll(async () => {
  graph = await startFakeGraphApi({
    tokens: [WA_TOKEN],
    phoneNumbers: [
      {
        id: PHONE_ID,
        display_phone_number: '+52 55 1111 2222',
        verified_name: 'Tienda',
        quality_rating: 'GREEN',
      },
    ],
  });
  graph.templates.set(WABA_ID, [
    fakeTemplate({ name: 'promo_navidad', body: 'Hola {{1}}, tu código es {{2}}.' }),
    fakeTemplate({ name: 'aviso_pendiente', status: 'PENDING', body: 'Pronto, {{1}}.' }),
  ]);
  graph.phoneAccounts.set(PHONE_ID, WABA_ID);
});

test.afterAll(async () => {
  await graph?.close();
});

/** The company's WhatsApp settings point at the fake, its templates synced, and a few clients. */
async function seedCompany(admin: Session, tag: string) {
  await api(
    'POST',
    '/admin/setting',
    {
      whatsAppApiKey: WA_TOKEN,
      whatsAppPhoneId: PHONE_ID,
      whatsAppBusinessAccountId: WABA_ID,
      facebookMessagesApiUrl: graph.baseUrl,
    },
    admin.token,
  );
  await api('GET', '/templates/sync', undefined, admin.token);
  const { segment } = await api<{ segment: { id: number } }>(
    'POST',
    '/admin/segment',
    { name: `Segmento ${tag}`, color: '#7300ff', rules: 'Clientes de prueba' },
    admin.token,
  );
  const people = [
    { name: `Valeria${tag}`, last_names: 'Ríos', phone: `5215590${tag}01` },
    { name: `Tomás${tag}`, last_names: 'Luna', phone: `5215590${tag}02` },
    { name: `Otro${tag}`, last_names: 'Fuera', phone: `5215590${tag}03` },
  ];
  const ids: number[] = [];
  for (const [index, person] of people.entries()) {
    const { client } = await api<{ client: { id: number } }>(
      'POST',
      '/admin/client',
      {
        name: person.name,
        last_names: person.last_names,
        whatsapp_cellphone: person.phone,
        email: `cliente${tag}.${index}@example.com`,
        segments: [segment.id],
      },
      admin.token,
    );
    ids.push(client.id);
  }
  return people.map((person, index) => ({ ...person, id: ids[index] as number }));
}

const TEXTS = {
  es: {
    createList: 'Crear lista',
    listDialog: 'Crear lista de clientes',
    name: /^Nombre/,
    clients: /^Clientes/,
    ok: 'Operación exitosa',
    sendName: /^Nombre del envío/,
    template: /^Plantilla/,
    list: /^Lista de clientes/,
    value: (n: number) => new RegExp(`^Valor de \\{\\{${n}\\}\\}`),
    insertName: 'Insertar Nombre en {{1}}',
    previewFor: (name: string) => `Así lo recibirá ${name}:`,
    send: 'Enviar',
    sent: 'Mensaje enviado con éxito.',
    history: 'Todos los envíos',
    sentOf: '2 de 2 enviados',
    report: (name: string) => `Ver informe de ${name}`,
    recipients: 'Destinatarios',
    completed: 'Completado',
    export: 'Exportar',
    twoClients: '2 clientes',
  },
  en: {
    createList: 'Create list',
    listDialog: 'Create client list',
    name: /^Name/,
    clients: /^Clients/,
    ok: 'Operation successful',
    sendName: /^Send name/,
    template: /^Template/,
    list: /^Client list/,
    value: (n: number) => new RegExp(`^Value of \\{\\{${n}\\}\\}`),
    insertName: 'Insert First name into {{1}}',
    previewFor: (name: string) => `This is what ${name} will receive:`,
    send: 'Send',
    sent: 'Message sent successfully.',
    history: 'All sends',
    sentOf: '2 of 2 sent',
    report: (name: string) => `View the report of ${name}`,
    recipients: 'Recipients',
    completed: 'Completed',
    export: 'Export',
    twoClients: '2 clients',
  },
} as const;

let seq = 10;

for (const [width, language] of flowCases([
  [1280, 'es'],
  [375, 'en'],
  [1280, 'en'],
  [375, 'es'],
] as const)) {
  test.describe(`${width}px ${language}`, () => {
    test.use({ viewport: { width, height: width > 400 ? 900 : 800 }, bypassCSP: true });
    const x = TEXTS[language];

    test('create a list, send a template with placeholders to the fake WhatsApp, watch it in the history', async ({
      page,
    }) => {
      test.setTimeout(60_000);
      const admin = await companyAdmin();
      const tag = String(seq++ + (width === 375 ? 50 : 0));
      const people = await seedCompany(admin, tag);
      const [valeria, tomas] = people as [(typeof people)[0], (typeof people)[0]];
      await openSession(page, admin, language);
      await page.goto('/admin/messages-massive');

      // A list of two clients, found through the server search.
      await page.getByRole('button', { name: x.createList }).click();
      const dialog = page.getByRole('dialog', { name: x.listDialog });
      const listName = `Lista ${tag}`;
      await dialog.getByLabel(x.name).fill(listName);
      for (const person of [valeria, tomas]) {
        await dialog.getByLabel(x.clients).fill(person.name);
        await dialog.getByRole('checkbox', { name: new RegExp(person.name) }).check();
      }
      await dialog.screenshot({
        path: path.join(screenshots, `mass-messages-list-${language}-${width}.png`),
      });
      await dialog.getByRole('button', { name: x.createList }).click();
      await expect(page.getByText(x.ok)).toBeVisible();
      await expect(page.getByRole('button', { name: new RegExp(`^${listName}`) })).toBeVisible();

      // The send: only approved templates, a quick insert, a preview for a real recipient.
      const form = page.getByRole('region', { name: language === 'es' ? 'Nuevo envío' : 'New send' });
      const sendName = `Envío ${tag}`;
      await form.getByLabel(x.sendName).fill(sendName);
      const templateSelect = form.getByLabel(x.template);
      await expect(templateSelect.locator('option')).toHaveText([/.+/, 'promo_navidad (es)']);
      await templateSelect.selectOption({ label: 'promo_navidad (es)' });
      await form.getByLabel(x.list).selectOption({ label: `${listName} (${x.twoClients})` });
      await form.getByRole('button', { name: x.insertName }).click();
      await expect(form.getByLabel(x.value(1))).toHaveValue('{{Nombre}}');
      await form.getByLabel(x.value(2)).fill('NAVIDAD');
      await expect(form.getByText(x.previewFor(`${valeria.name} ${valeria.last_names}`))).toBeVisible();
      await expect(form.getByTestId('mass-preview')).toHaveText(
        `Hola ${valeria.name}, tu código es NAVIDAD.`,
      );
      await form.getByRole('button', { name: x.send, exact: true }).click();
      await expect(form.getByText(x.sent)).toBeVisible();

      // The history shows it, and its progress arrives from the event stream.
      const history = page.getByRole('table', { name: x.history });
      const row = history.getByRole('row').filter({ hasText: sendName });
      await expect(row).toBeVisible();
      await expect(row.getByText(x.sentOf).first()).toBeVisible({ timeout: 15_000 });
      await expect(row.getByText(x.completed).first()).toBeVisible();

      // The fake received one message per recipient, each with its own name.
      const received = graph.sent.filter(
        (m) => m.phoneNumberId === PHONE_ID && [valeria.phone, tomas.phone].includes(m.to),
      );
      expect(received.map((m) => m.to).sort()).toEqual([valeria.phone, tomas.phone].sort());
      expect(JSON.stringify(received.find((m) => m.to === tomas.phone)?.body)).toContain(tomas.name);

      // No serious axe finding at either width (at 375 px the history's rows are cards), and nothing
      // wider than a phone's screen.
      expect(await seriousViolations(page)).toEqual([]);
      if (width === 375) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await page.screenshot({
        path: path.join(screenshots, `mass-messages-${language}-${width}.png`),
        fullPage: true,
      });

      // The per-recipient report.
      await row.getByRole('button', { name: x.report(sendName) }).click();
      const report = page.getByRole('dialog');
      const recipients = report.getByRole('table', { name: x.recipients });
      await expect(recipients.getByText(`${valeria.name} ${valeria.last_names}`)).toBeVisible();
      await expect(recipients.getByText(`${tomas.name} ${tomas.last_names}`)).toBeVisible();
      await page.screenshot({
        path: path.join(screenshots, `mass-messages-report-${language}-${width}.png`),
      });
      const download = page.waitForEvent('download');
      await report.getByRole('button', { name: x.export }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^envio-\d+\.csv$/);
      const csv = await fs.promises.readFile((await file.path()) as string, 'utf8');
      expect(csv).toContain(valeria.phone);
      expect(csv).toContain(tomas.phone);
    });
  });
}

test.describe('scheduled send', () => {
  // The admin's clock is in Mexico City (UTC−6): the time typed there reaches the server in UTC.
  test.use({ timezoneId: 'America/Mexico_City', bypassCSP: true });

  test('schedule a send in the local time zone, see it waiting in the history, cancel it', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const admin = await companyAdmin();
    const tag = '90';
    const [valeria] = await seedCompany(admin, tag);
    const listName = `Programada ${tag}`;
    await api('POST', '/admin/list-clients', { name: listName, client_ids: [valeria?.id] }, admin.token);
    const before = graph.sent.length;
    await openSession(page, admin, 'es');
    await page.goto('/admin/messages-massive');

    const form = page.getByRole('region', { name: 'Nuevo envío' });
    const sendName = `Programado ${tag}`;
    await form.getByLabel(/^Nombre del envío/).fill(sendName);
    await form.getByLabel(/^Plantilla/).selectOption({ label: 'promo_navidad (es)' });
    await form.getByLabel(/^Lista de clientes/).selectOption({ label: `${listName} (1 cliente)` });
    await form.getByLabel(/^Valor de \{\{1\}\}/).fill('amiga');
    await form.getByLabel(/^Valor de \{\{2\}\}/).fill('ENERO');
    await expect(
      form.getByText('Hora local (America/Mexico_City). Déjalo vacío para enviar ahora.'),
    ).toBeVisible();
    // The 15th of the month after next, 10:30 in Mexico City (UTC-6 all year): always ahead, within the year.
    const now = new Date();
    const when = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 15, 16, 30));
    const local = `${when.toISOString().slice(0, 10)}T10:30`;
    await form.getByLabel(/^Programar envío/).fill(local);
    await form.getByRole('button', { name: 'Programar', exact: true }).click();
    await expect(form.getByText('Mensaje enviado con éxito.')).toBeVisible();

    const row = page
      .getByRole('table', { name: 'Todos los envíos' })
      .getByRole('row')
      .filter({ hasText: sendName });
    await expect(row.getByText('Programado', { exact: true })).toBeVisible();
    await expect(
      row.getByText(new RegExp(`^Programado para 15 \\S+ ${when.getUTCFullYear()}`)),
    ).toBeVisible();
    const history = await api<{ data: { data: { name: string; scheduled_at: string | null }[] } }>(
      'GET',
      '/admin/mass-message-history',
      undefined,
      admin.token,
    );
    expect(history.data.data.find((send) => send.name === sendName)?.scheduled_at).toBe(when.toISOString());

    await row.getByRole('button', { name: `Cancelar ${sendName}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancelar envío' }).click();
    await expect(row.getByText('Cancelado', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: `Cancelar ${sendName}` })).toHaveCount(0);
    expect(graph.sent.length).toBe(before);
  });
});
