import type { Browser, BrowserContext, Page } from '@playwright/test';
import { png } from '../../server/test/media-fixtures';
import type { FakeGraphApi, WebhookEmitter } from '../../../packages/fakes/src/index';
import { api, apiBase, createCompanyAdmin, type Session } from './support/api';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { connectFakeWhatsApp } from './support/whatsapp';
import { runsFlow } from './support/matrix';

// The team inbox with three people at once, each in a browser context of their own, against the real
// server and the loopback fake of the WhatsApp Cloud API: an admin and two agents (the company keeps
// agents_see_all off). Privacy both ways (in the list, in a search and straight at the API), a live
// assignment, then an agent's composer: an internal note (never at the fake), a quick reply after '/',
// a quoted reply (context.message_id at the fake) and a file of the media library (its link at the
// fake) — at 1280 and 375 px, each in Spanish and in English, with 0 serious axe findings.

// axe is injected as an inline script, which the server's CSP forbids; these tests bypass it.
test.use({ bypassCSP: true });

const TEXTS = {
  es: {
    search: 'Buscar clientes...',
    mine: /^Míos/,
    unassigned: /^Sin asignar/,
    assignee: 'Asignado a',
    note: 'Nota interna',
    quickReplies: 'Respuestas rápidas',
    reply: 'Responder',
    send: 'Enviar',
    more: 'Más opciones',
    media: 'Biblioteca de medios',
    choose: (name: string) => `Elegir ${name}`,
    back: 'Volver',
  },
  en: {
    search: 'Search clients...',
    mine: /^Mine/,
    unassigned: /^Unassigned/,
    assignee: 'Assigned to',
    note: 'Internal note',
    quickReplies: 'Quick replies',
    reply: 'Reply',
    send: 'Send',
    more: 'More options',
    media: 'Media library',
    choose: (name: string) => `Choose ${name}`,
    back: 'Back',
  },
} as const;
type Texts = (typeof TEXTS)[keyof typeof TEXTS];

/** Each size in each language. */
const CASES = [
  { width: 1280, height: 800, lang: 'es' },
  { width: 1280, height: 800, lang: 'en' },
  { width: 375, height: 740, lang: 'es' },
  { width: 375, height: 740, lang: 'en' },
] as const;

let graph: FakeGraphApi;
let customer: WebhookEmitter;
let admin: Session;
let agentA: Session & { id: number; name: string };
let agentB: Session & { id: number; name: string };
let tag: string;

/** A member of the team made by the admin, signed in through the API. */
async function addAgent(name: string): Promise<Session & { id: number; name: string }> {
  const email = `${name.toLowerCase()}.${tag}@e2e.hablabot.test`;
  const password = 'Agente-Secreto-2026!';
  const made = await api<{ data: { id: number } }>(
    'POST',
    '/admin/team',
    { name, email, password, role: 'agent' },
    admin.token,
  );
  const session = await api<Session>('POST', '/auth/login', { email, password });
  return { ...session, id: made.data.id, name };
}

test.beforeAll(async () => {
  ({ admin, tag } = await createCompanyAdmin({ key: 'inbox', name: 'Irma Admin', company: 'Bandeja' }));
  ({ graph, customer } = await connectFakeWhatsApp(admin.token, {
    token: 'EAAG-e2e-team-inbox-token-0001',
    appSecret: 'e2e-team-inbox-app-secret-0001',
    displayPhoneNumber: '+34 600 77 88 99',
    verifiedName: 'Tienda Bandeja',
    templates: [],
  }));
  agentA = await addAgent(`Aurora${tag.slice(-4)}`);
  agentB = await addAgent(`Bruno${tag.slice(-4)}`);
  await api(
    'POST',
    '/admin/quick-replies',
    { shortcut: 'horario', text: 'Abrimos de 9 a 14 h.' },
    admin.token,
  );
});
test.afterAll(async () => {
  await graph?.close();
});

const unique = () => Math.random().toString(36).slice(2, 7);
const phone = () => `521${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;

/** A customer writes to the company (a conversation of the company, unassigned); with its client id. */
async function customerWrites(name: string, text: string) {
  const to = phone();
  const delivery = await customer.text(to, text, { name });
  expect(delivery.statuses).toEqual([200]);
  // The webhook answers 200 before it processes the delivery: the conversation appears shortly after.
  let conversation: { id: number; client: { id: number } } | undefined;
  await expect
    .poll(async () => {
      const list = await api<{ data: { id: number; client: { id: number } }[] }>(
        'GET',
        `/admin/conversations?view=all&search=${to}`,
        undefined,
        admin.token,
      );
      conversation = list.data[0];
      return conversation?.id;
    })
    .toBeTruthy();
  if (!conversation) throw new Error('no conversation');
  return {
    phone: to,
    wamid: delivery.wamid,
    conversationId: conversation.id,
    clientId: conversation.client.id,
  };
}

async function assign(conversationId: number, userId: number | null) {
  await api('POST', `/admin/conversations/${conversationId}/assign`, { user_id: userId }, admin.token);
}

/** `session`'s own browser: a context at the case's size, in `lang`, signed in, on /admin/chat. */
async function chatAs(browser: Browser, session: Session, lang: 'es' | 'en', width: number, height: number) {
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  await context.addInitScript(
    ({ token, user, lang }) => {
      sessionStorage.setItem('token', token);
      sessionStorage.setItem('user', JSON.stringify(user));
      sessionStorage.setItem('rol', user.roles[0]?.name ?? '');
      localStorage.setItem('language', lang);
    },
    { token: session.token, user: session.user, lang },
  );
  const page = await context.newPage();
  await page.goto('/admin/chat');
  return { context, page };
}

const row = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}`) });

/** A status of the chat's API for `session`, called the way the browser calls it. */
async function statusOf(page: Page, path: string): Promise<number> {
  return page.evaluate(
    async ({ url }) => {
      const token = sessionStorage.getItem('token');
      return (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
    },
    { url: `${apiBase()}${path}` },
  );
}

async function expectNoPageOverflow(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Opens the conversation named `name` from the list (searched first); on a phone the list gives way. */
async function open(page: Page, t: Texts, name: string) {
  await page.getByRole('searchbox', { name: t.search }).fill(name);
  await row(page, name).click();
  return page.getByRole('region', { name });
}

for (const { width, height, lang } of CASES.filter((c) => runsFlow(c.lang, c.width))) {
  const t = TEXTS[lang];

  test.describe(`team inbox at ${width}px in ${lang}`, () => {
    test.describe.configure({ timeout: 90_000 });
    let contexts: BrowserContext[] = [];
    test.afterEach(async () => {
      for (const context of contexts) await context.close();
      contexts = [];
    });

    test('privacy both ways (list, search, API), and an assignment arriving live in the agent’s Mine and leaving the other’s Unassigned', async ({
      browser,
    }) => {
      const names = { a: `Alba ${unique()}`, b: `Berta ${unique()}`, u: `Ulises ${unique()}` };
      const ofA = await customerWrites(names.a, 'Hola, soy de Aurora');
      const ofB = await customerWrites(names.b, 'Hola, soy de Bruno');
      const free = await customerWrites(names.u, 'Hola, ¿alguien me atiende?');
      await assign(ofA.conversationId, agentA.id);
      await assign(ofB.conversationId, agentB.id);

      const a = await chatAs(browser, agentA, lang, width, height);
      const b = await chatAs(browser, agentB, lang, width, height);
      const boss = await chatAs(browser, admin, lang, width, height);
      contexts = [a.context, b.context, boss.context];

      // Each agent: their own in 'Míos' (the view they land on), never the other's; unassigned ones shown.
      for (const [me, mine, theirs] of [
        [a.page, names.a, names.b],
        [b.page, names.b, names.a],
      ] as const) {
        await expect(me.getByRole('tab')).toHaveCount(2);
        await expect(me.getByRole('tab', { name: t.mine })).toHaveAttribute('aria-selected', 'true');
        await expect(row(me, mine)).toBeVisible();
        await expect(row(me, theirs)).toHaveCount(0);
        await me.getByRole('searchbox', { name: t.search }).fill(theirs);
        await expect(me.locator('.chat-row')).toHaveCount(0);
        await me.getByRole('tab', { name: t.unassigned }).click();
        await expect(row(me, theirs)).toHaveCount(0);
        await me.getByRole('searchbox', { name: t.search }).fill('');
        await expect(row(me, names.u)).toBeVisible();
        expect(await seriousViolations(me)).toEqual([]);
      }
      // Straight at the API by the other's client: not found, as if it did not exist.
      expect(await statusOf(a.page, `/admin/client/${ofB.clientId}/messages`)).toBe(404);
      expect(await statusOf(b.page, `/admin/client/${ofA.clientId}/messages`)).toBe(404);
      expect(await statusOf(a.page, `/admin/client/${ofA.clientId}/messages`)).toBe(200);
      expect(await statusOf(b.page, `/admin/client/${free.clientId}/messages`)).toBe(200);

      // A on 'Míos', B on 'Sin asignar': the admin gives Ulises to A.
      await a.page.getByRole('tab', { name: t.mine }).click();
      await expect(row(a.page, names.a)).toBeVisible();
      await expect(row(a.page, names.u)).toHaveCount(0);
      await expect(row(b.page, names.u)).toBeVisible();
      const conversation = await open(boss.page, t, names.u);
      await conversation.getByRole('combobox', { name: t.assignee }).selectOption({ label: agentA.name });
      await expect(row(a.page, names.u)).toBeVisible();
      await expect(row(b.page, names.u)).toHaveCount(0);
      // B cannot reach it any more.
      expect(await statusOf(b.page, `/admin/client/${free.clientId}/messages`)).toBe(404);
      expect(await seriousViolations(boss.page)).toEqual([]);
      await expectNoPageOverflow(a.page, width);
    });

    test('an agent’s composer: a note never sent, a quick reply, a quoted reply and a library file at the fake', async ({
      browser,
    }) => {
      const name = `Clara ${unique()}`;
      const fileName = `catalogo-${unique()}.png`;
      const client = await customerWrites(name, '¿Tenéis catálogo de verano?');
      await assign(client.conversationId, agentA.id);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png(32, 24))], { type: 'image/png' }), fileName);
      const upload = await fetch(`${apiBase()}/admin/media/upload`, {
        method: 'POST',
        headers: { Accept: 'application/json', Authorization: `Bearer ${admin.token}` },
        body: form,
      });
      expect(upload.status).toBeLessThan(300);

      const a = await chatAs(browser, agentA, lang, width, height);
      contexts = [a.context];
      const page = a.page;
      const conversation = await open(page, t, name);
      const toClient = () => graph.sent.filter((m) => m.to === client.phone);
      const textOf = (m: { body: Record<string, unknown> }) => JSON.stringify(m.body);

      // An internal note: shown in its own style, stored, never a send to WhatsApp.
      const noteText = `Quiere el catálogo ${unique()}`;
      await conversation.getByRole('radio', { name: t.note }).check();
      await conversation.getByRole('textbox').fill(noteText);
      await conversation.getByRole('textbox').press('Enter');
      const note = conversation.locator('.chat-message--note', { hasText: noteText });
      await expect(note).toBeVisible();
      await expect(note).toContainText(t.note);
      expect(await seriousViolations(page)).toEqual([]);
      await conversation.getByRole('radio', { name: t.reply }).check();

      // A quick reply: '/' lists them, choosing one fills the text, Enter sends it.
      const box = conversation.getByRole('textbox');
      await box.fill('');
      await box.pressSequentially('/hor');
      const options = page.getByRole('listbox', { name: t.quickReplies }).getByRole('option');
      await expect(options).toHaveCount(1);
      expect(await seriousViolations(page)).toEqual([]);
      await options.first().click();
      await expect(box).toHaveValue('Abrimos de 9 a 14 h.');
      await box.press('Enter');
      await expect.poll(() => toClient().map(textOf).join()).toContain('Abrimos de 9 a 14 h.');

      // A quoted reply: 'Responder' on the customer's message; the send names it in context.message_id.
      const question = conversation.locator('.chat-message', { hasText: '¿Tenéis catálogo de verano?' });
      await question.hover();
      await question.getByRole('button', { name: t.reply }).click();
      await box.fill('Sí, te lo paso ahora.');
      await conversation.getByRole('button', { name: t.send, exact: true }).click();
      await expect
        .poll(() => toClient().find((m) => textOf(m).includes('Sí, te lo paso ahora.'))?.contextMessageId)
        .toBe(client.wamid);

      // A file of the library: picked in the '+' menu, sent with the text as caption, by its link.
      await conversation.getByRole('button', { name: t.more }).click();
      await page.getByRole('menuitem', { name: t.media }).click();
      const picker = page.getByRole('dialog', { name: t.media });
      await picker.getByRole('button', { name: t.choose(fileName) }).click();
      await expect(picker).toBeHidden();
      await box.fill('Aquí está');
      await conversation.getByRole('button', { name: t.send, exact: true }).click();
      await expect.poll(() => toClient().filter((m) => m.type === 'image').length).toBe(1);
      const image = toClient().find((m) => m.type === 'image')!.body.image as {
        link: string;
        caption?: string;
      };
      expect(image.link).toMatch(/^https?:\/\//);
      expect(image.caption).toBe('Aquí está');
      expect((await fetch(image.link)).status).toBe(200);

      // Three sends reached the fake for this client; the note is in none of them.
      expect(toClient()).toHaveLength(3);
      expect(toClient().some((m) => textOf(m).includes(noteText))).toBe(false);
      await expect(conversation.locator('.chat-message--note', { hasText: noteText })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await expectNoPageOverflow(page, width);
    });
  });
}
