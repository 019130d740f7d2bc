import type { Company, Role, User } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import {
  expectNoSeriousA11yViolations,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import UsersPage from './UsersPage';

const role = (id: number, name: string, color: string): Role => ({
  id,
  name,
  description: null,
  color,
  usersCount: 0,
  builtin: id <= 3,
  created_at: '2026-11-01T10:00:00.000Z',
});
const superAdmin = role(1, 'super_admin', '#ff0000');
const admin = role(2, 'admin', '#00aa00');
const roles = [superAdmin, admin, role(3, 'client', '#0000ff')];
const companies: Company[] = [{ id: 7, name: 'Acme', created_at: '2026-11-01T10:00:00.000Z' }];

const makeUser = (id: number, name: string, userRoles: Role[], companyId: number | null = null): User => ({
  id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  company_id: companyId,
  company_name: companyId ? 'Acme' : null,
  language: 'es',
  roles: userRoles.map(({ id, name, description, color }) => ({ id, name, description, color })),
  created_at: '2026-11-20T10:00:00.000Z',
});
const me = makeUser(1, 'Root', [superAdmin]);
const ana = makeUser(2, 'Ana', [admin], 7);
const nobody = makeUser(3, 'Nadie', []);

function routes(users: User[] = [me, ana, nobody]) {
  return mockFetch({
    'GET /api/v1/super-admin/users': [200, { data: users }],
    'GET /api/v1/super-admin/roles': [200, { success: true, data: roles }],
    'GET /api/v1/super-admin/companies': [200, { data: companies }],
    'POST /api/v1/super-admin/create-user': [
      201,
      { success: true, message: 'Usuario creado con éxito.', data: ana },
    ],
    'PUT /api/v1/super-admin/update-user/2': [
      200,
      { success: true, message: 'Usuario actualizado con éxito.', data: ana },
    ],
    'DELETE /api/v1/super-admin/delete-user': [
      200,
      { success: true, message: 'Usuario eliminado con éxito.' },
    ],
  });
}

function renderPage(path = '/super-admin/users') {
  return renderFeature([{ path: '/super-admin/users', element: <UsersPage /> }], path);
}

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({ token: 't', rol: 'super_admin', user: me });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('UsersPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the users with id, Nombre, Roles as chips or Ninguno, Correo and Creado', async () => {
    routes();
    const { container } = renderPage();
    expect(screen.getByRole('heading', { name: 'Administrar usuarios' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crear usuario' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Usuarios' });
    for (const header of ['id', 'Nombre', 'Roles', 'Correo', 'Creado'])
      expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    const row = (await within(table).findByText('Nadie')).closest('tr')!;
    expect(row).toHaveTextContent('Ninguno');
    expect(within(table).getByText('ana@example.com').closest('tr')).toHaveTextContent(
      'Administrador (admin)',
    );
    await expectNoSeriousA11yViolations(container);
  });

  it('creates a user with roles, a password and the company of an admin', async () => {
    const user = userEvent.setup();
    const api = routes();
    renderPage();
    await screen.findByText('Nadie');
    await user.click(screen.getByRole('button', { name: 'Crear usuario' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear usuario' });
    await user.click(within(dialog).getByRole('button', { name: 'Crear usuario' }));
    expect(await within(dialog).findByText('El campo nombre es obligatorio.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Beto');
    await user.type(within(dialog).getByLabelText(/^Correo/), 'beto@example.com');
    await user.click(within(dialog).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: /^Administrador \(admin\)/ }));
    await user.keyboard('{Escape}');
    await user.selectOptions(within(dialog).getByLabelText(/Compañía del administrador/), 'Acme');
    await user.type(within(dialog).getByLabelText(/^Contraseña/), 'Zorro-Azul-2026!');
    await user.click(within(dialog).getByRole('button', { name: 'Crear usuario' }));
    expect(await screen.findByText('Usuario creado con éxito.')).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'Beto',
      email: 'beto@example.com',
      roles: [2],
      password: 'Zorro-Azul-2026!',
      company_id: 7,
    });
  });

  it('edits without a password unless ¿Desea actualizar la contraseña? is checked', async () => {
    const user = userEvent.setup();
    const api = routes();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Editar a Ana' }));
    let dialog = await screen.findByRole('dialog', { name: 'Editar usuario' });
    expect(within(dialog).queryByLabelText(/^Contraseña/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await screen.findByText('Usuario actualizado con éxito.');
    expect(api.calls.filter((c) => c.method === 'PUT')[0].body).toEqual({
      name: 'Ana',
      email: 'ana@example.com',
      roles: [2],
      company_id: 7,
    });

    await user.click(screen.getByRole('button', { name: 'Editar a Ana' }));
    dialog = await screen.findByRole('dialog', { name: 'Editar usuario' });
    await user.click(within(dialog).getByLabelText('¿Desea actualizar la contraseña?'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText(/contraseña es obligatorio/)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Contraseña/), 'Nueva-Clave-Segura-9');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'PUT')[1].body).toMatchObject({
      password: 'Nueva-Clave-Segura-9',
    });
  });

  it('deletes after the confirmation and explains a refusal from the server', async () => {
    const user = userEvent.setup();
    const api = routes();
    renderPage();
    expect(await screen.findByRole('button', { name: 'Eliminar a Root' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Eliminar a Nadie' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Esta acción no se puede deshacer.');
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Usuario eliminado con éxito.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'DELETE')!.body).toEqual({ ids: [3] });

    api.set('DELETE /api/v1/super-admin/delete-user', [
      409,
      { message: 'Debe quedar al menos un superadministrador.' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Eliminar a Ana' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText(/Debe quedar al menos un superadministrador\./)).toBeInTheDocument();
  });
});

describe('UsersPage of one company', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows only the users of the company opened from Compañías', async () => {
    routes();
    renderPage('/super-admin/users?company=7');
    expect(await screen.findByTestId('company-filter')).toHaveTextContent('Usuarios de la compañía Acme');
    const table = screen.getByRole('table', { name: 'Usuarios' });
    expect(within(table).getByText('Ana')).toBeInTheDocument();
    expect(within(table).queryByText('Nadie')).toBeNull();
  });
});
