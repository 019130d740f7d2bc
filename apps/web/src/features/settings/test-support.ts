import type { Settings } from '@hablabot/contract';

/** A settings answer as GET /admin/setting gives it; secrets only as their stored state. */
export function makeSettings(overrides: Partial<Settings> = {}): Settings {
  return {
    whatsAppApiKey: null,
    whatsAppPhoneId: '106540352242922',
    whatsAppBusinessAccountId: '419561257915477',
    whatsAppAppSecret: null,
    facebookMessagesApiUrl: 'https://graph.facebook.com/v23.0',
    hub_verify_token: 'abcdefghijklmnopqrstuvwxyz012345',
    wordpress_api_key: `HB-${'k'.repeat(61)}`,
    wordpress_secret_key: null,
    openaiApiKey: null,
    openaiModel: 'gpt-4',
    openaiChatEndpoint: 'https://api.openai.com/v1/chat/completions',
    secrets: {
      whatsAppApiKey: { stored: true, last4: 'WXYZ' },
      whatsAppAppSecret: { stored: false, last4: null },
      openaiApiKey: { stored: true, last4: 'q9Zk' },
      wordpress_secret_key: { stored: true, last4: 'S3cr' },
    },
    webhook_url: 'https://chat.example.com/api/v1/webhooks/whatsapp',
    wordpress_url: 'https://chat.example.com/api/v1/integrations/wordpress/clients',
    updated_at: '2026-11-22T10:15:00.000Z',
    whatsapp_status: 'ok',
    whatsapp_token_refused_at: null,
    ...overrides,
  };
}
