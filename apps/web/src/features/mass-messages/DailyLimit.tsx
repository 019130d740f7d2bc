import type { MassLimits } from '@hablabot/contract';
import { massMessagesApi } from '@hablabot/contract/api';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';
import { intlLocale } from '../../lib/i18n';

/** GET /admin/mass-message-limits?list_id=: the number's daily limit against a send to the list. */
export function useMassLimits(listId: number | null, options: { enabled?: boolean } = {}) {
  return useQuery({
    enabled: options.enabled ?? true,
    queryKey: ['mass-messages', 'limits', listId ?? 0] as const,
    queryFn: ({ signal }) =>
      call(massMessagesApi.limits, { query: listId ? { list_id: listId } : {} }, { signal }),
  });
}

/**
 * The numbers of a send against the number's daily limit, in one line: 'Destinatarios: 1,200 · Ya
 * contactados hoy: 900 · Límite diario: 2,000' (no limit known: 'Sin límite diario').
 */
export function limitSummary(limits: MassLimits, t: TFunction, language: string): string {
  const n = (value: number) => new Intl.NumberFormat(intlLocale(language)).format(value);
  return [
    t('massMessages.limits.recipients', { value: n(limits.recipients) }),
    t('massMessages.limits.contacted', { value: n(limits.contacted_today) }),
    limits.daily_limit === null
      ? t('massMessages.limits.noLimit')
      : t('massMessages.limits.limit', { value: n(limits.daily_limit) }),
  ].join(' · ');
}

/**
 * Under the send form: the list's recipients, the customers the number already reached today and its
 * daily limit; over the limit, the admin may accept sending up to it and going on by itself when the
 * 24-hour window frees room. And whether a recipient Meta refuses for its marketing cap (131049) is
 * tried once more a day later.
 */
export function DailyLimitNotice(props: {
  listId: number | null;
  acceptOverflow: boolean;
  onAcceptOverflow: (accept: boolean) => void;
  retryCapped: boolean;
  onRetryCapped: (retry: boolean) => void;
  /** The server's field message on `accept_tier_overflow`. */
  error?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const limits = useMassLimits(props.listId, { enabled: props.listId !== null });
  const data = limits.data?.data;
  return (
    <div className="mm-limits" data-testid="mass-limits">
      {data && props.listId && (
        <p className={data.over_limit ? 'mm-limits__over' : 'mm-muted'} aria-live="polite">
          {limitSummary(data, t, i18n.language)}
        </p>
      )}
      {data?.over_limit && props.listId && (
        <label className="mm-limits__check" htmlFor={`${id}-overflow`}>
          <input
            id={`${id}-overflow`}
            type="checkbox"
            checked={props.acceptOverflow}
            onChange={(event) => props.onAcceptOverflow(event.target.checked)}
          />{' '}
          {t('massMessages.limits.acceptOverflow')}
        </label>
      )}
      {props.error && (
        <p className="hb-field__error" role="alert">
          {props.error}
        </p>
      )}
      <label className="mm-limits__check" htmlFor={`${id}-retry`}>
        <input
          id={`${id}-retry`}
          type="checkbox"
          checked={props.retryCapped}
          onChange={(event) => props.onRetryCapped(event.target.checked)}
        />{' '}
        {t('massMessages.limits.retryCapped')}
      </label>
    </div>
  );
}
