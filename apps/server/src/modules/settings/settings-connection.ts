import {
  type ConnectionProblem,
  type ConnectionTestResponse,
  DEFAULT_FACEBOOK_MESSAGES_API_URL,
  DEFAULT_OPENAI_CHAT_ENDPOINT,
  type Language,
  type OpenAiTestInput,
  type SecretSetting,
  type WhatsAppTestInput,
} from '@hablabot/contract';
import type { CompanySettings } from './settings.repository';
import {
  type ChatCompletionFailure,
  ChatCompletionError,
  type ChatCompletionsClient,
} from '../../integrations/ai/chat-completions';
import { hostOf } from '../../integrations/http/outbound';
import type { TokenWatcher } from '../../integrations/whatsapp/cloud-api';
import { type PhoneNumberInfo, readPhoneNumber } from '../../integrations/whatsapp/graph-api';
import { tooManyRequests } from '../../platform/errors';
import { hasText, translate } from '../../platform/locale';
import type { RateLimitStore } from '../../platform/rate-limit';

/**
 * "Probar conexión" for WhatsApp and OpenAI, with the typed values, else the stored ones. The calls
 * follow the outbound policy like every other (a private address or plain http in production is
 * `address_refused`). Two rules keep a test from leaking what it touches:
 * - a stored token or key goes only to the stored address: with a new address typed in, the secret must
 *   be typed too (`secret_required`), so nobody sends the company's secret to a server of their own;
 * - the answer is one of our own sentences, chosen by the HTTP status and the provider's error code;
 *   the provider's own text never reaches the screen (it could be anything the address answered).
 */

/**
 * Calls to an outside service a company may start from the screens per minute: the two connection tests
 * and "Probar bot" count together, so none of them is a way around the others' limit.
 */
export const CONNECTION_TESTS_PER_MINUTE = 20;

/** Counts one such call for the company; past the limit, a 429 with Retry-After. */
export async function limitConnectionTests(rateLimits: RateLimitStore, companyId: number): Promise<void> {
  const hit = await rateLimits.hit(`settings:test:${companyId}`, 60_000);
  if (hit.count > CONNECTION_TESTS_PER_MINUTE)
    throw tooManyRequests('errors.too_many_requests', hit.resetSeconds);
}

/** A connection test that failed: what the admin must fix, and the HTTP status when there was one. */
type Failure = { problem: ConnectionProblem; status?: number };

const CHAT_PROBLEMS: Record<ChatCompletionFailure, ConnectionProblem> = {
  invalid_api_key: 'bad_token',
  model_not_found: 'unknown_model',
  rate_limited: 'rate_limited',
  insufficient_quota: 'no_quota',
  timeout: 'timeout',
  unreachable: 'unreachable',
  address_refused: 'address_refused',
  bad_response: 'unexpected_answer',
  provider_error: 'provider_error',
};

/** A failed chat completion as a connection problem; an error answer without the provider's own error
 * object means the address is not a chat API. */
function chatFailure(error: ChatCompletionError): Failure {
  const status = error.status || undefined;
  if (error.kind === 'provider_error' && error.providerMessage === null)
    return { problem: 'unexpected_answer', status };
  return { problem: CHAT_PROBLEMS[error.kind], status };
}

/** The Graph API's quality rating in words ('GREEN' → 'alta (verde)'); an unknown one is not shown. */
function qualityText(lang: Language, rating: string | null): string | null {
  if (!rating) return null;
  const key = `settings.quality.${rating.toUpperCase()}`;
  return hasText(key) ? translate(lang, key) : null;
}

/** The same address written with or without a trailing slash. */
const sameAddress = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export function createConnectionTests(deps: {
  stored(companyId: number): Promise<CompanySettings | undefined>;
  /** The clear value of a sealed secret; undefined when it cannot be opened. */
  open(companyId: number, field: SecretSetting, sealed: string | null): string | null | undefined;
  timeoutMs: number;
  chat: ChatCompletionsClient;
  /**
   * The stored number was read (its stored id at its stored address): Meta's throughput, limit tier and
   * quality are kept for the mass sender.
   */
  onPhoneRead?: (companyId: number, phone: PhoneNumberInfo) => Promise<void>;
  /** Told when a test with the stored token shows WhatsApp accepts it or refuses it (token-health.ts). */
  tokens?: TokenWatcher;
}) {
  const { stored, open, timeoutMs, chat } = deps;

  function missing(lang: Language, fields: string[]): ConnectionTestResponse {
    return {
      success: false,
      problem: 'missing_settings',
      message: translate(lang, 'settings.test.missing', {
        fields: fields.map((f) => translate(lang, `fields.${f}`)).join(', '),
      }),
    };
  }

  function unreadable(lang: Language, field: SecretSetting): ConnectionTestResponse {
    return {
      success: false,
      problem: 'secret_unreadable',
      message: translate(lang, 'settings.test.secret_unreadable', {
        field: translate(lang, `fields.${field}`),
      }),
    };
  }

  function secretRequired(lang: Language, field: SecretSetting, url: string): ConnectionTestResponse {
    return {
      success: false,
      problem: 'secret_required',
      message: translate(lang, 'settings.test.secret_required', {
        field: translate(lang, `fields.${field}`),
        host: hostOf(url),
      }),
    };
  }

  /** Shared plain-words answers: network, timeout, throttling, a provider's error by its status. */
  function common(
    lang: Language,
    check: Failure,
    url: string,
    service: 'whatsapp' | 'openai',
  ): ConnectionTestResponse {
    const params = {
      host: hostOf(url),
      seconds: Math.round(timeoutMs / 100) / 10,
      status: check.status ?? 0,
    };
    const key = (() => {
      switch (check.problem) {
        case 'unreachable':
          return 'settings.test.unreachable';
        case 'address_refused':
          return 'settings.test.address_refused';
        case 'timeout':
          return 'settings.test.timeout';
        case 'rate_limited':
          return 'settings.test.rate_limited';
        case 'no_quota':
          return 'settings.test.no_quota';
        case 'bad_token':
          return `settings.test.bad_token_${service}`;
        case 'unexpected_answer':
          return `settings.test.unexpected_${service}`;
        default:
          return 'settings.test.provider_error_plain';
      }
    })();
    return { success: false, problem: check.problem, message: translate(lang, key, params) };
  }

  return {
    /** Reads the phone number from the Graph API with the typed values, else the stored ones. */
    async testWhatsApp(
      companyId: number,
      typed: WhatsAppTestInput,
      lang: Language,
    ): Promise<ConnectionTestResponse> {
      const row = await stored(companyId);
      const storedUrl = row?.facebook_messages_api_url ?? DEFAULT_FACEBOOK_MESSAGES_API_URL;
      const baseUrl = typed.facebookMessagesApiUrl ?? storedUrl;
      const storedToken = open(companyId, 'whatsAppApiKey', row?.whatsapp_api_key_enc ?? null);
      if (!typed.whatsAppApiKey && storedToken && !sameAddress(baseUrl, storedUrl))
        return secretRequired(lang, 'whatsAppApiKey', baseUrl);
      const token = typed.whatsAppApiKey ?? storedToken;
      if (token === undefined) return unreadable(lang, 'whatsAppApiKey');
      const phoneId = typed.whatsAppPhoneId ?? row?.whatsapp_phone_id ?? null;
      const absent = [!token && 'whatsAppApiKey', !phoneId && 'whatsAppPhoneId'].filter(
        (f): f is string => typeof f === 'string',
      );
      if (!token || !phoneId) return missing(lang, absent);

      const check = await readPhoneNumber({ baseUrl, token, phoneNumberId: phoneId, timeoutMs });
      // What it says of the stored token (not of one typed and not saved) is kept for the banner.
      if (deps.tokens && token === storedToken && sameAddress(baseUrl, storedUrl)) {
        if (check.ok) await deps.tokens.accepted(companyId);
        else if (check.problem === 'bad_token') await deps.tokens.refused(companyId);
      }
      if (check.ok) {
        if (deps.onPhoneRead && phoneId === row?.whatsapp_phone_id && sameAddress(baseUrl, storedUrl))
          await deps.onPhoneRead(companyId, check.phone);
        const unknown = translate(lang, 'settings.test.unknown_value');
        return {
          success: true,
          problem: null,
          message: translate(lang, 'settings.test.whatsapp_ok', {
            name: check.phone.verified_name ?? unknown,
            phone: check.phone.display_phone_number ?? unknown,
            quality: qualityText(lang, check.phone.quality_rating) ?? unknown,
          }),
          phone: check.phone,
        };
      }
      if (check.problem === 'unknown_phone_id') {
        return {
          success: false,
          problem: 'unknown_phone_id',
          message: translate(lang, 'settings.test.unknown_phone_id', { id: phoneId }),
        };
      }
      return common(lang, check, baseUrl, 'whatsapp');
    },

    /** Asks for one tiny completion with the typed values, else the stored ones. */
    async testOpenAi(
      companyId: number,
      typed: OpenAiTestInput,
      lang: Language,
    ): Promise<ConnectionTestResponse> {
      const row = await stored(companyId);
      const storedEndpoint = row?.openai_chat_endpoint ?? DEFAULT_OPENAI_CHAT_ENDPOINT;
      const endpoint = typed.openaiChatEndpoint ?? storedEndpoint;
      const storedKey = open(companyId, 'openaiApiKey', row?.openai_api_key_enc ?? null);
      if (!typed.openaiApiKey && storedKey && !sameAddress(endpoint, storedEndpoint))
        return secretRequired(lang, 'openaiApiKey', endpoint);
      const apiKey = typed.openaiApiKey ?? storedKey;
      if (apiKey === undefined) return unreadable(lang, 'openaiApiKey');
      const model = typed.openaiModel ?? row?.openai_model ?? null;
      const absent = [!apiKey && 'openaiApiKey', !model && 'openaiModel'].filter(
        (f): f is string => typeof f === 'string',
      );
      if (!apiKey || !model) return missing(lang, absent);

      let answeredBy: string;
      try {
        await chat.complete({
          endpoint,
          apiKey,
          model,
          messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
          maxCompletionTokens: 16,
        });
        // The model asked for, not the name the address answered with: nothing it says is repeated.
        answeredBy = model;
      } catch (error) {
        if (!(error instanceof ChatCompletionError)) throw error;
        const check = chatFailure(error);
        if (check.problem === 'unknown_model') {
          return {
            success: false,
            problem: 'unknown_model',
            message: translate(lang, 'settings.test.unknown_model', { model }),
          };
        }
        return common(lang, check, endpoint, 'openai');
      }
      return {
        success: true,
        problem: null,
        message: translate(lang, 'settings.test.openai_ok', { model: answeredBy }),
        model: answeredBy,
      };
    },
  };
}
