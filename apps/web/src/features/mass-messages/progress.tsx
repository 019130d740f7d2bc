import type { MassMessage, MassMessageCounts } from '@hablabot/contract';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../components';
import { cx } from '../../components/lib/text';

/** Recipients that have left: sent, delivered or read (each recipient counts in its current state only). */
export function sentSoFar(counts: MassMessageCounts): number {
  return counts.sent + counts.delivered + counts.read;
}

/** Recipients whose turn is over, whatever the outcome. */
export function settled(counts: MassMessageCounts): number {
  return sentSoFar(counts) + counts.failed + counts.unknown + counts.cancelled + (counts.skipped ?? 0);
}

/** A send's state as a coloured badge. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <span className={cx('mm-status', `mm-status--${status}`)}>
      {t(`massMessages.status.${status}`, { defaultValue: status })}
    </span>
  );
}

/** 'n de N enviados' with a bar, then delivered, read and failed. */
export function SendProgress({ send }: { send: Pick<MassMessage, 'counts' | 'status'> }) {
  const { t, i18n } = useTranslation();
  const { counts } = send;
  const format = (n: number) => formatNumber(n, i18n.language);
  const done = sentSoFar(counts);
  const percent = counts.total > 0 ? Math.round((settled(counts) / counts.total) * 100) : 0;
  const label = t('massMessages.history.sentOf', {
    count: counts.total,
    sent: format(done),
    total: format(counts.total),
  });
  return (
    <div className="mm-progress">
      <div
        className="mm-progress__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={label}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <span className="mm-progress__text">{label}</span>
      <span className="mm-progress__facts">
        <span>
          {t('massMessages.history.delivered', {
            count: counts.delivered,
            formatted: format(counts.delivered),
          })}
        </span>
        <span>{t('massMessages.history.read', { count: counts.read, formatted: format(counts.read) })}</span>
        <span className={cx(counts.failed > 0 && 'mm-progress__failed')}>
          {t('massMessages.history.failed', { count: counts.failed, formatted: format(counts.failed) })}
        </span>
        {counts.unknown > 0 && (
          <span className="mm-progress__failed">
            {t('massMessages.history.unknown', { count: counts.unknown, formatted: format(counts.unknown) })}
          </span>
        )}
        {(counts.skipped ?? 0) > 0 && (
          <span>
            {t('massMessages.history.skipped', {
              count: counts.skipped,
              formatted: format(counts.skipped ?? 0),
            })}
          </span>
        )}
      </span>
    </div>
  );
}
