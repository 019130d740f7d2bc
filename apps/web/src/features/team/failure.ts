import type { TFunction } from 'i18next';
import { isApiError } from '../../lib/api-client';

/**
 * What a refused or failed call tells the user: the server's own explanation for a refusal (yourself,
 * the company's last admin), the generic internal-error text otherwise.
 */
export function failureText(error: unknown, t: TFunction): string {
  return isApiError(error) && error.status > 0 && error.status < 500 && error.serverMessage
    ? error.serverMessage
    : t('team.feedback.internalError');
}
