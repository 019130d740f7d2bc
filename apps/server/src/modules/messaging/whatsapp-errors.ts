import type { Language, MessageError } from '@hablabot/contract';
import { translate } from '../../platform/locale';

/**
 * The catalogue of WhatsApp's errors on a message: for each code Meta's title, whether sending the same
 * message again can help (`resendable`), and our own explanation in es and en (whatsapp-errors.i18n.ts,
 * `wa_error.<code>`) of what happened and what to do. A code not listed gets a generic explanation and
 * stays resendable, since nothing says it cannot pass.
 *
 * Resendable means the same message, unchanged, can go through: now or later (a rate limit, an outage,
 * Meta's marketing cap) or once something outside the message is fixed (the token, the payment method,
 * the number's registration). It is false when the message itself or the customer is the problem: a
 * template that does not exist, a number not on WhatsApp, free text outside the 24-hour window.
 */
export const WHATSAPP_ERRORS: Readonly<Record<number, { title: string; resendable: boolean }>> = {
  2: { title: 'Service temporarily unavailable', resendable: true },
  100: { title: 'Invalid parameter', resendable: false },
  190: { title: 'Access token has expired', resendable: true },
  368: { title: 'Temporarily blocked for policies violations', resendable: false },
  130429: { title: 'Rate limit hit', resendable: true },
  131000: { title: 'Something went wrong', resendable: true },
  131026: { title: 'Message undeliverable', resendable: false },
  131031: { title: 'Business Account locked', resendable: false },
  131042: { title: 'Business eligibility payment issue', resendable: true },
  131045: { title: 'Incorrect certificate', resendable: false },
  131047: { title: 'Re-engagement message', resendable: false },
  131049: {
    title: 'This message was not delivered to maintain healthy ecosystem engagement',
    resendable: true,
  },
  131050: { title: 'User has stopped marketing messages', resendable: false },
  131051: { title: 'Unsupported message type', resendable: false },
  131052: { title: 'Media download error', resendable: false },
  131053: { title: 'Media upload error', resendable: false },
  131056: { title: '(Business Account, Consumer Account) pair rate limit hit', resendable: true },
  131057: { title: 'Account in maintenance mode', resendable: true },
  132000: { title: 'Number of parameters does not match the expected number of params', resendable: false },
  132001: { title: 'Template does not exist', resendable: false },
  132005: { title: 'Translated text too long', resendable: false },
  132007: { title: 'Template Format Character Policy Violated', resendable: false },
  132012: { title: 'Parameter format does not match format in the created template', resendable: false },
  132015: { title: 'Template is Paused', resendable: false },
  132016: { title: 'Template is Disabled', resendable: false },
  133010: { title: 'Phone number Not Registered', resendable: true },
};

/** What the explanation of a failure without Meta's code is (our own reasons, stored with no code). */
function uncodedKey(message: string | null): string {
  return message && /not configured/i.test(message) ? 'wa_error.not_configured' : 'wa_error.no_code';
}

/**
 * A failed message's error as the API gives it: Meta's code and title (the stored text when the code is
 * not in the catalogue or there is none), our explanation in the language, and whether resending helps.
 */
export function explainError(
  lang: Language,
  code: number | null,
  storedMessage: string | null,
): MessageError {
  if (code === null || code === 0)
    return {
      code: null,
      title: storedMessage ?? '',
      explanation: translate(lang, uncodedKey(storedMessage)),
      resendable: true,
    };
  const known = WHATSAPP_ERRORS[code];
  if (!known)
    return {
      code,
      title: storedMessage ?? '',
      explanation: translate(lang, 'wa_error.unknown'),
      resendable: true,
    };
  return {
    code,
    title: known.title,
    explanation: translate(lang, `wa_error.${code}`),
    resendable: known.resendable,
  };
}

/** Whether sending again can help a message that failed with this code (see WHATSAPP_ERRORS). */
export const isResendable = (code: number | null): boolean =>
  code === null || (WHATSAPP_ERRORS[code]?.resendable ?? true);

const isMessageError = (v: unknown): v is MessageError =>
  typeof v === 'object' &&
  v !== null &&
  'explanation' in v &&
  'resendable' in v &&
  'code' in v &&
  'title' in v;

/**
 * Puts every explained error in an answer (a Message's or a recipient's `error`, a status event's
 * `error_detail`) in the reader's language, in place. Messages are explained in Spanish when they are
 * read; Spanish answers are left as they are. Walks a few levels deep: an answer's data, its list, a row.
 */
export function localizeErrors<T>(value: T, lang: Language, depth = 0): T {
  if (lang === 'es' || depth > 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (const item of value) localizeErrors(item, lang, depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const [key, v] of Object.entries(record)) {
    if ((key === 'error' || key === 'error_detail') && isMessageError(v))
      record[key] = explainError(lang, v.code, v.title);
    else if (typeof v === 'object' && v !== null) localizeErrors(v, lang, depth + 1);
  }
  return value;
}
