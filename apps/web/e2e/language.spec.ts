import { expect, signInAs, test } from './support/fixtures';
import { foreignOnPage, foreignTexts } from './support/language';
import type { E2ERole } from './support/users';

test('the language choice applies at once, shows feedback for 5 s and survives a reload', async ({
  page,
}) => {
  await signInAs(page, 'adminLanguage');
  await page.goto('/admin');
  const nav = page.getByRole('complementary').getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Clientes' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');

  await expect(page.getByTestId('language-feedback')).toHaveText('Language updated successfully.');
  await expect(nav.getByRole('link', { name: 'Clients' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
  // The language message goes after 5 seconds.
  await expect(page.getByTestId('language-feedback')).toBeHidden({ timeout: 7_000 });

  await page.reload();
  await expect(nav.getByRole('link', { name: 'Clients' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('en');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
  await expect(nav.getByRole('link', { name: 'Clientes' })).toBeVisible();
  // The screen switches at once; the choice is stored when the server has accepted it.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('language'))).toBe('es');
});

test('the sign-in page can switch language before signing in', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await expect(page.getByTestId('language-feedback')).toHaveText('Language set temporarily.');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to HablaBot' })).toBeVisible();
  // The sign-in placeholders are fixed English texts in both languages.
  await expect(page.getByPlaceholder('Enter email address')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the browser language is used when nothing is stored', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to HablaBot' })).toBeVisible();
  await context.close();
});

/** The built-in roles' names are identifiers (SPEC.md: super_admin, admin, client), the same in both languages. */
const ROLE_NAMES = new Set(['super_admin', 'admin', 'client']);

type Texts = Record<'es' | 'en', string>;
/** A form the screen opens in a dialog: the button that opens it and the one that sends it (empty, to show its messages). */
interface Dialog {
  open: Texts;
  submit: Texts;
}
/** Every screen but the chat's internals, with what shows once it has loaded, in each language. */
const SCREENS: {
  path: string;
  who?: E2ERole;
  ready: Record<'es' | 'en', string | RegExp>;
  dialogs?: Dialog[];
}[] = [
  { path: '/login', ready: { es: 'Bienvenido a HablaBot', en: 'Welcome to HablaBot' } },
  { path: '/register', ready: { es: 'Crear cuenta', en: 'Create account' } },
  { path: '/no-such-page', ready: { es: 'Página no encontrada', en: 'Page not found' } },
  { path: '/admin', who: 'admin', ready: { es: /^Hola, /, en: /^Hello, / } },
  {
    path: '/admin/clients',
    who: 'admin',
    ready: { es: 'Gestión de clientes', en: 'Client management' },
    dialogs: [
      {
        open: { es: 'Crear cliente', en: 'Create client' },
        submit: { es: 'Crear cliente', en: 'Create client' },
      },
      {
        open: { es: 'Agregar segmento', en: 'Add segment' },
        submit: { es: 'Crear segmento', en: 'Create segment' },
      },
    ],
  },
  {
    path: '/admin/bots',
    who: 'admin',
    ready: { es: 'Bots e instrucciones', en: 'Bots and instructions' },
    dialogs: [{ open: { es: 'Crear bot', en: 'Create bot' }, submit: { es: 'Crear bot', en: 'Create bot' } }],
  },
  {
    path: '/admin/chat',
    who: 'admin',
    ready: { es: 'Selecciona un cliente para comenzar a chatear', en: 'Select a client to start chatting' },
  },
  { path: '/admin/setting', who: 'admin', ready: { es: 'Configuraciones', en: 'Settings' } },
  { path: '/admin/media', who: 'admin', ready: { es: 'Media', en: 'Media' } },
  { path: '/admin/messages-massive', who: 'admin', ready: { es: 'Mensajes masivos', en: 'Mass messages' } },
  {
    path: '/super-admin',
    who: 'super_admin',
    ready: { es: 'Panel de super administrador', en: 'Super administrator dashboard' },
  },
  {
    path: '/super-admin/users',
    who: 'super_admin',
    ready: { es: 'Administrar usuarios', en: 'Manage users' },
    dialogs: [
      {
        open: { es: 'Crear usuario', en: 'Create user' },
        submit: { es: 'Crear usuario', en: 'Create user' },
      },
    ],
  },
  { path: '/super-admin/companies', who: 'super_admin', ready: { es: 'Compañías', en: 'Companies' } },
  // The built-in roles' descriptions are the server's seeded Spanish texts: the English screen translates them.
  {
    path: '/super-admin/roles',
    who: 'super_admin',
    ready: { es: 'Administrador de compañía', en: 'Company administrator' },
    dialogs: [
      { open: { es: 'Crear rol', en: 'Create role' }, submit: { es: 'Crear rol', en: 'Create role' } },
    ],
  },
  { path: '/super-admin/plans', who: 'super_admin', ready: { es: 'Planes', en: 'Plans' } },
  { path: '/super-admin/analytics', who: 'super_admin', ready: { es: 'Analítica', en: 'Analytics' } },
  {
    path: '/super-admin/webhooks',
    who: 'super_admin',
    ready: { es: 'Webhooks fallidos', en: 'Failed webhooks' },
  },
  { path: '/super-admin/settings', who: 'super_admin', ready: { es: 'Configuración', en: 'Settings' } },
  { path: '/client', who: 'client', ready: { es: 'Área de clientes', en: 'Client area' } },
];

for (const language of ['en', 'es'] as const) {
  const other = language === 'en' ? 'Spanish' : 'English';
  test(`every screen in ${language === 'en' ? 'English' : 'Spanish'} shows no text the product has only in ${other}`, async ({
    page,
  }) => {
    // Eighteen screens, each its own chunk: allow for a busy machine.
    test.setTimeout(120_000);
    const foreign = await foreignTexts(language);
    const found: string[] = [];
    let signedInAs: E2ERole | undefined;
    for (const screen of SCREENS) {
      if (screen.who && screen.who !== signedInAs) {
        await signInAs(page, screen.who, { language });
        signedInAs = screen.who;
      } else if (!screen.who && signedInAs) {
        await page.evaluate(() => sessionStorage.clear());
        signedInAs = undefined;
      }
      if (!screen.who) await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
      await page.goto(screen.path);
      await expect(page.getByText(screen.ready[language]).first(), screen.path).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      // Whatever was still loading (a list, a count) is in before the screen is read.
      await expect(page.getByRole('status').filter({ hasText: /Cargando|Loading/ })).toHaveCount(0);
      if (screen.path === '/admin') {
        await page.getByRole('button', { name: language === 'en' ? 'User menu' : 'Menú de usuario' }).click();
      }
      const read = async (where: string) =>
        found.push(
          ...(await foreignOnPage(page, foreign))
            .filter((text) => !ROLE_NAMES.has(text))
            .map((text) => `${where}: ${text}`),
        );
      await read(screen.path);
      for (const dialog of screen.dialogs ?? []) {
        await page.getByRole('button', { name: dialog.open[language], exact: true }).first().click();
        const modal = page.getByRole('dialog');
        await expect(modal).toBeVisible();
        // Sent empty, the form says what each field needs.
        await modal.getByRole('button', { name: dialog.submit[language], exact: true }).click();
        await expect(modal.locator('[aria-invalid="true"]').first()).toBeVisible();
        await read(`${screen.path} (${dialog.open[language]})`);
        await page.keyboard.press('Escape');
        await expect(modal).toBeHidden();
      }
    }
    expect(found).toEqual([]);
  });
}
