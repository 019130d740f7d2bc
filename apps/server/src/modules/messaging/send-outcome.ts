import type { Language, Message } from '@hablabot/contract';
import { type MediaKind, RATE_LIMIT_CODES } from '../../integrations/whatsapp/cloud-api';
import { translate } from '../../platform/locale';
import { WHATSAPP_ERRORS, explainError } from './whatsapp-errors';

// What an outgoing send is and how it ended, the words an admin reads about it, and its waits (the
// outbound service, outbound.service.ts, does the sending).

/** How long an outgoing message may stay pending before the sweeper settles it (see `sweepStale`). */
export const STALE_PENDING_MS = 10 * 60 * 1000;

declare module '../../platform/jobs/jobs' {
  interface JobPayloads {
    /** Another try of an outgoing message WhatsApp refused for now (rate limit, outage). */
    'messaging.send-retry': { companyId: number; messageId: number; attempt: number };
    /** Tells WhatsApp a customer's message was read. */
    'messaging.mark-read': { companyId: number; wamid: string };
  }
}

/** What is sent: text, or a media by its public link or its WhatsApp media id. */
export type OutboundContent =
  | { type: 'text'; text: string }
  | {
      type: MediaKind;
      link?: string;
      mediaId?: string;
      caption?: string;
      fileName?: string;
      mimeType?: string;
      /** A copy of the file in private storage, which the chat shows (a library file: library-media.ts). */
      storageKey?: string;
    };

/** An outgoing message as it is stored (what the chat shows), before it is sent. */
export interface StoredOutgoing {
  messageType: Message['message_type'];
  waType: string;
  content: string;
  media?: {
    id: string | null;
    mimeType: string | null;
    fileName: string | null;
    caption: string | null;
    /** The chat's copy of the file (private storage). */
    storageKey?: string;
  };
  /** The agent who wrote it (an admin's message). */
  authorUserId?: number;
  /** Sent later, at this time: stored as scheduled (status 5), nothing sent yet. */
  sendAt?: string;
}

/** Why a message ended with status 4. */
export interface SendFailure {
  /** WhatsApp's error code; null when WhatsApp never gave one. */
  code: number | null;
  /** WhatsApp's text (or ours when nothing answered). */
  message: string;
  kind: 'whatsapp' | 'not_configured' | 'unconfirmed';
}

export interface SendOutcome {
  message: Message;
  /**
   * sent: WhatsApp accepted it; failed: status 4 with the reason; retrying: a job tries again shortly;
   * scheduled: stored with status 5, sent by a job at its time.
   */
  outcome: 'sent' | 'failed' | 'retrying' | 'scheduled';
  failure?: SendFailure;
}

export interface OutboundRetryOptions {
  /** Tries in all, the first included (4 by default). */
  attempts?: number;
  /**
   * The wait before the first retry in ms (1 s by default), doubled at each retry; after a rate-limit
   * answer (130429, 131056) it is multiplied by 4 at each retry instead.
   */
  backoffMs?: number;
}

export interface OutboundLog {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** Free text and media may be sent only this long after the customer's last message. */
export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * What an admin reads after sending: sent, tried again shortly, or not sent and why (a code of the
 * catalogue in its own words, whatsapp-errors.ts; another with WhatsApp's text and code).
 */
export function outcomeText(lang: Language, result: SendOutcome, resent = false): string {
  if (result.outcome === 'sent') return translate(lang, resent ? 'messaging.resent' : 'messaging.sent');
  if (result.outcome === 'retrying') return translate(lang, 'messaging.send_retrying');
  const failure = result.failure ?? {
    code: result.message.error_code,
    message: result.message.error_message ?? '',
    kind: 'whatsapp' as const,
  };
  let reason: string;
  if (failure.kind !== 'whatsapp') reason = translate(lang, `messaging.reason.${failure.kind}`);
  else if (failure.code !== null && WHATSAPP_ERRORS[failure.code])
    reason = explainError(lang, failure.code, failure.message).explanation;
  else
    reason = translate(lang, 'messaging.reason.other', { text: failure.message, code: failure.code ?? '—' });
  return translate(lang, 'messaging.send_failed', { reason });
}

/** The wait before retry number `retry` (1 = the first retry) after a failure with this code. */
export function retryWait(backoffMs: number, retry: number, code: number): number {
  const factor = RATE_LIMIT_CODES.includes(code) ? 4 ** retry : 2 ** (retry - 1);
  return Math.round(backoffMs * factor);
}
