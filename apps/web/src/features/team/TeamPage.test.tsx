import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import { expectNoSeriousA11yViolations, renderFeature, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import TeamPage from './TeamPage';
import { ana, teamRoutes } from './test-fixtures';

function renderPage() {
  return renderFeature([{ path: '/admin/team', element: <TeamPage /> }], '/admin/team');
}

const membersTable = () => screen.getByRole('table', { name: 'Miembros del equipo' });

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({
    token: 't',
    rol: 'admin',
    user: { id: ana.id, name: ana.name, email: ana.email, roles: [{ id: 2, name: 'admin' }] },
  });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TeamPage: members', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists the members from the API: name, email, role, open conversations and presence', async () => {
    teamRoutes();
    const { container } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Equipo' })).toBeInTheDocument();
    const table = membersTable();
    for (const header of ['Nombre', 'Correo', 'Rol', 'Chats abiertos', 'Estado'])
      expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeInTheDocument();
    const beto = (await within(table).findByText('Beto Agente')).closest('tr')!;
    expect(beto).toHaveTextContent('beto@example.com');
    expect(beto).toHaveTextContent('Agente');
    expect(beto).toHaveTextContent('7');
    expect(beto).toHaveTextContent('En línea');
    const anaRow = within(table).getByText('Ana Admin').closest('tr')!;
    expect(anaRow).toHaveTextContent('Administrador');
    expect(anaRow).toHaveTextContent('Desconectado');
    // Nobody deletes themself.
    expect(within(anaRow).getByRole('button', { name: 'Eliminar a Ana Admin' })).toBeDisabled();
    await expectNoSeriousA11yViolations(container);
  });

  it("'Nuevo miembro' sends name, email, password and role, and shows a taken email (409) on the email field", async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    await within(membersTable()).findByText('Beto Agente');
    await user.click(screen.getByRole('button', { name: 'Nuevo miembro' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo miembro' });
    await user.click(within(dialog).getByRole('button', { name: 'Crear miembro' }));
    expect(await within(dialog).findByText('El campo nombre es obligatorio.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    api.set('POST /api/v1/admin/team', [409, { message: 'El correo ya está registrado.' }]);
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Dora Agente');
    await user.type(within(dialog).getByLabelText(/^Correo/), 'dora@example.com');
    expect(within(dialog).getByLabelText(/^Rol/)).toHaveValue('agent');
    await user.type(within(dialog).getByLabelText(/^Contraseña/), 'Zorro-Azul-2026!');
    await user.click(within(dialog).getByRole('button', { name: 'Crear miembro' }));
    const email = within(dialog).getByLabelText(/^Correo/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('El correo ya está registrado.');
    expect(api.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Dora Agente',
      email: 'dora@example.com',
      password: 'Zorro-Azul-2026!',
      role: 'agent',
    });

    api.set('POST /api/v1/admin/team', [201, { message: 'Miembro creado con éxito.', data: ana }]);
    await user.clear(email);
    await user.type(email, 'dora2@example.com');
    await user.selectOptions(within(dialog).getByLabelText(/^Rol/), 'Administrador');
    await user.click(within(dialog).getByRole('button', { name: 'Crear miembro' }));
    expect(await screen.findByText('Miembro creado con éxito.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Nuevo miembro' })).toBeNull();
    expect(api.calls.filter((c) => c.method === 'POST')[1].body).toMatchObject({
      email: 'dora2@example.com',
      role: 'admin',
    });
  });

  it('edits a member without a password unless one is typed', async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Editar a Beto Agente' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar miembro' });
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveValue('Beto Agente');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Miembro actualizado con éxito.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'PUT')!.body).toEqual({
      name: 'Beto Agente',
      email: 'beto@example.com',
      role: 'agent',
    });
  });

  it('deletes only after the confirmation, and shows the server refusal (the last admin)', async () => {
    const user = userEvent.setup();
    const api = teamRoutes();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Eliminar a Carla Agente' }));
    let confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('Carla Agente dejará de tener acceso');
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Eliminar a Carla Agente' }));
    confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Miembro eliminado con éxito.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      '/api/v1/admin/team/3',
    ]);

    api.set('DELETE /api/v1/admin/team/2', [
      409,
      { message: 'La compañía debe conservar un administrador.' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Eliminar a Beto Agente' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByText(/La compañía debe conservar un administrador\./)).toBeInTheDocument();
  });
});
