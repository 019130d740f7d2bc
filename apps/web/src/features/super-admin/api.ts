import type { CreateUserRequest, RoleRequest, UpdateUserRequest } from '@hablabot/contract';
import { superAdminApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api-client';

/**
 * Query keys of the super-admin area. Users embed their roles' names and colours and roles count their
 * users, so a write to either stales both (and the dashboard's figures).
 */
export const superAdminKeys = {
  all: ['super-admin'] as const,
  users: (language: string) => ['super-admin', 'users', language] as const,
  roles: (language: string) => ['super-admin', 'roles', language] as const,
  companies: (language: string) => ['super-admin', 'companies', language] as const,
  overview: (language: string) => ['super-admin', 'overview', language] as const,
};

export function useUiLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language;
}

export function useUsers() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: superAdminKeys.users(language),
    queryFn: ({ signal }) => call(superAdminApi.users, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

export function useRoles() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: superAdminKeys.roles(language),
    queryFn: ({ signal }) => call(superAdminApi.roles, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

export function useCompanies() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: superAdminKeys.companies(language),
    queryFn: ({ signal }) => call(superAdminApi.companies, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

function useInvalidateAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: superAdminKeys.all });
}

export interface SaveUserVariables {
  /** Present when editing. */
  id?: number;
  body: CreateUserRequest | UpdateUserRequest;
}

/** POST /super-admin/create-user or PUT /super-admin/update-user/{id}. */
export function useSaveUser() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ id, body }: SaveUserVariables) =>
      id === undefined
        ? call(superAdminApi.createUser, { body: body as CreateUserRequest })
        : call(superAdminApi.updateUser, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

/** DELETE /super-admin/delete-user with `{ ids }`: all of them or none. */
export function useDeleteUsers() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (ids: number[]) => call(superAdminApi.deleteUsers, { body: { ids } }),
    onSuccess: invalidate,
  });
}

export interface SaveRoleVariables {
  id?: number;
  body: RoleRequest;
}

/** POST /super-admin/roles or PUT /super-admin/roles/{id}. */
export function useSaveRole() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ id, body }: SaveRoleVariables) =>
      id === undefined
        ? call(superAdminApi.createRole, { body })
        : call(superAdminApi.updateRole, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: (id: number) => call(superAdminApi.deleteRole, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** GET /super-admin/overview: the dashboard's figures, read from the database. */
export function useOverview() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: superAdminKeys.overview(language),
    queryFn: ({ signal }) => call(superAdminApi.overview, {}, { signal, language }),
  });
}

/** GET /super-admin/companies/overview: every company with its admins and figures. */
export function useCompaniesOverview() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: [...superAdminKeys.companies(language), 'overview'] as const,
    queryFn: ({ signal }) => call(superAdminApi.companiesOverview, {}, { signal, language }),
    placeholderData: (previous) => previous,
  });
}

/** POST /super-admin/companies: creates a company from its name (its admins come later). */
export function useCreateCompany() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ name }: { name: string }) => call(superAdminApi.createCompany, { body: { name } }),
    onSuccess: invalidate,
  });
}

/** PUT /super-admin/companies/{id}: renames a company. */
export function useRenameCompany() {
  const invalidate = useInvalidateAll();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      call(superAdminApi.renameCompany, { params: { id }, body: { name } }),
    onSuccess: invalidate,
  });
}

/**
 * GET /super-admin/webhook-deliveries?status=failed: one page of the failed WhatsApp deliveries, newest
 * first (the server pages them; the previous page stays shown while the next loads).
 */
export function useFailedWebhooks(paging: { page: number; per_page: number }) {
  const language = useUiLanguage();
  return useQuery({
    queryKey: [...superAdminKeys.all, 'webhooks', 'failed', language, paging.page, paging.per_page] as const,
    queryFn: ({ signal }) =>
      call(
        superAdminApi.webhookDeliveries,
        { query: { status: 'failed', page: paging.page, per_page: paging.per_page } },
        { signal, language },
      ),
    placeholderData: (previous) => previous,
  });
}

/** POST /super-admin/webhook-deliveries/{id}/replay: processes a failed delivery again, at once. */
export function useReplayWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(superAdminApi.replayWebhookDelivery, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...superAdminKeys.all, 'webhooks'] }),
  });
}
