import { callOutside, type OutboundResult } from '../http/outbound';
import { graphError, graphUrl } from './graph-api';

/**
 * Sending through the WhatsApp Cloud API: text, media, templates and read receipts, with the company's
 * token, phone number id and base URL. The outcome is data: the new message's wamid, or Meta's error code
 * and text with whether trying again later may work. Errors are read by `error.code`, never by the HTTP
 * status, since Meta answers the same error with different statuses.
 */

/** Where and as whom a company sends. */
export interface CloudApiAccount {
  baseUrl: string;
  token: string;
  phoneNumberId: string;
  /** The company whose settings these are: told when WhatsApp refuses or accepts the token. */
  companyId?: number;
}

/** Told what WhatsApp said of a company's token (modules/settings/token-health.ts). */
export interface TokenWatcher {
  refused(companyId: number): Promise<void>;
  accepted(companyId: number): Promise<void>;
}

/** Meta's code for an access token that expired or was revoked. */
export const TOKEN_REFUSED_CODE = 190;

export type SendResult =
  | { ok: true; wamid: string }
  | {
      ok: false;
      /** Meta's `error.code`; 0 when nothing answered or the answer had no code. */
      code: number;
      message: string;
      /** Trying again later may work (rate limits, an outage, no answer). */
      transient: boolean;
      /**
       * The request went out and no answer came back: WhatsApp may have sent the message. Trying again
       * could message the customer twice, so such a send is never repeated automatically.
       */
      unconfirmed?: boolean;
    };

export type MarkReadResult = { ok: true } | Extract<SendResult, { ok: false }>;

/** Graph error codes of failures that may pass if tried again later. */
export const TRANSIENT_CODES: readonly number[] = [130429, 131056, 131000, 2, 131057];
/** Codes that mean "too many messages": the next try waits longer. */
export const RATE_LIMIT_CODES: readonly number[] = [130429, 131056];

export const CLOUD_API_TIMEOUT_MS = 15_000;

/** Network errors that happen before any byte of the request reaches WhatsApp: safe to try again. */
export const NOT_SENT_ERRORS: readonly string[] = [
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
];

/** Sorts an answer of the send endpoint (or the lack of one) into a send result. */
export function classifySend(result: OutboundResult): SendResult {
  if (result.kind === 'timeout')
    return {
      ok: false,
      code: 0,
      message: 'WhatsApp did not answer in time',
      transient: true,
      unconfirmed: true,
    };
  if (result.kind === 'unreachable') {
    const message = `WhatsApp could not be reached (${result.code})`;
    // A connection that broke after the request was written may have delivered it.
    return NOT_SENT_ERRORS.includes(result.code)
      ? { ok: false, code: 0, message, transient: true }
      : { ok: false, code: 0, message, transient: true, unconfirmed: true };
  }
  if (result.kind === 'refused')
    return {
      ok: false,
      code: 0,
      message: 'The messages API URL is not an address the server may call (outbound policy)',
      transient: false,
    };
  const error = graphError(result.json);
  if (error) {
    const details = (
      (result.json as { error?: { error_data?: { details?: unknown } } }).error?.error_data?.details ?? ''
    ).toString();
    const message = error.message || details || `WhatsApp error ${error.code ?? result.status}`;
    if (error.code !== undefined) {
      return { ok: false, code: error.code, message, transient: TRANSIENT_CODES.includes(error.code) };
    }
    return { ok: false, code: 0, message, transient: result.status >= 500 };
  }
  if (result.status >= 200 && result.status < 300) {
    const id = (result.json as { messages?: { id?: unknown }[] } | undefined)?.messages?.[0]?.id;
    if (typeof id === 'string' && id !== '') return { ok: true, wamid: id };
    return {
      ok: false,
      code: 0,
      message: 'WhatsApp answered without a message id',
      transient: false,
    };
  }
  return {
    ok: false,
    code: 0,
    message: `WhatsApp answered HTTP ${result.status}`,
    transient: result.status >= 500 || result.status === 429,
  };
}

/** A Graph send body's type part: text, media by link or id, or a template. */
export type OutgoingContent =
  | { type: 'text'; text: { body: string; preview_url?: boolean } }
  | { type: 'image' | 'video'; image?: MediaRef; video?: MediaRef }
  | { type: 'audio'; audio: Omit<MediaRef, 'caption'> }
  | { type: 'document'; document: MediaRef & { filename?: string } }
  | {
      type: 'template';
      template: {
        name: string;
        language: { code: string };
        components?: unknown[];
      };
    };

export interface MediaRef {
  link?: string;
  id?: string;
  caption?: string;
}

export type MediaKind = 'image' | 'video' | 'audio' | 'document';

/** The Graph body's type part for a text message (links get a preview). */
export function textContent(body: string): OutgoingContent {
  return { type: 'text', text: { body, preview_url: /https?:\/\//.test(body) } };
}

/** The Graph body's type part for a media message. */
export function mediaContent(
  kind: MediaKind,
  media: { link?: string; id?: string; caption?: string; filename?: string },
): OutgoingContent {
  const ref: MediaRef & { filename?: string } = media.id ? { id: media.id } : { link: media.link };
  if (kind !== 'audio' && media.caption) ref.caption = media.caption;
  if (kind === 'document' && media.filename) ref.filename = media.filename;
  return { type: kind, [kind]: ref } as OutgoingContent;
}

const isButton = (component: unknown) => (component as { type?: unknown } | null)?.type === 'button';

/**
 * The Graph body's type part for a template with body parameters; more components (a media header,
 * buttons) go in the order WhatsApp lists a template's parts: header, body, buttons.
 */
export function templateContent(
  template: { name: string; language: string },
  bodyParameters: string[],
  extraComponents: unknown[] = [],
): OutgoingContent {
  const components = extraComponents.filter((c) => !isButton(c));
  if (bodyParameters.length) {
    components.push({ type: 'body', parameters: bodyParameters.map((text) => ({ type: 'text', text })) });
  }
  components.push(...extraComponents.filter(isButton));
  return {
    type: 'template',
    template: {
      name: template.name,
      language: { code: template.language },
      ...(components.length ? { components } : {}),
    },
  };
}

/** A company's send settings, or null when the token or the phone number id is not set. */
export type AccountSource = (companyId: number) => Promise<CloudApiAccount | null>;

/** Settings are incomplete: nothing can be sent until an admin fills them in. */
export const NOT_CONFIGURED_CODE = 0;

/** Reads a company's account from its settings (the token decrypted). */
export function accountFromSettings(settings: {
  credentials(companyId: number): Promise<{
    whatsAppApiKey: string | null;
    whatsAppPhoneId: string | null;
    facebookMessagesApiUrl: string;
  }>;
}): AccountSource {
  return async (companyId) => {
    const c = await settings.credentials(companyId);
    if (!c.whatsAppApiKey || !c.whatsAppPhoneId) return null;
    return {
      token: c.whatsAppApiKey,
      phoneNumberId: c.whatsAppPhoneId,
      baseUrl: c.facebookMessagesApiUrl,
      companyId,
    };
  };
}

const notConfigured = {
  ok: false,
  code: NOT_CONFIGURED_CODE,
  message: 'WhatsApp is not configured: the access token or the phone number id is missing in the settings',
  transient: false,
} as const;

/**
 * The Cloud API as a company uses it: each call reads the company's settings first (a token changed in
 * the settings applies to the next message).
 */
export function createCloudApiClient(options: {
  account: AccountSource;
  timeoutMs?: number;
  /** Told of each answer about the token: a 190 marks it refused, an accepted call clears that. */
  tokens?: TokenWatcher;
}) {
  const timeoutMs = options.timeoutMs ?? CLOUD_API_TIMEOUT_MS;

  /** Passes what WhatsApp said of the account's token on; a failure to note it never fails the call. */
  async function watch<R extends SendResult | MarkReadResult>(
    account: CloudApiAccount,
    result: R,
  ): Promise<R> {
    const companyId = account.companyId;
    if (!options.tokens || companyId === undefined) return result;
    try {
      if (result.ok) await options.tokens.accepted(companyId);
      else if (result.code === TOKEN_REFUSED_CODE) await options.tokens.refused(companyId);
    } catch {
      // The token's state is a hint for the screens; the send's own outcome stands.
    }
    return result;
  }

  async function post(account: CloudApiAccount, body: Record<string, unknown>) {
    return callOutside(graphUrl(account.baseUrl, `${encodeURIComponent(account.phoneNumberId)}/messages`), {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
      json: { messaging_product: 'whatsapp', ...body },
      timeoutMs,
    });
  }

  /** Sends any prepared content to the number (digits, country code included). */
  async function send(
    companyId: number,
    to: string,
    content: OutgoingContent,
    contextWamid?: string,
  ): Promise<SendResult> {
    return sendAs(await options.account(companyId), to, content, contextWamid);
  }

  /**
   * Sends with an account read before (`accountOf`): a mass message reads it once per run of its job, not
   * once per recipient; a token changed in the settings applies from its next run.
   */
  async function sendAs(
    account: CloudApiAccount | null,
    to: string,
    content: OutgoingContent,
    contextWamid?: string,
  ): Promise<SendResult> {
    if (!account) return notConfigured;
    const result = await post(account, {
      recipient_type: 'individual',
      to,
      ...content,
      ...(contextWamid ? { context: { message_id: contextWamid } } : {}),
    });
    return watch(account, classifySend(result));
  }

  return {
    send,
    sendAs,
    /** The company's account as its settings hold it now (null when not configured). */
    accountOf: (companyId: number) => options.account(companyId),
    sendText: (companyId: number, to: string, body: string, contextWamid?: string) =>
      send(companyId, to, textContent(body), contextWamid),
    sendMedia: (
      companyId: number,
      to: string,
      kind: MediaKind,
      media: { link?: string; id?: string; caption?: string; filename?: string },
    ) => send(companyId, to, mediaContent(kind, media)),
    sendTemplate: (
      companyId: number,
      to: string,
      template: { name: string; language: string },
      bodyParameters: string[],
      extraComponents?: unknown[],
    ) => send(companyId, to, templateContent(template, bodyParameters, extraComponents)),
    /** Tells WhatsApp the customer's message was read (blue ticks on their side). */
    async markRead(companyId: number, wamid: string): Promise<MarkReadResult> {
      const account = await options.account(companyId);
      if (!account) return notConfigured;
      const result = await post(account, { status: 'read', message_id: wamid });
      if (
        result.kind === 'answer' &&
        result.status === 200 &&
        (result.json as { success?: unknown } | undefined)?.success === true
      )
        return watch(account, { ok: true } as MarkReadResult);
      const classified = await watch(account, classifySend(result));
      return classified.ok
        ? { ok: false, code: 0, message: 'WhatsApp answered without success', transient: false }
        : classified;
    },
  };
}

export type CloudApiClient = ReturnType<typeof createCloudApiClient>;
