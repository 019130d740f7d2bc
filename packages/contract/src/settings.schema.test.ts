import { describe, expect, it } from 'vitest';
import {
  HUB_VERIFY_TOKEN_PATTERN,
  WORDPRESS_KEY_PATTERN,
  ZSettingsRequest,
  ZWhatsAppTestRequest,
} from './settings.schema';

const WP = `HB-${'a'.repeat(61)}`;

function issues(body: unknown): Record<string, string[]> {
  const parsed = ZSettingsRequest.safeParse(body);
  if (parsed.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.');
    out[field] = [...(out[field] ?? []), issue.message];
  }
  return out;
}

describe('ZSettingsRequest', () => {
  it('an empty body changes nothing: every field is left out', () => {
    const parsed = ZSettingsRequest.parse({});
    expect(Object.values(parsed).every((v) => v === undefined)).toBe(true);
  });

  it('secrets: null, blank and invisible-only keep the stored value; a value replaces it', () => {
    const parsed = ZSettingsRequest.parse({
      whatsAppApiKey: null,
      whatsAppAppSecret: '',
      openaiApiKey: ' \u200B ',
      wordpress_secret_key: ` ${WP} `,
    });
    expect(parsed.whatsAppApiKey).toBeUndefined();
    expect(parsed.whatsAppAppSecret).toBeUndefined();
    expect(parsed.openaiApiKey).toBeUndefined();
    expect(parsed.wordpress_secret_key).toBe(WP);
  });

  it('plain fields: null or blank clear them, left out keeps them', () => {
    const parsed = ZSettingsRequest.parse({ whatsAppPhoneId: '', openaiModel: null, hub_verify_token: '  ' });
    expect(parsed.whatsAppPhoneId).toBeNull();
    expect(parsed.openaiModel).toBeNull();
    expect(parsed.hub_verify_token).toBeNull();
    expect('whatsAppBusinessAccountId' in parsed && parsed.whatsAppBusinessAccountId !== undefined).toBe(
      false,
    );
  });

  it('refuses non-http(s) URLs, bad ids, bad generated shapes and secrets with spaces', () => {
    expect(
      issues({
        facebookMessagesApiUrl: 'ftp://graph.example',
        openaiChatEndpoint: 'javascript:alert(1)',
        whatsAppPhoneId: '../me',
        whatsAppBusinessAccountId: '12ab',
        hub_verify_token: 'short',
        wordpress_api_key: 'HB-short',
        wordpress_secret_key: `XX-${'a'.repeat(61)}`,
        whatsAppApiKey: 'two words',
        openaiModel: 'gpt 4',
      }),
    ).toEqual({
      facebookMessagesApiUrl: ['validation.url'],
      openaiChatEndpoint: ['validation.url'],
      whatsAppPhoneId: ['settings.graph_id_format'],
      whatsAppBusinessAccountId: ['settings.graph_id_format'],
      hub_verify_token: ['settings.hub_token_format'],
      wordpress_api_key: ['settings.wordpress_key_format'],
      wordpress_secret_key: ['settings.wordpress_key_format'],
      whatsAppApiKey: ['settings.secret_format'],
      openaiModel: ['settings.model_format'],
    });
  });

  it('accepts any model name providers use', () => {
    for (const model of ['gpt-4o-mini', 'meta-llama/Llama-3.1-8B-Instruct', 'llama3.1:8b', 'gpt-4']) {
      expect(issues({ openaiModel: model })).toEqual({});
    }
  });

  it('clear names secrets only, and not together with a new value', () => {
    expect(ZSettingsRequest.parse({ clear: ['openaiApiKey'] }).clear).toEqual(['openaiApiKey']);
    expect(issues({ clear: ['openaiModel'] })).toHaveProperty('clear.0');
    expect(issues({ clear: ['openaiApiKey'], openaiApiKey: 'sk-new' })).toEqual({
      openaiApiKey: ['settings.replace_and_clear'],
    });
  });

  it('the generated shapes', () => {
    expect(HUB_VERIFY_TOKEN_PATTERN.test('a'.repeat(32))).toBe(true);
    expect(HUB_VERIFY_TOKEN_PATTERN.test('a'.repeat(33))).toBe(false);
    expect(WORDPRESS_KEY_PATTERN.test(WP)).toBe(true);
    expect(WORDPRESS_KEY_PATTERN.test(WP.slice(1))).toBe(false);
  });

  it('the connection tests take the same fields', () => {
    expect(ZWhatsAppTestRequest.parse({ whatsAppApiKey: '', whatsAppPhoneId: '123' })).toEqual({
      whatsAppApiKey: undefined,
      whatsAppPhoneId: '123',
    });
  });
});
