import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderRoutes, setupTestI18n } from '../../test';
import LoginPage from './LoginPage';
import RegisterPage from './RegisterPage';

const fetchMock = vi.fn<typeof fetch>();

function renderRegister() {
  return renderRoutes(
    [
      { path: '/register', element: <RegisterPage /> },
      { path: '/login', element: <LoginPage /> },
    ],
    '/register',
  );
}

async function fill() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Nombre'), 'Lucía Pérez');
  await user.type(screen.getByLabelText('Correo electrónico'), 'lucia@example.com');
  await user.type(screen.getByLabelText('Contraseña'), 'Secreta-2026');
  await user.click(screen.getByRole('button', { name: 'Registrarse' }));
}

beforeEach(async () => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RegisterPage', () => {
  it('keeps its labels in Spanish in both languages', async () => {
    await setupTestI18n('en');
    renderRegister();
    expect(screen.getByLabelText('Nombre')).toBeInTheDocument();
    expect(screen.getByLabelText('Correo electrónico')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Contraseña')).toHaveAttribute('type', 'password');
  });

  it('sends name, email and password and goes to /login with the server message', async () => {
    await setupTestI18n('es');
    fetchMock.mockResolvedValue(
      jsonResponse(201, { success: true, message: 'Usuario registrado correctamente.' }),
    );
    const { router } = renderRegister();
    await fill();
    expect(await screen.findByText('Usuario registrado correctamente.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/v1/auth/register');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({
      name: 'Lucía Pérez',
      email: 'lucia@example.com',
      password: 'Secreta-2026',
    });
  });

  it("shows a 422 per field and as a list under 'Por favor corrige los siguientes errores:'", async () => {
    await setupTestI18n('es');
    fetchMock.mockResolvedValue(
      jsonResponse(422, {
        message: 'El correo ya está registrado.',
        errors: { email: ['El correo ya está registrado.'], password: ['La contraseña es muy corta.'] },
      }),
    );
    const { router } = renderRegister();
    await fill();
    expect(await screen.findByText('Por favor corrige los siguientes errores:')).toBeInTheDocument();
    expect(screen.getByLabelText('Correo electrónico')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Contraseña')).toHaveAccessibleDescription('La contraseña es muy corta.');
    expect(screen.getAllByText('El correo ya está registrado.')).toHaveLength(2);
    expect(router.state.location.pathname).toBe('/register');
  });

  it('checks with the contract before calling the server (required fields, email, 10-character password)', async () => {
    await setupTestI18n('es');
    renderRegister();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Registrarse' }));
    expect(screen.getByLabelText('Nombre')).toHaveAccessibleDescription('El nombre es obligatorio');
    expect(screen.getByLabelText('Correo electrónico')).toHaveAccessibleDescription(
      'El correo electrónico es obligatorio',
    );
    expect(screen.getByLabelText('Contraseña')).toHaveAccessibleDescription('La contraseña es obligatoria');
    expect(screen.getByLabelText('Nombre')).toHaveFocus();

    await user.type(screen.getByLabelText('Correo electrónico'), 'lucia@');
    await user.type(screen.getByLabelText('Contraseña'), 'corta');
    await user.click(screen.getByRole('button', { name: 'Registrarse' }));
    expect(screen.getByLabelText('Correo electrónico')).toHaveAccessibleDescription(
      'Introduce un correo electrónico válido',
    );
    expect(screen.getByLabelText('Contraseña')).toHaveAccessibleDescription(
      'La contraseña debe tener al menos 10 caracteres',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a 409 (email already registered) on the email field, like a 422', async () => {
    await setupTestI18n('es');
    fetchMock.mockResolvedValue(jsonResponse(409, { message: 'El correo ya está registrado.' }));
    const { router } = renderRegister();
    await fill();
    const email = screen.getByLabelText('Correo electrónico');
    expect(await screen.findByText('El correo ya está registrado.')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('El correo ya está registrado.');
    expect(email).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });
});
