import { z } from 'zod';
import { ZImportClientsResponse } from './clients.schema';
import {
  cleanText,
  hasForbiddenCharacters,
  ZTimestamp,
  ZValidationErrorResponse,
  zHttpUrl,
} from './common.schema';

// --- constants ---

/** Where the WhatsApp Cloud API (Graph API) answers unless a company sets another address. */
export const DEFAULT_FACEBOOK_MESSAGES_API_URL = 'https://graph.facebook.com/v23.0';
/** Where OpenAI-compatible chat completions are asked for unless a company sets another address. */
export const DEFAULT_OPENAI_CHAT_ENDPOINT = 'https://api.openai.com/v1/chat/completions';

/**
 * The models the settings screen offers. The provider has retired every one of them, so any other model
 * name may be typed as well; a test of the connection says so plainly when the provider does not know it.
 */
export const OPENAI_MODELS = [
  'gpt-3.5-turbo',
  'gpt-4',
  'gpt-4-32k',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-0613',
  'gpt-4-0613',
  'gpt-3.5-turbo-1106',
  'gpt-4-1106',
  'text-davinci-003',
  'code-davinci-002',
] as const;

/** Generated keys: lower and upper case letters, digits, '-' and '_'. */
export const GENERATED_KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
export const HUB_VERIFY_TOKEN_LENGTH = 32;
export const WORDPRESS_KEY_LENGTH = 64;
export const WORDPRESS_KEY_PREFIX = 'HB-';

/** The shape of a generated hub verify token: 32 characters of the alphabet. */
export const HUB_VERIFY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** The shape of a generated WordPress key or secret: 'HB-' and 61 characters of the alphabet (64 in all). */
export const WORDPRESS_KEY_PATTERN = /^HB-[A-Za-z0-9_-]{61}$/;

/**
 * Settings that are secrets: encrypted at rest and never sent back in clear. Answers say only whether
 * one is stored and its last four characters.
 */
export const SECRET_SETTINGS = [
  'whatsAppApiKey',
  'whatsAppAppSecret',
  'openaiApiKey',
  'wordpress_secret_key',
] as const;
export type SecretSetting = (typeof SECRET_SETTINGS)[number];

/** Settings the generate button fills. */
export const GENERATED_SETTINGS = ['hub_verify_token', 'wordpress_api_key', 'wordpress_secret_key'] as const;
export type GeneratedSetting = (typeof GENERATED_SETTINGS)[number];

/** Length and prefix of each generated setting. */
export const GENERATED_KEY_SHAPES: Readonly<Record<GeneratedSetting, { length: number; prefix: string }>> = {
  hub_verify_token: { length: HUB_VERIFY_TOKEN_LENGTH, prefix: '' },
  wordpress_api_key: { length: WORDPRESS_KEY_LENGTH, prefix: WORDPRESS_KEY_PREFIX },
  wordpress_secret_key: { length: WORDPRESS_KEY_LENGTH, prefix: WORDPRESS_KEY_PREFIX },
};

export const OPENAI_MODEL_MAX = 100;
/** A model name as providers write them: 'gpt-4o-mini', 'meta-llama/Llama-3.1-8B', 'llama3.1:8b'. */
export const OPENAI_MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$/;
/** Graph API object ids (phone number, business account) are decimal digits. */
export const GRAPH_ID_PATTERN = /^\d{1,32}$/;

/** What GET /admin/setting says of the WhatsApp connection (`whatsapp_status`). */
export const WHATSAPP_STATUSES = ['ok', 'token_invalid', 'not_configured'] as const;
export type WhatsAppStatus = (typeof WHATSAPP_STATUSES)[number];

// --- request ---

const blank = (v: unknown) => v === null || (typeof v === 'string' && cleanText(v) === '');

/**
 * A secret as the settings form sends it. Left out, null or blank: keep the stored one (a form that
 * leaves the field alone, or a client that sends back what it read, never wipes a secret). A value:
 * replace it. Clearing is asked for by name in `clear`.
 */
const secretInput = (max: number, pattern?: { regex: RegExp; message: string }) =>
  z.preprocess(
    (v) => (blank(v) ? undefined : v),
    z
      .string()
      .overwrite(cleanText)
      .max(max)
      .refine((v) => !hasForbiddenCharacters(v) && !/\s/.test(v), {
        message: 'settings.secret_format',
        abort: true,
      })
      .refine((v) => !pattern || pattern.regex.test(v), { message: pattern?.message ?? '' })
      .optional()
      .describe(
        'A secret: left out, null or "" keeps the stored value; a value replaces it; name the field in `clear` to remove it.',
      ),
  );

/**
 * A plain setting. Left out: keep the stored value. Null or blank: clear it. A value: must pass `check`.
 */
const plainInput = (schema: z.ZodType<string>) =>
  z.preprocess((v) => (blank(v) ? null : v), schema.nullable().optional());

const patternText = (max: number, regex: RegExp, message: string) =>
  z.string().overwrite(cleanText).max(max).regex(regex, { message });

/**
 * Body of POST /admin/setting (an upsert of the company's one settings row).
 *
 * - Secrets (`SECRET_SETTINGS`): left out, null or '' keep the stored value; a value replaces it; naming
 *   the field in `clear` removes it. Naming a field in `clear` and sending a value for it is refused.
 * - Other fields: left out keeps the stored value; null or '' clears it (the two URLs go back to their
 *   defaults); a value replaces it.
 * - Read-only fields of the answer (`secrets`, `webhook_url` …) are ignored, so what GET returned can be
 *   posted back unchanged.
 */
export const ZSettingsRequest = z
  .object({
    whatsAppApiKey: secretInput(4096),
    whatsAppPhoneId: plainInput(patternText(32, GRAPH_ID_PATTERN, 'settings.graph_id_format')),
    whatsAppBusinessAccountId: plainInput(patternText(32, GRAPH_ID_PATTERN, 'settings.graph_id_format')),
    whatsAppAppSecret: secretInput(256),
    facebookMessagesApiUrl: plainInput(zHttpUrl()),
    hub_verify_token: plainInput(
      patternText(HUB_VERIFY_TOKEN_LENGTH, HUB_VERIFY_TOKEN_PATTERN, 'settings.hub_token_format'),
    ),
    wordpress_api_key: plainInput(
      patternText(WORDPRESS_KEY_LENGTH, WORDPRESS_KEY_PATTERN, 'settings.wordpress_key_format'),
    ),
    wordpress_secret_key: secretInput(WORDPRESS_KEY_LENGTH, {
      regex: WORDPRESS_KEY_PATTERN,
      message: 'settings.wordpress_key_format',
    }),
    openaiApiKey: secretInput(4096),
    openaiModel: plainInput(patternText(OPENAI_MODEL_MAX, OPENAI_MODEL_PATTERN, 'settings.model_format')),
    openaiChatEndpoint: plainInput(zHttpUrl()),
    /** Secrets to remove. */
    clear: z.array(z.enum(SECRET_SETTINGS)).max(SECRET_SETTINGS.length).optional(),
  })
  .superRefine((body, ctx) => {
    for (const field of body.clear ?? []) {
      if (body[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'settings.replace_and_clear' });
      }
    }
  });
export type SettingsRequest = z.input<typeof ZSettingsRequest>;
export type SettingsInput = z.output<typeof ZSettingsRequest>;

// --- answers ---

/** What an answer says about a secret: whether one is stored, and its last four characters. */
export const ZSecretState = z.object({
  stored: z.boolean(),
  /** Null when nothing is stored, or when the stored value cannot be read with the current APP_KEY. */
  last4: z.string().nullable(),
});
export type SecretState = z.infer<typeof ZSecretState>;

/**
 * GET /admin/setting: the company's settings, flat, with the product's field names. Secret fields are always
 * null (a secret never leaves the server); `secrets` says which are stored. `webhook_url` and
 * `wordpress_url` are the addresses to paste into Meta and into the WordPress site.
 */
export const ZSettings = z.object({
  whatsAppApiKey: z.null(),
  whatsAppPhoneId: z.string().nullable(),
  whatsAppBusinessAccountId: z.string().nullable(),
  whatsAppAppSecret: z.null(),
  facebookMessagesApiUrl: z.string(),
  hub_verify_token: z.string().nullable(),
  wordpress_api_key: z.string().nullable(),
  wordpress_secret_key: z.null(),
  openaiApiKey: z.null(),
  openaiModel: z.string().nullable(),
  openaiChatEndpoint: z.string(),
  secrets: z.object({
    whatsAppApiKey: ZSecretState,
    whatsAppAppSecret: ZSecretState,
    openaiApiKey: ZSecretState,
    wordpress_secret_key: ZSecretState,
  }),
  /** The webhook's callback URL for Meta's app dashboard. */
  webhook_url: z.string(),
  /** Where the WordPress site sends contacts. */
  wordpress_url: z.string(),
  /** Null until the settings are saved for the first time. */
  updated_at: ZTimestamp.nullable(),
  /**
   * The WhatsApp connection as its last calls showed: `not_configured` (no token or phone number id),
   * `token_invalid` (WhatsApp refused the token — 190, expired or revoked — and no call has worked since;
   * the admin screens show a banner), `ok` otherwise.
   */
  whatsapp_status: z.enum(WHATSAPP_STATUSES),
  /** When WhatsApp refused the token, while `whatsapp_status` is `token_invalid`; null otherwise. */
  whatsapp_token_refused_at: ZTimestamp.nullable(),
});
export type Settings = z.infer<typeof ZSettings>;

/** POST /admin/setting. */
export const ZSettingsMutationResponse = z.object({ message: z.string(), data: ZSettings });
export type SettingsMutationResponse = z.infer<typeof ZSettingsMutationResponse>;

/** POST /admin/setting/generate: a fresh value for one generated setting (not saved until 'Actualizar'). */
export const ZGenerateKeyRequest = z.object({ field: z.enum(GENERATED_SETTINGS) });
export type GenerateKeyRequest = z.infer<typeof ZGenerateKeyRequest>;
export const ZGenerateKeyResponse = z.object({ field: z.enum(GENERATED_SETTINGS), value: z.string() });
export type GenerateKeyResponse = z.infer<typeof ZGenerateKeyResponse>;

// --- connection tests ---

/**
 * Bodies of the connection tests: the values typed on the screen, not yet saved. Each one left out,
 * null or blank is taken from the stored settings.
 */
export const ZWhatsAppTestRequest = z.object({
  whatsAppApiKey: secretInput(4096),
  whatsAppPhoneId: plainInput(patternText(32, GRAPH_ID_PATTERN, 'settings.graph_id_format')),
  facebookMessagesApiUrl: plainInput(zHttpUrl()),
});
export type WhatsAppTestRequest = z.input<typeof ZWhatsAppTestRequest>;
export type WhatsAppTestInput = z.output<typeof ZWhatsAppTestRequest>;

export const ZOpenAiTestRequest = z.object({
  openaiApiKey: secretInput(4096),
  openaiModel: plainInput(patternText(OPENAI_MODEL_MAX, OPENAI_MODEL_PATTERN, 'settings.model_format')),
  openaiChatEndpoint: plainInput(zHttpUrl()),
});
export type OpenAiTestRequest = z.input<typeof ZOpenAiTestRequest>;
export type OpenAiTestInput = z.output<typeof ZOpenAiTestRequest>;

/** What went wrong in a connection test, for the screen to react to; `message` says it in words. */
export const CONNECTION_PROBLEMS = [
  'missing_settings',
  'secret_unreadable',
  'bad_token',
  'unknown_phone_id',
  'unknown_model',
  'no_quota',
  'rate_limited',
  'unreachable',
  /** The address is not one the server may call (a private address, or http in production). */
  'address_refused',
  /** A stored secret goes only to the stored address: a new address needs the secret typed again. */
  'secret_required',
  'timeout',
  'unexpected_answer',
  'provider_error',
] as const;
export type ConnectionProblem = (typeof CONNECTION_PROBLEMS)[number];

export const ZConnectionTestResponse = z.object({
  success: z.boolean(),
  /** Null on success. */
  problem: z.enum(CONNECTION_PROBLEMS).nullable(),
  /** The outcome in plain words, in the caller's language. */
  message: z.string(),
  /** WhatsApp: what the Graph API says about the phone number. */
  phone: z
    .object({
      display_phone_number: z.string().nullable(),
      verified_name: z.string().nullable(),
      quality_rating: z.string().nullable(),
      /** Meta's throughput level (STANDARD, HIGH) and messaging limit tier (TIER_250 … TIER_UNLIMITED). */
      throughput_level: z.string().nullable().optional(),
      messaging_limit_tier: z.string().nullable().optional(),
    })
    .optional(),
  /** OpenAI: the model that answered. */
  model: z.string().optional(),
});
export type ConnectionTestResponse = z.infer<typeof ZConnectionTestResponse>;

// --- WordPress ---

/** GET /integrations/wordpress/ping. */
export const ZWordPressPingResponse = z.object({ success: z.literal(true), message: z.string() });
export type WordPressPingResponse = z.infer<typeof ZWordPressPingResponse>;

/**
 * Body of POST /integrations/wordpress/clients: one contact keyed like a CSV import row (`nombre`/`name`,
 * `apellidos`/`last_names`, `celular`/`whatsapp`/`phone`, `correo`/`email`, `proyectos`, `segmentos` —
 * segment names separated by ',', ';' or '|').
 */
export const ZWordPressClientRequest = z.record(z.string(), z.unknown());
export type WordPressClientRequest = z.infer<typeof ZWordPressClientRequest>;

/** POST /integrations/wordpress/clients, saved: the import's answer for one row (201 created, 200 updated). */
export const ZWordPressClientResponse = ZImportClientsResponse;
export type WordPressClientResponse = z.infer<typeof ZWordPressClientResponse>;

/**
 * POST /integrations/wordpress/clients, refused (422): the row's reasons, and the import's answer (absent
 * when the body is not a JSON object at all).
 */
export const ZWordPressClientErrorResponse = ZValidationErrorResponse.extend({
  data: ZImportClientsResponse.shape.data.optional(),
});
export type WordPressClientErrorResponse = z.infer<typeof ZWordPressClientErrorResponse>;
