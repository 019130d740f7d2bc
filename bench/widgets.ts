// The DataTable with 10,000 rows in Chromium: how long filtering, paging, sorting and the 500-row
// virtualised page take from the user's action to the next painted frame (median, p95, max of each).
// Builds bench/widgets (the widget gallery, React's production build) into a temp folder, serves it,
// drives the system Chromium with Playwright and writes artifacts/bench/widgets.json.
// Run: node --import tsx bench/widgets.ts        (CHROMIUM_PATH overrides /usr/bin/chromium)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build, preview } from 'vite';

const here = import.meta.dirname;
const root = path.resolve(here, '..');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(executablePath)) {
  console.log(`widgets: skipped, ${executablePath} not found`);
  process.exit(0);
}

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

interface Summary {
  n: number;
  median: number;
  p95: number;
  max: number;
}

function summary(samples: number[]): Summary {
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

async function expectText(page: Page, selector: string, text: string) {
  await page.waitForFunction(
    ({ selector, text }) => document.querySelector(selector)?.textContent?.trim() === text,
    { selector, text },
    { timeout: 30_000 },
  );
}

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hablabot-bench-widgets-'));
const started = performance.now();
await build({
  root: path.join(here, 'widgets'),
  configFile: false,
  logLevel: 'warn',
  mode: 'production',
  plugins: [react()],
  build: { outDir, emptyOutDir: true, target: 'es2022' },
});
console.log(`built the bench page in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const server = await preview({
  root: path.join(here, 'widgets'),
  configFile: false,
  logLevel: 'warn',
  build: { outDir },
  preview: { port: 0, host: '127.0.0.1', strictPort: false },
});
const address = server.httpServer.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 4173}/`;
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});

try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // tsx compiles this file keeping function names through a `__name` helper, which the functions
  // handed to page.evaluate carry into the page: give the page the same (identity) helper.
  await page.addInitScript('window.__name = (fn) => fn;');
  await page.goto(url);
  const pager = `${TABLE} [data-testid="table-page"]`;
  await expectText(page, pager, 'Pag 1 | 1000');

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

  // Paging through the 10,000 rows.
  const next: number[] = [];
  for (let i = 0; i < 20; i++) {
    next.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Página siguiente"]' }));
  }
  const jumps: number[] = [];
  jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Última página"]' }));
  jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Página anterior"]' }));
  jumps.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Primera página"]' }));
  await expectText(page, pager, 'Pag 1 | 1000');

  // Sorting all 10,000 rows by name, ascending then descending.
  const sort: number[] = [];
  for (let i = 0; i < 4; i++) {
    sort.push(await measure(page, { kind: 'click', selector: 'button[aria-label="Ordenar por Nombre"]' }));
  }

  // The largest page size: 500 rows, virtualised body.
  const bigPage: number[] = [];
  bigPage.push(await measure(page, { kind: 'pageSize', value: '500' }));
  await expectText(page, pager, 'Pag 1 | 20');
  const renderedRows = await page.locator(`${TABLE} tbody tr[data-index]`).count();
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
    `DataTable, 10,000 rows, Chromium ${browser.version()} (ms from action to painted frame; rows rendered at size 500: ${renderedRows})`,
  );
  console.table(figures);
  const artifacts = path.join(root, 'artifacts/bench');
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, 'widgets.json');
  fs.writeFileSync(
    file,
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        chromium: browser.version(),
        cpus: os.cpus().length,
        loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10),
        renderedRowsAtPageSize500: renderedRows,
        figures,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures written to ${path.relative(root, file)}`);
} finally {
  await browser.close();
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  fs.rmSync(outDir, { recursive: true, force: true });
}
