import { DEFAULT_BUSINESS_HOURS } from '@hablabot/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import {
  expectNoSeriousA11yViolations,
  jsonResponse,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import BusinessHoursPage from './BusinessHoursPage';

const SAVED = {
  ...DEFAULT_BUSINESS_HOURS,
  timezone: 'America/Bogota',
  days: [{ day: 1, open: '09:00', close: '18:00' }],
  holidays: ['2026-12-25'],
  configured: true,
};

function routes() {
  return mockFetch({
    'GET /api/v1/admin/business-hours': [200, { data: SAVED }],
    'PUT /api/v1/admin/business-hours': (call) =>
      jsonResponse(200, {
        message: 'Horario de atención guardado.',
        data: { ...(call.body as object), configured: true },
      }),
  });
}

function renderPage() {
  return renderFeature(
    [{ path: '/admin/setting/business-hours', element: <BusinessHoursPage /> }],
    '/admin/setting/business-hours',
  );
}

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({ token: 't', rol: 'admin', user: { id: 1, name: 'Ana', email: 'ana@acme.test' } });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const puts = (api: ReturnType<typeof routes>) => api.calls.filter((c) => c.method === 'PUT');

describe('BusinessHoursPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the saved week, adds a second range and a holiday, and saves the body the API takes', async () => {
    const user = userEvent.setup();
    const api = routes();
    const { container } = renderPage();
    expect(await screen.findByLabelText(/^Zona horaria/)).toHaveValue('America/Bogota');
    expect(screen.getByLabelText('Abre (Lunes)')).toHaveValue('09:00');
    expect(screen.getAllByText('Cerrado')).toHaveLength(6);

    await user.click(screen.getByRole('button', { name: 'Añadir horario el Martes' }));
    await user.click(screen.getByRole('button', { name: 'Añadir feriado' }));
    await user.type(screen.getByLabelText('Feriado 2'), '2027-01-01');
    await user.click(
      screen.getByRole('checkbox', { name: /Enviar el mensaje de ausencia fuera de horario/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Guardar horario' }));

    expect(await screen.findByText('Horario de atención guardado.')).toBeInTheDocument();
    expect(puts(api)[0].body).toEqual({
      timezone: 'America/Bogota',
      days: [
        { day: 1, open: '09:00', close: '18:00' },
        { day: 2, open: '09:00', close: '18:00' },
      ],
      holidays: ['2026-12-25', '2027-01-01'],
      away_enabled: true,
      away_message: DEFAULT_BUSINESS_HOURS.away_message,
      away_with_bot: false,
    });
    await expectNoSeriousA11yViolations(container);
  });

  it('refuses a range that closes before it opens, overlapping ranges and a bad zone, before sending', async () => {
    const user = userEvent.setup();
    const api = routes();
    renderPage();
    const zone = await screen.findByLabelText(/^Zona horaria/);
    await user.clear(zone);
    await user.type(zone, 'Marte/Olimpo');
    await user.clear(screen.getByLabelText('Cierra (Lunes)'));
    await user.type(screen.getByLabelText('Cierra (Lunes)'), '08:00');
    await user.click(screen.getByRole('button', { name: 'Añadir horario el Miércoles' }));
    await user.click(screen.getByRole('button', { name: 'Añadir horario el Miércoles' }));
    await user.click(screen.getByRole('button', { name: 'Guardar horario' }));

    expect(
      await screen.findByText('La zona horaria no es válida (por ejemplo America/Bogota).'),
    ).toBeInTheDocument();
    expect(screen.getByText('La hora de cierre debe ser posterior a la de apertura.')).toBeInTheDocument();
    expect(screen.getByText('Este horario se superpone con otro del mismo día.')).toBeInTheDocument();
    expect(puts(api)).toHaveLength(0);
  });

  it("shows the server's 422 on its field", async () => {
    const user = userEvent.setup();
    const api = routes();
    api.set('PUT /api/v1/admin/business-hours', [
      422,
      {
        message: 'Los datos no son válidos.',
        errors: { timezone: ['La zona horaria no es válida (por ejemplo America/Bogota).'] },
      },
    ]);
    renderPage();
    await screen.findByLabelText(/^Zona horaria/);
    await user.click(screen.getByRole('button', { name: 'Guardar horario' }));
    const field = screen.getByLabelText(/^Zona horaria/).closest('.hb-field') as HTMLElement;
    expect(
      await within(field).findByText('La zona horaria no es válida (por ejemplo America/Bogota).'),
    ).toBeInTheDocument();
  });
});
