import { hostOf } from '../../integrations/http/outbound';
import { AppError, invalid } from '../../platform/errors';
import type { Credentials } from '../settings/settings.service';

/** The ways a call to the Graph API fails the same way for listing, creating and deleting templates. */
export type GraphCallProblem =
  | 'bad_token'
  | 'unknown_account'
  | 'rate_limited'
  | 'timeout'
  | 'unreachable'
  | 'address_refused';

/**
 * A failed Graph API call as an answer the admin can act on: 422 on the setting to fix (the token, the
 * business account, the API address), 503 to wait, 502 when WhatsApp did not answer. Undefined for a
 * problem the caller words itself (a refused template, an odd listing).
 */
export function graphCallError(problem: string, credentials: Credentials): AppError | undefined {
  const host = hostOf(credentials.facebookMessagesApiUrl);
  switch (problem as GraphCallProblem) {
    case 'bad_token':
      return invalid('whatsAppApiKey', 'templates.bad_token');
    case 'unknown_account':
      return invalid('whatsAppBusinessAccountId', 'templates.unknown_account', {
        id: credentials.whatsAppBusinessAccountId ?? '',
      });
    case 'rate_limited':
      return new AppError(503, 'templates.rate_limited', undefined, undefined, { 'retry-after': '60' });
    case 'timeout':
      return new AppError(502, 'templates.timeout', { host });
    case 'unreachable':
      return new AppError(502, 'templates.unreachable', { host });
    case 'address_refused':
      return invalid('facebookMessagesApiUrl', 'templates.address_refused', { host });
    default:
      return undefined;
  }
}
