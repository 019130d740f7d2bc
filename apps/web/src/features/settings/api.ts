import type {
  ConnectionTestResponse,
  GeneratedSetting,
  GenerateKeyResponse,
  OpenAiTestRequest,
  Settings,
  SettingsMutationResponse,
  SettingsRequest,
  WhatsAppTestRequest,
} from '@hablabot/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

/** Query keys of the settings feature. The settings carry no localised text, so no language in the key. */
export const settingsKeys = {
  all: ['settings'] as const,
};

export function fetchSettings(signal?: AbortSignal): Promise<Settings> {
  return api.get<Settings>('/admin/setting', { signal });
}

export function useSettings() {
  return useQuery({ queryKey: settingsKeys.all, queryFn: ({ signal }) => fetchSettings(signal) });
}

/** POST /admin/setting; the answer's settings replace the cached ones. */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsRequest) => api.post<SettingsMutationResponse>('/admin/setting', body),
    onSuccess: (response) => queryClient.setQueryData(settingsKeys.all, response.data),
  });
}

/** A fresh hub verify token, WordPress key or WordPress secret from the server (not saved). */
export function useGenerateKey() {
  return useMutation({
    mutationFn: (field: GeneratedSetting) =>
      api.post<GenerateKeyResponse>('/admin/setting/generate', { field }),
  });
}

export type ConnectionKind = 'whatsapp' | 'openai';

/** "Probar conexión": the typed values are tried; the ones left empty come from the stored settings. */
export function useTestConnection(kind: ConnectionKind) {
  return useMutation({
    mutationFn: (body: WhatsAppTestRequest | OpenAiTestRequest) =>
      api.post<ConnectionTestResponse>(`/admin/setting/test/${kind}`, body),
  });
}
