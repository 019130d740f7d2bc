import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession, setSession } from '../lib/session';
import { mockFetch, renderRoutes, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../test';
import { UserMenu } from './UserMenu';

const me = {
  id: 5,
  name: 'Ana López',
  email: 'ana@example.com',
  company_id: 2,
  language: 'es' as const,
  roles: [],
};

function renderMenu() {
  return renderRoutes([{ path: '/admin', element: <UserMenu homePath="/admin" /> }], '/admin');
}

async function openAccount() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
  await user.click(screen.getByRole('button', { name: 'Mi cuenta' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Mi cuenta' }) };
}

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({ token: 't', user: me, rol: 'admin' });
});
afterEach(async () => {
  clearSession();
  await setupTestI18n('es');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Mi cuenta', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('changes the name and language and keeps the session up to date', async () => {
    const api = mockFetch({
      'PUT /api/v1/account': () =>
        new Response(
          JSON.stringify({
            success: true,
            message: 'Your account was updated successfully.',
            user: { ...me, name: 'Ana María', language: 'en' },
          }),
          { status: 200, headers: { 'Content-Type': 'application/json' } },
        ),
    });
    renderMenu();
    const { user, dialog } = await openAccount();
    expect(within(dialog).queryByLabelText(/Contraseña actual/)).toBeNull();
    const name = within(dialog).getByLabelText(/^Nombre/);
    await user.clear(name);
    await user.type(name, 'Ana María');
    await user.selectOptions(within(dialog).getByLabelText(/^Idioma/), 'en');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Your account was updated successfully.')).toBeInTheDocument();
    expect(api.calls[0].body).toEqual({ name: 'Ana María', language: 'en' });
    expect(getSession()?.user).toMatchObject({ name: 'Ana María', language: 'en' });
  });

  it('asks for the current password with a new one and shows the server’s refusal on it', async () => {
    const api = mockFetch({
      'PUT /api/v1/account': [
        422,
        {
          message: 'La contraseña actual no es correcta.',
          errors: { current_password: ['La contraseña actual no es correcta.'] },
        },
      ],
    });
    renderMenu();
    const { user, dialog } = await openAccount();
    await user.click(within(dialog).getByLabelText('¿Desea actualizar la contraseña?'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText(/contraseña actual es obligatorio/)).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/^Contraseña actual/), 'old-pass-1234');
    await user.type(within(dialog).getByLabelText(/^Nueva contraseña/), 'Zorro-Azul-2026!');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(
      (await within(dialog).findAllByText('La contraseña actual no es correcta.')).length,
    ).toBeGreaterThan(0);
    expect(api.calls[0].body).toEqual({
      name: 'Ana López',
      language: 'es',
      current_password: 'old-pass-1234',
      password: 'Zorro-Azul-2026!',
    });
  });
});
