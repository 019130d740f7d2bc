import type { Conversation } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import {
  eventStream,
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
  type RecordedCall,
} from '../../test';
import {
  callsTo,
  conversationOf,
  conversationsRoute,
  history,
  renderChat,
  showList,
} from './inbox-test-data';

const ADMIN = { id: 1, name: 'Admin' };
const PEDRO = { id: 7, name: 'Pedro' };
const member = (user: { id: number; name: string }, role: 'admin' | 'agent') => ({
  ...user,
  email: `${user.id}@x.mx`,
  role,
  open_conversations: 0,
  online: true,
  created_at: '2026-11-01T10:00:00.000Z',
});

const signIn = (user: { id: number; name: string }, rol: 'admin' | 'agent') =>
  setSession({ token: 'tok', user: { id: user.id, email: `${user.id}@x.mx`, name: user.name }, rol });

const ana = () =>
  conversationOf(makeClient({ id: 1, name: 'Ana', last_message_date: new Date().toISOString() }));

/**
 * The conversation routes over one stored conversation, answering as the server does: assign, resolve
 * and reopen change it and return it.
 */
function conversationServer(start: Conversation, viewerId: number) {
  let stored = start;
  const change = (patch: (c: Conversation) => Conversation) => () => {
    stored = patch(stored);
    return jsonResponse(200, { data: stored });
  };
  const team = [ADMIN, PEDRO];
  const path = `/api/v1/admin/conversations/${start.id}`;
  return {
    get: () => stored,
    set: (next: Conversation) => {
      stored = next;
    },
    routes: {
      'GET /api/v1/admin/conversations': conversationsRoute(() => [stored], viewerId),
      'GET /api/v1/admin/team': [200, { data: [member(ADMIN, 'admin'), member(PEDRO, 'agent')] }],
      [`GET /api/v1/admin/client/${start.client.id}/messages`]: [200, history([])],
      [`POST ${path}/assign`]: (call: RecordedCall) => {
        const userId = (call.body as { user_id: number | null }).user_id;
        return change((c) => ({ ...c, assignee: team.find((u) => u.id === userId) ?? null }))();
      },
      [`POST ${path}/resolve`]: change((c) => ({ ...c, status: 'resolved' })),
      [`POST ${path}/reopen`]: change((c) => ({ ...c, status: 'open' })),
    } as Parameters<typeof mockFetch>[0],
  };
}

async function openAna() {
  await showList();
  await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
  return screen.findByRole('region', { name: 'Ana' });
}

let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
});
afterEach(() => {
  restoreLayout();
  vi.restoreAllMocks();
});

describe('The open conversation’s header', () => {
  it(
    'lets an admin assign it to anyone of the team or nobody, and resolve and reopen it',
    async () => {
      signIn(ADMIN, 'admin');
      const server = conversationServer(ana(), ADMIN.id);
      const net = mockFetch(server.routes);
      renderChat();
      const conversation = await openAna();
      const select = within(conversation).getByRole('combobox', { name: 'Asignado a' });
      await within(select).findByRole('option', { name: 'Pedro' });
      expect(select).toHaveValue('');
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Sin asignar', 'Admin', 'Pedro']);

      await userEvent.selectOptions(select, 'Pedro');
      await waitFor(() => expect(select).toHaveValue('7'));
      await userEvent.selectOptions(select, 'Sin asignar');
      await waitFor(() => expect(select).toHaveValue(''));
      const path = '/api/v1/admin/conversations/1001';
      expect(callsTo(net.calls, 'POST', `${path}/assign`).map((c) => c.body)).toEqual([
        { user_id: 7 },
        { user_id: null },
      ]);

      await userEvent.click(within(conversation).getByRole('button', { name: 'Resolver' }));
      await userEvent.click(await within(conversation).findByRole('button', { name: 'Reabrir' }));
      await within(conversation).findByRole('button', { name: 'Resolver' });
      expect(callsTo(net.calls, 'POST', `${path}/resolve`)).toHaveLength(1);
      expect(callsTo(net.calls, 'POST', `${path}/reopen`)).toHaveLength(1);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "lets an agent take an unassigned conversation ('Tomar') and give it back ('Soltar'), never reading the team",
    async () => {
      signIn(PEDRO, 'agent');
      const server = conversationServer(ana(), PEDRO.id);
      const net = mockFetch(server.routes);
      renderChat();
      await userEvent.click(await screen.findByRole('tab', { name: /^Sin asignar/ }));
      const conversation = await openAna();
      expect(within(conversation).queryByRole('combobox', { name: 'Asignado a' })).not.toBeInTheDocument();
      await userEvent.click(within(conversation).getByRole('button', { name: 'Tomar' }));
      await userEvent.click(await within(conversation).findByRole('button', { name: 'Soltar' }));
      await within(conversation).findByRole('button', { name: 'Tomar' });
      expect(
        callsTo(net.calls, 'POST', '/api/v1/admin/conversations/1001/assign').map((c) => c.body),
      ).toEqual([{ user_id: 7 }, { user_id: null }]);
      expect(callsTo(net.calls, 'GET', '/api/v1/admin/team')).toHaveLength(0);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'shows the assignment and status changes made by others as they happen',
    async () => {
      signIn(ADMIN, 'admin');
      const stream = eventStream();
      const server = conversationServer(ana(), ADMIN.id);
      mockFetch({ ...server.routes, 'GET /api/v1/admin/events': () => stream.response() });
      renderChat();
      const conversation = await openAna();
      const select = within(conversation).getByRole('combobox', { name: 'Asignado a' });
      await within(select).findByRole('option', { name: 'Pedro' });
      await stream.connected;
      server.set({ ...server.get(), assignee: PEDRO, status: 'resolved' });
      await stream.send('conversation.changed', { client_id: 1, conversation: server.get() });
      await waitFor(() => expect(select).toHaveValue('7'));
      expect(within(conversation).getByRole('button', { name: 'Reabrir' })).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'says when the bot is paused for the client, with one button to resume it; the list icon shows the state',
    async () => {
      signIn(ADMIN, 'admin');
      const server = conversationServer({ ...ana(), mode_bot: 0 }, ADMIN.id);
      const net = mockFetch({
        ...server.routes,
        'POST /api/v1/admin/client/1/toggle-bot-mode': [
          200,
          { message: 'ok', client: makeClient({ id: 1, name: 'Ana', mode_bot: 1 }) },
        ],
      });
      renderChat();
      const conversation = await openAna();
      const rowBot = screen.getByRole('button', { name: 'Reanudar el bot de Ana' });
      expect(rowBot).toHaveAttribute('data-bot-state', 'paused');
      expect(rowBot).toHaveAttribute('title', 'Bot en pausa · Reanudar el bot de Ana');
      const banner = within(conversation).getByText('El bot está en pausa para este cliente');
      await userEvent.click(within(conversation).getByRole('button', { name: 'Reanudar bot' }));
      await waitFor(() => expect(banner).not.toBeInTheDocument());
      expect(callsTo(net.calls, 'POST', '/api/v1/admin/client/1/toggle-bot-mode')[0]?.body).toEqual({
        mode: 1,
      });
      const active = screen.getByRole('button', { name: 'Pausar el bot de Ana' });
      expect(active).toHaveAttribute('data-bot-state', 'active');
      expect(active).toHaveAttribute('title', 'Bot activo · Pausar el bot de Ana');
    },
    SCREEN_TEST_TIMEOUT,
  );
});
