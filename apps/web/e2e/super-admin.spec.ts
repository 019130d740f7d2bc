import { createHmac } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { signInAs } from './support/fixtures';
import { api, apiBase, apiRaw, createCompanyAdmin, openSession, type Session } from './support/api';
import { E2E_PASSWORD } from './support/users';

// The super-admin area as a person uses it: users, roles and the dashboard's figures, on a desktop in
// Spanish and on a phone in English.

const TEXTS = {
  es: {
    usersTitle: 'Administrar usuarios',
    createUser: 'Crear usuario',
    editUser: 'Editar usuario',
    name: /^Nombre/,
    email: /^Correo/,
    password: /^Contraseña/,
    changePassword: '¿Desea actualizar la contraseña?',
    save: 'Guardar cambios',
    edit: (name: string) => `Editar a ${name}`,
    remove: (name: string) => `Eliminar a ${name}`,
    confirmDelete: 'Eliminar',
    created: 'Usuario creado con éxito.',
    updated: 'Usuario actualizado con éxito.',
    deleted: 'Usuario eliminado con éxito.',
    rolesTitle: 'Administrar roles',
    createRole: 'Crear rol',
    description: /^Descripción/,
    updateRole: /^Actualizar Rol/,
    deleteRole: /^Eliminar Rol/,
    configure: /^Configurar/,
    inDevelopment: 'En desarrollo...',
    roleCreated: 'Rol creado con éxito.',
    roleUpdated: 'Rol actualizado con éxito.',
    roleDeleted: 'Rol eliminado con éxito.',
    builtin: 'Rol del sistema: no se puede renombrar ni eliminar.',
    builtinRename: 'Los roles del sistema no se pueden renombrar.',
    cannotDelete: 'Esta acción no se puede deshacer.',
  },
  en: {
    usersTitle: 'Manage users',
    createUser: 'Create user',
    editUser: 'Edit user',
    name: /^Name/,
    email: /^Email/,
    password: /^Password/,
    changePassword: 'Do you want to update the password?',
    save: 'Save changes',
    edit: (name: string) => `Edit ${name}`,
    remove: (name: string) => `Delete ${name}`,
    confirmDelete: 'Delete',
    created: 'User created successfully.',
    updated: 'User updated successfully.',
    deleted: 'User deleted successfully.',
    rolesTitle: 'Manage roles',
    createRole: 'Create role',
    description: /^Description/,
    updateRole: /^Update Role/,
    deleteRole: /^Delete Role/,
    configure: /^Configure/,
    inDevelopment: 'In development...',
    roleCreated: 'Role created successfully.',
    roleUpdated: 'Role updated successfully.',
    roleDeleted: 'Role deleted successfully.',
    builtin: 'Built-in role: it cannot be renamed or deleted.',
    builtinRename: 'Built-in roles cannot be renamed.',
    cannotDelete: 'This action cannot be undone.',
  },
} as const;

const CASES = [
  { width: 1280, height: 800, lang: 'es' },
  { width: 375, height: 740, lang: 'en' },
] as const;

const superToken = () =>
  (JSON.parse(process.env.E2E_SESSIONS ?? '{}') as Record<string, Session>).super_admin.token;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The page has no horizontal scroll of its own: only wide tables scroll inside their box. */
async function expectNoPageOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

for (const { width, height, lang } of CASES) {
  const t = TEXTS[lang];

  test.describe(`super admin at ${width}px in ${lang}`, () => {
    test.use({ viewport: { width, height } });
    // Each test is a whole flow (create, two edits with sign-in checks, delete): about 10 s alone, three
    // times that with the other workers busy on a 2-core machine.
    test.describe.configure({ timeout: 90_000 });

    test('creates, edits (with and without a new password) and deletes a user', async ({ page }) => {
      await signInAs(page, 'super_admin', { language: lang });
      await page.goto('/super-admin/users');
      await expect(page.getByRole('heading', { level: 1, name: t.usersTitle })).toBeVisible();
      await expectNoPageOverflow(page);

      const tag = unique();
      const name = `Usuario ${tag}`;
      const email = `user.${tag}@e2e.hablabot.test`;
      await page.getByRole('button', { name: t.createUser }).click();
      let dialog = page.getByRole('dialog', { name: t.createUser });
      await dialog.getByLabel(t.name).fill(name);
      await dialog.getByLabel(t.email).fill(email);
      await dialog.getByRole('combobox').click();
      // A built-in role reads as its name in the screen's language beside its id: 'Cliente (client)'.
      await page.getByRole('option', { name: /\(client\)/ }).click();
      await page.keyboard.press('Escape');
      await dialog.getByLabel(t.password).fill(E2E_PASSWORD);
      await dialog.getByRole('button', { name: t.createUser }).click();
      await expect(page.getByText(t.created)).toBeVisible();
      await expect(dialog).toBeHidden();
      await page.getByRole('searchbox').first().fill(tag);
      const row = page.getByRole('row').filter({ hasText: email });
      await expect(row).toContainText('client');

      // Edit without the checkbox: no password field, the password stays.
      await row.getByRole('button', { name: t.edit(name) }).click();
      dialog = page.getByRole('dialog', { name: t.editUser });
      await expect(dialog.getByLabel(t.password)).toHaveCount(0);
      await dialog.getByLabel(t.name).fill(`${name} B`);
      await dialog.getByRole('button', { name: t.save }).click();
      // The form closes once the server accepted the change.
      await expect(dialog).toBeHidden();
      await expect(page.getByText(t.updated)).toBeVisible();
      await expect(row).toContainText(`${name} B`);
      expect((await apiRaw('POST', '/auth/login', { email, password: E2E_PASSWORD })).status).toBe(200);

      // Edit with the checkbox: the new password replaces the old one.
      await row.getByRole('button', { name: t.edit(`${name} B`) }).click();
      dialog = page.getByRole('dialog', { name: t.editUser });
      await dialog.getByLabel(t.changePassword).check();
      await dialog.getByLabel(t.password).fill('Otra-Clave-Nueva-77');
      await dialog.getByRole('button', { name: t.save }).click();
      // The form closes once the server accepted the change.
      await expect(dialog).toBeHidden();
      await expect(page.getByText(t.updated)).toBeVisible();
      expect((await apiRaw('POST', '/auth/login', { email, password: 'Otra-Clave-Nueva-77' })).status).toBe(
        200,
      );

      // Delete, after the confirmation.
      await row.getByRole('button', { name: t.remove(`${name} B`) }).click();
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(t.cannotDelete);
      await confirm.getByRole('button', { name: t.confirmDelete }).click();
      await expect(page.getByText(t.deleted)).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
    });

    test('creates, edits and deletes a role; built-in roles refuse', async ({ page }) => {
      await signInAs(page, 'super_admin', { language: lang });
      await page.goto('/super-admin/roles');
      await expect(page.getByRole('heading', { level: 1, name: t.rolesTitle })).toBeVisible();
      await expectNoPageOverflow(page);

      const roleName = `rol_${unique()}`;
      await page.getByRole('button', { name: t.createRole }).click();
      let dialog = page.getByRole('dialog', { name: t.createRole });
      await dialog.getByLabel(t.name).fill(roleName);
      await dialog.getByLabel(t.description).fill('Atiende ventas');
      await dialog.getByRole('button', { name: t.createRole }).click();
      await expect(page.getByText(t.roleCreated)).toBeVisible();
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: roleName }) });
      await expect(card).toContainText('Atiende ventas');
      await expect(card).toContainText(/^.*0 (usuarios|users)/);

      await card.getByRole('button', { name: t.configure }).click();
      await expect(page.getByRole('dialog')).toContainText(t.inDevelopment);
      await page.keyboard.press('Escape');

      await card.getByRole('button', { name: t.updateRole }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByLabel(t.description).fill('Atiende ventas y soporte');
      await dialog.getByRole('button', { name: t.save }).click();
      await expect(page.getByText(t.roleUpdated)).toBeVisible();
      await expect(card).toContainText('Atiende ventas y soporte');

      await card.getByRole('button', { name: t.deleteRole }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: t.confirmDelete }).click();
      await expect(page.getByText(t.roleDeleted)).toBeVisible();
      await expect(card).toHaveCount(0);

      // Built-in roles: the card says so, delete is disabled, the name cannot be edited, the server refuses.
      const admin = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'admin', exact: true }) });
      await expect(admin).toContainText(t.builtin);
      await expect(admin.getByRole('button', { name: t.deleteRole })).toBeDisabled();
      await admin.getByRole('button', { name: t.updateRole }).click();
      await expect(page.getByRole('dialog').getByLabel(t.name)).toHaveAttribute('readonly', '');
      await page.keyboard.press('Escape');
      const roles = await api<{ data: { id: number; name: string; color: string }[] }>(
        'GET',
        '/super-admin/roles',
        undefined,
        superToken(),
      );
      const adminRole = roles.data.find((r) => r.name === 'admin')!;
      const refused = await apiRaw<{ message: string }>(
        'PUT',
        `/super-admin/roles/${adminRole.id}`,
        { name: 'administrador', color: adminRole.color },
        superToken(),
        { 'Accept-Language': lang },
      );
      expect(refused.status).toBe(409);
      expect(refused.data.message).toBe(t.builtinRename);
    });

    test('the dashboard shows the figures of the database, messages the test sent included', async ({
      page,
    }) => {
      // A company whose WhatsApp is set up receives 3 customer messages through the webhook.
      const { admin, tag } = await createCompanyAdmin({
        key: `dash${lang}`,
        name: 'Dora Dashboard',
        company: 'Dash',
      });
      const phoneId = `9${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 15);
      const appSecret = `secret-${tag}`;
      await api(
        'POST',
        '/admin/setting',
        { whatsAppPhoneId: phoneId, whatsAppApiKey: `token-${tag}`, whatsAppAppSecret: appSecret },
        admin.token,
      );
      const before = await api<{ data: { messages_this_month: number; companies: number } }>(
        'GET',
        '/super-admin/overview',
        undefined,
        superToken(),
      );
      for (let i = 0; i < 3; i++) {
        const body = JSON.stringify({
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '1',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: { display_phone_number: '15550783881', phone_number_id: phoneId },
                    contacts: [{ profile: { name: 'Cliente Panel' }, wa_id: '5215500000001' }],
                    messages: [
                      {
                        from: '5215500000001',
                        id: `wamid.e2e.${tag}.${i}`,
                        timestamp: String(Math.floor(Date.now() / 1000)),
                        type: 'text',
                        text: { body: `hola ${i}` },
                      },
                    ],
                  },
                },
              ],
            },
          ],
        });
        const response = await fetch(`${apiBase()}/webhooks/whatsapp`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Hub-Signature-256': `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`,
          },
          body,
        });
        expect(response.status).toBe(200);
      }
      await expect
        .poll(
          async () =>
            (
              await api<{ data: { messages_this_month: number } }>(
                'GET',
                '/super-admin/overview',
                undefined,
                superToken(),
              )
            ).data.messages_this_month - before.data.messages_this_month,
        )
        .toBeGreaterThanOrEqual(3);

      await signInAs(page, 'super_admin', { language: lang });
      const shown = async (id: string) =>
        Number(((await page.getByTestId(id).textContent()) ?? '').replace(/\D/g, ''));
      // Other specs may add users or messages meanwhile: the page and the API are read again until they agree.
      await expect(async () => {
        await page.goto('/super-admin');
        await expect(page.getByTestId('stat-messages')).toHaveText(/\d/);
        const figures = {
          messages_this_month: await shown('stat-messages'),
          bot_interactions_today: await shown('stat-interactions'),
          users: await shown('stat-usersCount'),
          companies: await shown('stat-companies'),
        };
        const now = await api<{ data: typeof figures }>(
          'GET',
          '/super-admin/overview',
          undefined,
          superToken(),
        );
        expect(figures).toEqual(now.data);
        expect(figures.messages_this_month).toBeGreaterThanOrEqual(before.data.messages_this_month + 3);
        expect(figures.companies).toBeGreaterThanOrEqual(before.data.companies);
      }).toPass({ timeout: 20_000 });
      await expectNoPageOverflow(page);
    });
  });
}

test.describe('Mi cuenta', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('an admin changes their name and password; their other sessions are signed out', async ({ page }) => {
    const { admin, tag } = await createCompanyAdmin({
      key: 'cuenta',
      name: 'Clara Cuenta',
      company: 'Cuenta',
    });
    const email = `cuenta.${tag}@e2e.hablabot.test`;
    const other = await api<Session>('POST', '/auth/login', { email, password: E2E_PASSWORD });
    await openSession(page, admin, 'es');
    await page.goto('/admin');
    // At 375 px the shell shows the menu button; the user menu stays in the header.
    await page.getByRole('button', { name: /Menú de usuario/ }).click();
    await page.getByRole('button', { name: 'Mi cuenta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mi cuenta' });
    await dialog.getByLabel(/^Nombre/).fill('Clara Nueva');
    await dialog.getByLabel('¿Desea actualizar la contraseña?').check();
    await dialog.getByLabel(/^Contraseña actual/).fill(E2E_PASSWORD);
    await dialog.getByLabel(/^Nueva contraseña/).fill('Cuenta-Nueva-2026!');
    await dialog.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(dialog.getByText(/Se cerraron las demás sesiones/)).toBeVisible();
    await expect(page.getByTestId('user-initials')).toHaveText('CN');
    // This session goes on, the other one is gone, and only the new password signs in.
    expect((await apiRaw('GET', '/admin/segment', undefined, admin.token)).status).toBe(200);
    expect((await apiRaw('GET', '/admin/segment', undefined, other.token)).status).toBe(401);
    expect((await apiRaw('POST', '/auth/login', { email, password: 'Cuenta-Nueva-2026!' })).status).toBe(200);
  });
});
