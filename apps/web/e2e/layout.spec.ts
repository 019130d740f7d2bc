import { expect, signInAs, test } from './support/fixtures';

test.describe('admin layout', () => {
  test('the sidebar collapses from 250px to 60px and back, and remembers it', async ({ page }) => {
    await signInAs(page, 'admin');
    await page.goto('/admin');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toBeVisible();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(250);

    await page.getByRole('button', { name: 'Contraer menú' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(60);
    // Collapsed links keep their names for assistive technology.
    await expect(sidebar.getByRole('link', { name: 'Bots' })).toBeVisible();

    await page.reload();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(60);
    await page.getByRole('button', { name: 'Expandir menú' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(250);
  });

  test('the home tiles and the sidebar lead to every admin screen', async ({ page }) => {
    // Six screens, each its own chunk: allow for a busy machine.
    test.setTimeout(60_000);
    await signInAs(page, 'admin');
    await page.goto('/admin');
    const main = page.getByRole('main');
    for (const [tile, path] of [
      ['Bots', '/admin/bots'],
      ['Clientes', '/admin/clients'],
      ['Chat en vivo', '/admin/chat'],
      ['Configuraciones', '/admin/setting'],
      ['Media', '/admin/media'],
      ['Mensajes masivos', '/admin/messages-massive'],
    ] as const) {
      await main.getByRole('link', { name: new RegExp(`^${tile}`) }).click();
      await expect(page).toHaveURL(path);
      await page.getByTestId('sidebar').getByRole('link', { name: 'Inicio' }).click();
      await expect(page).toHaveURL('/admin');
    }
  });

  test('at 375px the mobile menu opens and closes', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAs(page, 'admin');
    await page.goto('/admin');
    await expect(page.getByTestId('sidebar')).toHaveCount(0);

    const toggle = page.getByRole('button', { name: 'Abrir menú' });
    await toggle.click();
    const menu = page.getByTestId('mobile-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Mensajes masivos' })).toBeVisible();
    await menu.getByRole('button', { name: 'Cerrar menú' }).click();
    await expect(menu).toBeHidden();

    // Focus moves in, Tab stays inside the drawer, Escape closes it and gives focus back.
    await toggle.click();
    await expect(menu.getByRole('link', { name: 'HablaBot' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(menu.getByRole('link', { name: 'Mensajes masivos' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'HablaBot' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
    // Following a link closes it and navigates.
    await toggle.click();
    await menu.getByRole('link', { name: 'Chats' }).click();
    await expect(page).toHaveURL('/admin/chat');
    await expect(menu).toBeHidden();
  });

  test('the user menu shows initials, name and email and links home', async ({ page }) => {
    await signInAs(page, 'admin');
    await page.goto('/admin/media');
    await expect(page.getByTestId('user-initials')).toHaveText('AA');
    await page.getByRole('button', { name: 'Menú de usuario' }).click();
    await expect(page.getByText('admin@e2e.hablabot.test')).toBeVisible();
    await page.getByRole('link', { name: 'Inicio de administración' }).click();
    await expect(page).toHaveURL('/admin');
  });
});

test.describe('super-admin layout', () => {
  test('shows its entries, the figure cards, and collapses', async ({ page }) => {
    await signInAs(page, 'super_admin');
    await page.goto('/super-admin');
    const sidebar = page.getByTestId('sidebar');
    for (const name of [
      'Dashboard',
      'Compañías',
      'Roles',
      'Planes',
      'Analítica',
      'Webhooks fallidos',
      'Configuración',
    ]) {
      await expect(sidebar.getByRole('link', { name })).toBeVisible();
    }
    // The figures are read from the database (super-admin.spec.ts checks them against known data).
    await expect(page.getByTestId('stat-messages')).toHaveText(/^\d[\d.,\s]*$/);
    await expect(page.getByTestId('stat-interactions')).toHaveText(/^\d[\d.,\s]*$/);
    await page.getByRole('button', { name: 'Contraer menú' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(60);
    await sidebar.getByRole('link', { name: 'Roles' }).click();
    await expect(page).toHaveURL('/super-admin/roles');
    await expect(page.getByRole('heading', { level: 1, name: 'Administrar roles' })).toBeVisible();
  });

  test('at 768px the menu becomes a popup that opens and closes', async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 900 });
    await signInAs(page, 'super_admin');
    await page.goto('/super-admin');
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const popup = page.getByTestId('mobile-menu');
    await expect(popup).toBeVisible();
    await popup.getByRole('link', { name: 'Compañías' }).click();
    await expect(page).toHaveURL('/super-admin/companies');
    await expect(popup).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Compañías' })).toBeVisible();
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await page.getByRole('button', { name: 'Cerrar menú' }).click();
    await expect(popup).toBeHidden();
  });
});

test('the client area has a header, the placeholder and a footer', async ({ page }) => {
  await signInAs(page, 'client');
  await page.goto('/client');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Área de clientes' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('HablaBot');
});

test('keyboard: the skip link and the sidebar are reachable with Tab', async ({ page }) => {
  await signInAs(page, 'admin');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Saltar al contenido' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Inicio' })).toBeFocused();
});
