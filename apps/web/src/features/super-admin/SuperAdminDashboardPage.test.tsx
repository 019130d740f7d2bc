import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderFeature, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import SuperAdminDashboardPage from './SuperAdminDashboardPage';

function renderPage() {
  return renderFeature([{ path: '/super-admin', element: <SuperAdminDashboardPage /> }], '/super-admin');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SuperAdminDashboardPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  beforeEach(async () => {
    await setupTestI18n('es');
  });

  it('shows the figures the server counted, never fixed numbers', async () => {
    const api = mockFetch({
      'GET /api/v1/super-admin/overview': [
        200,
        { data: { messages_this_month: 12345, bot_interactions_today: 7, users: 42, companies: 3 } },
      ],
    });
    renderPage();
    await vi.waitFor(() => expect(screen.getByTestId('stat-messages')).toHaveTextContent(/^12\D?345$/));
    expect(screen.getByTestId('stat-interactions')).toHaveTextContent('7');
    expect(screen.getByTestId('stat-usersCount')).toHaveTextContent('42');
    expect(screen.getByTestId('stat-companies')).toHaveTextContent('3');
    expect(screen.getByText('mensajes este mes')).toBeInTheDocument();
    expect(api.calls.map((c) => c.url)).toContain('/api/v1/super-admin/overview');
  });

  it('says so when the figures cannot be read', async () => {
    mockFetch({ 'GET /api/v1/super-admin/overview': [500, { message: 'x' }] });
    renderPage();
    expect(await screen.findByText('No se pudieron cargar las cifras.')).toBeInTheDocument();
    expect(screen.getByTestId('stat-messages')).toHaveTextContent('—');
  });

  it('links every card to a screen of the area, and says plainly which one is not available yet', async () => {
    mockFetch({
      'GET /api/v1/super-admin/overview': [
        200,
        { data: { messages_this_month: 1, bot_interactions_today: 1, users: 1, companies: 1 } },
      ],
    });
    renderPage();
    const links = await screen.findAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Administrar usuarios', '/super-admin/users'],
      ['Administrar compañías', '/super-admin/companies'],
      ['Ver estadísticas', '/super-admin/analytics'],
    ]);
    const settings = screen.getByRole('heading', { name: 'Configuración' }).closest('li')!;
    expect(settings).toHaveTextContent('Aún no disponible');
  });
});
