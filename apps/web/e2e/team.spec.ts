import { type Browser, expect, type Page, test } from '@playwright/test';
import { createCompanyAdmin, openSession } from './support/api';
import { seriousViolations } from './support/axe';
import { E2E_PASSWORD } from './support/users';
import { runsFlow } from './support/matrix';

// 'Equipo' as a company admin uses it: a new agent, the inbox settings and a quick reply; then the agent
// signs in through the form, lands on the chats and sees nothing but 'Chats' — on a desktop and on a
// phone, in Spanish and in English.

// axe is injected as an inline script, which the server's CSP forbids; these tests bypass it.
test.use({ bypassCSP: true });

const TEXTS = {
  es: {
    title: 'Equipo',
    mainNav: 'Navegación principal',
    openMenu: 'Abrir menú',
    newMember: 'Nuevo miembro',
    createMember: 'Crear miembro',
    name: /^Nombre/,
    email: /^Correo/,
    role: /^Rol/,
    password: /^Contraseña/,
    agent: 'Agente',
    offline: 'Desconectado',
    autoAssign: /Asignación automática/,
    capacity: /^Conversaciones abiertas por agente/,
    inbox: 'Bandeja de entrada',
    save: 'Guardar',
    newReply: 'Nueva respuesta rápida',
    createReply: 'Crear respuesta',
    shortcut: /^Atajo/,
    text: /^Texto/,
    signIn: 'Iniciar sesión',
    chats: 'Chats',
    adminMenu: [
      'Inicio',
      'Bots',
      'Clientes',
      'Chats',
      'Equipo',
      'Configuraciones',
      'Media',
      'Mensajes masivos',
    ],
  },
  en: {
    title: 'Team',
    mainNav: 'Main navigation',
    openMenu: 'Open menu',
    newMember: 'New member',
    createMember: 'Create member',
    name: /^Name/,
    email: /^Email/,
    role: /^Role/,
    password: /^Password/,
    agent: 'Agent',
    offline: 'Offline',
    autoAssign: /Automatic assignment/,
    capacity: /^Open conversations per agent/,
    inbox: 'Inbox',
    save: 'Save',
    newReply: 'New quick reply',
    createReply: 'Create reply',
    shortcut: /^Shortcut/,
    text: /^Text/,
    signIn: 'Sign in',
    chats: 'Chats',
    adminMenu: ['Home', 'Bots', 'Clients', 'Chats', 'Team', 'Settings', 'Media'],
  },
} as const;

const CASES = [
  { width: 1280, height: 800, lang: 'es' },
  { width: 375, height: 740, lang: 'en' },
  { width: 1280, height: 800, lang: 'en' },
  { width: 375, height: 740, lang: 'es' },
] as const;

type Texts = (typeof TEXTS)[keyof typeof TEXTS];

/** The names of the main menu's links; on a phone the menu opens behind its button first. */
async function menuLinks(page: Page, t: Texts, phone: boolean): Promise<string[]> {
  if (phone) await page.getByRole('button', { name: t.openMenu }).click();
  const nav = page.getByRole('navigation', { name: t.mainNav }).last();
  await expect(nav.getByRole('link').first()).toBeVisible();
  const names = (await nav.getByRole('link').allInnerTexts()).map((name) => name.trim());
  if (phone) await page.keyboard.press('Escape');
  return names;
}

/** A browser context of the agent's own, in `lang`, at the case's size. */
async function agentPage(browser: Browser, lang: 'es' | 'en', width: number, height: number) {
  const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
  await context.addInitScript((language) => localStorage.setItem('language', language), lang);
  return { context, page: await context.newPage() };
}

/** The page has no horizontal scroll of its own: only wide tables scroll inside their box. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const { width, height, lang } of CASES.filter((c) => runsFlow(c.lang, c.width))) {
  const t = TEXTS[lang];
  const phone = width < 768;

  test.describe(`team at ${width}px in ${lang}`, () => {
    test.use({ viewport: { width, height } });
    // One whole flow (the admin's three sections, then the agent's sign-in and four screens): about 45 s
    // alone, twice that with the other workers busy on a 2-core machine.
    test.describe.configure({ timeout: 150_000 });

    test('an admin adds an agent, who signs in and lands on the chats with only Chats in the menu', async ({
      page,
      browser,
    }) => {
      const { admin, tag } = await createCompanyAdmin({ key: 'team', name: 'Tere Admin', company: 'Equipo' });
      await openSession(page, admin, lang);
      await page.goto('/admin/team');
      await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
      expect(await menuLinks(page, t, phone)).toEqual(expect.arrayContaining([...t.adminMenu]));
      await expect(page.getByRole('row').filter({ hasText: 'Tere Admin' })).toBeVisible();
      await expectNoPageOverflow(page);
      expect(await seriousViolations(page)).toEqual([]);

      // A new agent.
      const email = `agent.${tag}@e2e.hablabot.test`;
      await page.getByRole('button', { name: t.newMember }).click();
      const dialog = page.getByRole('dialog', { name: t.newMember });
      await dialog.getByLabel(t.name).fill('Beto Agente');
      await dialog.getByLabel(t.email).fill(email);
      await dialog.getByLabel(t.role).selectOption({ label: t.agent });
      await dialog.getByLabel(t.password).fill(E2E_PASSWORD);
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: t.createMember }).click();
      await expect(dialog).toBeHidden();
      const row = page.getByRole('row').filter({ hasText: email });
      await expect(row).toContainText(t.agent);
      await expect(row).toContainText(t.offline);

      // The same email again: the server's 409 shows on the email field.
      await page.getByRole('button', { name: t.newMember }).click();
      await dialog.getByLabel(t.name).fill('Beto Otra Vez');
      await dialog.getByLabel(t.email).fill(email);
      await dialog.getByLabel(t.password).fill(E2E_PASSWORD);
      await dialog.getByRole('button', { name: t.createMember }).click();
      await expect(dialog.getByLabel(t.email)).toHaveAttribute('aria-invalid', 'true');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // Inbox settings: saved, and still there after a reload.
      const inbox = page.getByRole('form', { name: t.inbox });
      await inbox.getByRole('checkbox', { name: t.autoAssign }).check();
      await inbox.getByLabel(t.capacity).fill('7');
      await inbox.getByRole('button', { name: t.save, exact: true }).click();
      await expect(inbox.getByRole('alert').or(inbox.getByRole('status')).first()).toBeVisible();

      // A quick reply.
      await page.getByRole('button', { name: t.newReply }).click();
      const replyDialog = page.getByRole('dialog', { name: t.newReply });
      await replyDialog.getByLabel(t.shortcut).fill('hola');
      await replyDialog.getByLabel(t.text).fill('¡Hola! ¿En qué te puedo ayudar?');
      await replyDialog.getByRole('button', { name: t.createReply }).click();
      await expect(replyDialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: '/hola' })).toBeVisible();

      // After a reload the settings come from the server (slow while the other workers run).
      await page.reload();
      await expect(page.getByRole('form', { name: t.inbox }).getByLabel(t.capacity)).toHaveValue('7', {
        timeout: 20_000,
      });
      await expect(
        page.getByRole('form', { name: t.inbox }).getByRole('checkbox', { name: t.autoAssign }),
      ).toBeChecked();

      // The agent signs in through the form in a browser of their own.
      const agent = await agentPage(browser, lang, width, height);
      try {
        await agent.page.goto('/login');
        await agent.page.getByPlaceholder('Enter email address').fill(email);
        await agent.page.getByPlaceholder('Enter password').fill(E2E_PASSWORD);
        await agent.page.getByRole('button', { name: t.signIn }).click();
        // The sign-in hashes the password and waits a second on its message before leaving.
        await expect(agent.page).toHaveURL('/admin/chat', { timeout: 20_000 });
        expect(await menuLinks(agent.page, t, phone)).toEqual([t.chats]);
        expect(await seriousViolations(agent.page)).toEqual([]);

        // Any other admin screen sends the agent back to the chats.
        for (const path of ['/admin', '/admin/team', '/admin/clients']) {
          await agent.page.goto(path);
          await expect(agent.page).toHaveURL('/admin/chat');
        }
      } finally {
        await agent.context.close();
      }
    });
  });
}
