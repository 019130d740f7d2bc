import type {
  CreateTeamMemberRequest,
  InboxSettingsRequest,
  QuickReplyRequest,
  UpdateTeamMemberRequest,
} from '@hablabot/contract';
import { inboxSettingsApi, quickRepliesApi, teamApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';

/**
 * Query keys of the team screen. A member's open conversations and presence change on their own, so the
 * list is read again on each visit; a write to the team stales only the team.
 */
export const teamKeys = {
  team: (language: string) => ['team', 'members', language] as const,
  members: ['team', 'members'] as const,
  inboxSettings: ['team', 'inbox-settings'] as const,
  quickReplies: ['quick-replies'] as const,
};

function useUiLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language;
}

/** GET /admin/team: the company's admins and agents. */
export function useTeam() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: teamKeys.team(language),
    queryFn: ({ signal }) => call(teamApi.list, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

export interface SaveMemberVariables {
  /** Present when editing. */
  id?: number;
  body: CreateTeamMemberRequest | UpdateTeamMemberRequest;
}

/** POST /admin/team or PUT /admin/team/{id}. */
export function useSaveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveMemberVariables) =>
      id === undefined
        ? call(teamApi.create, { body: body as CreateTeamMemberRequest })
        : call(teamApi.update, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members }),
  });
}

/** DELETE /admin/team/{id}: never yourself, never the company's last admin (the server answers 409). */
export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(teamApi.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.members }),
  });
}

/** GET /admin/inbox-settings: who sees which conversation and how they are handed out. */
export function useInboxSettings() {
  return useQuery({
    queryKey: teamKeys.inboxSettings,
    queryFn: ({ signal }) => call(inboxSettingsApi.get, {}, { signal }),
  });
}

/** PUT /admin/inbox-settings; the answer is the saved settings. */
export function useSaveInboxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InboxSettingsRequest) => call(inboxSettingsApi.save, { body }),
    onSuccess: (response) => queryClient.setQueryData(teamKeys.inboxSettings, { data: response.data }),
  });
}

/** GET /admin/quick-replies: the saved answers the composer offers after '/'. */
export function useQuickReplies() {
  return useQuery({
    queryKey: teamKeys.quickReplies,
    queryFn: ({ signal }) => call(quickRepliesApi.list, {}, { signal }),
  });
}

export interface SaveQuickReplyVariables {
  id?: number;
  body: QuickReplyRequest;
}

/** POST /admin/quick-replies or PUT /admin/quick-replies/{id}. */
export function useSaveQuickReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveQuickReplyVariables) =>
      id === undefined
        ? call(quickRepliesApi.create, { body })
        : call(quickRepliesApi.update, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.quickReplies }),
  });
}

export function useDeleteQuickReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(quickRepliesApi.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.quickReplies }),
  });
}
