import type { ConnectionTestResponse } from '@hablabot/contract';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components';
import { AlertIcon } from '../../components/lib/icons';
import { isApiError } from '../../lib/api-client';
import { CheckIcon, PlugIcon } from './icons';

export interface ConnectionTestProps {
  /** The section's name, for the button's accessible name ('Probar conexión con WhatsApp'). */
  service: string;
  onTest: () => void;
  pending: boolean;
  result: ConnectionTestResponse | undefined;
  error: unknown;
}

/** Text of a failed test call (not a failed connection: the call itself did not work). */
function callErrorText(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status === 0 || error.status >= 500) return fallback;
  return error.errorList.join(' ') || error.serverMessage || fallback;
}

/** 'Probar conexión' and its outcome in plain words, green or red. */
export function ConnectionTest({ service, onTest, pending, result, error }: ConnectionTestProps) {
  const { t } = useTranslation();
  const failed = Boolean(error) || (result && !result.success);
  const text = error ? callErrorText(error, t('settings.test.error')) : result?.message;
  return (
    <div className="settings-test">
      <Button onClick={onTest} busy={pending} aria-label={t('settings.test.buttonFor', { service })}>
        <PlugIcon size={16} />
        {pending ? t('settings.test.running') : t('settings.test.button')}
      </Button>
      <div className="settings-test__result" role="status" aria-live="polite">
        {text && !pending && (
          <p
            className={`settings-test__message settings-test__message--${failed ? 'error' : 'success'}`}
            data-problem={result?.problem ?? undefined}
          >
            {failed ? <AlertIcon size={16} /> : <CheckIcon size={16} />}
            <span>{text}</span>
          </p>
        )}
      </div>
    </div>
  );
}
