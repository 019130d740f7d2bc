import type {
  ChatClient,
  ClientMessagesResponse,
  Message,
  MessagesSummaryResponse,
  SendTemplateMessageRequest,
  TemplatesResponse,
} from '@hablabot/contract';
import { clientsApi, messagesApi, templatesApi } from '@hablabot/contract/api';
import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { call, callResponse } from '../../lib/api-client';

/** Clients asked for at a time as the list scrolls. */
export const CHAT_CLIENTS_PAGE = 50;
/** Messages of one history page. */
export const CHAT_MESSAGES_PAGE = 10;

export const chatKeys = {
  all: ['chat'] as const,
  clients: ['chat', 'clients'] as const,
  clientList: (search: string) => ['chat', 'clients', search] as const,
  messages: ['chat', 'messages'] as const,
  conversation: (clientId: number) => ['chat', 'messages', clientId] as const,
  templates: ['chat', 'templates'] as const,
};

export type ClientPages = InfiniteData<MessagesSummaryResponse, number>;
export type MessagePages = InfiniteData<ClientMessagesResponse, number>;

/** GET /admin/client/messages-summary, a page at a time, the most recent conversations first. */
export function useChatClients(search: string) {
  return useInfiniteQuery({
    queryKey: chatKeys.clientList(search),
    queryFn: ({ pageParam, signal }) =>
      call(
        clientsApi.messagesSummary,
        { query: { page: pageParam, per_page: CHAT_CLIENTS_PAGE, ...(search ? { search } : {}) } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.has_more ? last.pagination.current_page + 1 : undefined),
  });
}

/** GET /admin/client/{id}/messages: page 1 holds the newest ten; older pages follow. */
export function useConversation(clientId: number) {
  return useInfiniteQuery({
    queryKey: chatKeys.conversation(clientId),
    queryFn: ({ pageParam, signal }) =>
      call(
        messagesApi.history,
        { params: { id: clientId }, query: { page: pageParam, per_page: CHAT_MESSAGES_PAGE } },
        { signal },
      ),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pagination.has_more_messages ? last.pagination.current_page + 1 : undefined,
    staleTime: 0,
  });
}

/**
 * Changes the client lists on screen with `update` (undefined leaves a list as it is). Lists not on screen
 * (another search) are not patched but marked stale, so they load again when shown: patching one would
 * also mark it fresh, and hide the clients it is missing (say, new ones that wrote meanwhile).
 */
function patchShownLists(queryClient: QueryClient, update: (data: ClientPages) => ClientPages | undefined) {
  queryClient.setQueriesData<ClientPages>({ queryKey: chatKeys.clients, type: 'active' }, (data) =>
    data ? update(data) : undefined,
  );
  void queryClient.invalidateQueries({ queryKey: chatKeys.clients, type: 'inactive', refetchType: 'none' });
}

/** The client's row in every list on screen, changed by `update`; whether a list on screen has it. */
export function updateChatClients(
  queryClient: QueryClient,
  clientId: number,
  update: (client: ChatClient) => ChatClient,
) {
  let found = false;
  patchShownLists(queryClient, (data) => {
    if (!data.pages.some((page) => page.clients.some((client) => client.id === clientId))) return undefined;
    found = true;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        clients: page.clients.map((client) => (client.id === clientId ? update(client) : client)),
      })),
    };
  });
  return found;
}

/** The shortest time between two loads of the lists on screen caused by events (see below). */
export const LIST_RELOAD_MS = 1000;
const lastReload = new WeakMap<QueryClient, number>();
const reloadLater = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/**
 * Loads the lists on screen again for clients they do not hold: at once, then at most once per
 * `LIST_RELOAD_MS` whatever the number of events (a mass message brings one per recipient, dozens a second),
 * the last ones of a burst folded into one load at its end. A load already running is not cut short for
 * a new one, so a list of many pages always finishes loading.
 */
function reloadShownLists(queryClient: QueryClient) {
  if (reloadLater.has(queryClient)) return;
  const reload = () => {
    lastReload.set(queryClient, Date.now());
    void queryClient.invalidateQueries(
      { queryKey: chatKeys.clients, type: 'active' },
      { cancelRefetch: false },
    );
  };
  const wait = (lastReload.get(queryClient) ?? 0) + LIST_RELOAD_MS - Date.now();
  if (wait <= 0) return reload();
  reloadLater.set(
    queryClient,
    setTimeout(() => {
      reloadLater.delete(queryClient);
      reload();
    }, wait),
  );
}

/**
 * A client's conversation moved: its row goes to the top of every list on screen with `patch` applied. A
 * client no list on screen holds makes them load again (see reloadShownLists), so it appears where the
 * server places it.
 */
export function bumpChatClient(queryClient: QueryClient, clientId: number, patch: Partial<ChatClient>) {
  let found = false;
  patchShownLists(queryClient, (data) => {
    let moved: ChatClient | null = null;
    const pages = data.pages.map((page) => ({
      ...page,
      clients: page.clients.filter((client) => {
        if (client.id !== clientId) return true;
        moved = { ...client, ...patch };
        return false;
      }),
    }));
    const [first, ...rest] = pages;
    if (!moved || !first) return undefined;
    found = true;
    return { ...data, pages: [{ ...first, clients: [moved, ...first.clients] }, ...rest] };
  });
  if (!found) reloadShownLists(queryClient);
}

/** Changes one cached message of a conversation (a status, say). */
export function updateCachedMessage(
  queryClient: QueryClient,
  clientId: number,
  messageId: number,
  update: (message: Message) => Message,
) {
  queryClient.setQueryData<MessagePages>(chatKeys.conversation(clientId), (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            messages: page.messages.map((message) => (message.id === messageId ? update(message) : message)),
          })),
        }
      : data,
  );
}

/** Adds a message to the newest page of a cached conversation, unless it is there already. */
export function appendCachedMessage(queryClient: QueryClient, clientId: number, message: Message) {
  queryClient.setQueryData<MessagePages>(chatKeys.conversation(clientId), (data) => {
    if (!data || data.pages.length === 0) return data;
    if (data.pages.some((page) => page.messages.some((m) => m.id === message.id))) {
      return {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: page.messages.map((m) => (m.id === message.id ? { ...m, ...message } : m)),
        })),
      };
    }
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, messages: [...first.messages, message] }, ...rest] };
  });
}

export function useToggleBotMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, mode }: { clientId: number; mode: 0 | 1 }) =>
      call(clientsApi.toggleBotMode, { params: { id: clientId }, body: { mode } }),
    onSuccess: (response) => {
      updateChatClients(queryClient, response.client.id, (client) => ({
        ...client,
        mode_bot: response.client.mode_bot,
      }));
    },
  });
}

export function useMarkAsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: number) => call(messagesApi.markAsRead, { params: { clientId } }),
    onSuccess: (_data, clientId) => {
      updateChatClients(queryClient, clientId, (client) => ({ ...client, unread_messages_count: 0 }));
    },
  });
}

export interface SendMessageVariables {
  /** A failed message's id when it is sent again. */
  id?: number;
  content: string;
  client_id: number;
  phone: string;
}

/** POST /admin/message: 201 for a new message, 200 for a resend; the answer is the stored message. */
export async function sendMessage(body: SendMessageVariables) {
  const response = await callResponse(messagesApi.send, { body });
  return { status: response.status, message: response.data.data };
}

export function useTemplates(enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.templates,
    queryFn: ({ signal }) => call(templatesApi.list, {}, { signal }),
    enabled,
  });
}

export function useSyncTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const response = await callResponse(templatesApi.sync);
      if (response.status !== 200) throw new Error(`Sync answered ${response.status}`);
      return response.data;
    },
    onSuccess: (data) => {
      if (Array.isArray(data?.data))
        queryClient.setQueryData<TemplatesResponse>(chatKeys.templates, { data: data.data });
      else void queryClient.invalidateQueries({ queryKey: chatKeys.templates });
    },
  });
}

export function useSendTemplate() {
  return useMutation({
    mutationFn: async (body: SendTemplateMessageRequest) => {
      const response = await callResponse(templatesApi.send, { body });
      if (response.status !== 201) throw new Error(`Template send answered ${response.status}`);
      return response.data;
    },
  });
}

/**
 * A client's unread count as the loaded lists hold it now (0 when no list holds the client). The lists on
 * screen come first: only they follow the live events.
 */
export function cachedUnread(queryClient: QueryClient, clientId: number): number {
  for (const type of ['active', 'inactive'] as const) {
    for (const [, data] of queryClient.getQueriesData<ClientPages>({ queryKey: chatKeys.clients, type })) {
      for (const page of data?.pages ?? []) {
        const row = page.clients.find((client) => client.id === clientId);
        if (row) return row.unread_messages_count;
      }
    }
  }
  return 0;
}

/** `cachedUnread`, kept current as the lists change (live events, mark-as-read). */
export function useCachedUnread(clientId: number | null): number {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => (clientId === null ? 0 : cachedUnread(queryClient, clientId)),
  );
}
