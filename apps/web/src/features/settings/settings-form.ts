import { OPENAI_MODELS, type SecretSetting, type Settings } from '@hablabot/contract';

// What the settings form holds and how it is filled from the saved settings (SettingsForm.tsx shows it).

/** The settings feedback stays 5 seconds. */
export const SETTINGS_FEEDBACK_MS = 5000;

/** The select's value for "type another model". */
export const CUSTOM_MODEL = '__custom__';

/** What the form holds: every field as typed (secrets empty unless a new value is typed). */
export interface SettingsFormValues {
  whatsAppApiKey: string;
  whatsAppPhoneId: string;
  whatsAppBusinessAccountId: string;
  whatsAppAppSecret: string;
  facebookMessagesApiUrl: string;
  hub_verify_token: string;
  wordpress_api_key: string;
  wordpress_secret_key: string;
  openaiApiKey: string;
  openaiModel: string;
  openaiChatEndpoint: string;
  clear: SecretSetting[];
}

/** Fields in screen order: the first one with a server error takes the focus. */
export const FIELDS = [
  'whatsAppApiKey',
  'whatsAppPhoneId',
  'whatsAppBusinessAccountId',
  'whatsAppAppSecret',
  'facebookMessagesApiUrl',
  'hub_verify_token',
  'wordpress_api_key',
  'wordpress_secret_key',
  'openaiApiKey',
  'openaiModel',
  'openaiChatEndpoint',
] as const;

export function formValuesOf(settings: Settings): SettingsFormValues {
  return {
    whatsAppApiKey: '',
    whatsAppPhoneId: settings.whatsAppPhoneId ?? '',
    whatsAppBusinessAccountId: settings.whatsAppBusinessAccountId ?? '',
    whatsAppAppSecret: '',
    facebookMessagesApiUrl: settings.facebookMessagesApiUrl,
    hub_verify_token: settings.hub_verify_token ?? '',
    wordpress_api_key: settings.wordpress_api_key ?? '',
    wordpress_secret_key: '',
    openaiApiKey: '',
    openaiModel: settings.openaiModel ?? '',
    openaiChatEndpoint: settings.openaiChatEndpoint,
    clear: [],
  };
}

export const isListedModel = (model: string) => (OPENAI_MODELS as readonly string[]).includes(model);
