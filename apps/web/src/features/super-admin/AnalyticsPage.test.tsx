import type { DailyMessages } from '@hablabot/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import AnalyticsPage from './AnalyticsPage';

function days(scale: number): DailyMessages[] {
  return Array.from({ length: 30 }, (_, i) => ({
    day: `2026-11-${String(i + 1).padStart(2, '0')}`,
    received: scale * 2,
    sent_by_admins: scale,
    sent_by_bots: i === 29 ? scale * 3 : 0,
    failed: i === 0 ? 1 : 0,
  }));
}
const answer = (companyId: number | null, scale: number) => ({
  data: { from: '2026-11-01', to: '2026-11-30', company_id: companyId, days: days(scale) },
});

beforeEach(async () => {
  await setupTestI18n('es');
  // jsdom draws no canvas: the chart stays empty; the figures are checked in the totals and the table.
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('AnalyticsPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the 30 days of every company, then of the company chosen', async () => {
    const api = mockFetch({
      'GET /api/v1/super-admin/analytics': (call) =>
        new Response(JSON.stringify(call.url.includes('company_id=7') ? answer(7, 1) : answer(null, 10)), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
      'GET /api/v1/super-admin/companies': [
        200,
        { data: [{ id: 7, name: 'Acme', created_at: '2026-11-01T00:00:00.000Z' }] },
      ],
    });
    const { container } = renderFeature(
      [{ path: '/super-admin/analytics', element: <AnalyticsPage /> }],
      '/super-admin/analytics',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Analítica' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('total-received')).toHaveTextContent('600'));
    expect(screen.getByTestId('total-sent_by_admins')).toHaveTextContent('300');
    expect(screen.getByTestId('total-sent_by_bots')).toHaveTextContent('30');
    expect(screen.getByTestId('total-failed')).toHaveTextContent('1');
    expect(screen.getAllByRole('row')).toHaveLength(31);
    expect(screen.getByRole('columnheader', { name: 'Enviados por bots' })).toBeInTheDocument();
    await expectNoSeriousA11yViolations(container);

    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Compañía'), 'Acme');
    await waitFor(() => expect(screen.getByTestId('total-received')).toHaveTextContent('60'));
    expect(api.calls.map((c) => c.url)).toContain('/api/v1/super-admin/analytics?company_id=7');
  });
});
