import type { ChatClient, Conversation, ConversationCounts, Message } from '@hablabot/contract';
import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18next } from '../../lib/i18n';
import { jsonResponse, newQueryClient, type RecordedCall } from '../../test';
import ChatPage from './ChatPage';

// What the chat screen's tests share: conversations as GET /admin/conversations answers them, the
// screen in a router, and an event stream the test writes into.

/** A client's conversation as the conversations list has it: open and nobody's unless told. */
export function conversationOf(client: ChatClient, overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: client.id + 1000,
    client: {
      id: client.id,
      name: client.name,
      last_names: client.last_names ?? null,
      whatsapp_cellphone: client.whatsapp_cellphone,
    },
    status: 'open',
    assignee: null,
    unread_count: client.unread_messages_count,
    last_message_content: client.last_message_content,
    last_message_date: client.last_message_date,
    mode_bot: client.mode_bot === 0 ? 0 : 1,
    window_expires_at: null,
    ...overrides,
  };
}

/** One page of GET /admin/conversations. */
export function conversationsPage(
  data: Conversation[],
  options: { hasMore?: boolean; page?: number; counts?: Partial<ConversationCounts>; seesAll?: boolean } = {},
) {
  const page = options.page ?? 1;
  return {
    data,
    pagination: {
      current_page: page,
      per_page: 50,
      total: data.length,
      last_page: options.hasMore ? page + 1 : page,
    },
    counts: { mine: 0, unassigned: data.length, all: data.length, ...options.counts },
    sees_all: options.seesAll ?? true,
  };
}

export function makeMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: 1,
    content: 'Hola',
    client_id: 1,
    phone: '5215512345678',
    sender_type: 'client',
    message_type: 'text',
    media_url: null,
    media_caption: null,
    media_mime_type: null,
    media_file_name: null,
    status: 2,
    error_code: null,
    error_message: null,
    error: null,
    kind: 'message',
    created_at: new Date().toISOString(),
    status_name: 'read',
    author: { type: 'customer' },
    reply_to: null,
    ...overrides,
  };
}

export function history(messages: Message[], hasMore = false, page = 1, scheduled: Message[] = []) {
  return {
    messages,
    scheduled,
    pagination: { current_page: page, per_page: 10, total: messages.length, has_more_messages: hasMore },
  };
}

export function renderChat(state?: unknown) {
  const queryClient = newQueryClient();
  const router = createMemoryRouter([{ path: '/admin/chat', element: <ChatPage /> }], {
    initialEntries: [{ pathname: '/admin/chat', state }],
  });
  const utils = render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { queryClient, router, ...utils };
}

/** jsdom lays nothing out: the list's viewport gets a browser's height so the virtual rows render. */
export async function showList() {
  const viewport = await screen.findByTestId('chat-list-viewport');
  viewport.style.height = '600px';
  return viewport;
}

export const callsTo = (all: RecordedCall[], method: string, path: string) =>
  all.filter((call) => call.method === method && call.url.split('?')[0] === path);

/**
 * GET /admin/conversations as the server answers it, over `rows` (changed by the test as it goes): the
 * view's conversations latest first, `search` in the name, and the counts as `viewerId` sees them.
 * `seesAll` unset: the caller sees every conversation when `rows` has some of others (an admin, or an
 * agent of a company whose agents see everything).
 */
export function conversationsRoute(rows: () => Conversation[], viewerId: number | null, seesAll?: boolean) {
  const inView = (view: string, c: Conversation) =>
    view === 'resolved'
      ? c.status === 'resolved'
      : c.status === 'open' &&
        (view === 'all' ||
          (view === 'mine' && c.assignee?.id === viewerId) ||
          (view === 'unassigned' && c.assignee === null));
  return (call: RecordedCall) => {
    const query = new URL(call.url, 'http://x').searchParams;
    const view = query.get('view') ?? 'all';
    const search = (query.get('search') ?? '').toLowerCase();
    const all = rows();
    const data = all
      .filter((c) => inView(view, c) && c.client.name.toLowerCase().includes(search))
      .sort((a, b) => (b.last_message_date ?? '').localeCompare(a.last_message_date ?? ''));
    const count = (v: string) => all.filter((c) => inView(v, c)).length;
    return jsonResponse(
      200,
      conversationsPage(data, {
        counts: { mine: count('mine'), unassigned: count('unassigned'), all: count('all') },
        seesAll: seesAll ?? count('all') > count('mine') + count('unassigned'),
      }),
    );
  };
}
