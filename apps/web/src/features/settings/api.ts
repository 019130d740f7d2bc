import type {
  GeneratedSetting,
  OpenAiTestRequest,
  Settings,
  SettingsRequest,
  WhatsAppTestRequest,
} from '@hablabot/contract';
import { settingsApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api-client';

/** Query keys of the settings feature. The settings carry no localised text, so no language in the key. */
export const settingsKeys = {
  all: ['settings'] as const,
};

export function fetchSettings(signal?: AbortSignal): Promise<Settings> {
  return call(settingsApi.get, {}, { signal });
}

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.all, queryFn: ({ signal }) => fetchSettings(signal) });
}

/** POST /admin/setting; the answer's settings replace the cached ones. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsRequest) => call(settingsApi.save, { body }),
    onSuccess: (response) => queryClient.setQueryData(settingsKeys.all, response.data),
  });
}

/** A fresh hub verify token, WordPress key or WordPress secret from the server (not saved). */
export function useGenerateKey() {
  return useMutation({
    mutationFn: (field: GeneratedSetting) => call(settingsApi.generate, { body: { field } }),
  });
}

export type ConnectionKind = 'whatsapp' | 'openai';

/** "Probar conexión": the typed values are tried; the ones left empty come from the stored settings. */
export function useTestConnection(kind: ConnectionKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WhatsAppTestRequest | OpenAiTestRequest) =>
      kind === 'whatsapp'
        ? call(settingsApi.testWhatsApp, { body: body as WhatsAppTestRequest })
        : call(settingsApi.testOpenAi, { body: body as OpenAiTestRequest }),
    // A WhatsApp test tells whether the stored token works: the token banner follows it at once.
    onSuccess: () => {
      if (kind === 'whatsapp') void queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
}
