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
 * Where the bots module reads a company's model settings. `botModelSettingsFrom(settings)` is the real
 * source, wired in `container.ts`: with no key or model, "Probar bot" shows the prompt that would be sent
 * instead of a model's reply.
 */
export interface BotModelSettingsSource {
  forCompany(companyId: number): Promise<BotModelSettings | null>;
}

/** The company's settings as the settings module reads them (secrets already decrypted). */
interface OpenAiCredentialsSource {
  credentials(companyId: number): Promise<{
    openaiApiKey: string | null;
    openaiModel: string | null;
    openaiChatEndpoint: string;
  }>;
}

/** The real source: the settings' endpoint, key and model, or null while the key or the model is empty. */
export function botModelSettingsFrom(settings: OpenAiCredentialsSource): BotModelSettingsSource {
  return {
    async forCompany(companyId) {
      const { openaiApiKey, openaiModel, openaiChatEndpoint } = await settings.credentials(companyId);
      if (!openaiApiKey || !openaiModel) return null;
      return { endpoint: openaiChatEndpoint, apiKey: openaiApiKey, model: openaiModel };
    },
  };
}

/** A source with no settings for any company. */
export const noBotModelSettings: BotModelSettingsSource = {
  forCompany: async () => null,
};
