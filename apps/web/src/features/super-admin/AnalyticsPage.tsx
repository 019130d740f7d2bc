import { superAdminApi } from '@hablabot/contract/api';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingOverlay, MessageBox } from '../../components';
import { call } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';
import { useDocumentTitle } from '../../lib/use-document-title';
import { superAdminKeys, useCompanies, useUiLanguage } from './api';
import type { ChartSeries } from './MessagesChart';
import './super-admin.css';

// The chart library is fetched with this screen's chart only, never with another route.
const MessagesChart = lazy(() => import('./MessagesChart'));

const SERIES_COLORS = {
  received: '#2563eb',
  sent_by_admins: '#16a34a',
  sent_by_bots: '#7300ff',
  failed: '#dc2626',
} as const;
const SERIES_KEYS = Object.keys(SERIES_COLORS) as (keyof typeof SERIES_COLORS)[];

/** 'Analítica': messages per day over the last 30 days, for every company or one. */
export default function AnalyticsPage() {
  const { t } = useTranslation();
  const language = useUiLanguage();
  const [companyId, setCompanyId] = useState('');
  const companies = useCompanies();
  const query = useQuery({
    queryKey: [...superAdminKeys.all, 'analytics', language, companyId] as const,
    queryFn: ({ signal }) =>
      call(
        superAdminApi.analytics,
        { query: companyId ? { company_id: companyId } : undefined },
        { signal, language },
      ),
    placeholderData: (previous) => previous,
  });
  useDocumentTitle(t('superAdmin.analytics.title'));

  const numbers = useMemo(() => new Intl.NumberFormat(intlLocale(language)), [language]);
  const dayFormat = useMemo(
    () => new Intl.DateTimeFormat(intlLocale(language), { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    [language],
  );
  const formatDay = useCallback((day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`)), [dayFormat]);
  const series = useMemo<ChartSeries[]>(
    () =>
      SERIES_KEYS.map((key) => ({
        key,
        label: t(`superAdmin.analytics.series.${key}`),
        color: SERIES_COLORS[key],
      })),
    [t],
  );
  const days = query.data?.data.days ?? [];
  const totals = SERIES_KEYS.map((key) => ({ key, total: days.reduce((n, d) => n + d[key], 0) }));

  return (
    <div className="page sa-page">
      <header className="page-header sa-header">
        <div>
          <h1 className="page-header__title">{t('superAdmin.analytics.title')}</h1>
          <p className="page-header__subtitle">{t('superAdmin.analytics.subtitle')}</p>
        </div>
        <label className="sa-select">
          <span>{t('superAdmin.analytics.company')}</span>
          <select
            className="hb-input"
            value={companyId}
            onChange={(event) => setCompanyId(event.target.value)}
          >
            <option value="">{t('superAdmin.analytics.allCompanies')}</option>
            {(companies.data?.data ?? []).map((company) => (
              <option key={company.id} value={String(company.id)}>
                {company.name}
              </option>
            ))}
          </select>
        </label>
      </header>
      {query.isError && <MessageBox type="error" message={t('superAdmin.analytics.loadError')} />}
      <ul className="sa-totals" aria-label={t('superAdmin.analytics.totals')}>
        {totals.map(({ key, total }) => (
          <li key={key} className="sa-total" style={{ borderColor: SERIES_COLORS[key] }}>
            <span className="sa-total__label">{t(`superAdmin.analytics.series.${key}`)}</span>
            <strong className="sa-total__value" data-testid={`total-${key}`}>
              {query.data ? numbers.format(total) : '…'}
            </strong>
          </li>
        ))}
      </ul>
      <section className="sa-chart-card" aria-labelledby="analytics-chart">
        <h2 id="analytics-chart" className="sa-section-title">
          {t('superAdmin.analytics.chartTitle')}
        </h2>
        <div style={{ position: 'relative' }}>
          <Suspense fallback={<div className="sa-chart" />}>
            <MessagesChart
              days={days}
              series={series}
              formatDay={formatDay}
              label={t('superAdmin.analytics.chartTitle')}
            />
          </Suspense>
          {query.isFetching && <LoadingOverlay />}
        </div>
        <details className="sa-chart-data">
          <summary>{t('superAdmin.analytics.showData')}</summary>
          <div className="sa-table-scroll">
            <table className="sa-table">
              <caption className="sr-only">{t('superAdmin.analytics.chartTitle')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('superAdmin.analytics.day')}</th>
                  {SERIES_KEYS.map((key) => (
                    <th key={key} scope="col">
                      {t(`superAdmin.analytics.series.${key}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {days.map((d) => (
                  <tr key={d.day}>
                    <th scope="row">{formatDay(d.day)}</th>
                    {SERIES_KEYS.map((key) => (
                      <td key={key}>{numbers.format(d[key])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </section>
    </div>
  );
}
