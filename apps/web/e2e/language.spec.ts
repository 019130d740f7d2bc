import { expect, signInAs, test } from './support/fixtures';

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
