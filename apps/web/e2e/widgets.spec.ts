import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';

// The widgets gallery (/dev/widgets) renders the shared widgets with realistic data, the DataTable with
// 10,000 generated clients. It exists in dev builds only, so this spec serves the web app with Vite's
// dev server and checks that the widgets work there; the production server must not have the page.
// How fast the table is gets measured by `npm run bench` (bench/widgets.ts), never here.

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TABLE = '#gallery-clients';
let dev: ViteDevServer | undefined;
let devURL = '';

// One dev server for the file: its tests run one after another in one worker.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dev = await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'warn',
    clearScreen: false,
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
  });
  await dev.listen();
  const address = dev.httpServer?.address();
  devURL = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 5173}`;
});

test.afterAll(async () => {
  await dev?.close();
});

test('the production build has no /dev/widgets page', async ({ page }) => {
  await page.goto('/dev/widgets');
  await expect(page.getByRole('heading', { level: 1, name: 'Página no encontrada' })).toBeVisible();
  await expect(page.locator(TABLE)).toHaveCount(0);
});

test.describe('widgets gallery (dev server)', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  });

  test('DataTable with 10,000 rows: filter, paging, sorting and the virtualised 500-row page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${devURL}/dev/widgets`);
    const table = page.locator(TABLE);
    const pager = table.getByTestId('table-page');
    await expect(pager).toHaveText('Pag 1 | 1000', { timeout: 60_000 });
    await expect(table.getByText('1–10 de 10,000 registros')).toBeVisible();
    const filter = table.getByRole('searchbox', { name: 'Filtrar' });
    const rows = table.locator('tbody tr[data-index]');

    // Accent- and case-insensitive: 'jose' finds 'José', 'IBANEZ' finds 'Ibáñez'.
    await filter.fill('jose');
    await expect(rows.first()).toContainText('José');
    await expect(pager).toHaveText(/^Pag 1 \| \d+$/);
    await filter.fill('IBANEZ');
    await expect(rows.first()).toContainText('Ibáñez');
    await filter.fill('zzzz');
    await expect(table.getByText('Ningún registro coincide con «zzzz».')).toBeVisible();
    await filter.fill('');
    await expect(pager).toHaveText('Pag 1 | 1000');

    // Paging through the 10,000 rows.
    const next = table.getByRole('button', { name: 'Página siguiente' });
    for (let i = 0; i < 3; i++) await next.click();
    await expect(pager).toHaveText('Pag 4 | 1000');
    await expect(table.getByText('31–40 de 10,000 registros')).toBeVisible();
    await table.getByRole('button', { name: 'Última página' }).click();
    await expect(pager).toHaveText('Pag 1000 | 1000');
    await expect(next).toBeDisabled();
    await table.getByRole('button', { name: 'Primera página' }).click();
    await expect(pager).toHaveText('Pag 1 | 1000');

    // Sorting all 10,000 rows by name, ascending then descending: the first row changes.
    const nameHeader = table.getByRole('columnheader', { name: /Nombre/ });
    const sortByName = table.getByRole('button', { name: 'Ordenar por Nombre' });
    const firstBefore = await rows.first().textContent();
    await sortByName.click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    const firstAscending = await rows.first().textContent();
    expect(firstAscending).not.toBe(firstBefore);
    await sortByName.click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(rows.first()).not.toHaveText(firstAscending ?? '');

    // The largest page size: 500 rows, of which only those in view are rendered.
    await table.getByLabel('Filas por página').selectOption('500');
    await expect(pager).toHaveText('Pag 1 | 20');
    await expect(table.locator('tbody tr[data-index="0"]')).toBeVisible();
    const rendered = await rows.count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    // Scrolling to the end of the page renders its last rows.
    await table.getByTestId('table-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(table.locator('tbody tr[data-index="499"]')).toBeVisible();
    await expect(table.locator('tbody tr[data-index="0"]')).toHaveCount(0);
    expect(await rows.count()).toBeLessThan(100);
  });

  test('the other widgets work in the gallery', async ({ page }) => {
    await page.goto(`${devURL}/dev/widgets`);
    // Modal with focus trap and the multi-select inside it.
    const opener = page.getByRole('button', { name: 'Crear cliente' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Crear cliente' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Nombre')).toBeFocused();
    const segments = dialog.getByRole('combobox', { name: 'Segmentos' });
    await segments.click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(dialog.getByRole('button', { name: 'Quitar Préstamos' })).toBeVisible();
    await page.keyboard.press('Backspace');
    await expect(dialog.getByRole('button', { name: 'Quitar Préstamos' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Delete asks for confirmation first.
    const table = page.locator(TABLE);
    await table.getByRole('checkbox', { name: 'Seleccionar fila 1', exact: true }).check();
    await table.getByRole('button', { name: 'Eliminar', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(
      '¿Estás seguro de que deseas eliminar estos clientes? Esta acción no se puede deshacer.',
    );
    await confirm.getByRole('button', { name: 'Eliminar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Se eliminó 1 cliente.' })).toBeVisible();
    await expect(table.getByText('1–10 de 9,999 registros')).toBeVisible();

    // Colour picker: invalid text falls back to a black swatch.
    const forms = page.locator('#gallery-forms');
    const hex = forms.getByRole('textbox', { name: 'Color', exact: true });
    const swatch = forms.getByLabel('Elegir color');
    await hex.fill('#12');
    await expect(hex).toHaveValue('#12');
    await expect(swatch).toHaveValue('#000000');
    await hex.fill('zz25d366');
    await expect(hex).toHaveValue('#25d366');
    await expect(swatch).toHaveValue('#25d366');

    // Textarea hard limit on paste.
    const ask = page.getByRole('textbox', { name: 'Nombre de la instrucción' });
    await ask.fill('');
    await ask.fill('y'.repeat(150));
    await expect(ask).toHaveValue('y'.repeat(100));
  });
});
