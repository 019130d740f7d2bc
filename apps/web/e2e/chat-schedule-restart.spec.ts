import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import type { Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import type { OwnServer } from './support/own-server';
import { type OwnWhatsAppCompany, openOwnSession, startOwnWhatsAppCompany } from './support/own-whatsapp';
import { flowCases } from './support/matrix';
import { openConversation } from './support/chat';

// A message scheduled in the chat survives a restart of the server: scheduled from the composer, the
// server stopped (SIGTERM, as a deploy does) and started again on the same database, the conversation
// still lists it as 'Programado para …' and nothing has gone to WhatsApp; when its time comes — the
// server's clock moved past it (support/shifted-clock.mjs) rather than waiting an hour — the fake Cloud
// API receives it exactly once and the chat shows it sent. A server of the spec's own
// (support/own-server.ts): the shared one is never restarted. At 1280 and 375 px, in Spanish and
// English, with no serious axe violation.

test.use({ bypassCSP: true });
// One server for the file, restarted by each test in turn.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

let own: OwnWhatsAppCompany;
let server: OwnServer;
let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  own = await startOwnWhatsAppCompany(
    'schedule-restart',
    { key: 'restart', name: 'Rita Reinicio', company: 'Reinicios SA' },
    {
      token: 'EAAG-e2e-schedule-restart-0001',
      appSecret: 'e2e-schedule-restart-secret-0001',
      verifiedName: 'Reinicios SA',
    },
  );
  ({ server, graph, admin, customer } = own);
});
test.afterAll(async () => {
  await own?.dispose();
});

const TEXTS = {
  es: {
    search: 'Buscar clientes...',
    more: 'Más opciones',
    schedule: 'Programar envío',
    confirm: 'Programar',
    scheduledFor: /^Programado para /,
  },
  en: {
    search: 'Search clients...',
    more: 'More options',
    schedule: 'Schedule send',
    confirm: 'Schedule',
    scheduledFor: /^Scheduled for /,
  },
} as const;

interface History {
  messages: { content: string; status: number }[];
  scheduled?: { id: number; content: string; scheduled_at: string | null }[];
}

for (const [language, width] of flowCases([
  ['es', 1280],
  ['en', 1280],
  ['es', 375],
  ['en', 375],
] as const)) {
  test(`at ${width}px in ${language}: a scheduled message survives a restart and goes out at its time`, async ({
    page,
  }) => {
    const t = TEXTS[language];
    // The previous test moved the clock: back to the wall clock.
    server.setClockOffset(0);
    await page.setViewportSize({ width, height: 900 });
    const name = `Rosa ${Math.random().toString(36).slice(2, 7)}`;
    const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    const text = `Tu pedido sale mañana (${language}).`;
    expect((await customer.text(phone, '¿Cuándo sale mi pedido?', { name })).statuses).toEqual([200]);

    await openOwnSession(page, server, admin, language);
    await page.goto(`${server.baseURL}/admin/chat`);
    const open = () => openConversation(page, name, t.search);
    let conversation = await open();
    await conversation.getByRole('textbox').fill(text);
    await conversation.getByRole('button', { name: t.more }).click();
    await page.getByRole('menuitem', { name: t.schedule }).click();
    const dialog = page.getByRole('dialog', { name: t.schedule });
    // The suggested time (the next full hour at least 30 minutes away) is taken as it is.
    await dialog.getByRole('button', { name: t.confirm, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    const waiting = () =>
      conversation.locator('.chat-message', { hasText: text }).getByTestId('scheduled-info');
    await expect(waiting().locator('.chat-bubble__scheduled-when')).toHaveText(t.scheduledFor);

    const clients = await server.call<{ data: { client: { id: number } }[] }>(
      'GET',
      `/admin/conversations?view=all&search=${encodeURIComponent(name)}`,
      undefined,
      admin.token,
    );
    const clientId = clients.data[0]!.client.id;
    const historyOf = () =>
      server.call<History>('GET', `/admin/client/${clientId}/messages`, undefined, admin.token);
    const before = await historyOf();
    const sendAt = before.scheduled?.find((m) => m.content === text)?.scheduled_at;
    expect(sendAt).toBeTruthy();

    // The restart: stopped, started again on the same database; the job is still there.
    await server.restart();
    expect(graph.sent.filter((m) => m.to === phone)).toHaveLength(0);
    await page.reload();
    conversation = await open();
    await expect(waiting().locator('.chat-bubble__scheduled-when')).toHaveText(t.scheduledFor);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    // Its time comes: the server's clock a few seconds past it.
    server.setClockOffset(Date.parse(sendAt!) - Date.now() + 2000);
    await expect.poll(() => graph.sent.filter((m) => m.to === phone).length, { timeout: 20_000 }).toBe(1);
    const sent = graph.sent.find((m) => m.to === phone)!;
    expect((sent.body.text as { body: string }).body).toBe(text);
    // In the chat, live: no longer waiting, in the conversation as sent.
    await expect(waiting()).toHaveCount(0);
    await expect(conversation.locator('.chat-message', { hasText: text })).toHaveCount(1);
    const after = await historyOf();
    expect(after.scheduled ?? []).toHaveLength(0);
    expect(after.messages.find((m) => m.content === text)?.status).toBeGreaterThanOrEqual(1);
    // Sent once: the job does not run again.
    expect(graph.sent.filter((m) => m.to === phone)).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
