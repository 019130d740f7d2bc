import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import readXlsxFile from 'read-excel-file/node';
import { api, createCompanyAdmin, openSession, type Session } from './support/api';
import { expect, test } from './support/fixtures';

// The clients screen at the size companies reach: 10,000 clients in one company. Every list feature is
// exercised at that size (a feature that works at 30 rows and fails at 10,000 is broken): the table
// asks the server for one page at a time, and the export writes a file holding every client. Timings
// are printed for docs/performance.md, never asserted.

const CLIENTS = 10_000;
const figures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../artifacts');

/** A company of its own with 10,000 clients, imported in one call; one of them has formula-like text. */
async function seedCompany(): Promise<{ admin: Session; tag: string }> {
  const { admin, tag } = await createCompanyAdmin({
    key: 'scale',
    name: 'Escala Clientes',
    company: 'Escala',
  });
  const rows = Array.from({ length: CLIENTS }, (_, i) => ({
    nombre: i === 0 ? `Fórmula${tag}` : `Cliente${String(i).padStart(5, '0')}`,
    apellidos: i === 0 ? 'Peligrosa' : `Apellido ${i % 97}`,
    celular: `52155${String(i).padStart(8, '0')}`,
    correo: `cliente${i}.${tag}@example.com`,
    proyectos: i === 0 ? '=HYPERLINK("http://example.test","x")' : `Proyecto ${i % 13}`,
  }));
  const result = await api<{ data: { error: unknown[]; success: unknown[] } }>(
    'POST',
    '/import/clients',
    { clients: rows },
    admin.token,
  );
  expect(result.data.error).toEqual([]);
  expect(result.data.success).toHaveLength(CLIENTS);
  return { admin, tag };
}

async function signIn(page: Page, admin: Session) {
  await openSession(page, admin, 'es');
}

test.describe('clients at 10,000', () => {
  test.describe.configure({ timeout: 120_000 });

  test('every list feature works and the export holds every client', async ({ page }) => {
    const { admin, tag } = await seedCompany();
    await signIn(page, admin);
    const listCalls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/v1/admin/client') listCalls.push(url);
    });
    await page.goto('/admin/clients');
    const table = page.getByRole('table', { name: 'Clientes' });
    // 10,000 rows at 10 per page: the browser holds one page, the server counts the rest.
    await expect(page.getByText('Pag 1 | 1000')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('1–10 de 10,000 registros')).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(10);
    expect(listCalls.map((url) => url.searchParams.get('per_page'))).toEqual(['10']);

    // Filter down to one client, ignoring case and accents.
    const filter = page.getByRole('searchbox', { name: 'Filtrar' });
    await filter.fill(`formula${tag}`.toUpperCase());
    await expect(table.getByRole('row', { name: new RegExp(`Fórmula${tag} Peligrosa`) })).toBeVisible();
    await expect(page.getByText('Pag 1 | 1')).toBeVisible();
    await filter.fill('');
    await expect(page.getByText('Pag 1 | 1000')).toBeVisible();

    // Sort by name, both ways, and page through.
    const sortByName = table
      .getByRole('columnheader', { name: 'Nombre' })
      .getByRole('button', { name: 'Nombre' });
    await sortByName.click();
    await expect(table.getByRole('row', { name: /Cliente00001 / })).toBeVisible();
    await sortByName.click();
    await expect(table.getByRole('row', { name: new RegExp(`Fórmula${tag}`) })).toBeVisible();
    await page.getByRole('button', { name: 'Página siguiente' }).click();
    await expect(page.getByText('Pag 2 | 1000')).toBeVisible();
    expect(listCalls.at(-1)?.searchParams.get('page')).toBe('2');
    expect(listCalls.at(-1)?.searchParams.get('sort')).toBe('name');
    expect(listCalls.at(-1)?.searchParams.get('order')).toBe('desc');
    await page.getByRole('button', { name: 'Última página' }).click();
    await expect(page.getByText('Pag 1000 | 1000')).toBeVisible();
    await expect(table.getByRole('row', { name: /Cliente00001 / })).toBeVisible();
    // A bigger page: 500 rows, of which only those in view are rendered.
    await page.getByLabel('Filas por página').selectOption('500');
    await expect(page.getByText('Pag 1 | 20')).toBeVisible();
    await expect(table.locator('tbody tr[data-index]').first()).toBeVisible();
    expect(await table.locator('tbody tr[data-index]').count()).toBeLessThan(100);

    // Export: the file holds the header and every client; formula-like text stays text.
    const started = Date.now();
    const download = page.waitForEvent('download', { timeout: 60_000 });
    await page.getByRole('button', { name: 'Exportar' }).click();
    // The list arrives a thousand at a time; the button tells how far it got.
    await expect(page.getByRole('button', { name: /^Exportando [\d,]+ de 10,000…$/ })).toBeVisible();
    const file = await download;
    const exportMs = Date.now() - started;
    expect(file.suggestedFilename()).toBe('clients.xlsx');
    const sheets = await readXlsxFile(fs.readFileSync(await file.path()));
    expect(sheets.map((sheet) => sheet.sheet)).toEqual(['Clients Data']);
    const data = sheets[0].data;
    expect(data).toHaveLength(CLIENTS + 1);
    const formulaRow = data.find((row) => row[1] === `Fórmula${tag}`);
    expect(formulaRow?.[6]).toBe(`'=HYPERLINK("http://example.test","x")`);
    expect(new Set(data.slice(1).map((row) => row[3])).size).toBe(CLIENTS);
    await expect(page.getByText('No se pudo generar el archivo de Excel.')).toHaveCount(0);

    fs.mkdirSync(figures, { recursive: true });
    fs.writeFileSync(
      path.join(figures, 'clients-export.json'),
      JSON.stringify({ clients: CLIENTS, exportMs, bytes: fs.statSync(await file.path()).size }, null, 2),
    );
    console.log(`export of ${CLIENTS} clients: ${exportMs} ms from click to download`);
  });
});
