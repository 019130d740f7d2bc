import type { WebhookDelivery } from '@hablabot/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import FailedWebhooksPage from './FailedWebhooksPage';

const failed: WebhookDelivery = {
  id: 41,
  received_at: '2026-11-24T09:30:00.000Z',
  status: 'failed',
  attempts: 6,
  last_error: 'database is locked',
  company: { id: 7, name: 'Acme' },
  summary: { messages: 1, statuses: 2 },
};
const page = (data: WebhookDelivery[]) => ({
  data,
  pagination: { current_page: 1, per_page: 100, total: data.length, last_page: 1 },
});

function renderPage() {
  return renderFeature(
    [{ path: '/super-admin/webhooks', element: <FailedWebhooksPage /> }],
    '/super-admin/webhooks',
  );
}

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('FailedWebhooksPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists failed deliveries with company, content, attempts and error, and replays one', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      'GET /api/v1/super-admin/webhook-deliveries': [200, page([failed])],
      'POST /api/v1/super-admin/webhook-deliveries/41/replay': [
        200,
        { message: 'Entrega reintentada.', data: { ...failed, status: 'done', attempts: 7 } },
      ],
    });
    const { container } = renderPage();
    expect(screen.getByRole('heading', { name: 'Webhooks fallidos' })).toBeInTheDocument();
    const row = (await screen.findByText('database is locked')).closest('tr')!;
    expect(row).toHaveTextContent('Acme');
    expect(row).toHaveTextContent('1 mensaje, 2 estados');
    expect(row).toHaveTextContent('6');
    expect(api.calls[0]!.url).toBe('/api/v1/super-admin/webhook-deliveries?status=failed');
    await expectNoSeriousA11yViolations(container);

    api.set('GET /api/v1/super-admin/webhook-deliveries', [200, page([])]);
    await user.click(within(row).getByRole('button', { name: 'Reintentar la entrega 41' }));
    expect(await screen.findByText('Entrega reintentada.')).toBeInTheDocument();
    expect(
      await screen.findByText('No hay webhooks fallidos: todo lo recibido se procesó.'),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('says so when a replayed delivery fails again', async () => {
    const user = userEvent.setup();
    mockFetch({
      'GET /api/v1/super-admin/webhook-deliveries': [200, page([failed])],
      'POST /api/v1/super-admin/webhook-deliveries/41/replay': [
        200,
        { message: 'Entrega reintentada.', data: { ...failed, attempts: 7, last_error: 'still locked' } },
      ],
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reintentar la entrega 41' }));
    expect(await screen.findByText(/La entrega volvió a fallar: still locked/)).toBeInTheDocument();
  });
});
