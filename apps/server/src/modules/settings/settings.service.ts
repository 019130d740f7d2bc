import { createHash } from 'node:crypto';
import {
  type ConnectionProblem,
  type ConnectionTestResponse,
  DEFAULT_FACEBOOK_MESSAGES_API_URL,
  DEFAULT_OPENAI_CHAT_ENDPOINT,
  GENERATED_KEY_ALPHABET,
  GENERATED_KEY_SHAPES,
  type GeneratedSetting,
  type Language,
  type OpenAiTestInput,
  SECRET_SETTINGS,
  type SecretSetting,
  type SecretState,
  type Settings,
  type SettingsInput,
  type WhatsAppTestInput,
} from '@hablabot/contract';
import type { SettingsRow } from '../../db/schema';
import { isUniqueViolation } from '../../db/errors';
import { conflict } from '../../platform/errors';
import { hasText, translate } from '../../platform/locale';
import type { SecretBox } from '../../platform/secrets';
import { generateKey } from '../../platform/tokens';
import {
  type ChatCompletionFailure,
  ChatCompletionError,
  type ChatCompletionsClient,
  createChatCompletionsClient,
} from '../../integrations/ai/chat-completions';
import { hostOf } from '../../integrations/http/outbound';
import { readPhoneNumber } from '../../integrations/whatsapp/graph-api';
import type { SettingsRepository, SettingsValues } from './settings.repository';

/** Where each secret is sealed in the row. */
const SECRET_COLUMNS = {
  whatsAppApiKey: 'whatsapp_api_key_enc',
  whatsAppAppSecret: 'whatsapp_app_secret_enc',
  openaiApiKey: 'openai_api_key_enc',
  wordpress_secret_key: 'wordpress_secret_key_enc',
} as const satisfies Record<SecretSetting, keyof SettingsRow>;

/** A secret shorter than this shows no ending at all: four characters would give most of it away. */
export const LAST4_MIN_LENGTH = 12;

/** How long a connection test waits for the outside service. */
export const CONNECTION_TEST_TIMEOUT_MS = 10_000;

/** A connection test that failed: what the admin must fix, and what the provider said. */
type Failure = { problem: ConnectionProblem; status?: number; detail?: string };

const CHAT_PROBLEMS: Record<ChatCompletionFailure, ConnectionProblem> = {
  invalid_api_key: 'bad_token',
  model_not_found: 'unknown_model',
  rate_limited: 'rate_limited',
  insufficient_quota: 'no_quota',
  timeout: 'timeout',
  unreachable: 'unreachable',
  bad_response: 'unexpected_answer',
  provider_error: 'provider_error',
};

/** A failed chat completion as a connection problem; an error answer without the provider's own error
 * object means the address is not a chat API. */
function chatFailure(error: ChatCompletionError): Failure {
  const status = error.status || undefined;
  if (error.kind === 'provider_error' && error.providerMessage === null)
    return { problem: 'unexpected_answer', status };
  return { problem: CHAT_PROBLEMS[error.kind], status, detail: error.providerMessage ?? undefined };
}

/** The Graph API's quality rating in words ('GREEN' → 'alta (verde)'); an unknown rating as it came. */
function qualityText(lang: Language, rating: string | null): string | null {
  if (!rating) return null;
  const key = `settings.quality.${rating.toUpperCase()}`;
  return hasText(key) ? translate(lang, key) : rating;
}

/** SHA-256 of a WordPress key: the column the WordPress endpoint looks companies up by. */
export function wordpressKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The decrypted connection values, for the modules that talk to WhatsApp, OpenAI and WordPress. */
export interface Credentials {
  whatsAppApiKey: string | null;
  whatsAppPhoneId: string | null;
  whatsAppBusinessAccountId: string | null;
  whatsAppAppSecret: string | null;
  facebookMessagesApiUrl: string;
  hubVerifyToken: string | null;
  openaiApiKey: string | null;
  openaiModel: string | null;
  openaiChatEndpoint: string;
}

/**
 * The company's settings: one row, secrets sealed with APP_KEY and never answered in clear, generated
 * keys from a cryptographic source, and the two connection tests (WhatsApp, OpenAI).
 */
export function createSettingsService(deps: {
  settingsRepository: SettingsRepository;
  secrets: SecretBox;
  /** PUBLIC_URL when it is set: the base of the webhook and WordPress addresses. Else the request's. */
  publicUrl?: string;
  connectionTimeoutMs?: number;
  /** The OpenAI-compatible client the OpenAI test asks through (one attempt, no retries, by default). */
  chatCompletions?: ChatCompletionsClient;
  /** Told when a stored secret cannot be opened (APP_KEY changed). */
  onUnreadableSecret?: (companyId: number, field: SecretSetting) => void;
}) {
  const { settingsRepository: repo, secrets } = deps;
  const timeoutMs = deps.connectionTimeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
  // A connection test answers at once: a retry would only hide what is wrong for longer.
  const chat = deps.chatCompletions ?? createChatCompletionsClient({ timeoutMs, maxRetries: 0 });

  /** The clear value of a sealed secret; undefined when it cannot be opened. */
  function open(companyId: number, field: SecretSetting, sealed: string | null): string | null | undefined {
    if (sealed === null) return null;
    try {
      return secrets.decrypt(sealed);
    } catch {
      deps.onUnreadableSecret?.(companyId, field);
      return undefined;
    }
  }

  function secretState(companyId: number, field: SecretSetting, row: SettingsRow | undefined): SecretState {
    const sealed = row?.[SECRET_COLUMNS[field]] ?? null;
    if (sealed === null) return { stored: false, last4: null };
    const clear = open(companyId, field, sealed);
    return {
      stored: true,
      last4: typeof clear === 'string' && clear.length >= LAST4_MIN_LENGTH ? clear.slice(-4) : null,
    };
  }

  function baseUrl(requestOrigin: string): string {
    return (deps.publicUrl ?? requestOrigin).replace(/\/+$/, '');
  }

  function view(companyId: number, row: SettingsRow | undefined, requestOrigin: string): Settings {
    const base = baseUrl(requestOrigin);
    return {
      whatsAppApiKey: null,
      whatsAppPhoneId: row?.whatsapp_phone_id ?? null,
      whatsAppBusinessAccountId: row?.whatsapp_business_account_id ?? null,
      whatsAppAppSecret: null,
      facebookMessagesApiUrl: row?.facebook_messages_api_url ?? DEFAULT_FACEBOOK_MESSAGES_API_URL,
      hub_verify_token: row?.hub_verify_token ?? null,
      wordpress_api_key: row?.wordpress_api_key ?? null,
      wordpress_secret_key: null,
      openaiApiKey: null,
      openaiModel: row?.openai_model ?? null,
      openaiChatEndpoint: row?.openai_chat_endpoint ?? DEFAULT_OPENAI_CHAT_ENDPOINT,
      secrets: {
        whatsAppApiKey: secretState(companyId, 'whatsAppApiKey', row),
        whatsAppAppSecret: secretState(companyId, 'whatsAppAppSecret', row),
        openaiApiKey: secretState(companyId, 'openaiApiKey', row),
        wordpress_secret_key: secretState(companyId, 'wordpress_secret_key', row),
      },
      webhook_url: `${base}/api/v1/webhooks/whatsapp`,
      wordpress_url: `${base}/api/v1/integrations/wordpress/clients`,
      updated_at: row?.updated_at ?? null,
    };
  }

  /** The columns a save changes: left-out fields are not touched. */
  function changes(input: SettingsInput): SettingsValues {
    const values: SettingsValues = {};
    const plain = <K extends keyof SettingsValues>(column: K, value: SettingsValues[K] | undefined) => {
      if (value !== undefined) values[column] = value;
    };
    plain('whatsapp_phone_id', input.whatsAppPhoneId);
    plain('whatsapp_business_account_id', input.whatsAppBusinessAccountId);
    plain('hub_verify_token', input.hub_verify_token);
    plain('openai_model', input.openaiModel);
    if (input.facebookMessagesApiUrl !== undefined)
      values.facebook_messages_api_url = input.facebookMessagesApiUrl ?? DEFAULT_FACEBOOK_MESSAGES_API_URL;
    if (input.openaiChatEndpoint !== undefined)
      values.openai_chat_endpoint = input.openaiChatEndpoint ?? DEFAULT_OPENAI_CHAT_ENDPOINT;
    if (input.wordpress_api_key !== undefined) {
      values.wordpress_api_key = input.wordpress_api_key;
      values.wordpress_api_key_hash = input.wordpress_api_key
        ? wordpressKeyHash(input.wordpress_api_key)
        : null;
    }
    for (const field of SECRET_SETTINGS) {
      const value = input[field];
      if (value !== undefined) values[SECRET_COLUMNS[field]] = secrets.encrypt(value);
      else if (input.clear?.includes(field)) values[SECRET_COLUMNS[field]] = null;
    }
    return values;
  }

  async function stored(companyId: number) {
    return repo.findSettings(companyId);
  }

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

  /** Shared plain-words answers: network, timeout, throttling, a provider's own error. */
  function common(
    lang: Language,
    check: Failure,
    url: string,
    service: 'whatsapp' | 'openai',
  ): ConnectionTestResponse {
    const host = hostOf(url);
    const params = { host, seconds: Math.round(timeoutMs / 100) / 10, status: check.status ?? 0 };
    const key = (() => {
      switch (check.problem) {
        case 'unreachable':
          return 'settings.test.unreachable';
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
          return check.detail ? 'settings.test.provider_error' : 'settings.test.provider_error_plain';
      }
    })();
    return {
      success: false,
      problem: check.problem,
      message: translate(lang, key, { ...params, detail: (check.detail ?? '').slice(0, 300) }),
    };
  }

  /**
   * A 409 naming the field when the form gives a value another company holds: the hub verify token, and
   * the WhatsApp phone number and business account ids, each of which belongs to one company (a second
   * company naming the number would receive its messages). The database's unique indexes back this.
   */
  async function refuseTaken(companyId: number, input: SettingsInput): Promise<void> {
    const taken = async (owner: Promise<number | undefined>) => {
      const id = await owner;
      return id !== undefined && id !== companyId;
    };
    if (input.hub_verify_token && (await taken(repo.findCompanyIdByHubVerifyToken(input.hub_verify_token))))
      throw conflict('settings.hub_token_taken', 'hub_verify_token');
    if (
      input.whatsAppPhoneId &&
      (await taken(repo.findCompanyIdByWhatsAppId('whatsapp_phone_id', input.whatsAppPhoneId)))
    )
      throw conflict('settings.phone_id_taken', 'whatsAppPhoneId');
    if (
      input.whatsAppBusinessAccountId &&
      (await taken(
        repo.findCompanyIdByWhatsAppId('whatsapp_business_account_id', input.whatsAppBusinessAccountId),
      ))
    )
      throw conflict('settings.business_account_taken', 'whatsAppBusinessAccountId');
  }

  return {
    async get(companyId: number, requestOrigin: string): Promise<Settings> {
      return view(companyId, await stored(companyId), requestOrigin);
    },

    /** Saves what the form sent (see ZSettingsRequest for keep / replace / clear). */
    async save(companyId: number, input: SettingsInput, requestOrigin: string): Promise<Settings> {
      await refuseTaken(companyId, input);
      try {
        return view(companyId, await repo.upsertSettings(companyId, changes(input)), requestOrigin);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // Lost a race for a token or a WhatsApp id, or a WordPress key another company holds.
        await refuseTaken(companyId, input);
        if (input.wordpress_api_key) throw conflict('settings.wordpress_key_taken', 'wordpress_api_key');
        throw error;
      }
    },

    /** A fresh value for a generated setting, from a cryptographic source; saved only with the form. */
    generate(field: GeneratedSetting): string {
      const { length, prefix } = GENERATED_KEY_SHAPES[field];
      return generateKey(length, prefix, GENERATED_KEY_ALPHABET);
    },

    /** The company's connection values in clear, for the modules that use them (never for an answer). */
    async credentials(companyId: number): Promise<Credentials> {
      const row = await stored(companyId);
      const read = (field: SecretSetting) =>
        open(companyId, field, row?.[SECRET_COLUMNS[field]] ?? null) ?? null;
      return {
        whatsAppApiKey: read('whatsAppApiKey'),
        whatsAppPhoneId: row?.whatsapp_phone_id ?? null,
        whatsAppBusinessAccountId: row?.whatsapp_business_account_id ?? null,
        whatsAppAppSecret: read('whatsAppAppSecret'),
        facebookMessagesApiUrl: row?.facebook_messages_api_url ?? DEFAULT_FACEBOOK_MESSAGES_API_URL,
        hubVerifyToken: row?.hub_verify_token ?? null,
        openaiApiKey: read('openaiApiKey'),
        openaiModel: row?.openai_model ?? null,
        openaiChatEndpoint: row?.openai_chat_endpoint ?? DEFAULT_OPENAI_CHAT_ENDPOINT,
      };
    },

    /**
     * The company each of these WhatsApp phone number ids belongs to (one statement for a webhook
     * delivery; an unknown id is absent), with its app secret in clear: null when none is set, undefined
     * when it is set but cannot be opened (APP_KEY changed).
     */
    async webhookOwners(
      phoneIds: readonly string[],
    ): Promise<Map<string, { companyId: number; appSecret: string | null | undefined }>> {
      const owners = new Map<string, { companyId: number; appSecret: string | null | undefined }>();
      for (const r of await repo.findWebhookOwners(phoneIds)) {
        if (r.whatsapp_phone_id === null) continue;
        owners.set(r.whatsapp_phone_id, {
          companyId: r.company_id,
          appSecret: open(r.company_id, 'whatsAppAppSecret', r.whatsapp_app_secret_enc),
        });
      }
      return owners;
    },

    /** Reads the phone number from the Graph API with the typed values, else the stored ones. */
    async testWhatsApp(
      companyId: number,
      typed: WhatsAppTestInput,
      lang: Language,
    ): Promise<ConnectionTestResponse> {
      const row = await stored(companyId);
      const token =
        typed.whatsAppApiKey ?? open(companyId, 'whatsAppApiKey', row?.whatsapp_api_key_enc ?? null);
      if (token === undefined) return unreadable(lang, 'whatsAppApiKey');
      const phoneId = typed.whatsAppPhoneId ?? row?.whatsapp_phone_id ?? null;
      const baseUrl =
        typed.facebookMessagesApiUrl ?? row?.facebook_messages_api_url ?? DEFAULT_FACEBOOK_MESSAGES_API_URL;
      const absent = [!token && 'whatsAppApiKey', !phoneId && 'whatsAppPhoneId'].filter(
        (f): f is string => typeof f === 'string',
      );
      if (!token || !phoneId) return missing(lang, absent);

      const check = await readPhoneNumber({ baseUrl, token, phoneNumberId: phoneId, timeoutMs });
      if (check.ok) {
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
      const apiKey = typed.openaiApiKey ?? open(companyId, 'openaiApiKey', row?.openai_api_key_enc ?? null);
      if (apiKey === undefined) return unreadable(lang, 'openaiApiKey');
      const model = typed.openaiModel ?? row?.openai_model ?? null;
      const endpoint = typed.openaiChatEndpoint ?? row?.openai_chat_endpoint ?? DEFAULT_OPENAI_CHAT_ENDPOINT;
      const absent = [!apiKey && 'openaiApiKey', !model && 'openaiModel'].filter(
        (f): f is string => typeof f === 'string',
      );
      if (!apiKey || !model) return missing(lang, absent);

      let answeredBy: string;
      try {
        const answer = await chat.complete({
          endpoint,
          apiKey,
          model,
          messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
          maxCompletionTokens: 16,
        });
        answeredBy = answer.model || model;
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

export type SettingsService = ReturnType<typeof createSettingsService>;
