/** What the bot needs to ask a model: the company's OpenAI-compatible endpoint, key and model. */
export interface BotModelSettings {
  /** The chat-completions URL (settings `openaiChatEndpoint`). */
  endpoint: string;
  /** The API key in clear (settings `openaiApiKey`, stored encrypted). */
  apiKey: string;
  /** The model name (settings `openaiModel`). */
  model: string;
}

/**
 * Where the bots module reads a company's model settings. The settings module provides the real source
 * (its `openaiChatEndpoint`, decrypted `openaiApiKey` and `openaiModel`, or null while any is empty)
 * and `container.ts` passes it in; until then `noBotModelSettings` answers null, so "Probar bot" shows
 * the prompt that would be sent instead of a model's reply.
 */
export interface BotModelSettingsSource {
  forCompany(companyId: number): Promise<BotModelSettings | null>;
}

/** A source with no settings for any company. */
export const noBotModelSettings: BotModelSettingsSource = {
  forCompany: async () => null,
};
