import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, setSession } from '../lib/session';
import { jsonResponse, renderRoutes, setupTestI18n } from '../test';
import { UserMenu } from './UserMenu';

const fetchMock = vi.fn<typeof fetch>();

function renderMenu() {
  return renderRoutes(
    [
      { path: '/admin', element: <UserMenu homePath="/admin" /> },
      { path: '/', element: <p>public root</p> },
    ],
    '/admin',
  );
}

beforeEach(async () => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('UserMenu', () => {
  it('shows initials, name, email and the admin home link', async () => {
    setSession({ token: 't', user: { id: 1, name: 'Ana López', email: 'ana@example.com' }, rol: 'admin' });
    renderMenu();
    expect(screen.getByTestId('user-initials')).toHaveTextContent('AL');
    const button = screen.getByRole('button', { name: /Menú de usuario/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup().click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByText('Ana López').length).toBeGreaterThan(0);
    expect(screen.getByText('ana@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Inicio de administración' })).toHaveAttribute('href', '/admin');
  });

  it("shows '?' when the user has no name", () => {
    setSession({ token: 't', user: { id: 1, name: null, email: 'x@example.com' }, rol: 'admin' });
    renderMenu();
    expect(screen.getByTestId('user-initials')).toHaveTextContent('?');
  });

  it('logs out on 200 with success: clears the session and goes to /', async () => {
    setSession({ token: 't', user: { id: 1, name: 'Ana', email: 'a@x.io' }, rol: 'admin' });
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, message: 'Sesión cerrada.' }));
    const { router } = renderMenu();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
    await user.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    expect(await screen.findByText('public root')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(getSession()).toBeNull();
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/v1/auth/logout');
    expect(new Headers(fetchMock.mock.calls[0][1]?.headers).get('Authorization')).toBe('Bearer t');
  });

  it('only logs a logout that is not confirmed', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    setSession({ token: 't', user: { id: 1, name: 'Ana', email: 'a@x.io' }, rol: 'admin' });
    fetchMock.mockResolvedValue(jsonResponse(200, { success: false }));
    const { router } = renderMenu();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Menú de usuario/ }));
    await user.click(screen.getByRole('button', { name: 'Cerrar sesión' }));
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    expect(getSession()).not.toBeNull();
    expect(router.state.location.pathname).toBe('/admin');
  });
});
