import type {
  Answer,
  Client,
  ClientInput,
  ClientSortField,
  Segment,
  SegmentRequest,
} from '@hablabot/contract';
import { clientsApi, segmentsApi } from '@hablabot/contract/api';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call, callResponse } from '../../lib/api-client';

/**
 * Query keys of the clients feature. Lists carry the UI language because the server localises their
 * messages (the page heading comes from GET /admin/client), so a language switch fetches them again.
 */
export const clientKeys = {
  all: ['clients'] as const,
  list: (language: string) => ['clients', 'list', language] as const,
  /** One page of the table: everything the server is asked for is part of the key. */
  page: (language: string, query: ClientsPageQuery) => ['clients', 'list', language, query] as const,
};

export const segmentKeys = {
  all: ['segments'] as const,
  list: (language: string) => ['segments', 'list', language] as const,
};

type ClientsAnswer = Answer<typeof clientsApi.list>;

/** GET /admin/client; title and subtitle are optional so an older server still renders the page. */
export type ClientsListResponse = Omit<ClientsAnswer, 'title' | 'subtitle' | 'pagination'> & {
  title?: string;
  subtitle?: string;
};

/** What the clients table asks GET /admin/client for (the query it sends, fully spelled out). */
export interface ClientsPageQuery {
  search: string;
  /** From 1. */
  page: number;
  per_page: number;
  sort: ClientSortField;
  order: 'asc' | 'desc';
}

/** The server answers at most this many clients at a time (GET /admin/client's `per_page` ceiling). */
export const CLIENTS_PAGE_MAX = 1000;

/** The pagination is absent from a server that answers every client at once. */
export type ClientsPageResponse = ClientsListResponse & Partial<Pick<ClientsAnswer, 'pagination'>>;

/**
 * Every client of the company, read a page of CLIENTS_PAGE_MAX at a time: the server caps one answer, so
 * a long list is never cut silently. `onProgress` hears how many of how many have arrived. Only the
 * export reads the whole list; the table asks for one page at a time (`useClientsPage`).
 */
export async function fetchClients(
  language: string,
  signal?: AbortSignal,
  onProgress?: (loaded: number, total: number) => void,
): Promise<ClientsListResponse> {
  const page = (n: number): Promise<ClientsPageResponse> =>
    call(
      clientsApi.list,
      // Sorted by id so the pages neither skip nor repeat a client.
      { query: { page: n, per_page: CLIENTS_PAGE_MAX, sort: 'id', order: 'asc' } },
      { signal, language },
    );
  const first = await page(1);
  const { pagination, ...rest } = first;
  if (!pagination || pagination.last_page <= 1) return rest;
  const clients = [...first.clients];
  onProgress?.(clients.length, pagination.total);
  for (let n = 2; n <= pagination.last_page; n++) {
    clients.push(...(await page(n)).clients);
    onProgress?.(clients.length, pagination.total);
  }
  return { ...rest, clients };
}

export function fetchSegments(
  language: string,
  signal?: AbortSignal,
): Promise<Answer<typeof segmentsApi.list>> {
  return call(segmentsApi.list, {}, { signal, language });
}

/**
 * The UI language, sent explicitly: the switcher changes the UI first and stores the choice only once
 * the server accepted it, so the stored value can still be the old language when the list refetches.
 */
export function useUiLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language;
}

/** The query string of one table page; an empty search is left out. */
export function clientsQueryParams(
  query: ClientsPageQuery,
): Omit<ClientsPageQuery, 'search'> & { search?: string } {
  const search = query.search.trim();
  return {
    ...(search ? { search } : {}),
    page: query.page,
    per_page: query.per_page,
    sort: query.sort,
    order: query.order,
  };
}

export function fetchClientsPage(
  language: string,
  query: ClientsPageQuery,
  signal?: AbortSignal,
): Promise<ClientsPageResponse> {
  return call(clientsApi.list, { query: clientsQueryParams(query) }, { signal, language });
}

/**
 * One page of the clients table, searched and sorted by the server. While the next page loads the
 * previous one stays on screen (keepPreviousData), so paging and typing never flash an empty table.
 */
export function useClientsPage(query: ClientsPageQuery) {
  const language = useUiLanguage();
  return useQuery({
    queryKey: clientKeys.page(language, query),
    queryFn: ({ signal }) => fetchClientsPage(language, query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useSegments() {
  const language = useUiLanguage();
  return useQuery({
    queryKey: segmentKeys.list(language),
    queryFn: ({ signal }) => fetchSegments(language, signal),
    placeholderData: (previous) => previous,
  });
}

/** Clients embed their segments' chips and segments count their clients: a write to either stales both. */
function invalidateClientsAndSegments(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: clientKeys.all }),
    queryClient.invalidateQueries({ queryKey: segmentKeys.all }),
  ]);
}

export interface SaveClientVariables {
  /** Present when editing. */
  id?: number;
  body: ClientInput;
}

/** POST /admin/client or PUT /admin/client/{id}. */
export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveClientVariables) =>
      id === undefined
        ? call(clientsApi.create, { body })
        : call(clientsApi.update, { params: { id }, body }),
    onSuccess: () => invalidateClientsAndSegments(queryClient),
  });
}

/** Thrown when a delete answers 2xx but not 200: only a 200 confirms that the rows are gone. */
export class UnconfirmedDeleteError extends Error {
  constructor(readonly status: number) {
    super(`Delete answered ${status}, not 200`);
    this.name = 'UnconfirmedDeleteError';
  }
}

/** DELETE /admin/client with `{ ids }`: all of them or none. */
export function useDeleteClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (ids: number[]) => {
      const response = await callResponse(clientsApi.remove, { body: { ids } });
      if (response.status !== 200) throw new UnconfirmedDeleteError(response.status);
      return response.data ?? {};
    },
    onSuccess: () => invalidateClientsAndSegments(queryClient),
  });
}

export interface SaveSegmentVariables {
  id?: number;
  body: SegmentRequest;
}

export function useSaveSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveSegmentVariables) =>
      id === undefined
        ? call(segmentsApi.create, { body })
        : call(segmentsApi.update, { params: { id }, body }),
    onSuccess: () => invalidateClientsAndSegments(queryClient),
  });
}

export function useDeleteSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      const response = await callResponse(segmentsApi.remove, { params: { id } });
      if (response.status !== 200) throw new UnconfirmedDeleteError(response.status);
      return response.data ?? {};
    },
    onSuccess: () => invalidateClientsAndSegments(queryClient),
  });
}

/** POST /import/clients with the CSV rows keyed by their header, as Papa Parse gives them. */
export function useImportClients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: Record<string, string>[]) => call(clientsApi.import, { body: { clients: rows } }),
    onSettled: () => invalidateClientsAndSegments(queryClient),
  });
}

export type { Client, Segment };
