import type { WebhookDelivery } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
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
    expect(api.calls[0]!.url).toBe('/api/v1/super-admin/webhook-deliveries?status=failed&page=1&per_page=50');
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

  it('pages the failed deliveries on the server, and steps back when replays empty the last page', async () => {
    const user = userEvent.setup();
    // The failed deliveries, newest first: ids 120 … 1.
    let failedIds = Array.from({ length: 120 }, (_, i) => 120 - i);
    const delivery = (id: number): WebhookDelivery => ({ ...failed, id, last_error: `error ${id}` });
    const api = mockFetch({
      'POST /api/v1/super-admin/webhook-deliveries/1/replay': [
        200,
        { message: 'Entrega reintentada.', data: { ...delivery(1), status: 'done' } },
      ],
      'GET /api/v1/super-admin/webhook-deliveries': (call) => {
        const query = new URL(call.url, 'http://x').searchParams;
        const per = Number(query.get('per_page'));
        const n = Number(query.get('page'));
        const total = failedIds.length;
        const last = Math.max(1, Math.ceil(total / per));
        const ids = failedIds.slice((n - 1) * per, n * per);
        return new Response(
          JSON.stringify({
            data: ids.map(delivery),
            pagination: { current_page: n, per_page: per, total, last_page: last },
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      },
    });
    renderPage();
    expect(await screen.findByText('error 120')).toBeInTheDocument();
    expect(screen.getByText('Entregas fallidas: 120, las más recientes primero.')).toBeInTheDocument();
    expect(screen.queryByText('error 70')).toBeNull();
    await user.click(screen.getByRole('button', { name: /siguiente/i }));
    expect(await screen.findByText('error 70')).toBeInTheDocument();
    expect(screen.queryByText('error 120')).toBeNull();
    await user.click(screen.getByRole('button', { name: /siguiente/i }));
    expect(await screen.findByText('error 20')).toBeInTheDocument();
    expect(screen.getByText('error 1')).toBeInTheDocument();
    const urls = api.calls.map((c) => c.url);
    expect(urls).toContain('/api/v1/super-admin/webhook-deliveries?status=failed&page=2&per_page=50');
    expect(urls).toContain('/api/v1/super-admin/webhook-deliveries?status=failed&page=3&per_page=50');
    // The last page's rows are replayed (the others elsewhere): that page is gone, the one before shows.
    failedIds = failedIds.filter((id) => id > 20);
    await user.click(screen.getByRole('button', { name: 'Reintentar la entrega 1' }));
    expect(await screen.findByText('error 50')).toBeInTheDocument();
    // The emptied page's rows go with the step back (the page before may show from the cache first).
    await waitFor(() => expect(screen.queryByText('error 1')).toBeNull());
    expect(await screen.findByText('Entregas fallidas: 100, las más recientes primero.')).toBeInTheDocument();
  });
});
