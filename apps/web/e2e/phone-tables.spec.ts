import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { type FakeGraphApi, fakeTemplate, startFakeGraphApi } from '../../../packages/fakes/src/index';
import { adminPerWorker, api, createCompanyAdmin, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, signInAs, test } from './support/fixtures';

// Every table screen with rows in it, at 375 and 1280 px, in Spanish and English. On a phone each row
// is a card: the important columns lead it, every cell lies inside the screen, nothing is pinned over
// another cell and no text is cut. At both widths: no serious axe finding, and a screenshot to look at.

test.use({ bypassCSP: true });

const screenshots = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../artifacts/screenshots',
);

const WA_TOKEN = 'EAAe2ePhoneTables01';
// A WhatsApp number belongs to one company: each worker's company has its own (apart from other specs').
const WORKER = Number(process.env.TEST_WORKER_INDEX ?? 0);
const PHONE_ID = String(106540352259001 + WORKER);
const WABA_ID = String(200540352259001 + WORKER);

const companyAdmin = adminPerWorker({ key: 'phones', name: 'Fernanda Teléfonos', company: 'Teléfonos' });

let graph: FakeGraphApi;

test.beforeAll(async () => {
  graph = await startFakeGraphApi({
    tokens: [WA_TOKEN],
    phoneNumbers: [
      {
        id: PHONE_ID,
        display_phone_number: '+52 55 3333 4444',
        verified_name: 'Tienda',
        quality_rating: 'GREEN',
      },
    ],
  });
  graph.templates.set(WABA_ID, [
    fakeTemplate({ name: 'aviso_pedido', body: 'Hola {{1}}, tu pedido está listo.' }),
  ]);
  graph.phoneAccounts.set(PHONE_ID, WABA_ID);
});

test.afterAll(async () => {
  await graph?.close();
});

interface Seeded {
  admin: Session;
  longName: string;
  sendName: string;
  ask: string;
}

/** Long names (the kind that used to be cut mid-word), a finished send to two clients, a bot instruction. */
async function seed(): Promise<Seeded> {
  const admin = await companyAdmin();
  const tag = `${WORKER}${Date.now().toString(36)}`;
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
  const { data: templates } = await api<{ data: { id: number; name: string }[] }>(
    'GET',
    '/templates/sync',
    undefined,
    admin.token,
  );
  const { segment } = await api<{ segment: { id: number } }>(
    'POST',
    '/admin/segment',
    { name: `Clientes frecuentes ${tag}`, color: '#7300ff', rules: 'Compran cada mes' },
    admin.token,
  );
  const longName = `Maximiliana${tag}`;
  const people = [
    { name: longName, last_names: 'Hernández-Villaseñor de la Concepción' },
    { name: `Bartolomé${tag}`, last_names: 'Santamaría Echeverría' },
  ];
  const ids: number[] = [];
  for (const [index, person] of people.entries()) {
    const { client } = await api<{ client: { id: number } }>(
      'POST',
      '/admin/client',
      {
        ...person,
        whatsapp_cellphone: `52155${String(WORKER).padStart(2, '0')}7${String(Date.now()).slice(-5)}${index}`,
        email: `cliente${index}.${tag}.con.un.correo.largo@example.com`,
        segments: [segment.id],
      },
      admin.token,
    );
    ids.push(client.id);
  }
  const { data: list } = await api<{ data: { id: number } }>(
    'POST',
    '/admin/list-clients',
    { name: `Lista ${tag}`, client_ids: ids },
    admin.token,
  );
  const sendName = `Aviso de pedidos listos ${tag}`;
  await api(
    'POST',
    '/admin/messages-massive',
    {
      name: sendName,
      message_template_id: templates.find((t) => t.name === 'aviso_pedido')?.id,
      list_id: list.id,
      bodyParameters: { '1': 'amiga' },
    },
    admin.token,
  );
  // The send finishes against the fake (its recipients then have their final state in the report).
  await expect
    .poll(
      async () => {
        const history = await api<{ data: { data: { name: string; status: string }[] } }>(
          'GET',
          '/admin/mass-message-history',
          undefined,
          admin.token,
        );
        return history.data.data.find((send) => send.name === sendName)?.status;
      },
      { timeout: 20_000 },
    )
    .toBe('completed');
  const { bot } = await api<{ bot: { id: number } }>(
    'POST',
    '/admin/bot',
    { bot_name: `Asistente ${tag}`, personality: 'Amable' },
    admin.token,
  );
  const ask = `¿Cuál es el horario de atención de la sucursal del centro histórico? ${tag}`;
  await api(
    'POST',
    '/admin/instruction',
    { bot_id: bot.id, ask, reply: 'De 9 a 18 h.', segments: [segment.id] },
    admin.token,
  );
  return { admin, longName, sendName, ask };
}

let seeded: Promise<Seeded> | null = null;

interface Screen {
  name: string;
  /** Opens the screen and answers the table to check. */
  open: (page: Page, language: 'es' | 'en', data: Seeded) => Promise<Locator>;
  /** The columns that must lead each card, in order (their `data-column`). */
  primary: string[];
}

const SCREENS: Screen[] = [
  {
    name: 'clients',
    primary: ['name', 'whatsapp'],
    open: async (page, language, data) => {
      await openSession(page, data.admin, language);
      await page.goto('/admin/clients');
      const table = page.locator('.hb-table').filter({ hasText: data.longName });
      await expect(table.getByText(data.longName).first()).toBeVisible();
      return table;
    },
  },
  {
    name: 'mass-history',
    primary: ['name', 'status'],
    open: async (page, language, data) => {
      await openSession(page, data.admin, language);
      await page.goto('/admin/messages-massive');
      const table = page.locator('.hb-table').filter({ hasText: data.sendName });
      await expect(table.getByText(data.sendName).first()).toBeVisible();
      return table;
    },
  },
  {
    name: 'mass-report',
    primary: ['client', 'status'],
    open: async (page, language, data) => {
      await openSession(page, data.admin, language);
      await page.goto('/admin/messages-massive');
      const report = language === 'es' ? 'Ver informe de' : 'View the report of';
      await page.getByRole('button', { name: `${report} ${data.sendName}` }).click();
      const table = page.getByRole('dialog').locator('.hb-table');
      await expect(table.getByText(data.longName).first()).toBeVisible();
      // The status filter shows its whole 'Todos los estados': the select is wider than that text
      // (plus its padding and arrow).
      const filter = page
        .getByRole('dialog')
        .getByRole('combobox', { name: language === 'es' ? 'Estado' : 'Status', exact: true });
      const room = await filter.evaluate((select: HTMLSelectElement) => {
        const style = getComputedStyle(select);
        const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = context.measureText(select.selectedOptions[0]?.text ?? '').width;
        const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
        // Chromium draws the arrow inside the content box: about 20px of it.
        return select.clientWidth - padding - 20 - text;
      });
      expect(room).toBeGreaterThanOrEqual(0);
      return table;
    },
  },
  {
    name: 'bots',
    primary: ['ask'],
    open: async (page, language, data) => {
      await openSession(page, data.admin, language);
      await page.goto('/admin/bots');
      const table = page.locator('.hb-table').filter({ hasText: data.ask });
      await expect(table.getByText(data.ask).first()).toBeVisible();
      return table;
    },
  },
  {
    name: 'super-admin-users',
    primary: ['name', 'email'],
    open: async (page, language) => {
      await signInAs(page, 'super_admin', { language });
      await page.goto('/super-admin/users');
      const table = page.locator('.hb-table');
      await expect(table.locator('tbody tr').first()).toBeVisible();
      await expect(table.locator('tbody td[data-column="name"]').first()).not.toBeEmpty();
      return table;
    },
  },
  {
    name: 'super-admin-companies',
    primary: ['name'],
    open: async (page, language) => {
      await signInAs(page, 'super_admin', { language });
      await page.goto('/super-admin/companies');
      const table = page.locator('.hb-table');
      await expect(table.locator('tbody td[data-column="name"]').first()).not.toBeEmpty();
      return table;
    },
  },
];

/** What the phone layout must hold for the first rows of `table`; answers the problems found. */
async function phoneProblems(table: Locator, primary: string[]): Promise<string[]> {
  return table.evaluate((root, primary) => {
    const problems: string[] = [];
    const screenWidth = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > window.innerWidth)
      problems.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    const scroller = root.querySelector<HTMLElement>('[data-testid="table-scroll"]');
    if (scroller && scroller.scrollWidth > scroller.clientWidth + 1)
      problems.push(`the table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth})`);
    const rows = [...root.querySelectorAll<HTMLTableRowElement>('tbody tr')]
      .filter((row) => !row.classList.contains('hb-table__spacer'))
      .slice(0, 3);
    if (rows.length === 0) problems.push('no rows');
    for (const [index, row] of rows.entries()) {
      const cells = [...row.querySelectorAll<HTMLElement>('td[data-column]')];
      const order = cells.map((cell) => cell.dataset.column);
      if (order.slice(0, primary.length).join() !== primary.join())
        problems.push(`row ${index}: cells in the order ${order.join()}`);
      const boxes = cells.map((cell) => ({ cell, box: cell.getBoundingClientRect() }));
      for (const { cell, box } of boxes) {
        const id = cell.dataset.column;
        if (box.left < 0 || box.right > screenWidth + 0.5)
          problems.push(`row ${index}: ${id} lies outside the screen (${box.left}–${box.right})`);
        // Nothing is drawn over the cell: the point at its centre belongs to it.
        if (box.width > 0 && box.height > 0) {
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          if (top && !cell.contains(top) && !top.contains(cell))
            problems.push(`row ${index}: ${id} is covered by ${top.className || top.tagName}`);
        }
        // No overlap with another cell of the card (the actions included).
        for (const other of boxes) {
          if (other.cell === cell) continue;
          const b = other.box;
          const overlap =
            Math.min(box.right, b.right) - Math.max(box.left, b.left) > 1 &&
            Math.min(box.bottom, b.bottom) - Math.max(box.top, b.top) > 1;
          if (overlap) problems.push(`row ${index}: ${id} overlaps ${other.cell.dataset.column}`);
        }
        // A header label wraps between words, never inside one ('ADMINISTRAT / ORS').
        const label = cell.querySelector('.hb-table__cell-label')?.firstChild;
        if (label instanceof Text) {
          let at = 0;
          for (const word of (label.textContent ?? '').split(' ')) {
            const range = document.createRange();
            range.setStart(label, at);
            range.setEnd(label, at + word.length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) problems.push(`row ${index}: ${id}'s label breaks inside '${word}'`);
            at += word.length + 1;
          }
        }
        // A text is never cut: it wraps inside its cell.
        for (const text of cell.querySelectorAll<HTMLElement>('.hb-table__text')) {
          if (text.scrollWidth > text.clientWidth + 1) problems.push(`row ${index}: ${id}'s text is cut`);
        }
      }
      const label = cells[0]?.querySelector('.hb-table__cell-label');
      if (!label?.textContent) problems.push(`row ${index}: the first cell has no header label`);
    }
    return problems;
  }, primary);
}

for (const [width, language] of [
  [375, 'es'],
  [375, 'en'],
  [1280, 'es'],
  [1280, 'en'],
] as const) {
  test.describe(`${width}px ${language}`, () => {
    test.use({ viewport: { width, height: width > 400 ? 900 : 800 } });
    for (const screen of SCREENS) {
      test(`the ${screen.name} table ${width < 400 ? 'shows its rows as cards' : 'reads well'}`, async ({
        page,
      }) => {
        test.setTimeout(60_000);
        seeded ??= seed();
        const data = await seeded;
        const table = await screen.open(page, language, data);
        if (width < 400) {
          await expect(table).toHaveClass(/hb-table--cards/);
          expect(await phoneProblems(table, screen.primary)).toEqual([]);
        } else {
          await expect(table).not.toHaveClass(/hb-table--cards/);
        }
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({
          path: path.join(screenshots, `table-${screen.name}-${language}-${width}.png`),
          fullPage: screen.name !== 'mass-report',
        });
      });
    }
  });
}

test.describe('a virtualised page at 375px', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('500 rows a page: only the cards in view are rendered, each whole, down to the last one', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { admin, tag } = await createCompanyAdmin({
      key: 'phonesbig',
      name: 'Rosa Muchos',
      company: 'Muchos',
    });
    const COUNT = 150;
    await api(
      'POST',
      '/import/clients',
      {
        clients: Array.from({ length: COUNT }, (_, i) => ({
          nombre: `Clienta${String(i).padStart(3, '0')}${tag}`,
          apellidos: 'Fernández de Córdoba y Villalobos',
          celular: `52155${String(i).padStart(8, '0')}`,
          correo: `clienta${i}.${tag}@example.com`,
        })),
      },
      admin.token,
    );
    await openSession(page, admin, 'es');
    await page.goto('/admin/clients');
    const table = page.locator('.hb-table');
    await expect(page.getByText('Pag 1 | 15')).toBeVisible();
    await page.getByLabel('Filas por página').selectOption('500');
    await expect(page.getByText('Pag 1 | 1')).toBeVisible();
    await expect(table).toHaveClass(/hb-table--cards/);
    await expect(table.locator('tbody tr[data-index]').first()).toBeVisible();
    expect(await table.locator('tbody tr[data-index]').count()).toBeLessThan(100);
    expect(await phoneProblems(table, ['name', 'whatsapp'])).toEqual([]);
    // Scrolled to its end, the box renders the last card (its height measured as it comes into view).
    const scroller = table.getByTestId('table-scroll');
    await expect(async () => {
      await scroller.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await expect(table.locator(`tbody tr[data-index="${COUNT - 1}"]`)).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 10_000 });
    expect(await phoneProblems(table, ['name', 'whatsapp'])).toEqual([]);
  });
});
