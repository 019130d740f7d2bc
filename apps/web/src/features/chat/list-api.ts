import type {
  Conversation,
  ConversationCounts,
  ConversationView,
  ConversationsResponse,
} from '@hablabot/contract';
import { clientsApi, conversationsApi, messagesApi } from '@hablabot/contract/api';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { call } from '../../lib/api-client';
import { chatKeys } from './chat-keys';
import { pageQuery, takeFirstPage } from './first-page';

export { CHAT_CLIENTS_PAGE } from './first-page';

export type ConversationPages = InfiniteData<ConversationsResponse, number>;

/**
 * GET /admin/conversations for one view, a page at a time, the latest activity first. The first page
 * without a search may already be on its way (first-page.ts: asked for as the chat route loaded).
 */
export const conversationsQuery = (view: ConversationView, search: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.clientList(view, search),
    queryFn: ({ pageParam, signal }) => {
      const ask = () =>
        call(conversationsApi.list, { query: pageQuery(view, search, pageParam) }, { signal });
      const early = pageParam === 1 && !search ? takeFirstPage(view) : undefined;
      // The early request failed (say, the network blinked): asked again, as it would have been.
      return early ? early.catch(ask) : ask();
    },
    initialPageParam: 1,
    getNextPageParam: (last: ConversationsResponse) =>
      last.pagination.current_page < last.pagination.last_page ? last.pagination.current_page + 1 : undefined,
  });

export function useChatConversations(view: ConversationView, search: string) {
  return useInfiniteQuery(conversationsQuery(view, search));
}

/** Whether a conversation is one of a view's, as the server chooses them (see CONVERSATION_VIEWS). */
export function belongsTo(
  view: ConversationView,
  conversation: Conversation,
  viewerId: number | null,
): boolean {
  if (view === 'resolved') return conversation.status === 'resolved';
  if (conversation.status !== 'open') return false;
  if (view === 'mine') return viewerId !== null && conversation.assignee?.id === viewerId;
  if (view === 'unassigned') return conversation.assignee === null;
  return true;
}

/** The view and search a cached list was asked for, from its key. */
function listOf(key: readonly unknown[]): { view: ConversationView; search: string } {
  return { view: key[2] as ConversationView, search: String(key[3] ?? '') };
}

const hasClient = (data: ConversationPages, clientId: number) =>
  data.pages.some((page) => page.data.some((row) => row.client.id === clientId));

/**
 * Changes the lists on screen with `update` (undefined leaves a list as it is). Lists not on screen
 * (another view or search) are not patched but marked stale, so they load again when shown: patching one
 * would also mark it fresh, and hide the conversations it is missing (say, new ones that wrote meanwhile).
 */
function patchShownLists(
  queryClient: QueryClient,
  update: (data: ConversationPages, key: readonly unknown[]) => ConversationPages | undefined,
) {
  for (const [key, data] of queryClient.getQueriesData<ConversationPages>({
    queryKey: chatKeys.clients,
    type: 'active',
  })) {
    if (!data) continue;
    const next = update(data, key);
    if (next) queryClient.setQueryData(key, next);
  }
  void queryClient.invalidateQueries({ queryKey: chatKeys.clients, type: 'inactive', refetchType: 'none' });
}

/** The open conversation's own copy (the header's), changed the same way as the lists' rows. */
function patchState(queryClient: QueryClient, clientId: number, update: (row: Conversation) => Conversation) {
  queryClient.setQueryData<Conversation | null>(chatKeys.state(clientId), (row) => (row ? update(row) : row));
}

/** The client's row in every list on screen, changed by `update`; whether a list on screen has it. */
export function updateChatClients(
  queryClient: QueryClient,
  clientId: number,
  update: (row: Conversation) => Conversation,
) {
  let found = false;
  patchShownLists(queryClient, (data) => {
    if (!hasClient(data, clientId)) return undefined;
    found = true;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        data: page.data.map((row) => (row.client.id === clientId ? update(row) : row)),
      })),
    };
  });
  patchState(queryClient, clientId, update);
  return found;
}

/** The shortest time between two loads of the lists on screen caused by events (see below). */
export const LIST_RELOAD_MS = 1000;
const lastReload = new WeakMap<QueryClient, number>();
const reloadLater = new WeakMap<QueryClient, ReturnType<typeof setTimeout>>();

/**
 * Loads the lists on screen again for conversations they do not hold: at once, then at most once per
 * `LIST_RELOAD_MS` whatever the number of events (a mass message brings one per recipient, dozens a second),
 * the last ones of a burst folded into one load at its end. A load already running is not cut short for
 * a new one, so a list of many pages always finishes loading.
 */
export function reloadShownLists(queryClient: QueryClient) {
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
 * conversation no list on screen holds makes them load again (see reloadShownLists), so it appears where
 * the server places it (or nowhere, when it is not of the view).
 */
export function bumpChatClient(queryClient: QueryClient, clientId: number, patch: Partial<Conversation>) {
  let found = false;
  patchShownLists(queryClient, (data) => {
    let moved: Conversation | null = null;
    const pages = data.pages.map((page) => ({
      ...page,
      data: page.data.filter((row) => {
        if (row.client.id !== clientId) return true;
        moved = { ...row, ...patch };
        return false;
      }),
    }));
    const [first, ...rest] = pages;
    if (!moved || !first) return undefined;
    found = true;
    return { ...data, pages: [{ ...first, data: [moved, ...first.data] }, ...rest] };
  });
  patchState(queryClient, clientId, (row) => ({ ...row, ...patch }));
  if (!found) reloadShownLists(queryClient);
}

/** A conversation as any cached list (those on screen first) or the open conversation's copy holds it. */
export function cachedConversation(queryClient: QueryClient, clientId: number): Conversation | null {
  for (const type of ['active', 'inactive'] as const) {
    for (const [, data] of queryClient.getQueriesData<ConversationPages>({
      queryKey: chatKeys.clients,
      type,
    })) {
      for (const page of data?.pages ?? []) {
        const row = page.data.find((r) => r.client.id === clientId);
        if (row) return row;
      }
    }
  }
  return queryClient.getQueryData<Conversation | null>(chatKeys.state(clientId)) ?? null;
}

const COUNTED = ['mine', 'unassigned', 'all'] as const;

/** The tabs' counts moved from `before` to `after` (a view loses one, another gains one). */
function movedCounts(
  counts: ConversationCounts,
  before: Conversation | null,
  after: Conversation,
  viewerId: number | null,
): ConversationCounts {
  const next = { ...counts };
  for (const view of COUNTED) {
    const was = before !== null && belongsTo(view, before, viewerId);
    const is = belongsTo(view, after, viewerId);
    if (was !== is) next[view] = Math.max(0, next[view] + (is ? 1 : -1));
  }
  return next;
}

/** Where a conversation goes in a list sorted by latest activity: before the first older row. */
function insertByActivity(data: ConversationPages, row: Conversation): ConversationPages | undefined {
  const at = row.last_message_date ?? '';
  const pages = data.pages.map((page) => ({ ...page, data: [...page.data] }));
  for (const page of pages) {
    const index = page.data.findIndex((other) => (other.last_message_date ?? '') < at);
    if (index >= 0) {
      page.data.splice(index, 0, row);
      return { ...data, pages };
    }
  }
  // Older than every loaded row: last, when nothing more is to load; otherwise a later page brings it.
  const last = pages.at(-1);
  if (!last || last.pagination.current_page < last.pagination.last_page) return undefined;
  last.data.push(row);
  return { ...data, pages };
}

/**
 * A conversation changed (assignee, status, bot…), by anyone: in each list on screen its row is
 * replaced, removed when it is no longer of the view (an agent who loses it drops it from 'Míos'), or
 * added where its activity places it; the tabs' counts follow. A conversation no cached list knew makes
 * the lists load again, for counts the screen cannot work out.
 */
export function applyConversationChange(
  queryClient: QueryClient,
  next: Conversation,
  viewerId: number | null,
) {
  const clientId = next.client.id;
  const before = cachedConversation(queryClient, clientId);
  let reload = before === null;
  patchShownLists(queryClient, (data, key) => {
    const { view, search } = listOf(key);
    const has = hasClient(data, clientId);
    const fits = belongsTo(view, next, viewerId);
    // A conversation no cached list knew: the reload brings the counts.
    const withCounts = (d: ConversationPages): ConversationPages =>
      before === null
        ? d
        : {
            ...d,
            pages: d.pages.map((page) => ({
              ...page,
              counts: movedCounts(page.counts, before, next, viewerId),
            })),
          };
    if (has) {
      const pages = data.pages.map((page) => ({
        ...page,
        data: fits
          ? page.data.map((row) => (row.client.id === clientId ? next : row))
          : page.data.filter((row) => row.client.id !== clientId),
      }));
      return withCounts({ ...data, pages });
    }
    if (!fits) return withCounts(data);
    // Whether a searched list should hold it is the server's call.
    const added = search ? undefined : insertByActivity(data, next);
    if (!added) reload = true;
    return withCounts(added ?? data);
  });
  queryClient.setQueryData(chatKeys.state(clientId), next);
  if (reload) reloadShownLists(queryClient);
}

/** A client's unread count as the loaded lists hold it now (0 when no list holds the client). */
export function cachedUnread(queryClient: QueryClient, clientId: number): number {
  return cachedConversation(queryClient, clientId)?.unread_count ?? 0;
}

/** `cachedUnread`, kept current as the lists change (live events, mark-as-read). */
export function useCachedUnread(clientId: number | null): number {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => (clientId === null ? 0 : cachedUnread(queryClient, clientId)),
  );
}

export function useToggleBotMode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, mode }: { clientId: number; mode: 0 | 1 }) =>
      call(clientsApi.toggleBotMode, { params: { id: clientId }, body: { mode } }),
    onSuccess: (response) => {
      updateChatClients(queryClient, response.client.id, (row) => ({
        ...row,
        mode_bot: response.client.mode_bot === 0 ? 0 : 1,
      }));
    },
  });
}

export function useMarkAsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: number) => call(messagesApi.markAsRead, { params: { clientId } }),
    onSuccess: (_data, clientId) => {
      updateChatClients(queryClient, clientId, (row) => ({ ...row, unread_count: 0 }));
    },
  });
}
