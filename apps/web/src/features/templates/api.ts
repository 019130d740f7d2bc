import type { CreateTemplateRequest, MessageTemplate, TemplatesResponse } from '@hablabot/contract';
import { templatesApi } from '@hablabot/contract/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, callResponse } from '../../lib/api-client';
import { useServerEvents } from '../../lib/use-server-events';

/** Query keys of the 'Plantillas' screen; the chat's and mass messages' copies are refreshed beside it. */
export const templateKeys = { list: ['templates', 'list'] as const };

/** The other screens' copies of the same list (chat modal, mass-message form), stale after a change. */
const isTemplatesList = (key: readonly unknown[]) => key.includes('templates');

/** GET /templates: the company's templates as stored (synced, created here, reviewed by Meta). */
export function useTemplateList() {
  return useQuery({
    queryKey: templateKeys.list,
    queryFn: ({ signal }) => call(templatesApi.list, {}, { signal }),
  });
}

/** Puts one template as it is now into the list (or takes it out), without reading the list again. */
function replaceIn(list: TemplatesResponse | undefined, template: MessageTemplate, deleted: boolean) {
  if (!list) return list;
  const others = list.data.filter((t) => t.id !== template.id);
  if (deleted) return { data: others };
  return {
    data: [...others, template].sort(
      (a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language),
    ),
  };
}

/**
 * Meta's review arrives live ('template.updated': APPROVED, REJECTED with the reason …): the row changes
 * at once, and the chat's and mass messages' copies are read again when next shown. A missed stretch of
 * events (`stream.reset`) reads the list again.
 */
export function useLiveTemplates() {
  const queryClient = useQueryClient();
  useServerEvents((event) => {
    if (event.type === 'stream.reset') {
      void queryClient.invalidateQueries({ predicate: (q) => isTemplatesList(q.queryKey) });
      return;
    }
    if (event.type !== 'template.updated') return;
    queryClient.setQueryData<TemplatesResponse>(templateKeys.list, (list) =>
      replaceIn(list, event.data.template, event.data.deleted),
    );
    void queryClient.invalidateQueries({
      predicate: (q) => isTemplatesList(q.queryKey) && q.queryKey !== templateKeys.list,
      refetchType: 'none',
    });
  });
}

/** POST /templates: created on Meta, stored PENDING. */
export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTemplateRequest) => call(templatesApi.create, { body }),
    onSuccess: (response) => {
      queryClient.setQueryData<TemplatesResponse>(templateKeys.list, (list) =>
        replaceIn(list, response.data, false),
      );
      void queryClient.invalidateQueries({ predicate: (q) => isTemplatesList(q.queryKey) });
    },
  });
}

/** DELETE /templates/{id}: deleted on Meta and here. */
export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (template: MessageTemplate) => call(templatesApi.remove, { params: { id: template.id } }),
    onSuccess: (_response, template) => {
      queryClient.setQueryData<TemplatesResponse>(templateKeys.list, (list) =>
        replaceIn(list, template, true),
      );
      void queryClient.invalidateQueries({ predicate: (q) => isTemplatesList(q.queryKey) });
    },
  });
}

/** GET /templates/sync ('Sincronizar Plantillas'): the list as WhatsApp has it now. */
export function useSyncTemplateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await callResponse(templatesApi.sync);
      if (response.status !== 200) throw new Error(`Sync answered ${response.status}`);
      return response.data;
    },
    onSuccess: (data) => {
      queryClient.setQueryData<TemplatesResponse>(templateKeys.list, { data: data.data });
      void queryClient.invalidateQueries({ predicate: (q) => isTemplatesList(q.queryKey) });
    },
  });
}
