import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The status filter of the sends' history and of a send's report: a labelled select whose first option
 * is every status; each status is named by its `massMessages.status.*` text.
 */
export function StatusFilter<S extends string>({
  label,
  statuses,
  value,
  onChange,
}: {
  label: string;
  statuses: readonly S[];
  value: S | '';
  onChange: (status: S | '') => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <>
      <label className="mm-toolbar__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="hb-input mm-toolbar__select"
        value={value}
        onChange={(event) => onChange(event.target.value as S | '')}
      >
        <option value="">{t('massMessages.report.allStatuses')}</option>
        {statuses.map((option) => (
          <option key={option} value={option}>
            {t(`massMessages.status.${option}`)}
          </option>
        ))}
      </select>
    </>
  );
}
