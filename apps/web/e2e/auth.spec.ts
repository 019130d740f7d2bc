import { openSession } from './support/api';
import { expect, signInAs, signInThroughForm, test } from './support/fixtures';
import { E2E_PASSWORD, E2E_USERS } from './support/users';

test.describe('sign-in', () => {
  for (const [who, landing, heading] of [
    ['super_admin', '/super-admin', 'Panel de super administrador'],
    ['adminForm', '/admin', 'Hola, Ana Formulario'],
    ['clientForm', '/client', 'Área de clientes'],
  ] as const) {
    test(`${E2E_USERS[who].role} lands in ${landing}`, async ({ page }) => {
      // The success message shows for one second before the redirect. A busy test machine can poll past
      // such a short window, so the page itself records every status text it ever shows.
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __statusTexts: string[] }).__statusTexts = seen;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('[role="status"]')) {
            const text = el.textContent?.trim() ?? '';
            if (text && !seen.includes(text)) seen.push(text);
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await signInThroughForm(page, E2E_USERS[who].email, E2E_PASSWORD);
      // Password hashing, the one-second message and the area's first load: allow a loaded machine time.
      await expect(page).toHaveURL(landing, { timeout: 20_000 });
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      const shown = await page.evaluate(
        () => (window as unknown as { __statusTexts: string[] }).__statusTexts,
      );
      expect(shown.some((text) => text.includes('Inicio de sesión exitoso'))).toBe(true);
      expect(await page.evaluate(() => sessionStorage.getItem('rol'))).toBe(E2E_USERS[who].role);
    });
  }

  test('a wrong password shows the server message and stays on /login', async ({ page }) => {
    await signInThroughForm(page, E2E_USERS.adminForm.email, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Credenciales inválidas');
    await expect(page).toHaveURL('/login');
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });

  test('the landing shows the welcome title, particles and the access link', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Bienvenido a HablaBot' })).toBeVisible();
    await expect(page.getByTestId('particles')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Acceder' })).toHaveAttribute('href', '/login');
    await page.getByRole('link', { name: 'Regístrate' }).click();
    await expect(page).toHaveURL('/register');
    await expect(page.getByLabel('Nombre')).toBeVisible();
  });

  // The password policy lives in the contract, so the form refuses a common password before any call (the
  // server refuses it too; a taken email is answered like a new one, so it cannot be what is shown).
  test('register refuses a common password next to the field', async ({ page }) => {
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/register')) registrations.push(request.url());
    });
    await page.goto('/register');
    await page.getByLabel('Nombre').fill('Otra Persona');
    await page.getByLabel('Correo electrónico').fill('otra.persona@example.test');
    await page.getByLabel('Contraseña').fill('Password-123');
    await page.getByRole('button', { name: 'Registrarse' }).click();
    await expect(page.getByLabel('Contraseña')).toHaveAccessibleDescription(
      /Esta contraseña es demasiado común o fácil de adivinar\./,
    );
    expect(registrations).toEqual([]);
    await expect(page).toHaveURL('/register');
  });
});

test.describe('session', () => {
  test('logout returns to / and forgets the session', async ({ page }) => {
    await signInAs(page, 'adminLogout');
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    // `/` sends a visitor without a session on to /login.
    await expect(page).toHaveURL('/login');
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
    await page.goto('/admin');
    await expect(page).toHaveURL('/login');
  });

  test('a visitor without a token is sent from /admin to /login', async ({ page }) => {
    await page.goto('/admin/bots');
    await expect(page).toHaveURL('/login');
  });

  test('a client visiting /admin is sent to / (and from there to /client)', async ({ page }) => {
    await signInAs(page, 'client');
    await page.goto('/admin');
    await expect(page).toHaveURL('/client');
    await page.goto('/super-admin');
    await expect(page).toHaveURL('/client');
  });

  test('an admin visiting /super-admin or /client goes back to /admin', async ({ page }) => {
    await signInAs(page, 'admin');
    await page.goto('/super-admin/users');
    await expect(page).toHaveURL('/admin');
    await page.goto('/client');
    await expect(page).toHaveURL('/admin');
  });

  test('/login with a session goes to the role landing', async ({ page }) => {
    await signInAs(page, 'super_admin');
    await page.goto('/login');
    await expect(page).toHaveURL('/super-admin');
  });

  test('a revoked token (401) clears the session and goes to /', async ({ page }) => {
    await signInAs(page, 'admin');
    await page.goto('/admin');
    await page.evaluate(() => sessionStorage.setItem('token', 'revoked-or-unknown'));
    // Any protected call now answers 401; the language switch makes one.
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await expect(page).toHaveURL('/login');
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });
});

test.describe('session across tabs', () => {
  test('a page opened in a new tab takes the session of the signed-in tab', async ({ page, context }) => {
    const session = await signInAs(page, 'admin');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // A new tab starts with empty session storage, as a Ctrl-click or a pasted link does.
    const tab = await context.newPage();
    await tab.goto('/admin/clients');
    await expect(tab).toHaveURL('/admin/clients');
    expect(await tab.evaluate(() => sessionStorage.getItem('token'))).toBe(session.token);
    expect(await tab.evaluate(() => sessionStorage.getItem('rol'))).toBe('admin');
  });

  test('the session is never handed to another origin', async ({ page, context, baseURL }) => {
    await signInAs(page, 'admin');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The same server under another name is another origin: its tab asks, nobody may answer.
    const otherOrigin = (baseURL ?? '').replace('127.0.0.1', 'localhost');
    const tab = await context.newPage();
    await tab.goto(`${otherOrigin}/admin/clients`);
    await expect(tab).toHaveURL(`${otherOrigin}/login`);
    expect(await tab.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });

  test('signing out in one tab ends the session in every tab', async ({ page, context }) => {
    // A session of its own: signing out revokes the token, which the shared sessions must keep.
    const response = await page.request.post('/api/v1/auth/login', {
      data: { email: E2E_USERS.adminLogout.email, password: E2E_PASSWORD },
    });
    expect(response.status()).toBe(200);
    await openSession(page, await response.json());
    await page.goto('/admin');
    const tab = await context.newPage();
    await tab.goto('/admin/clients');
    await expect(tab).toHaveURL('/admin/clients');

    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL('/login');
    await expect(tab).toHaveURL('/login');
    expect(await tab.evaluate(() => sessionStorage.getItem('token'))).toBeNull();

    // And a tab opened afterwards finds nobody signed in.
    const later = await context.newPage();
    await later.goto('/admin');
    await expect(later).toHaveURL('/login');
  });

  test('a 401 in one tab ends the session in every tab', async ({ page, context }) => {
    await signInAs(page, 'admin');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const tab = await context.newPage();
    await tab.goto('/admin/clients');
    await expect(tab).toHaveURL('/admin/clients');

    // The server answers the first tab's next call 401, as it does for an expired or revoked token.
    await page.route('**/api/v1/**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: '{"message":"Unauthenticated."}' }),
    );
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await expect(page).toHaveURL('/login');
    await expect(tab).toHaveURL('/login');
    expect(await tab.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
  });
});

test.describe('deep link', () => {
  test('signing in from a deep link returns to that page', async ({ page }) => {
    await page.goto('/admin/messages-massive');
    await expect(page).toHaveURL('/login');
    await page.getByPlaceholder('Enter email address').fill(E2E_USERS.adminForm.email);
    await page.getByPlaceholder('Enter password').fill(E2E_PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión' }).click();
    await expect(page).toHaveURL('/admin/messages-massive', { timeout: 20_000 });
  });
});
