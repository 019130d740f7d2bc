import { expect, type Page, test } from '@playwright/test';

// The widgets gallery (/dev/widgets) renders the DataTable with 10,000 generated clients. This spec
// measures, inside the browser, how long filtering, paging, sorting and the 500-row virtualised page
// take from the user's action to the next painted frame, and prints the figures.

type Step =
  | { kind: 'filter'; value: string }
  | { kind: 'click'; selector: string }
  | { kind: 'pageSize'; value: string }
  | { kind: 'scroll'; fraction: number };

const TABLE = '#gallery-clients';

/** Runs one action in the page and returns ms until the table's DOM changed and a frame was painted. */
async function measure(page: Page, step: Step): Promise<number> {
  return page.evaluate(
    async ({ step, table }) => {
      const root = document.querySelector(table) as HTMLElement;
      const tbody = root.querySelector('tbody') as HTMLElement;
      const footer = root.querySelector('.hb-table__footer') as HTMLElement;
      const snapshot = () => `${tbody.textContent}|${footer.textContent}`;
      const before = snapshot();
      const changed = new Promise<void>((resolve, reject) => {
        const timeout = window.setTimeout(() => {
          observer.disconnect();
          reject(new Error(`no change after ${JSON.stringify(step)}`));
        }, 10_000);
        const observer = new MutationObserver(() => {
          if (snapshot() !== before) {
            observer.disconnect();
            window.clearTimeout(timeout);
            resolve();
          }
        });
        observer.observe(root, { subtree: true, childList: true, characterData: true });
      });
      const start = performance.now();
      if (step.kind === 'filter') {
        const input = root.querySelector('input[type="search"]') as HTMLInputElement;
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
        setValue?.call(input, step.value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      } else if (step.kind === 'click') {
        (root.querySelector(step.selector) as HTMLElement).click();
      } else if (step.kind === 'pageSize') {
        const select = root.querySelector('.hb-table__page-size select') as HTMLSelectElement;
        select.value = step.value;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      } else {
        const scroller = root.querySelector('.hb-table__scroll') as HTMLElement;
        scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * step.fraction;
      }
      await changed;
      // Wait for the frame that shows the change to be painted.
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    { step, table: TABLE },
  );
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: samples.length,
    median: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted[sorted.length - 1]),
  };
}

test.describe('widgets gallery', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => window.localStorage.setItem('language', 'es'));
  });

  test('DataTable with 10,000 rows: filtering, paging, sorting and a 500-row page stay fast', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dev/widgets');
    const table = page.locator(TABLE);
    const pager = table.getByTestId('table-page');
    await expect(pager).toHaveText('Pag 1 | 1000');
    await expect(table.getByText('1–10 de 10,000 registros')).toBeVisible();

    // Filtering: each query from the full list, then back to the full list.
    const queries = [
      'jose',
      'MARIA LOPEZ',
      'nunez',
      'vip',
      '52155',
      'peña ortega',
      'zzzz',
      'lucia',
      'garcia',
      'ibañez',
    ];
    const filter: number[] = [];
    const clear: number[] = [];
    for (const query of queries) {
      filter.push(await measure(page, { kind: 'filter', value: query }));
      clear.push(await measure(page, { kind: 'filter', value: '' }));
    }
    // Accent-insensitive: 'jose' finds 'José'.
    await measure(page, { kind: 'filter', value: 'jose' });
    await expect(table.locator('tbody tr').first()).toContainText('José');
    await measure(page, { kind: 'filter', value: '' });
    await expect(pager).toHaveText('Pag 1 | 1000');

    // Paging through the 10,000 rows.
    const next: number[] = [];
    for (let i = 0; i < 20; i++) {
      next.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Página siguiente"]' }));
    }
    await expect(pager).toHaveText('Pag 21 | 1000');
    const jumps: number[] = [];
    jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Última página"]' }));
    await expect(pager).toHaveText('Pag 1000 | 1000');
    jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Página anterior"]' }));
    jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Primera página"]' }));
    await expect(pager).toHaveText('Pag 1 | 1000');

    // Sorting all 10,000 rows by name, ascending then descending.
    const sort: number[] = [];
    for (let i = 0; i < 4; i++) {
      sort.push(await measure(page, { kind: 'click', selector: 'th:nth-child(3) .hb-table__sort' }));
    }

    // The largest page size: 500 rows, virtualised body.
    const bigPage: number[] = [];
    bigPage.push(await measure(page, { kind: 'pageSize', value: '500' }));
    await expect(pager).toHaveText('Pag 1 | 20');
    const renderedRows = await table.locator('tbody tr[data-index]').count();
    expect(renderedRows).toBeLessThan(100);
    for (let i = 0; i < 5; i++) {
      bigPage.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Página siguiente"]' }));
    }
    const scroll: number[] = [];
    for (const fraction of [0.25, 0.5, 0.75, 1, 0]) {
      scroll.push(await measure(page, { kind: 'scroll', fraction }));
    }
    const filter500: number[] = [];
    for (const query of ['jose', 'garcia', 'vip']) {
      filter500.push(await measure(page, { kind: 'filter', value: query }));
      filter500.push(await measure(page, { kind: 'filter', value: '' }));
    }

    const figures = {
      'filter (10,000 rows -> matches)': summary(filter),
      'clear filter (back to 10,000)': summary(clear),
      'next page (size 10)': summary(next),
      'first/last/prev jumps': summary(jumps),
      'sort 10,000 rows by name': summary(sort),
      'page size 500 + next pages (virtualised)': summary(bigPage),
      'scroll the 500-row page': summary(scroll),
      'filter on the 500-row page': summary(filter500),
    };
    console.log(
      `\nDataTable, 10,000 rows (ms from action to painted frame, rendered rows at size 500: ${renderedRows})`,
    );
    console.table(figures);
    test.info().annotations.push({ type: 'figures', description: JSON.stringify(figures) });

    // Loose ceilings: they catch a regression to un-virtualised or O(n²) work, not machine noise.
    // (Un-virtualised or whole-list re-rendering costs seconds here; a busy CI machine costs 2-3x.)
    expect(summary(filter).median).toBeLessThan(400);
    expect(summary(next).median).toBeLessThan(200);
    expect(summary(bigPage).median).toBeLessThan(500);
  });

  test('the other widgets work in the gallery', async ({ page }) => {
    await page.goto('/dev/widgets');
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
