import type { AdminHomeSummary } from '@hablabot/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import { mockFetch, renderFeature, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import AdminHomePage from './AdminHomePage';

const counts = {
  total: 100,
  queued: 60,
  sending: 0,
  sent: 40,
  delivered: 0,
  read: 0,
  failed: 0,
  unknown: 0,
  cancelled: 0,
};
const busy: AdminHomeSummary = {
  unread_conversations: 1234,
  messages_today: 1,
  last_mass_send: {
    id: 3,
    name: 'Promo de otoño',
    status: 'sending',
    counts,
    scheduled_at: null,
    created_at: '2026-11-26T09:00:00.000Z',
  },
  live_bot: { id: 2, name: 'Sofía' },
};
const quiet: AdminHomeSummary = {
  unread_conversations: 0,
  messages_today: 0,
  last_mass_send: null,
  live_bot: null,
};

function renderPage() {
  setSession({ token: 't', user: { id: 1, name: 'Ana', email: 'ana@example.test' }, rol: 'admin' });
  return renderFeature([{ path: '/admin', element: <AdminHomePage /> }], '/admin');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AdminHomePage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the live figures beside the tiles: unread chats, today, the last send, the live bot', async () => {
    await setupTestI18n('es');
    const api = mockFetch({ 'GET /api/v1/admin/home-summary': [200, { data: busy }] });
    renderPage();
    expect(await screen.findByText(/^1\D?234 conversaciones sin leer$/)).toBeInTheDocument();
    expect(screen.getByText('1 mensaje hoy')).toBeInTheDocument();
    expect(screen.getByText('Último envío: Promo de otoño (enviando)')).toBeInTheDocument();
    expect(screen.getByText('Bot activo: Sofía')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Chat en vivo/ })).toHaveAccessibleName(
      /conversaciones sin leer/,
    );
    expect(api.calls.map((c) => c.url)).toContain('/api/v1/admin/home-summary');
  });

  it('says plainly when there is nothing, in English too', async () => {
    await setupTestI18n('en');
    mockFetch({ 'GET /api/v1/admin/home-summary': [200, { data: quiet }] });
    renderPage();
    expect(await screen.findByText('No unread conversations')).toBeInTheDocument();
    expect(screen.getByText('0 messages today')).toBeInTheDocument();
    expect(screen.getByText('No sends yet')).toBeInTheDocument();
    expect(screen.getByText('No bot is live')).toBeInTheDocument();
  });

  it('keeps the tiles as plain links when the figures cannot be read', async () => {
    await setupTestI18n('es');
    mockFetch({ 'GET /api/v1/admin/home-summary': [500, { message: 'x' }] });
    renderPage();
    expect(await screen.findByRole('link', { name: /Mensajes masivos/ })).toHaveAttribute(
      'href',
      '/admin/messages-massive',
    );
    expect(screen.queryByTestId('figure-chat')).not.toBeInTheDocument();
  });
});
