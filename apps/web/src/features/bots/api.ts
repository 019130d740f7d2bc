import type {
  Bot,
  BotRequest,
  BotState,
  BotTestRequest,
  Instruction,
  InstructionRequest,
} from '@hablabot/contract';
import { botsApi, clientsApi } from '@hablabot/contract/api';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, callResponse } from '../../lib/api-client';

/** Query keys of the bots feature; lists carry the UI language (their messages are localised). */
export const botKeys = {
  all: ['bots'] as const,
  list: (language: string) => ['bots', 'list', language] as const,
  instructions: (botId: number, language: string) => ['bots', 'instructions', botId, language] as const,
  clientSearch: (search: string) => ['bots', 'client-search', search] as const,
};

function useUiLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language;
}

export function useBots() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: botKeys.list(language),
    queryFn: ({ signal }) => call(botsApi.list, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

/** GET /admin/instructions/{botId}; idle while no bot is selected. */
export function useInstructions(botId: number | null) {
  const language = useUiLanguage();
  return useQuery({
    queryKey: botKeys.instructions(botId ?? 0, language),
    queryFn: ({ signal }) =>
      call(botsApi.listInstructions, { params: { botId: botId ?? 0 } }, { signal, language }),
    enabled: botId !== null,
  });
}

/** Bots count their instructions: any write stales the whole feature. */
const invalidateBots = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: botKeys.all });

/** Thrown when a delete answers 2xx but not 200: only a 200 counts as success. */
export class UnconfirmedDeleteError extends Error {
  constructor(readonly status: number) {
    super(`Delete answered ${status}, not 200`);
    this.name = 'UnconfirmedDeleteError';
  }
}

/** POST /admin/bot or PUT /admin/bot/{id}. */
export function useSaveBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: BotRequest }) =>
      id === undefined ? call(botsApi.create, { body }) : call(botsApi.update, { params: { id }, body }),
    onSuccess: () => invalidateBots(queryClient),
  });
}

export function useDeleteBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const response = await callResponse(botsApi.remove, { params: { id } });
      if (response.status !== 200) throw new UnconfirmedDeleteError(response.status);
      return response.data ?? {};
    },
    onSuccess: () => invalidateBots(queryClient),
  });
}

/** POST /admin/bot/{id}/toggle-bot-state; a 200 reloads the list. */
export function useToggleBotState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, state }: { id: number; state: BotState }) => {
      const response = await callResponse(botsApi.toggleState, { params: { id }, body: { state } });
      return { status: response.status, data: response.data };
    },
    onSuccess: (result) => {
      if (result.status === 200) return invalidateBots(queryClient);
    },
  });
}

/** POST /admin/instruction or PUT /admin/instruction/{id}. */
export function useSaveInstruction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: InstructionRequest }) =>
      id === undefined
        ? call(botsApi.createInstruction, { body })
        : call(botsApi.updateInstruction, { params: { id }, body }),
    onSuccess: () => invalidateBots(queryClient),
  });
}

/** DELETE /admin/instruction with `{ ids }`: all of them or none. */
export function useDeleteInstructions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const response = await callResponse(botsApi.removeInstructions, { body: { ids } });
      if (response.status !== 200) throw new UnconfirmedDeleteError(response.status);
      return response.data ?? {};
    },
    onSuccess: () => invalidateBots(queryClient),
  });
}

/** POST /admin/bot/{id}/test ("Probar bot"). */
export function useTestBot() {
  return useMutation({
    mutationFn: ({ botId, body }: { botId: number; body: BotTestRequest }) =>
      call(botsApi.test, { params: { id: botId }, body }),
  });
}

/** How many clients the test panel offers at once. */
export const CLIENT_SEARCH_LIMIT = 20;

/** Clients whose name or number contains `search`, for the test panel (at most CLIENT_SEARCH_LIMIT). */
export function useClientSearch(search: string, enabled: boolean) {
  return useQuery({
    queryKey: botKeys.clientSearch(search),
    queryFn: ({ signal }) =>
      call(
        clientsApi.list,
        { query: { search: search || undefined, per_page: CLIENT_SEARCH_LIMIT } },
        { signal },
      ),
    enabled,
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
}

export type { Bot, Instruction };
