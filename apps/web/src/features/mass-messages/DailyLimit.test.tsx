import type { MassLimits } from '@hablabot/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, renderWithQuery, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import { DailyLimitNotice, limitSummary } from './DailyLimit';

const LIMITS: MassLimits = {
  throughput_level: 'HIGH',
  messaging_limit_tier: 'TIER_2K',
  quality_rating: 'GREEN',
  read_at: '2026-11-26T09:00:00.000Z',
  recipients: 1200,
  contacted_today: 900,
  daily_limit: 2000,
  over_limit: true,
  messages_per_second: 1000,
};

function Notice({ listId }: { listId: number | null }) {
  const [accept, setAccept] = useState(false);
  const [retry, setRetry] = useState(false);
  return (
    <DailyLimitNotice
      listId={listId}
      acceptOverflow={accept}
      onAcceptOverflow={setAccept}
      retryCapped={retry}
      onRetryCapped={setRetry}
    />
  );
}

/** The form before and after a list is chosen. */
function Picker() {
  const [listId, setListId] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setListId(3)}>
        Elegir lista
      </button>
      <Notice listId={listId} />
    </>
  );
}

beforeEach(() => {
  setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the daily limit in the send form', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('says the recipients, the customers reached today and the limit in one line', () => {
    const t = i18next.getFixedT('es');
    expect(limitSummary(LIMITS, t, 'es')).toBe(
      'Destinatarios: 1,200 · Ya contactados hoy: 900 · Límite diario: 2,000',
    );
    expect(limitSummary({ ...LIMITS, daily_limit: null }, i18next.getFixedT('en'), 'en')).toBe(
      'Recipients: 1,200 · Already contacted today: 900 · No daily limit',
    );
  });

  it('asks the server for the list’s numbers and offers to send up to the limit when over it', async () => {
    const api = mockFetch({ 'GET /api/v1/admin/mass-message-limits': [200, { data: LIMITS }] });
    renderWithQuery(<Notice listId={7} />);
    expect(
      await screen.findByText('Destinatarios: 1,200 · Ya contactados hoy: 900 · Límite diario: 2,000'),
    ).toBeVisible();
    expect(api.calls.map((c) => c.url)).toEqual(['/api/v1/admin/mass-message-limits?list_id=7']);
    const accept = screen.getByRole('checkbox', { name: /Enviar hasta el límite diario/ });
    await userEvent.setup().click(accept);
    expect(accept).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Reintentar 24 h después/ })).not.toBeChecked();
  });

  it('under the limit shows the numbers only, and nothing is asked before a list is chosen', async () => {
    const api = mockFetch({
      'GET /api/v1/admin/mass-message-limits': [
        200,
        { data: { ...LIMITS, recipients: 10, contacted_today: 0, over_limit: false } },
      ],
    });
    renderWithQuery(<Picker />);
    expect(api.calls).toHaveLength(0);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Elegir lista' }));
    expect(
      await screen.findByText('Destinatarios: 10 · Ya contactados hoy: 0 · Límite diario: 2,000'),
    ).toBeVisible();
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(screen.queryByRole('checkbox', { name: /Enviar hasta el límite diario/ })).toBeNull();
  });
});
