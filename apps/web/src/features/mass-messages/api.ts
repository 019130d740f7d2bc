import type {
  Answer,
  ClientListRequest,
  MassMessage,
  MassMessageStatus,
  MassPreviewRequest,
  MassRecipientStatus,
  MassResendRequest,
  MassSettings,
} from '@hablabot/contract';
import { massMessagesApi, templatesApi } from '@hablabot/contract/api';
import {
  keepPreviousData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { call, callResponse } from '../../lib/api-client';

export const massKeys = {
  all: ['mass-messages'] as const,
  lists: ['mass-messages', 'lists'] as const,
  members: (listId: number, perPage: number) => ['mass-messages', 'members', listId, perPage] as const,
  templates: ['mass-messages', 'templates'] as const,
  history: ['mass-messages', 'history'] as const,
  historyPage: (query: HistoryQuery) => ['mass-messages', 'history', query] as const,
  recipients: (id: number) => ['mass-messages', 'recipients', id] as const,
  recipientsPage: (id: number, query: RecipientsQuery) => ['mass-messages', 'recipients', id, query] as const,
  preview: (body: MassPreviewRequest) => ['mass-messages', 'preview', body] as const,
};

// --- client lists ---

/** Lists asked for at a time: a company may have hundreds, the screen shows a page and loads more. */
export const LISTS_PAGE_SIZE = 50;

/**
 * GET /admin/list-clients: the company's lists by name, a page at a time (`fetchNextPage` loads the
 * next one); `search` (part of the name) is matched by the server.
 */
export function useClientLists(search = '', options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: [...massKeys.lists, search] as const,
    queryFn: ({ pageParam, signal }) =>
      call(
        massMessagesApi.lists,
        { query: { ...(search ? { search } : {}), page: pageParam, per_page: LISTS_PAGE_SIZE } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination && last.pagination.current_page < last.pagination.last_page
        ? last.pagination.current_page + 1
        : undefined,
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** Members asked for at a time when a whole list is loaded for editing (the route's most). */
const MEMBER_IDS_PAGE = 1000;

/**
 * Every member id of a list, for its edit form (a PUT names the list's clients in full): read a page at
 * a time from GET /admin/list-clients/{id}/clients, in id order.
 */
export function useListMemberIds(listId: number | null) {
  return useQuery({
    queryKey: ['mass-messages', 'members', listId ?? 0, 'ids'] as const,
    queryFn: async ({ signal }) => {
      const ids: number[] = [];
      for (let page = 1; ; page++) {
        const answer = await call(
          massMessagesApi.listMembers,
          { params: { id: listId ?? 0 }, query: { page, per_page: MEMBER_IDS_PAGE } },
          { signal },
        );
        ids.push(...answer.data.data.map((member) => member.id));
        if (answer.data.data.length < MEMBER_IDS_PAGE || ids.length >= answer.data.total) return ids;
      }
    },
    enabled: listId !== null,
    staleTime: 0,
  });
}

/** The first `perPage` members of a list with their names (GET /admin/list-clients/{id}/clients), by id. */
export function useListMembers(listId: number | null, perPage: number) {
  return useQuery({
    queryKey: massKeys.members(listId ?? 0, perPage),
    queryFn: ({ signal }) =>
      call(
        massMessagesApi.listMembers,
        { params: { id: listId ?? 0 }, query: { page: 1, per_page: perPage } },
        { signal },
      ),
    enabled: listId !== null,
    staleTime: 0,
  });
}

export interface SaveListVariables {
  id?: number;
  body: ClientListRequest;
}

/** POST /admin/list-clients or PUT /admin/list-clients/{id}. */
export function useSaveClientList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveListVariables) =>
      id === undefined
        ? call(massMessagesApi.createList, { body })
        : call(massMessagesApi.updateList, { params: { id }, body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: massKeys.lists }),
        queryClient.invalidateQueries({ queryKey: ['mass-messages', 'members'] }),
      ]),
  });
}

/** Thrown when a delete answers 2xx but not 200: only a 200 confirms that the list is gone. */
export class UnconfirmedDeleteError extends Error {
  constructor(readonly status: number) {
    super(`Delete answered ${status}, not 200`);
    this.name = 'UnconfirmedDeleteError';
  }
}

/** DELETE /admin/list-clients/{id}; only a 200 counts. */
export function useDeleteClientList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const response = await callResponse(massMessagesApi.removeList, { params: { id } });
      if (response.status !== 200) throw new UnconfirmedDeleteError(response.status);
      return response.data ?? {};
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: massKeys.lists }),
  });
}

// --- templates ---

/** GET /templates: every template of the company; the form offers only the APPROVED ones. */
export function useTemplates() {
  return useQuery({
    queryKey: massKeys.templates,
    queryFn: ({ signal }) => call(templatesApi.list, {}, { signal }),
  });
}

// --- sends ---

/** What the form sends; `file` goes as multipart, everything else as JSON when there is no file. */
export interface SendVariables {
  name: string;
  message_template_id: number;
  list_id: number;
  message: string;
  bodyParameters: Record<string, string>;
  /** A file of the media library, for a template with a media header. */
  media_id?: number;
  /** A file uploaded with the send (it is kept in the media library). */
  file?: File;
  /** UTC ISO time, or undefined for now. */
  schedule?: string;
  time_zone?: string;
  /** Over the number's daily limit: send up to it and go on when the 24-hour window frees room. */
  accept_tier_overflow?: boolean;
  /** A recipient Meta refuses for its marketing frequency cap (131049) is tried once more a day later. */
  retry_capped?: boolean;
}

/** The request body: JSON without a file, multipart (bodyParameters as JSON text) with one. */
export function sendBody(variables: SendVariables): FormData | Record<string, unknown> {
  const { file, ...rest } = variables;
  const fields = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  if (!file) return fields;
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  form.append('file', file, file.name);
  return form;
}

/** POST /admin/messages-massive: 201 `{ success: true, message, data }`; the history reloads after. */
export function useSendMassMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: SendVariables) => {
      // Typed by the contract: sendBody holds the declared fields (as JSON, or multipart with the file).
      return callResponse(massMessagesApi.create, { body: sendBody(variables) as FormData });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: massKeys.history }),
  });
}

/** POST /admin/messages-massive/preview: the text one real recipient of the list would get. */
export function useMassPreview(body: MassPreviewRequest | null) {
  return useQuery({
    queryKey: massKeys.preview(body ?? { message_template_id: 0 }),
    queryFn: ({ signal }) =>
      call(massMessagesApi.preview, { body: body ?? { message_template_id: 0 } }, { signal }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

// --- history ---

export interface HistoryQuery {
  page: number;
  per_page: number;
  search: string;
  status: MassMessageStatus | '';
}

/** GET /admin/mass-message-history, one page, newest first. */
export function useHistory(query: HistoryQuery) {
  return useQuery({
    queryKey: massKeys.historyPage(query),
    queryFn: ({ signal }) =>
      call(
        massMessagesApi.history,
        {
          query: {
            page: query.page,
            per_page: query.per_page,
            ...(query.search.trim() ? { search: query.search.trim() } : {}),
            ...(query.status ? { status: query.status } : {}),
          },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Applies a send's new state and counts to every cached history page holding it. Returns false when no
 * page holds it (a send created elsewhere), so the caller reloads the history.
 */
export function patchHistoryRow(
  queryClient: QueryClient,
  id: number,
  patch: Partial<Pick<MassMessage, 'status' | 'counts'>>,
): boolean {
  let found = false;
  queryClient.setQueriesData<Answer<typeof massMessagesApi.history>>(
    { queryKey: massKeys.history },
    (data) => {
      if (!data) return data;
      let changed = false;
      const rows = data.data.data.map((row) => {
        if (row.id !== id) return row;
        found = true;
        changed = true;
        return { ...row, ...patch };
      });
      return changed ? { ...data, data: { ...data.data, data: rows } } : data;
    },
  );
  return found;
}

export type MassAction = 'pause' | 'resume' | 'cancel';

/** POST /admin/messages-massive/{id}/pause | resume | cancel. */
export function useMassAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: MassAction }) =>
      call(massMessagesApi[action], { params: { id } }),
    onSuccess: (response) => {
      if (!patchHistoryRow(queryClient, response.data.id, response.data))
        void queryClient.invalidateQueries({ queryKey: massKeys.history });
    },
  });
}

// --- per-recipient report ---

export interface RecipientsQuery {
  page: number;
  per_page: number;
  search: string;
  status: MassRecipientStatus | '';
}

/** GET /admin/messages-massive/{id}/recipients: one page of the report. */
export function useRecipients(id: number, query: RecipientsQuery) {
  return useQuery({
    queryKey: massKeys.recipientsPage(id, query),
    queryFn: ({ signal }) =>
      call(
        massMessagesApi.recipients,
        {
          params: { id },
          query: {
            page: query.page,
            per_page: query.per_page,
            ...(query.search.trim() ? { search: query.search.trim() } : {}),
            ...(query.status ? { status: query.status } : {}),
          },
        },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /admin/messages-massive/{id}/recipients/export: the report (with the status filter) as CSV. */
export async function downloadReport(id: number, status: MassRecipientStatus | ''): Promise<void> {
  const response = await callResponse(
    massMessagesApi.exportRecipients,
    { params: { id }, query: status ? { status } : undefined },
    { responseType: 'blob' },
  );
  const url = URL.createObjectURL(response.data as Blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `envio-${id}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** POST /admin/messages-massive/{id}/resend: the unknown (or chosen) recipients go out again. */
export function useResend() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: MassResendRequest }) =>
      call(massMessagesApi.resend, { params: { id }, body }),
    onSuccess: (response) => {
      patchHistoryRow(queryClient, response.data.id, response.data);
      void queryClient.invalidateQueries({ queryKey: massKeys.recipients(response.data.id) });
    },
  });
}

// --- sending pace ---

const paceKey = ['mass-messages', 'pace'] as const;

/** GET /admin/mass-message-settings: messages per second the company's sends keep to. */
export function usePace() {
  return useQuery({
    queryKey: paceKey,
    queryFn: ({ signal }) => call(massMessagesApi.settings, {}, { signal }),
  });
}

/** PUT /admin/mass-message-settings. */
export function useSavePace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MassSettings) => call(massMessagesApi.saveSettings, { body }),
    onSuccess: (response) => queryClient.setQueryData(paceKey, { data: response.data }),
  });
}
