import { tierLimit } from '@hablabot/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../lib/i18n';
import { formatDateTime } from '../mass-messages/schedule';
import { useMassLimits } from '../mass-messages/DailyLimit';

/**
 * What Meta says of the company's number, read-only: its throughput (the mass sends' pace), its daily
 * limit of customers reached and its quality, as read at the last connection test or daily read.
 * `tested` changes when a connection test ends, so the figures it just read show at once.
 */
export function NumberLimits({ tested }: { tested: unknown }) {
  const { t, i18n } = useTranslation();
  const limits = useMassLimits(null);
  const { refetch } = limits;
  useEffect(() => {
    if (tested) void refetch();
  }, [tested, refetch]);
  const data = limits.data?.data;
  if (!data) return null;
  if (!data.read_at)
    return (
      <p className="settings-card__description" data-testid="number-limits">
        {t('settings.whatsapp.limits.unread')}
      </p>
    );
  const n = (value: number) => new Intl.NumberFormat(intlLocale(i18n.language)).format(value);
  const limit = tierLimit(data.messaging_limit_tier);
  const known = (group: string, value: string | null) =>
    value && i18n.exists(`settings.whatsapp.limits.${group}.${value}`)
      ? t(`settings.whatsapp.limits.${group}.${value}`)
      : (value ?? t('settings.whatsapp.limits.unknown'));
  return (
    <dl className="settings-limits" data-testid="number-limits">
      <dt>{t('settings.whatsapp.limits.throughput')}</dt>
      <dd>
        {known('levels', data.throughput_level)} ·{' '}
        {t('settings.whatsapp.limits.pace', { value: n(data.messages_per_second) })}
      </dd>
      <dt>{t('settings.whatsapp.limits.tier')}</dt>
      <dd>
        {limit === null && data.messaging_limit_tier
          ? t('settings.whatsapp.limits.unlimited')
          : limit === null
            ? t('settings.whatsapp.limits.unknown')
            : t('settings.whatsapp.limits.perDay', { value: n(limit) })}
      </dd>
      <dt>{t('settings.whatsapp.limits.qualityLabel')}</dt>
      <dd>{known('quality', data.quality_rating)}</dd>
      <dt>{t('settings.whatsapp.limits.readAt')}</dt>
      <dd>{formatDateTime(data.read_at, i18n.language)}</dd>
    </dl>
  );
}
