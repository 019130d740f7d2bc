import { createHash } from 'node:crypto';
import {
  DEFAULT_FACEBOOK_MESSAGES_API_URL,
  DEFAULT_OPENAI_CHAT_ENDPOINT,
  GENERATED_KEY_ALPHABET,
  GENERATED_KEY_SHAPES,
  type GeneratedSetting,
  SECRET_SETTINGS,
  type SecretSetting,
  type SecretState,
  type Settings,
  type SettingsInput,
} from '@hablabot/contract';
import { isUniqueViolation } from '../../db/errors';
import { conflict } from '../../platform/errors';
import type { Outbox } from '../../platform/outbox/outbox';
import type { SecretBox } from '../../platform/secrets';
import { generateKey } from '../../platform/tokens';
import {
  type ChatCompletionsClient,
  createChatCompletionsClient,
} from '../../integrations/ai/chat-completions';
import type { TokenWatcher } from '../../integrations/whatsapp/cloud-api';
import type { PhoneNumberInfo } from '../../integrations/whatsapp/graph-api';
import { createConnectionTests } from './settings-connection';
import {
  type CompanySettings,
  createSettingsRepository,
  type SettingsRepository,
  type SettingsValues,
} from './settings.repository';

/** Where each secret is sealed in the row. */
const SECRET_COLUMNS = {
  whatsAppApiKey: 'whatsapp_api_key_enc',
  whatsAppAppSecret: 'whatsapp_app_secret_enc',
  openaiApiKey: 'openai_api_key_enc',
  wordpress_secret_key: 'wordpress_secret_key_enc',
} as const satisfies Record<SecretSetting, keyof CompanySettings>;

/** A secret shorter than this shows no ending at all: four characters would give most of it away. */
export const LAST4_MIN_LENGTH = 12;

/** How long a connection test waits for the outside service. */
export const CONNECTION_TEST_TIMEOUT_MS = 10_000;

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
  /** Where a save of the WhatsApp number or token writes its `channel.saved` event, with the save. */
  outbox?: Pick<Outbox, 'transaction'>;
  /** The connection test read the stored number: Meta's limits of it are kept (number-limits.ts). */
  onPhoneRead?: (companyId: number, phone: PhoneNumberInfo) => Promise<void>;
  /** Told what a connection test shows of the stored WhatsApp token (token-health.ts). */
  tokens?: TokenWatcher;
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

  function secretState(
    companyId: number,
    field: SecretSetting,
    row: CompanySettings | undefined,
  ): SecretState {
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

  function view(companyId: number, row: CompanySettings | undefined, requestOrigin: string): Settings {
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
      whatsapp_status:
        !row?.whatsapp_api_key_enc || !row.whatsapp_phone_id
          ? 'not_configured'
          : row.whatsapp_token_refused_at
            ? 'token_invalid'
            : 'ok',
      whatsapp_token_refused_at: row?.whatsapp_token_refused_at ?? null,
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

  /** The two connection tests (settings-connection.ts). */
  const connectionTests = createConnectionTests({
    stored,
    open,
    timeoutMs,
    chat,
    onPhoneRead: deps.onPhoneRead,
    tokens: deps.tokens,
  });

  return {
    async get(companyId: number, requestOrigin: string): Promise<Settings> {
      return view(companyId, await stored(companyId), requestOrigin);
    },

    /** Saves what the form sent (see ZSettingsRequest for keep / replace / clear). */
    async save(companyId: number, input: SettingsInput, requestOrigin: string): Promise<Settings> {
      await refuseTaken(companyId, input);
      const values = changes(input);
      // A new number, account or token: `channel.saved` (its templates are fetched).
      const channelChanged =
        input.whatsAppPhoneId !== undefined ||
        input.whatsAppBusinessAccountId !== undefined ||
        input.whatsAppApiKey !== undefined;
      try {
        const saved =
          deps.outbox && channelChanged
            ? await deps.outbox.transaction(async (trx, events) => {
                const row = await createSettingsRepository(trx).upsertSettings(companyId, values);
                events.emit('channel.saved', { companyId });
                return row;
              })
            : await repo.upsertSettings(companyId, values);
        return view(companyId, saved, requestOrigin);
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

    /**
     * The company each of these WhatsApp Business Account ids belongs to, with its app secret as
     * `webhookOwners` gives it: a template status webhook is routed and checked by the account.
     */
    async accountOwners(
      accountIds: readonly string[],
    ): Promise<Map<string, { companyId: number; appSecret: string | null | undefined }>> {
      const owners = new Map<string, { companyId: number; appSecret: string | null | undefined }>();
      for (const r of await repo.findAccountOwners(accountIds)) {
        if (r.business_account_id === null) continue;
        owners.set(r.business_account_id, {
          companyId: r.company_id,
          appSecret: open(r.company_id, 'whatsAppAppSecret', r.app_secret_enc),
        });
      }
      return owners;
    },

    testWhatsApp: connectionTests.testWhatsApp,
    testOpenAi: connectionTests.testOpenAi,
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
