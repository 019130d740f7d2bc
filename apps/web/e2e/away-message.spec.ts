import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { png } from '../../server/test/media-fixtures';
import type { Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import type { OwnServer } from './support/own-server';
import { type OwnWhatsAppCompany, openOwnSession, startOwnWhatsAppCompany } from './support/own-whatsapp';
import { flowCases } from './support/matrix';
import { openConversation } from './support/chat';

// The away message in the chat, on a server whose clock the spec moves (support/own-server.ts and
// shifted-clock.mjs; the shared server's clock is never touched): the business opens one day a week,
// three days from now. A customer writing now, while closed, gets the away message once — it shows in
// the chat live; a second message (a photo) in the same closed period gets none; four days later (the clock
// moved past the open day) is a new closed period, and the next message gets it again. Checked in the
// browser and at the fake Cloud API. At 1280 and 375 px, in Spanish and English, no serious
// axe violation.

test.use({ bypassCSP: true });
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const DAY_MS = 86_400_000;

let own: OwnWhatsAppCompany;
let server: OwnServer;
let graph: FakeGraphApi;
let admin: Session;
let customer: WebhookEmitter;
let offsetMs = 0;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  own = await startOwnWhatsAppCompany(
    'away',
    { key: 'away', name: 'Alba Ausente', company: 'Ausencias SA' },
    {
      token: 'EAAG-e2e-away-message-0001',
      appSecret: 'e2e-away-message-secret-0001',
      verifiedName: 'Ausencias SA',
    },
  );
  ({ server, graph, admin, customer } = own);
});
test.afterAll(async () => {
  await own?.dispose();
});

/** Moves the server's clock `ms` ahead of the wall clock. */
function clockAt(ms: number) {
  offsetMs = ms;
  server.setClockOffset(ms);
}
/** The customer writes, dated on the server's clock (as WhatsApp would date it). */
const write = (phone: string, text: string, name: string) =>
  customer.text(phone, text, { name, timestamp: Math.floor((Date.now() + offsetMs) / 1000) });

const TEXTS = {
  es: { search: 'Buscar clientes...', away: 'Ahora estamos cerrados; te respondemos al abrir.' },
  en: { search: 'Search clients...', away: 'We are closed now; we will answer when we open.' },
} as const;

for (const [language, width] of flowCases([
  ['es', 1280],
  ['en', 1280],
  ['es', 375],
  ['en', 375],
] as const)) {
  test(`at ${width}px in ${language}: the away message once per closed period`, async ({ page }) => {
    const t = TEXTS[language];
    clockAt(0);
    // Open all day on the weekday three days from now (UTC), closed every other day.
    const openDay = (new Date().getUTCDay() + 3) % 7;
    await server.call(
      'PUT',
      '/admin/business-hours',
      {
        timezone: 'UTC',
        days: [{ day: openDay, open: '00:00', close: '24:00' }],
        holidays: [],
        away_enabled: true,
        away_message: t.away,
        away_with_bot: false,
      },
      admin.token,
    );
    await page.setViewportSize({ width, height: 900 });
    const name = `Abril ${Math.random().toString(36).slice(2, 7)}`;
    const phone = `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
    const awayTo = () =>
      graph.sent.filter(
        (m) => m.to === phone && (m.body.text as { body?: string } | undefined)?.body === t.away,
      ).length;

    expect((await write(phone, 'Hola, ¿estáis abiertos?', name)).statuses).toEqual([200]);
    await openOwnSession(page, server, admin, language);
    await page.goto(`${server.baseURL}/admin/chat`);
    const conversation = await openConversation(page, name, t.search);
    const awayBubbles = conversation.locator('.chat-message', { hasText: t.away });
    await expect(awayBubbles).toHaveCount(1);
    expect(awayTo()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Same closed period: a photo, and no second away message with it. The server handles a customer's
    // message in a fixed order, the away rule before the media download: once WhatsApp is asked for the
    // photo, the away rule has looked at it.
    const photo = graph.media.add(png(8, 8), 'image/png');
    const second = await customer.message({
      from: phone,
      name,
      type: 'image',
      fields: { id: photo, mime_type: 'image/png', caption: 'Es para un pedido' },
      timestamp: Math.floor(Date.now() / 1000),
    });
    expect(second.statuses).toEqual([200]);
    await expect.poll(() => graph.media.retrieves(photo), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(conversation.getByText('Es para un pedido')).toBeVisible();
    expect(awayTo()).toBe(1);
    await expect(awayBubbles).toHaveCount(1);

    // Four days on: the open day has passed, a new closed period began.
    clockAt(4 * DAY_MS);
    expect((await write(phone, '¿Y ahora?', name)).statuses).toEqual([200]);
    await expect(conversation.getByText('¿Y ahora?')).toBeVisible();
    await expect(awayBubbles).toHaveCount(2);
    await expect.poll(awayTo).toBe(2);
    // In order: the second away message answers '¿Y ahora?', not 'Es para un pedido'.
    const texts = await conversation.locator('.chat-message').allInnerTexts();
    const at = (needle: string) => texts.findIndex((x) => x.includes(needle));
    const lastAway = texts.map((x) => x.includes(t.away)).lastIndexOf(true);
    expect(at('Es para un pedido')).toBeLessThan(at('¿Y ahora?'));
    expect(lastAway).toBeGreaterThan(at('¿Y ahora?'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
