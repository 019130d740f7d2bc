import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';

// /admin/clients end to end against the real server, at 1280px and 375px. The table is searched,
// sorted and paged by the server (GET /admin/client with search, page, per_page, sort and order).

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);
/**
 * One admin with a company of its own per worker: the table, the import and the export then hold only
 * this file's rows.
 */
const companyAdmin = adminPerWorker({ key: 'clients', name: 'Clara Clientes', company: 'Clientes' });

async function signIn(page: Page, language: 'es' | 'en' = 'es'): Promise<Session> {
  const admin = await companyAdmin();
  await openSession(page, admin, language);
  return admin;
}

/** A short unique tag so parallel tests never see each other's rows when they filter. */
function uniqueTag(): string {
  return Math.random().toString(36).slice(2, 7);
}

/** A valid, unique WhatsApp number: 52 + 11 digits. */
function uniquePhone(): string {
  return `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
}

async function seedSegment(token: string, name: string, color = '#128c7e') {
  const { segment } = await api<{ segment: { id: number } }>(
    'POST',
    '/admin/segment',
    { name, color, rules: 'Creado por la prueba' },
    token,
  );
  return segment.id;
}

async function seedClient(token: string, name: string, lastNames: string, segmentId: number) {
  const phone = uniquePhone();
  const { client } = await api<{ client: { id: number } }>(
    'POST',
    '/admin/client',
    {
      name,
      last_names: lastNames,
      whatsapp_cellphone: phone,
      email: `client.${phone}@example.com`,
      segments: [segmentId],
    },
    token,
  );
  return { id: client.id, phone };
}

function clientsTable(page: Page) {
  return page.getByRole('table', { name: 'Clientes' });
}

async function filterTable(page: Page, text: string) {
  const filter = page.getByRole('searchbox', { name: 'Filtrar' });
  await filter.fill(text);
}

for (const width of [1280, 375] as const) {
  test.describe(`clients at ${width}px`, () => {
    test.use({ viewport: { width, height: width > 600 ? 800 : 812 } });
    // Whole user journeys on a shared machine: more room than the suite's 30 s default.
    test.describe.configure({ timeout: 120_000 });

    test('segments and clients: create with the colour picker, edit, filter, delete with confirmation', async ({
      page,
    }) => {
      const tag = uniqueTag();
      const segmentName = `VIP ${tag}`;
      const phone = uniquePhone();
      await signIn(page);
      // The first screen of a worker is a cold start (the route's chunk, the session, the first list): on
      // a busy machine it took longer than an assertion's wait, so the first try failed and the retry,
      // warm, passed. Wait for the screen's own signal instead: its first page of clients has arrived.
      const firstList = page.waitForResponse(
        (r) => new URL(r.url()).pathname === '/api/v1/admin/client' && r.request().method() === 'GET',
        { timeout: 0 },
      );
      await page.goto('/admin/clients');
      await firstList;
      await expect(page.getByRole('heading', { level: 1, name: 'Gestión de clientes' })).toBeVisible();
      await expect(page.getByText('Administra tus clientes y segmentos')).toBeVisible();

      // Segment: the colour picker starts at #7300ff; pick a preset, then fine-tune the hex text.
      await page.getByRole('button', { name: 'Agregar segmento' }).click();
      let dialog = page.getByRole('dialog', { name: 'Crear segmento' });
      await expect(dialog.getByRole('textbox', { name: 'Color', exact: true })).toHaveValue('#7300ff');
      await dialog.getByLabel('Nombre').fill(segmentName);
      await dialog.getByRole('button', { name: 'Usar el color #1a73e8' }).click();
      await expect(dialog.getByRole('textbox', { name: 'Color', exact: true })).toHaveValue('#1a73e8');
      await dialog.getByRole('textbox', { name: 'Color', exact: true }).fill('#1a73e9');
      await dialog.getByLabel('Reglas').fill('Clientes con más de 3 compras al mes');
      await dialog.getByRole('button', { name: 'Crear segmento' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Segmento creado con éxito.');
      await expect(dialog.getByLabel('Nombre')).toHaveValue('');
      await dialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(dialog).toBeHidden();
      const segments = page.getByRole('region', { name: 'Segmentos' });
      const chip = segments.locator('.hb-chip', { hasText: segmentName });
      await expect(chip).toHaveAttribute('data-color', '#1a73e9');

      // Client: the form refuses an incomplete submission, then creates the client in the segment.
      await page.getByRole('button', { name: 'Crear cliente' }).click();
      dialog = page.getByRole('dialog', { name: 'Crear cliente' });
      await dialog.getByRole('button', { name: 'Crear cliente' }).click();
      await expect(dialog.getByText('El campo nombre es obligatorio.')).toBeVisible();
      await expect(dialog.getByText('Debe seleccionar al menos un segmento')).toBeVisible();
      await dialog.getByLabel('Nombre').fill(`Ana${tag}`);
      await dialog.getByLabel('Apellidos').fill('García López');
      await dialog.getByLabel('WhatsApp').fill(`+${phone}`);
      await dialog.getByLabel('Correo electrónico').fill(`ana.${tag}@example.com`);
      await dialog.getByRole('combobox', { name: 'Segmentos' }).click();
      await page.getByRole('option', { name: segmentName }).click();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();
      await dialog.getByLabel('Proyectos').fill('Web corporativa');
      await dialog.getByRole('button', { name: 'Crear cliente' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('status').filter({ hasText: 'Cliente creado con éxito.' })).toBeVisible();

      await filterTable(page, tag);
      const row = clientsTable(page).getByRole('row', { name: new RegExp(`Ana${tag} García López`) });
      await expect(row).toBeVisible();
      await expect(row.getByText(`+${phone}`)).toBeVisible();
      await expect(row.locator('.hb-chip', { hasText: segmentName })).toHaveAttribute(
        'data-color',
        '#1a73e9',
      );

      // The same phone again is a 409, shown on the phone field.
      await page.getByRole('button', { name: 'Crear cliente' }).click();
      dialog = page.getByRole('dialog', { name: 'Crear cliente' });
      await dialog.getByLabel('Nombre').fill('Otra');
      await dialog.getByLabel('Apellidos').fill('Persona');
      await dialog.getByLabel('WhatsApp').fill(phone);
      await dialog.getByLabel('Correo electrónico').fill(`otra.${tag}@example.com`);
      await dialog.getByRole('combobox', { name: 'Segmentos' }).click();
      await page.getByRole('option', { name: segmentName }).click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Crear cliente' }).click();
      await expect(dialog.getByText('Ya existe un cliente con este número de WhatsApp.')).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancelar' }).click();

      // Edit the client from its row.
      await row.getByRole('button', { name: `Editar a Ana${tag} García López` }).click();
      dialog = page.getByRole('dialog', { name: 'Editar cliente' });
      await expect(dialog.getByLabel('WhatsApp')).toHaveValue(phone);
      await dialog.getByLabel('Apellidos').fill('García Ruiz');
      await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(dialog).toBeHidden();
      await expect(
        page.getByRole('status').filter({ hasText: 'Cliente actualizado con éxito.' }),
      ).toBeVisible();
      const edited = clientsTable(page).getByRole('row', { name: new RegExp(`Ana${tag} García Ruiz`) });
      await expect(edited).toBeVisible();

      // Filter: a term that matches nothing empties the table; the tag brings the row back.
      await filterTable(page, `${tag}-nadie`);
      await expect(
        clientsTable(page).getByText(`Ningún registro coincide con «${tag}-nadie».`),
      ).toBeVisible();
      await filterTable(page, tag);
      await expect(edited).toBeVisible();

      // Edit the segment from its chip: the modal closes by itself about 2 s after the save.
      await segments.getByRole('button', { name: segmentName, exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Editar segmento' });
      await dialog.getByLabel('Nombre').fill(`Premium ${tag}`);
      await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(dialog.getByRole('status')).toHaveText('Segmento actualizado con éxito.');
      await expect(dialog).toBeHidden();
      await expect(edited.locator('.hb-chip', { hasText: `Premium ${tag}` })).toBeVisible();

      // Delete the client: cancel first, then confirm.
      await edited.getByRole('button', { name: `Eliminar a Ana${tag} García Ruiz` }).click();
      let confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(
        '¿Estás seguro de que deseas eliminar estos clientes? Esta acción no se puede deshacer.',
      );
      await confirm.getByRole('button', { name: 'Cancelar' }).click();
      await expect(edited).toBeVisible();
      await edited.getByRole('button', { name: `Eliminar a Ana${tag} García Ruiz` }).click();
      confirm = page.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'Eliminar' }).click();
      const deleted = page.getByRole('status').filter({ hasText: 'Clientes eliminados con éxito.' });
      await expect(deleted).toBeVisible();
      await expect(edited).toBeHidden();
      // The green message goes away by itself after 4 s (the pointer moved off it: hovering pauses it).
      await page.mouse.move(0, 0);
      await expect(deleted).toBeHidden();

      // Delete the segment through its chip's action, after the usual confirmation.
      await segments.getByRole('button', { name: `Eliminar el segmento Premium ${tag}` }).click();
      confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(
        '¿Estás seguro de que deseas eliminar este segmento? Esta acción no se puede deshacer.',
      );
      await confirm.getByRole('button', { name: 'Eliminar' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Segmento eliminado con éxito.' }),
      ).toBeVisible();
      await expect(segments.getByRole('button', { name: `Premium ${tag}`, exact: true })).toBeHidden();
    });

    test('selection: edit needs exactly one row, delete removes every selected client', async ({ page }) => {
      const tag = uniqueTag();
      const admin = await signIn(page);
      const segmentId = await seedSegment(admin.token, `Sel ${tag}`);
      await seedClient(admin.token, `Uno${tag}`, 'Prueba', segmentId);
      await seedClient(admin.token, `Dos${tag}`, 'Prueba', segmentId);
      await page.goto('/admin/clients');
      await filterTable(page, tag);
      await expect(clientsTable(page).getByRole('row')).toHaveCount(3);
      await page.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' }).check();
      const toolbar = page.locator('.hb-table__actions');
      await expect(toolbar.getByRole('button', { name: 'Editar' })).toBeDisabled();
      await toolbar.getByRole('button', { name: 'Eliminar' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(
        '¿Estás seguro de que deseas eliminar estos clientes? Esta acción no se puede deshacer.',
      );
      await confirm.getByRole('button', { name: 'Eliminar' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Clientes eliminados con éxito.' }),
      ).toBeVisible();
      await expect(clientsTable(page).getByText(`Ningún registro coincide con «${tag}».`)).toBeVisible();
    });

    test('import a CSV through the file chooser, then export and read clients.xlsx', async ({ page }) => {
      const tag = uniqueTag();
      const admin = await signIn(page);
      await seedSegment(admin.token, `Importados ${tag}`, '#d6336c');
      await page.goto('/admin/clients');

      const good1 = uniquePhone();
      const good2 = uniquePhone();
      // BOM, semicolons, a blank line, Spanish headers, an unknown segment and a bad email.
      const csv =
        '\uFEFFnombre;apellidos;celular;correo;proyectos;segmentos\r\n' +
        `Lucía${tag};Fernández;${good1};lucia.${tag}@example.com;Tienda online;Importados ${tag}\r\n` +
        '\r\n' +
        `Jorge${tag};Martín;+${good2.slice(0, 2)} ${good2.slice(2)};jorge.${tag}@example.com;;importados ${tag}\r\n` +
        `Malo${tag};Correo;${uniquePhone()};no-es-correo;;Importados ${tag}\r\n` +
        `Raro${tag};Segmento;${uniquePhone()};raro.${tag}@example.com;;Inexistente ${tag}\r\n`;
      const file = path.join(os.tmpdir(), `clientes-${tag}.csv`);
      fs.writeFileSync(file, csv, 'utf8');

      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar clientes' });
      await expect(dialog.getByRole('link', { name: 'Descargar plantilla CSV' })).toHaveAttribute(
        'href',
        '/clientes-plantilla.csv',
      );
      const chooser = page.waitForEvent('filechooser');
      await dialog.getByLabel('Archivo CSV').click();
      await (await chooser).setFiles(file);
      await expect(dialog.getByText('4 filas listas para importar')).toBeVisible();
      await dialog.getByRole('button', { name: 'Importar' }).click();

      const errors = dialog.getByRole('region', { name: 'Errores' });
      const successes = dialog.getByRole('region', { name: 'Éxitos' });
      await expect(errors.getByRole('listitem')).toHaveCount(2);
      await expect(errors.getByRole('listitem').filter({ hasText: `Malo${tag} Correo` })).toContainText(
        'correo',
      );
      await expect(errors.getByRole('listitem').filter({ hasText: `Raro${tag} Segmento` })).toContainText(
        `Inexistente ${tag}`,
      );
      await expect(successes.getByRole('listitem')).toHaveCount(2);
      await expect(successes).toContainText(`Lucía${tag} Fernández`);
      await expect(successes).toContainText(`Jorge${tag} Martín`);

      // The refused rows come back as a CSV with the reason, ready to fix and import again.
      const errorsDownload = page.waitForEvent('download');
      await errors.getByRole('button', { name: 'Descargar las filas con errores (CSV)' }).click();
      const errorsFile = await errorsDownload;
      expect(errorsFile.suggestedFilename()).toBe(`clientes-${tag}-errores.csv`);
      const errorsText = fs.readFileSync(await errorsFile.path(), 'utf8');
      expect(errorsText.split('\r\n')[0]).toBe(
        '\uFEFFnombre;apellidos;celular;correo;proyectos;segmentos;error',
      );
      expect(errorsText).toContain(`Malo${tag};Correo;`);
      expect(errorsText).toContain(`Raro${tag};Segmento;`);
      await dialog.getByRole('button', { name: 'Cerrar' }).first().click();
      await expect(dialog).toBeHidden();

      // The list was refreshed.
      await filterTable(page, tag);
      await expect(
        clientsTable(page).getByRole('row', { name: new RegExp(`Lucía${tag} Fernández`) }),
      ).toBeVisible();
      await expect(
        clientsTable(page).getByRole('row', { name: new RegExp(`Jorge${tag} Martín`) }),
      ).toBeVisible();

      // Importing the same file again updates instead of duplicating.
      await page.getByRole('button', { name: 'Importar', exact: true }).click();
      const again = page.getByRole('dialog', { name: 'Importar clientes' });
      await again.getByLabel('Archivo CSV').setInputFiles(file);
      await again.getByRole('button', { name: 'Importar' }).click();
      await expect(again.getByRole('region', { name: 'Éxitos' }).getByText('actualizado')).toHaveCount(2);
      await again.getByRole('button', { name: 'Cerrar' }).first().click();
      await expect(clientsTable(page).getByRole('row')).toHaveCount(3);

      // Export: every client of the company (not only the filtered page), read from the server a
      // thousand at a time, written in the browser as clients.xlsx with the 'Clients Data' sheet.
      const apiCalls: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/')) apiCalls.push(request.url());
      });
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Exportar' }).click();
      const xlsx = await download;
      expect(xlsx.suggestedFilename()).toBe('clients.xlsx');
      const saved = path.join(os.tmpdir(), `clients-${tag}.xlsx`);
      await xlsx.saveAs(saved);
      expect(apiCalls.length).toBeGreaterThan(0);
      for (const url of apiCalls) {
        const { pathname, searchParams } = new URL(url);
        expect(pathname).toBe('/api/v1/admin/client');
        expect(searchParams.get('per_page')).toBe('1000');
        expect(searchParams.get('search')).toBeNull();
      }
      const sheets = await readXlsxFile(saved);
      expect(sheets.map((sheet) => sheet.sheet)).toEqual(['Clients Data']);
      const [header, ...rows] = sheets[0].data;
      expect(header).toEqual(['id', 'nombre', 'apellidos', 'celular', 'correo', 'segmentos', 'proyectos']);
      const lucia = rows.find((r) => r[1] === `Lucía${tag}`);
      expect(lucia).toEqual([
        expect.any(Number),
        `Lucía${tag}`,
        'Fernández',
        good1,
        `lucia.${tag}@example.com`,
        `Importados ${tag}`,
        'Tienda online',
      ]);
      const jorge = rows.find((r) => r[1] === `Jorge${tag}`);
      expect(jorge?.[3]).toBe(good2);
      fs.rmSync(file, { force: true });
      fs.rmSync(saved, { force: true });
    });

    test("'Ir al Chat', the row actions and the name are in view without scrolling sideways", async ({
      page,
    }) => {
      const tag = uniqueTag();
      const admin = await signIn(page);
      const segmentId = await seedSegment(admin.token, `Fijas ${tag}`);
      await seedClient(admin.token, `Fija${tag}`, 'Columnas', segmentId);
      await page.goto('/admin/clients');
      await filterTable(page, tag);
      const row = clientsTable(page).getByRole('row', { name: new RegExp(`Fija${tag} Columnas`) });
      await expect(row).toBeVisible();
      // The search has answered: only this client is listed (the worker's admin has others).
      await expect(clientsTable(page).getByRole('row', { name: /Ir al chat con/ })).toHaveCount(1);
      await row.scrollIntoViewIfNeeded();
      // Beside the menu the table keeps its 1200px minimum, so it scrolls sideways, with the chat and
      // action columns pinned to its right edge, inside the page; on a phone each row is a card instead.
      const scroller = page.getByTestId('table-scroll');
      const overflow = await scroller.evaluate((el) => el.scrollWidth - el.clientWidth);
      if (width > 640) expect(overflow).toBeGreaterThan(0);
      else expect(overflow).toBeLessThanOrEqual(0);
      expect(await scroller.evaluate((el) => el.scrollLeft)).toBe(0);
      const viewport = page.viewportSize() ?? { width, height: 800 };
      const inView = async (name: string) => {
        const button = row.getByRole('button', { name });
        const box = await button.boundingBox();
        expect(box, name).not.toBeNull();
        if (!box) return;
        expect(box.x, name).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, name).toBeLessThanOrEqual(viewport.width);
        // Nothing covers it: the point at its centre belongs to the button.
        const hit = await button.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
          return top !== null && el.contains(top);
        });
        expect(hit, `${name} is not covered`).toBe(true);
      };
      await inView(`Ir al chat con Fija${tag} Columnas`);
      await inView(`Editar a Fija${tag} Columnas`);
      await inView(`Eliminar a Fija${tag} Columnas`);
      // The name is not hidden behind the pinned columns either (on a card it leads, above the button).
      const name = row.getByText(`Fija${tag} Columnas`);
      const nameBox = await name.boundingBox();
      const chatBox = await row
        .getByRole('button', { name: `Ir al chat con Fija${tag} Columnas` })
        .boundingBox();
      if (width > 640) expect(nameBox && chatBox && nameBox.x + 40 < chatBox.x).toBe(true);
      else expect(nameBox && chatBox && nameBox.y + nameBox.height <= chatBox.y).toBe(true);
      const nameVisible = await name.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + 8, r.y + r.height / 2);
        return top !== null && el.contains(top);
      });
      expect(nameVisible).toBe(true);
    });

    test("'Ir al Chat' lands on /admin/chat with the client in the navigation state", async ({ page }) => {
      const tag = uniqueTag();
      const admin = await signIn(page);
      const segmentId = await seedSegment(admin.token, `Chat ${tag}`);
      const { id, phone } = await seedClient(admin.token, `Carla${tag}`, 'Chat', segmentId);
      await page.goto('/admin/clients');
      await filterTable(page, tag);
      await clientsTable(page)
        .getByRole('button', { name: `Ir al chat con Carla${tag} Chat` })
        .click();
      await expect(page).toHaveURL('/admin/chat');
      const state = await page.evaluate(() => window.history.state?.usr);
      expect(state).toEqual({ client: { avatar: null, id, name: `Carla${tag}`, phone } });
    });

    test.describe('accessibility', () => {
      // axe is injected as an inline script, which the server's CSP forbids; only this test bypasses it.
      test.use({ bypassCSP: true });

      test('no serious axe violations on the page, the forms and the import result', async ({ page }) => {
        const tag = uniqueTag();
        const admin = await signIn(page);
        const segmentId = await seedSegment(admin.token, `Axe ${tag}`, '#f59e0b');
        await seedClient(admin.token, `Axe${tag}`, 'Prueba', segmentId);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto('/admin/clients');
        await filterTable(page, tag);
        await expect(clientsTable(page).getByRole('row')).toHaveCount(2);
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole('button', { name: 'Crear cliente' }).click();
        const form = page.getByRole('dialog', { name: 'Crear cliente' });
        await form.getByRole('button', { name: 'Crear cliente' }).click();
        await expect(form.getByText('El campo nombre es obligatorio.')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        await form.getByRole('button', { name: 'Cancelar' }).click();

        await page.getByRole('button', { name: 'Agregar segmento' }).click();
        expect(await seriousViolations(page)).toEqual([]);
        await page
          .getByRole('dialog', { name: 'Crear segmento' })
          .getByRole('button', { name: 'Cancelar' })
          .click();

        await page.getByRole('button', { name: 'Importar', exact: true }).click();
        const importer = page.getByRole('dialog', { name: 'Importar clientes' });
        await importer.getByLabel('Archivo CSV').setInputFiles({
          name: 'axe.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(
            `nombre,apellidos,celular,correo\nAxe${tag},Uno,${uniquePhone()},axe.${tag}@example.com\nMal,Dos,1,x\n`,
          ),
        });
        expect(await seriousViolations(page)).toEqual([]);
        await importer.getByRole('button', { name: 'Importar' }).click();
        await expect(importer.getByRole('region', { name: 'Éxitos' })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    });

    for (const language of ['es', 'en'] as const) {
      test(`screenshots ${language}`, async ({ page }) => {
        const tag = uniqueTag();
        const admin = await signIn(page, language);
        const first = await seedSegment(admin.token, `Clientes VIP ${tag}`, '#1a73e8');
        const second = await seedSegment(admin.token, `Nuevos ${tag}`, '#f59e0b');
        await seedClient(admin.token, 'María', 'Hernández Ortega', first);
        await seedClient(admin.token, 'José', 'Ruiz', second);
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto('/admin/clients');
        const heading = language === 'es' ? 'Gestión de clientes' : 'Client management';
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(page.locator('tbody tr').first()).toBeVisible();
        const shot = (name: string) => path.join(screenshots, `clients-${name}-${language}-${width}.png`);
        await page.screenshot({ path: shot('page'), fullPage: true });
        await page
          .getByRole('button', { name: language === 'es' ? 'Crear cliente' : 'Create client' })
          .click();
        const create = page.getByRole('dialog');
        await create
          .getByRole('button', { name: language === 'es' ? 'Crear cliente' : 'Create client' })
          .click();
        await page.screenshot({ path: shot('form') });
        await page.keyboard.press('Escape');
        await page
          .getByRole('button', { name: language === 'es' ? 'Agregar segmento' : 'Add segment' })
          .click();
        await page.screenshot({ path: shot('segment') });
        await page.keyboard.press('Escape');
        await page
          .getByRole('button', { name: language === 'es' ? 'Importar' : 'Import', exact: true })
          .click();
        await page.locator('details.clients-columns > summary').click();
        await page.screenshot({ path: shot('import') });
      });
    }
  });
}
