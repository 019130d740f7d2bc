import {
  type FakeGraphApi,
  type FakeOpenAi,
  startFakeOpenAi,
  type WebhookEmitter,
} from '../../../packages/fakes/src/index';
import { adminPerWorker, api, openSession, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { flowCases } from './support/matrix';

// Business hours and the hand-off in the browser, against the real server: the 'Horario de atención'
// screen (a range added, a wrong one refused on its field, saved); a customer asking for a person
// through the signed webhook, and the bot handing a customer over by itself (the fake model answers
// with the [[HANDOFF]] marker), each raise the chat's live notice and send the customer the hand-off
// message. Each at 1280 px and 375 px, in Spanish and English, with no serious axe violation.

const WA_TOKEN = 'EAAG-e2e-hours-token-0001';
const APP_SECRET = 'e2e-hours-app-secret-0001';

// axe is injected as a script tag.
test.use({ bypassCSP: true });
// The bot answers after its wait, and axe on the hours form takes a while on a loaded machine.
test.describe.configure({ timeout: 60_000 });

const companyAdmin = adminPerWorker({ key: 'hours', name: 'Marta Horarios', company: 'Horarios' });

let graph: FakeGraphApi;
let openai: FakeOpenAi;
let admin: Session;
let customer: WebhookEmitter;

const uniquePhone = () => `34${String(6e8 + Math.floor(Math.random() * 1e8))}`;
const uniqueName = (first: string) => `${first} ${Math.random().toString(36).slice(2, 7)}`;

test.beforeAll(async () => {
  admin = await companyAdmin();
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: WA_TOKEN,
    appSecret: APP_SECRET,
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Tienda Horarios',
    templates: [],
  }));
  // The bot's model: the loopback fake, which hands over when the customer's problem is "complicado".
  openai = await startFakeOpenAi({ apiKeys: [OPENAI_KEY] });
  openai.reply = () => 'Claro, te ayudo con eso.';
  openai.handoffWhen = ['complicado', 'complicated'];
  await api(
    'POST',
    '/admin/setting',
    { openaiApiKey: OPENAI_KEY, openaiModel: 'gpt-4o-mini', openaiChatEndpoint: openai.endpoint },
    admin.token,
  );
  // A live bot answers the company's customers: a hand-off phrase hands them to the team.
  await api('POST', '/admin/bot', { bot_name: 'Sofía', personality: 'Eres Sofía.' }, admin.token);
});
test.afterAll(async () => {
  await Promise.all([graph?.close(), openai?.close()]);
});

const OPENAI_KEY = 'sk-e2e-hours-openai-key-0001';
/** The hand-off message's default text (inbox settings); outside business hours a line follows. */
const HANDOFF_MESSAGE = 'Te comunico con una persona del equipo.';

const SCREEN_TEXTS = {
  es: {
    addTuesday: 'Añadir horario el Martes',
    closes: 'Cierra (Martes)',
    order: 'La hora de cierre debe ser posterior a la de apertura.',
    save: 'Guardar horario',
    saved: 'Horario de atención guardado.',
    title: 'Horario de atención',
  },
  en: {
    addTuesday: 'Add hours on Tuesday',
    closes: 'Closes (Tuesday)',
    order: 'The closing time must be after the opening time.',
    save: 'Save hours',
    saved: 'Business hours saved.',
    title: 'Business hours',
  },
} as const;

const COMBOS = [
  ['es', 1280],
  ['en', 375],
  ['es', 375],
  ['en', 1280],
] as const;

for (const x of flowCases(COMBOS).map(([language, width]) => ({
  language,
  width,
  ...SCREEN_TEXTS[language],
}))) {
  test(`business hours screen at ${x.width}px (${x.language}): a wrong range refused, then saved`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: x.width, height: 900 });
    // The company's hours start empty (the other language's run may have saved some).
    const empty = { timezone: 'UTC', days: [], holidays: [], away_enabled: false, away_message: 'Cerrado.' };
    await api('PUT', '/admin/business-hours', { ...empty, away_with_bot: false }, admin.token);
    await openSession(page, admin, x.language);
    await page.goto('/admin/setting/business-hours');
    await expect(page.getByRole('heading', { name: x.title, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: x.addTuesday }).click();
    await page.getByLabel(x.closes).last().fill('08:00');
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByText(x.order)).toBeVisible();
    await page.getByLabel(x.closes).last().fill('18:00');
    await page.getByRole('button', { name: x.save }).click();
    await expect(page.getByText(x.saved)).toBeVisible();
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(x.width);
    expect(await seriousViolations(page)).toEqual([]);
    const saved = await api<{ data: { days: { day: number }[] } }>(
      'GET',
      '/admin/business-hours',
      undefined,
      admin.token,
    );
    expect(saved.data.days.filter((d) => d.day === 2).length).toBeGreaterThan(0);
  });
}

const NOTICE_TEXTS = {
  es: {
    says: 'Quiero hablar con un agente',
    complicated: 'Tengo un problema complicado con mi pedido',
    notice: 'pidió hablar con una persona',
  },
  en: {
    says: 'I want a human please',
    complicated: 'I have a complicated problem with my order',
    notice: 'asked for a person',
  },
} as const;

for (const x of flowCases(COMBOS).map(([language, width]) => ({
  language,
  width,
  ...NOTICE_TEXTS[language],
}))) {
  test(`a customer asking for a person raises the chat's notice at ${x.width}px (${x.language})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: x.width, height: 800 });
    await openSession(page, admin, x.language);
    await page.goto('/admin/chat');
    const nora = { name: uniqueName('Nora'), phone: uniquePhone() };
    // The chat's stream is open before the customer writes.
    await expect(page.getByRole('searchbox')).toBeVisible();
    const { statuses } = await customer.text(nora.phone, x.says, { name: nora.name });
    expect(statuses).toEqual([200]);
    await expect(page.getByRole('status').filter({ hasText: x.notice })).toBeVisible();
    await expect
      .poll(() => graph.sent.filter((m) => m.to === nora.phone).length, { timeout: 10_000 })
      .toBe(1);
    expect(textsTo(nora.phone)[0]?.startsWith(HANDOFF_MESSAGE)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test(`the bot handing a customer over by itself raises the notice at ${x.width}px (${x.language})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: x.width, height: 800 });
    await openSession(page, admin, x.language);
    await page.goto('/admin/chat');
    const olga = { name: uniqueName('Olga'), phone: uniquePhone() };
    await expect(page.getByRole('searchbox')).toBeVisible();
    // No hand-off phrase: the model decides (after the bot's short wait) and answers with the marker.
    const { statuses } = await customer.text(olga.phone, x.complicated, { name: olga.name });
    expect(statuses).toEqual([200]);
    await expect(page.getByRole('status').filter({ hasText: x.notice })).toBeVisible({ timeout: 15_000 });
    // The customer gets the hand-off message, never the model's text with its marker.
    await expect.poll(() => textsTo(olga.phone), { timeout: 10_000 }).toHaveLength(1);
    expect(textsTo(olga.phone)[0]?.startsWith(HANDOFF_MESSAGE)).toBe(true);
    expect(textsTo(olga.phone).join(' ')).not.toContain('[[HANDOFF]]');
    const asked = openai.requests.filter((r) => JSON.stringify(r.body).includes(x.complicated));
    expect(asked.length).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

/** The texts the company sent `phone` through the fake Cloud API. */
function textsTo(phone: string): string[] {
  return graph.sent
    .filter((m) => m.to === phone)
    .map((m) => String((m.body.text as { body?: string } | undefined)?.body ?? ''));
}
