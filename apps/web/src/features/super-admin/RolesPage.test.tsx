import type { Role } from '@hablabot/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  jsonResponse,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import RolesPage from './RolesPage';

const role = (id: number, name: string, builtin: boolean, usersCount: number): Role => ({
  id,
  name,
  description: builtin ? null : 'Atiende a los clientes',
  color: '#7300ff',
  usersCount,
  builtin,
  created_at: '2026-11-01T10:00:00.000Z',
});
const roles = [role(1, 'super_admin', true, 1), role(2, 'admin', true, 4), role(9, 'soporte', false, 2)];
const LIST = 'GET /api/v1/super-admin/roles';

function renderPage() {
  return renderFeature([{ path: '/super-admin/roles', element: <RolesPage /> }], '/super-admin/roles');
}

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('RolesPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows Cargando roles..., then a card per role with its users and actions', async () => {
    let answer!: (r: Response) => void;
    mockFetch({ [LIST]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const { container } = renderPage();
    expect(await screen.findByText('Cargando roles...')).toBeInTheDocument();
    answer(jsonResponse(200, { success: true, data: roles }));
    const card = (await screen.findByRole('heading', { name: 'soporte' })).closest('li')!;
    expect(card).toHaveTextContent('Atiende a los clientes');
    expect(card).toHaveTextContent('2 usuarios');
    expect(card).toHaveTextContent('#7300ff');
    for (const action of ['Actualizar Rol', 'Eliminar Rol', 'Configurar'])
      expect(within(card).getByRole('button', { name: new RegExp(`^${action}`) })).toBeEnabled();
    const builtin = screen.getByRole('heading', { name: 'admin' }).closest('li')!;
    expect(builtin).toHaveTextContent('Rol del sistema: no se puede renombrar ni eliminar.');
    // A built-in role shows its name in the screen's language beside its id; a custom role only its name.
    expect(within(builtin).getByText('Administrador')).toBeInTheDocument();
    expect(card.querySelector('.sa-role-card__label')).toBeNull();
    expect(within(builtin).getByRole('button', { name: /^Eliminar Rol/ })).toBeDisabled();
    await expectNoSeriousA11yViolations(container);
  });

  it('says so when the roles cannot be loaded', async () => {
    mockFetch({ [LIST]: [500, { message: 'x' }] });
    renderPage();
    expect(
      await screen.findByText(/No se pudieron cargar los roles\. Inténtalo de nuevo más tarde\./),
    ).toBeInTheDocument();
  });

  it('creates a role, shows Permisos En desarrollo..., and deletes after the confirmation', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      [LIST]: [200, { success: true, data: roles }],
      'POST /api/v1/super-admin/roles': [
        201,
        { success: true, message: 'Rol creado con éxito.', data: roles[2] },
      ],
      'DELETE /api/v1/super-admin/roles/9': [200, { success: true, message: 'Rol eliminado con éxito.' }],
    });
    renderPage();
    await screen.findByRole('heading', { name: 'soporte' });
    await user.click(screen.getByRole('button', { name: 'Crear rol' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear rol' });
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'ventas');
    await user.click(within(dialog).getByRole('button', { name: 'Crear rol' }));
    expect(await screen.findByText('Rol creado con éxito.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'ventas',
      description: null,
      color: '#7300ff',
    });

    const card = screen.getByRole('heading', { name: 'soporte' }).closest('li')!;
    await user.click(within(card).getByRole('button', { name: /^Configurar/ }));
    const permissions = await screen.findByRole('dialog', { name: 'Configurar soporte' });
    expect(permissions).toHaveTextContent('Permisos');
    expect(permissions).toHaveTextContent('En desarrollo...');
    await user.click(within(permissions).getByRole('button', { name: 'Cerrar' }));

    await user.click(within(card).getByRole('button', { name: /^Eliminar Rol/ }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Esta acción no se puede deshacer.');
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Rol eliminado con éxito.')).toBeInTheDocument();
  });

  it('explains a refused rename of a built-in role on the name field', async () => {
    const user = userEvent.setup();
    mockFetch({
      [LIST]: [200, { success: true, data: roles }],
      'PUT /api/v1/super-admin/roles/2': [
        409,
        {
          message: 'Los roles del sistema no se pueden renombrar.',
          errors: { name: ['Los roles del sistema no se pueden renombrar.'] },
        },
      ],
    });
    renderPage();
    const card = (await screen.findByRole('heading', { name: 'admin' })).closest('li')!;
    await user.click(within(card).getByRole('button', { name: /^Actualizar Rol/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Actualizar Rol' });
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveAttribute('readonly');
    expect(dialog).toHaveTextContent('El nombre de un rol del sistema no se puede cambiar.');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(
      await within(dialog).findByText('Los roles del sistema no se pueden renombrar.'),
    ).toBeInTheDocument();
  });

  it('shows the built-in roles seeded descriptions in English, keeps a typed one, and saves the seeded text back', async () => {
    await setupTestI18n('en');
    const user = userEvent.setup();
    const seeded = [
      { ...roles[0], description: 'Superadministrador' },
      { ...roles[1], description: 'Administrador de compañía' },
      { ...role(3, 'client', true, 0), description: 'Atiende a los clientes' },
    ];
    const api = mockFetch({
      [LIST]: [200, { success: true, data: seeded }],
      'PUT /api/v1/super-admin/roles/2': [200, { success: true, message: 'Role saved.', data: seeded[1] }],
    });
    renderPage();
    const admin = (await screen.findByRole('heading', { name: 'admin' })).closest('li')!;
    expect(admin).toHaveTextContent('Company administrator');
    expect(screen.getByRole('heading', { name: 'super_admin' }).closest('li')).toHaveTextContent(
      'Super administrator',
    );
    expect(document.body).not.toHaveTextContent(/Superadministrador|Administrador de compañía/);
    // A description the super admin typed is theirs: it shows as typed.
    expect(screen.getByRole('heading', { name: 'client' }).closest('li')).toHaveTextContent(
      'Atiende a los clientes',
    );

    await user.click(within(admin).getByRole('button', { name: /^Update Role/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Role' });
    expect(within(dialog).getByLabelText(/^Description/)).toHaveValue('Company administrator');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Role saved.')).toBeInTheDocument();
    // The unchanged description goes back as the server seeded it, not in the screen's language.
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toMatchObject({
      description: 'Administrador de compañía',
    });
  });
});
