import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { getSession } from '../../lib/session';
import { jsonResponse, renderRoutes, setupTestI18n } from '../../test';
import LoginPage from './LoginPage';

const fetchMock = vi.fn<typeof fetch>();

const loginOk = (role: string) =>
  jsonResponse(200, {
    success: true,
    message: 'Inicio de sesión exitoso.',
    token: 'tok-1',
    user: { id: 3, name: 'Ana', email: 'ana@example.com', roles: [{ id: 1, name: role }] },
    language: 'es',
  });

function renderLogin() {
  return renderRoutes(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/register', element: <p>register screen</p> },
      { path: '/admin', element: <p>admin landing</p> },
      { path: '/client', element: <p>client landing</p> },
      { path: '/super-admin', element: <p>super admin landing</p> },
      { path: '/', element: <p>root</p> },
    ],
    '/login',
  );
}

async function submit(email = 'ana@example.com', password = 'secret') {
  const user = userEvent.setup();
  await user.type(screen.getByPlaceholderText('Enter email address'), email);
  await user.type(screen.getByPlaceholderText('Enter password'), password);
  await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
}

beforeEach(async () => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('LoginPage', () => {
  it('has labelled email and password fields with the fixed English placeholders and the links', () => {
    renderLogin();
    const email = screen.getByLabelText('Correo electrónico');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('placeholder', 'Enter email address');
    expect(screen.getByLabelText('Contraseña')).toHaveAttribute('placeholder', 'Enter password');
    expect(screen.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Regístrate' })).toHaveAttribute('href', '/register');
  });

  it('requires both fields before calling the server', async () => {
    renderLogin();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('El correo electrónico es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('La contraseña es obligatoria')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    // Switching language with the messages showing rewords them.
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('words a malformed email its own way and re-checks it as the user corrects it', async () => {
    renderLogin();
    const user = userEvent.setup();
    const email = screen.getByLabelText('Correo electrónico');
    await user.type(email, 'ana@');
    await user.type(screen.getByLabelText('Contraseña'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('Introduce un correo electrónico válido')).toBeInTheDocument();
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.type(email, 'example.com');
    await waitFor(() => expect(email).not.toHaveAttribute('aria-invalid'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['super_admin', 'super admin landing'],
    ['admin', 'admin landing'],
    ['client', 'client landing'],
  ])(
    'asks for the CSRF cookie, shows the message, then after 1 s stores the session (%s)',
    async (role, landing) => {
      fetchMock
        .mockResolvedValueOnce(new Response(null, { status: 204 }))
        .mockResolvedValueOnce(loginOk(role));
      renderLogin();
      await submit();

      expect(await screen.findByText('Inicio de sesión exitoso.')).toBeInTheDocument();
      expect(String(fetchMock.mock.calls[0][0])).toBe('/sanctum/csrf-cookie');
      expect(String(fetchMock.mock.calls[1][0])).toBe('/api/v1/auth/login');
      expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body))).toEqual({
        email: 'ana@example.com',
        password: 'secret',
      });
      // Not yet: sign-in waits one second before storing the session and leaving.
      expect(getSession()).toBeNull();

      expect(await screen.findByText(landing, {}, { timeout: 2500 })).toBeInTheDocument();
      expect(sessionStorage.getItem('token')).toBe('tok-1');
      expect(sessionStorage.getItem('rol')).toBe(role);
      expect(JSON.parse(sessionStorage.getItem('user') ?? '{}')).toMatchObject({ email: 'ana@example.com' });
    },
  );

  it('shows the server message on 401', async () => {
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(jsonResponse(401, { message: 'Credenciales inválidas' }));
    renderLogin();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Credenciales inválidas');
    expect(getSession()).toBeNull();
  });

  it("falls back to 'Invalid credentials' (translated) on a 401 without a message", async () => {
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(jsonResponse(401, {}));
    renderLogin();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Credenciales inválidas');
  });

  it('shows the server message or Server error on other failures', async () => {
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(jsonResponse(429, { message: 'Demasiados intentos.' }));
    renderLogin();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Demasiados intentos.');

    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(jsonResponse(500, {}));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Error del servidor'));
  });

  it('shows the connection error when the server does not answer', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderLogin();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Error de conexión. Por favor, inténtalo de nuevo.',
    );
  });

  it('shows the message, else Unknown error, when the answer has success false', async () => {
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(jsonResponse(200, { success: false }));
    renderLogin();
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Error desconocido');
    expect(getSession()).toBeNull();
  });
});
