import type { ChatClient } from '@hablabot/contract';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { bumpChatClient, type ClientPages, cachedUnread, chatKeys, updateChatClients } from './api';

const client = (id: number, unread: number): ChatClient =>
  ({
    id,
    name: `Cliente ${id}`,
    whatsapp_cellphone: `52155000000${id}`,
    avatar: null,
    mode_bot: 1,
    unread_messages_count: unread,
    last_message_content: null,
    last_message_date: null,
  }) as ChatClient;

const pages = (...clients: ChatClient[]): ClientPages => ({
  pages: [{ clients, pagination: { current_page: 1, per_page: 50, has_more: false } }],
  pageParams: [1],
});

describe('the cached client lists', () => {
  let unsubscribe = () => {};
  afterEach(() => unsubscribe());

  /** Two lists: the whole one (not on screen) and a search (on screen, it has an observer). */
  function twoLists() {
    const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    queryClient.setQueryData(chatKeys.clientList(''), pages(client(1, 0), client(2, 0)));
    queryClient.setQueryData(chatKeys.clientList('cliente 2'), pages(client(2, 0)));
    const observer = new QueryObserver(queryClient, {
      queryKey: chatKeys.clientList('cliente 2'),
      queryFn: () => pages(client(2, 0)),
      staleTime: 60_000,
    });
    unsubscribe = observer.subscribe(() => {});
    const state = (search: string) => queryClient.getQueryState(chatKeys.clientList(search));
    return { queryClient, state };
  }

  it('patch only the list on screen and mark the others stale, whatever events follow', () => {
    const { queryClient, state } = twoLists();
    updateChatClients(queryClient, 2, (c) => ({ ...c, unread_messages_count: 3 }));
    bumpChatClient(queryClient, 2, { last_message_content: 'Hola' });
    const shown = queryClient.getQueryData<ClientPages>(chatKeys.clientList('cliente 2'));
    expect(shown?.pages[0]?.clients[0]).toMatchObject({
      unread_messages_count: 3,
      last_message_content: 'Hola',
    });
    // The hidden list stays as it was, and loads again when shown.
    const hidden = queryClient.getQueryData<ClientPages>(chatKeys.clientList(''));
    expect(hidden?.pages[0]?.clients.map((c) => c.unread_messages_count)).toEqual([0, 0]);
    expect(state('')?.isInvalidated).toBe(true);
    expect(state('cliente 2')?.isInvalidated).toBe(false);
  });

  it('read a client’s unread count from the list on screen first', () => {
    const { queryClient } = twoLists();
    updateChatClients(queryClient, 2, (c) => ({ ...c, unread_messages_count: 4 }));
    expect(cachedUnread(queryClient, 2)).toBe(4);
    // A client only a hidden list holds: its count there.
    expect(cachedUnread(queryClient, 1)).toBe(0);
    expect(cachedUnread(queryClient, 99)).toBe(0);
  });
});
