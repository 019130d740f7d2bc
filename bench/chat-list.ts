// The live chat's client list (/admin/chat) with 50,000 clients, in headless Chromium against the real
// server and its built web app:
//
// - first paint: from navigation to the first rows of the list on screen, with the first page's request
//   (GET /admin/conversations, the 'Todos' view of an admin), three first visits (a new browser context
//   each: nothing cached) and two returning ones (issue 25: within 300 ms);
// - search: from the last keystroke in the search box to the first matching row on screen, for a name, a
//   full name and a phone (issue 25: within 300 ms);
// - scrolling: a steady scroll (40 px a frame) for 10 s, then a fling (200 px a frame) for 5 s — pages
//   fetched meanwhile, frame intervals, long tasks, frames spent at the end of the loaded rows, and the
//   rows in the DOM (virtualised: only those on screen); then 100 pages loaded one
//   after another by jumping to the end of the list, each timed from its request to its rows on screen;
// - the same request over HTTP at depth (page 1, 100, 500, 1000) and a search, one at a time.
//
// The server runs in this process; the browser in its own. Clients are seeded by direct inserts in
// batches, each with a last message (one a minute back from now), some unread and some with the bot paused.
// Run: node --import tsx bench/chat-list.ts        (CHROMIUM_PATH overrides /usr/bin/chromium;
//      DATABASE_URL=postgres://… for PostgreSQL; BENCH_CHAT_SCROLL=0 stops after the load and search figures;
//      BENCH_PROFILE=<dir> writes the browser's CPU profile of the last first visit there;
//      BENCH_LATENCY_MS=40 gives every request that round trip, at 20 Mbit/s, as over a real network;
//      BENCH_WEB_DIST=<dir> serves another build of the web app)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ensureWebBuild } from '../scripts/web-build.mjs';
import { startBenchServer } from './lib';

const CLIENTS = 50_000;
const BATCH = 1000;
/** Steady scrolls, one after the other: px a frame (40 reads along, 200 is a fling) and for how long. */
const SCROLLS: [number, number][] = [
  [40, 10_000],
  [200, 5_000],
];
const JUMP_PAGES = 100;
const PASSWORD = 'Bench-Secret-2026!';
const root = path.resolve(import.meta.dirname, '..');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const loadAtStart = os.loadavg();
// BENCH_WEB_DIST serves another build of the web app (to compare two versions in the same hour).
const webDist: string = process.env.BENCH_WEB_DIST ?? ensureWebBuild(root, { label: 'bench' });
const server = await startBenchServer({ webDist });
const { identity, db } = server.container;
const { hashPassword } = await import('../apps/server/src/platform/passwords');
const { derivedColumns } = await import('../apps/server/src/modules/clients/clients.repository');
const role = await identity.findRoleByName('admin');
const email = 'bench-chat-list@hablabot.local';
const userId = await identity.createUser({
  name: 'Bench Admin',
  email,
  passwordHash: await hashPassword(PASSWORD),
  roleIds: [role!.id],
  newCompanyName: 'Bench chat list company',
});
const companyId = (await identity.findUserById(userId))!.company_id!;

const FIRST = ['María', 'José', 'Lucía', 'Andrés', 'Carmen', 'Íñigo', 'Sofía', 'Raúl', 'Elena', 'Óscar'];
const LAST = ['García', 'Núñez', 'López', 'Martínez', 'Peña', 'Ruiz', 'Díaz', 'Castillo', 'Moreno', 'Vega'];
const seedStarted = performance.now();
const nowMs = Date.now();
for (let i = 0; i < CLIENTS; i += BATCH) {
  const inserted = await db
    .insertInto('clients')
    .values(
      Array.from({ length: Math.min(BATCH, CLIENTS - i) }, (_, k) => {
        const n = i + k;
        const fields = { name: FIRST[n % 10]!, last_names: `${LAST[(n * 7) % 10]!} ${n}`, email: null };
        const at = new Date(nowMs - n * 60_000).toISOString();
        return {
          company_id: companyId,
          ...fields,
          ...derivedColumns(fields),
          whatsapp_cellphone: `52155${String(n).padStart(8, '0')}`,
          avatar: null,
          projects: null,
          wa_user_id: null,
          created_at: at,
          updated_at: at,
        };
      }),
    )
    .returning('id')
    .execute();
  // Each client's conversation: its last message, some unread and some with the bot paused.
  await db
    .insertInto('conversations')
    .values(
      inserted.map(({ id }, k) => {
        const n = i + k;
        const at = new Date(nowMs - n * 60_000).toISOString();
        return {
          company_id: companyId,
          client_id: id,
          bot_paused: n % 4 === 0 ? 1 : 0,
          last_message_at: at,
          last_message_content: `Hola, quería saber si el pedido ${n} ya salió. ¿Me confirmáis la fecha de entrega?`,
          unread_count: n % 7 === 0 ? (n % 5) + 1 : 0,
          created_at: at,
          updated_at: at,
        };
      }),
    )
    .execute();
}
console.log(
  `engine: ${server.container.infra.database.engine}; seeded ${CLIENTS.toLocaleString('en')} clients in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
);

const login = await fetch(`${server.url}/api/v1/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email, password: PASSWORD }),
});
if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
const session = (await login.json()) as { token: string; user: { name: string; roles: { name: string }[] } };

const ms = (n: number) => `${n.toFixed(0)} ms`;
const ms1 = (n: number) => `${n.toFixed(1)} ms`;
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

// --- over HTTP: the same request at depth, and a search ---
async function timed(url: string): Promise<{ median: number; rows: number }> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 6; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/v1${url}`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    const body = (await res.json()) as { clients: unknown[] };
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    rows = body.clients.length;
    if (i > 0) times.push(performance.now() - t0);
  }
  return { median: pct(times, 50), rows };
}
for (const query of [
  'page=1',
  'page=100',
  'page=500',
  'page=1000',
  `search=${encodeURIComponent('Raúl Vega 4997')}`,
  'search=raul',
  'search=5215500049',
]) {
  const url = `/admin/client/messages-summary?${query}&per_page=50`;
  const { median, rows } = await timed(url);
  console.log(`HTTP GET ${url}: ${rows} rows, median ${ms1(median)} (5 after 1 warm-up)`);
}

// --- in the browser ---
/** BENCH_LATENCY_MS: a round trip of that many ms on every request (a server across the internet). */
const networkLatency = Number(process.env.BENCH_LATENCY_MS ?? 0);
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
/**
 * A new browser context (an empty HTTP cache, as on a first visit) and its page, signed in as the admin,
 * with the probes the figures read: when the first row of the list shows, and every long task.
 */
async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES' });
  const page = await context.newPage();
  if (networkLatency > 0) {
    // Chromium's network emulation: each request waits the round trip, bytes come at 20 Mbit/s.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: networkLatency,
      downloadThroughput: 20_000_000 / 8,
      uploadThroughput: 5_000_000 / 8,
    });
  }
  // tsx keeps function names through a `__name` helper that the functions sent to the page call.
  await page.addInitScript('window.__name = (fn) => fn;');
  // Before any script of the page: the time the first row of the list shows, and every long task.
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown>;
    // Every request of the run is kept (the default buffer holds 250).
    performance.setResourceTimingBufferSize(100_000);
    w.benchFirstRow = null;
    const observer = new MutationObserver(() => {
      if (w.benchFirstRow === null && document.querySelector('.chat-row')) {
        // The frame after the rows are in the DOM: when they are painted.
        requestAnimationFrame(() => {
          w.benchFirstRow ??= performance.now();
        });
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
    const longTasks: number[] = [];
    w.benchLongTasks = longTasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${server.url}/favicon.svg`);
  await page.evaluate(({ token, user }) => {
    sessionStorage.setItem('token', token);
    sessionStorage.setItem('user', JSON.stringify(user));
    sessionStorage.setItem('rol', user.roles[0]?.name ?? '');
    localStorage.setItem('language', 'es');
  }, session);
  return page;
}

/** Resource timings of the list's requests since the page loaded: page number → duration. */
async function summaryTimings(): Promise<{ page: number; duration: number; end: number }[]> {
  return page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.includes('/admin/conversations'))
      .map((e) => ({
        page: Number(new URL(e.name).searchParams.get('page')),
        duration: e.responseEnd - e.startTime,
        end: e.responseEnd,
      })),
  );
}

/** What the page fetched until now, in order: when each request started and ended (ms since navigation). */
async function waterfall(): Promise<string> {
  const entries = await page.evaluate(() => {
    const [document] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return [
      ...(document
        ? [
            { name: '(the page: first byte)', start: document.requestStart, end: document.responseStart },
            { name: '(the page: parsed)', start: document.responseEnd, end: document.domInteractive },
          ]
        : []),
      ...(performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
        name: e.name.replace(location.origin, ''),
        start: e.startTime,
        end: e.responseEnd,
      })),
    ];
  });
  return entries
    .map((e) => `  ${e.start.toFixed(0).padStart(5)} → ${e.end.toFixed(0).padStart(5)}  ${e.name}`)
    .join('\n');
}

// Three first visits (each in a new context: nothing cached, every chunk fetched), then the same page
// loaded twice more with its files cached (returning visits; the files are immutable): Chromium keeps
// the compiled code of a script from its second run on, so the third load of a page is the usual one.
const loads: { firstRow: number; request: number }[] = [];
let page = await openPage();
for (let i = 0; i < 5; i++) {
  if (i > 0 && i < 3) {
    await page.context().close();
    page = await openPage();
  }
  const profiling =
    i === 2 && process.env.BENCH_PROFILE ? await page.context().newCDPSession(page) : undefined;
  await profiling?.send('Profiler.enable');
  await profiling?.send('Profiler.setSamplingInterval', { interval: 200 });
  await profiling?.send('Profiler.start');
  await page.goto(`${server.url}/admin/chat`);
  await page.waitForFunction(() => (window as unknown as { benchFirstRow: number | null }).benchFirstRow);
  if (profiling) {
    const { profile } = await profiling.send('Profiler.stop');
    const file = path.join(process.env.BENCH_PROFILE!, 'chat-first-visit.cpuprofile');
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`the browser's CPU profile of the last first visit: ${file}`);
  }
  const firstRow = await page.evaluate(() => (window as unknown as { benchFirstRow: number }).benchFirstRow);
  const first = (await summaryTimings()).find((t) => t.page === 1);
  loads.push({ firstRow, request: first?.duration ?? Number.NaN });
  if (i === 2)
    console.log(
      `the last first visit's requests until the first rows (${ms(firstRow)}):\n${await waterfall()}`,
    );
}
console.log(
  `first paint of the list (navigation → first rows on screen), 3 first visits: ${loads
    .slice(0, 3)
    .map((l) => ms(l.firstRow))
    .join(
      ', ',
    )}; returning (files cached): second load ${ms(loads[3]!.firstRow)}, third ${ms(loads[4]!.firstRow)}; ` +
    `its request (page 1 of 50): ${loads.map((l) => ms(l.request)).join(', ')}`,
);

// A search typed as a person types it (80 ms a key): from the last keystroke to the first matching row
// painted. Each expected row is not the first one before the search (the list starts with pedido 0).
const searchBox = page.getByRole('searchbox');
for (const [term, expected] of [
  ['raul', 'pedido 7 '],
  ['Raúl Vega 4997', 'pedido 4997 '],
  ['5215500049999', 'pedido 49999 '],
] as const) {
  await searchBox.fill('');
  await page.waitForFunction(() => document.querySelector('.chat-row')?.textContent?.includes('pedido 0 '));
  await searchBox.pressSequentially(term.slice(0, -1), { delay: 80 });
  await page.evaluate(() => {
    (window as unknown as { benchT0: number }).benchT0 = performance.now();
  });
  await searchBox.press(term.slice(-1));
  const shown = await page.waitForFunction(
    (text) => {
      if (!document.querySelector('.chat-row')?.textContent?.includes(text)) return false;
      return performance.now() - (window as unknown as { benchT0: number }).benchT0;
    },
    expected,
    { polling: 'raf' },
  );
  const first = (await summaryTimings()).at(-1);
  console.log(
    `search '${term}': last keystroke → first result on screen ${ms(await shown.jsonValue())}; its request ${ms1(first?.duration ?? Number.NaN)}`,
  );
}
await searchBox.fill('');
if (process.env.BENCH_CHAT_SCROLL === '0') {
  await browser.close();
  await server.close();
  process.exit(0);
}

// Steady scrolls from the top: frames, long tasks, and the pages fetched meanwhile.
const viewport = page.getByTestId('chat-list-viewport');
await viewport.waitFor();
for (const [step, durationMs] of SCROLLS) {
  const fetchesBefore = (await summaryTimings()).length;
  const scrolled = await viewport.evaluate(
    async (el, { durationMs, step }) => {
      const w = window as unknown as { benchLongTasks: number[] };
      const longTasksBefore = w.benchLongTasks.length;
      const frames: number[] = [];
      let blankFrames = 0;
      let maxRows = 0;
      const start = performance.now();
      let last = start;
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          frames.push(now - last);
          last = now;
          el.scrollTop += step;
          // At the end of what is loaded, waiting for the next page: the reader would see no new rows.
          if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) blankFrames++;
          maxRows = Math.max(maxRows, el.querySelectorAll('.chat-row').length);
          if (now - start < durationMs) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      return {
        frames: frames.slice(1),
        blankFrames,
        maxRows,
        rowsLoaded: Math.round(el.scrollHeight / 72),
        scrolledPx: el.scrollTop,
        longTasks: w.benchLongTasks.slice(longTasksBefore),
      };
    },
    { durationMs, step },
  );
  const scrollFetches = (await summaryTimings()).slice(fetchesBefore);
  const frameMs = scrolled.frames;
  console.log(
    `steady scroll (${step} px a frame, ${durationMs / 1000} s): ${frameMs.length} frames, interval p50 ${ms1(pct(frameMs, 50))}, ` +
      `p95 ${ms1(pct(frameMs, 95))}, p99 ${ms1(pct(frameMs, 99))}, max ${ms1(Math.max(...frameMs))}; ` +
      `frames over 50 ms: ${frameMs.filter((f) => f > 50).length}; long tasks: ${scrolled.longTasks.length}` +
      `${scrolled.longTasks.length ? ` (max ${ms(Math.max(...scrolled.longTasks))})` : ''}; ` +
      `frames at the end of the loaded rows: ${scrolled.blankFrames}; ` +
      `${scrolled.scrolledPx.toLocaleString('en')} px scrolled in all, ${scrolled.rowsLoaded.toLocaleString('en')} rows loaded ` +
      `(${scrollFetches.length} page fetches, each p50 ${ms1(
        pct(
          scrollFetches.map((t) => t.duration),
          50,
        ),
      )}, ` +
      `max ${ms1(Math.max(...scrollFetches.map((t) => t.duration)))}); rows in the DOM at most ${scrolled.maxRows}`,
  );
}

// Jumping to the end of the list, page after page: each page from its request to its rows on screen.
const perPage: { fetch: number; shown: number }[] = [];
for (let i = 0; i < JUMP_PAGES; i++) {
  const result = await viewport.evaluate(async (el) => {
    const before = el.scrollHeight;
    const t0 = performance.now();
    el.scrollTop = el.scrollHeight;
    await new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error('no page in 10 s')), 10_000);
      const check = () => {
        if (el.scrollHeight > before) {
          // The frame after the list grew: the new rows are painted.
          requestAnimationFrame(() => {
            clearTimeout(timeout);
            resolve();
          });
        } else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    return { t0, shown: performance.now() - t0 };
  });
  const timings = await summaryTimings();
  const fetched = timings.filter((t) => t.end >= result.t0).at(-1);
  perPage.push({ fetch: fetched?.duration ?? Number.NaN, shown: result.shown });
}
const rowsInDom = await viewport.evaluate((el) => el.querySelectorAll('.chat-row').length);
const loaded = await viewport.evaluate((el) => Math.round(el.scrollHeight / 72));
const heap = await page.evaluate(
  () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0,
);
console.log(
  `${JUMP_PAGES} more pages, one after another (jump to the end, wait for the rows): request p50 ${ms1(
    pct(
      perPage.map((p) => p.fetch),
      50,
    ),
  )}, ` +
    `p95 ${ms1(
      pct(
        perPage.map((p) => p.fetch),
        95,
      ),
    )}, max ${ms1(Math.max(...perPage.map((p) => p.fetch)))}; ` +
    `scroll → new rows on screen p50 ${ms1(
      pct(
        perPage.map((p) => p.shown),
        50,
      ),
    )}, p95 ${ms1(
      pct(
        perPage.map((p) => p.shown),
        95,
      ),
    )}, ` +
    `max ${ms1(Math.max(...perPage.map((p) => p.shown)))}; ` +
    `then ${loaded.toLocaleString('en')} rows loaded, ${rowsInDom} in the DOM, JS heap ${(heap / 1e6).toFixed(1)} MB`,
);

console.log(
  `machine: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${(os.totalmem() / 1e9).toFixed(1)} GB; ` +
    `load average at the start ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')}; Node ${process.version}; Chromium ${browser.version()} headless`,
);
await browser.close();
await server.close();
