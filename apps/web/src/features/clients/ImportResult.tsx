import type { ImportClientsResponse } from '@hablabot/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components';
import { AlertIcon, CheckCircleIcon, DownloadIcon } from '../../components/lib/icons';
import type { ParsedClientsCsv } from './csv';

/**
 * What an import did, row by row: 'Errores' (with the rows that failed to download as a CSV to fix and
 * import again) and 'Éxitos' (each client created or updated).
 */
export function ImportResult({
  result,
  parsed,
  fileName,
}: {
  result: ImportClientsResponse;
  parsed: ParsedClientsCsv;
  fileName: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errors = result.data?.error ?? [];
  const successes = result.data?.success ?? [];

  const downloadErrors = async () => {
    const { failedRowsCsv } = await import('./csv');
    const text = failedRowsCsv(parsed, errors, t('clients.import.reasonColumn'));
    const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${fileName.replace(/\.csv$/i, '')}-${t('clients.import.errorsFileSuffix')}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="clients-result">
      {result.message && <p className="clients-result__summary">{result.message}</p>}
      <section
        className="clients-result__group clients-result__group--error"
        aria-labelledby={`${id}-errors`}
      >
        <header className="clients-result__head">
          <AlertIcon size={18} />
          <h3 id={`${id}-errors`}>{t('clients.import.errorsTitle')}</h3>
          <span className="clients-result__count">{errors.length}</span>
        </header>
        {errors.length === 0 ? (
          <p className="clients-result__empty">{t('clients.import.noErrors')}</p>
        ) : (
          <ul className="clients-result__list" aria-labelledby={`${id}-errors`}>
            {errors.map((entry, index) => (
              <li key={`${entry.row ?? index}-${entry.name}`}>
                <span className="clients-result__name">{entry.name}</span>
                {typeof entry.row === 'number' && (
                  <span className="clients-result__row">
                    {t('clients.import.rowLabel', { row: entry.row })}
                  </span>
                )}
                <span className="clients-result__reason">{entry.message}</span>
              </li>
            ))}
          </ul>
        )}
        {errors.some((entry) => typeof entry.row === 'number') && (
          <div className="clients-result__actions">
            <Button size="sm" variant="secondary" onClick={downloadErrors}>
              <DownloadIcon size={14} />
              {t('clients.import.downloadErrors')}
            </Button>
          </div>
        )}
      </section>
      <section
        className="clients-result__group clients-result__group--success"
        aria-labelledby={`${id}-successes`}
      >
        <header className="clients-result__head">
          <CheckCircleIcon size={18} />
          <h3 id={`${id}-successes`}>{t('clients.import.successTitle')}</h3>
          <span className="clients-result__count">{successes.length}</span>
        </header>
        {successes.length === 0 ? (
          <p className="clients-result__empty">{t('clients.import.noSuccess')}</p>
        ) : (
          <ul className="clients-result__list" aria-labelledby={`${id}-successes`}>
            {successes.map((entry, index) => (
              <li key={`${entry.row ?? index}-${entry.name}`}>
                <span className="clients-result__name">{entry.name}</span>
                {entry.action && (
                  <span className={`clients-result__tag clients-result__tag--${entry.action}`}>
                    {entry.action === 'updated' ? t('clients.import.updated') : t('clients.import.created')}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
