import type { ConversationsResponse } from '@hablabot/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import { chatKeys } from './chat-keys';
import { prefetchFirstPage, takeFirstPage } from './first-page';
import { conversationsQuery } from './list-api';

const answer = (view: string): ConversationsResponse => ({
  data: [],
  pagination: { current_page: 1, per_page: 50, total: 0, last_page: 1 },
  counts: { mine: 0, unassigned: 0, all: view === 'all' ? 0 : 1 },
  sees_all: view === 'all',
});

// The chat list's first page asked for while the chat route loads (first-page.ts), taken by the list.
describe("the chat list's early first page", () => {
  const fetchMock = vi.fn(async (url: string) => {
    const view = new URL(url, 'http://app.test').searchParams.get('view') ?? '';
    return new Response(JSON.stringify(answer(view)), { headers: { 'content-type': 'application/json' } });
  });
  beforeEach(() => {
    fetchMock.mockClear();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    takeFirstPage('all');
    clearSession();
    vi.unstubAllGlobals();
  });
  const signIn = (rol: string) =>
    setSession({ token: `token-${rol}`, user: { id: 7, email: 'a@b.test', name: 'A' }, rol });
  const asked = () => fetchMock.mock.calls.map(([url]) => String(url));

  it("asks for an admin's 'Todos' and an agent's 'Míos', page 1 of 50; nothing for others", async () => {
    signIn('admin');
    prefetchFirstPage();
    expect(asked()).toEqual(['/api/v1/admin/conversations?view=all&page=1&per_page=50']);
    expect(await takeFirstPage('all')).toEqual(answer('all'));
    // Given once.
    expect(takeFirstPage('all')).toBeUndefined();

    signIn('agent');
    prefetchFirstPage();
    expect(asked().at(-1)).toBe('/api/v1/admin/conversations?view=mine&page=1&per_page=50');
    // Another view, or another session, does not get it.
    expect(takeFirstPage('all')).toBeUndefined();
    prefetchFirstPage();
    signIn('admin');
    expect(takeFirstPage('mine')).toBeUndefined();

    fetchMock.mockClear();
    signIn('client');
    prefetchFirstPage();
    clearSession();
    prefetchFirstPage();
    expect(asked()).toEqual([]);
  });

  it('asks once when the page load and the route both ask, and again once the answer was taken', async () => {
    signIn('admin');
    // main.tsx on a full page load of the chat, then the chat route as it loads.
    prefetchFirstPage();
    prefetchFirstPage();
    expect(asked()).toHaveLength(1);
    expect(await takeFirstPage('all')).toEqual(answer('all'));
    // Back to the chat later: a fresh first page.
    prefetchFirstPage();
    expect(asked()).toHaveLength(2);
  });

  it('the list takes the early answer instead of asking again', async () => {
    signIn('admin');
    prefetchFirstPage();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const data = await queryClient.fetchInfiniteQuery(conversationsQuery('all', ''));
    expect(data.pages[0]).toEqual(answer('all'));
    expect(asked()).toHaveLength(1);
    // A search, or the list asked again later, asks the server.
    await queryClient.fetchInfiniteQuery(conversationsQuery('all', 'ana'));
    await queryClient.refetchQueries({ queryKey: chatKeys.clientList('all', ''), exact: true });
    expect(asked()).toHaveLength(3);
  });

  it('a failed early request is asked again by the list', async () => {
    signIn('admin');
    fetchMock.mockImplementationOnce(async () => {
      throw new TypeError('network down');
    });
    prefetchFirstPage();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const data = await queryClient.fetchInfiniteQuery(conversationsQuery('all', ''));
    expect(data.pages[0]).toEqual(answer('all'));
    expect(asked()).toHaveLength(2);
  });
});
