import type { Conversation } from '@hablabot/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bumpChatClient,
  type ConversationPages,
  cachedUnread,
  chatKeys,
  LIST_RELOAD_MS,
  updateChatClients,
} from './api';

const client = (id: number, unread: number): Conversation => ({
  id: id + 1000,
  client: { id, name: `Cliente ${id}`, last_names: null, whatsapp_cellphone: `52155000000${id}` },
  status: 'open',
  assignee: null,
  mode_bot: 1,
  unread_count: unread,
  last_message_content: null,
  last_message_date: null,
  window_expires_at: null,
});

const pages = (...data: Conversation[]): ConversationPages => ({
  pages: [
    {
      data,
      pagination: { current_page: 1, per_page: 50, total: data.length, last_page: 1 },
      counts: { mine: 0, unassigned: data.length, all: data.length },
      sees_all: true,
    },
  ],
  pageParams: [1],
});

describe('the cached client lists', () => {
  let unsubscribe = () => {};
  afterEach(() => unsubscribe());

  /** Two lists: the whole one (not on screen) and a search (on screen, it has an observer). */
  function twoLists() {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    queryClient.setQueryData(chatKeys.clientList('all', ''), pages(client(1, 0), client(2, 0)));
    queryClient.setQueryData(chatKeys.clientList('all', 'cliente 2'), pages(client(2, 0)));
    const observer = new QueryObserver(queryClient, {
      queryKey: chatKeys.clientList('all', 'cliente 2'),
      queryFn: () => pages(client(2, 0)),
      staleTime: 60_000,
    });
    unsubscribe = observer.subscribe(() => {});
    const state = (search: string) => queryClient.getQueryState(chatKeys.clientList('all', search));
    return { queryClient, state };
  }

  it('patch only the list on screen and mark the others stale, whatever events follow', () => {
    const { queryClient, state } = twoLists();
    updateChatClients(queryClient, 2, (c) => ({ ...c, unread_count: 3 }));
    bumpChatClient(queryClient, 2, { last_message_content: 'Hola' });
    const shown = queryClient.getQueryData<ConversationPages>(chatKeys.clientList('all', 'cliente 2'));
    expect(shown?.pages[0]?.data[0]).toMatchObject({
      unread_count: 3,
      last_message_content: 'Hola',
    });
    // The hidden list stays as it was, and loads again when shown.
    const hidden = queryClient.getQueryData<ConversationPages>(chatKeys.clientList('all', ''));
    expect(hidden?.pages[0]?.data.map((c) => c.unread_count)).toEqual([0, 0]);
    expect(state('')?.isInvalidated).toBe(true);
    expect(state('cliente 2')?.isInvalidated).toBe(false);
  });

  it('read a client’s unread count from the list on screen first', () => {
    const { queryClient } = twoLists();
    updateChatClients(queryClient, 2, (c) => ({ ...c, unread_count: 4 }));
    expect(cachedUnread(queryClient, 2)).toBe(4);
    // A client only a hidden list holds: its count there.
    expect(cachedUnread(queryClient, 1)).toBe(0);
    expect(cachedUnread(queryClient, 99)).toBe(0);
  });

  it('load the list on screen again for clients it lacks: at once, then at most once per second', async () => {
    const queryClient = new QueryClient();
    let loads = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: chatKeys.clientList('all', ''),
      queryFn: async () => {
        loads++;
        await new Promise((r) => setTimeout(r, 50));
        return pages(client(1, 0));
      },
    });
    unsubscribe = observer.subscribe(() => {});
    await new Promise((r) => setTimeout(r, 100));
    expect(loads).toBe(1);
    // A mass message: one event per recipient, none of them in the list on screen.
    for (let id = 100; id < 160; id++) bumpChatClient(queryClient, id, { last_message_content: 'Aviso' });
    await new Promise((r) => setTimeout(r, 100));
    expect(loads).toBe(2);
    for (let id = 160; id < 220; id++) bumpChatClient(queryClient, id, { last_message_content: 'Aviso' });
    await new Promise((r) => setTimeout(r, LIST_RELOAD_MS + 100));
    // The burst's end is loaded once more, and that is all.
    expect(loads).toBe(3);
  });
});
