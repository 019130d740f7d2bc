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
} from '../../test';
import {
  callsTo,
  conversationOf,
  conversationsRoute,
  history,
  makeMessage,
  renderChat,
  showList,
} from './inbox-test-data';

const ADMIN = { id: 1, name: 'Admin' };
const PEDRO = { id: 7, name: 'Pedro' };
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

const row = (id: number, name: string, minutesAgo: number, overrides: Partial<Conversation> = {}) =>
  conversationOf(
    makeClient({ id, name, whatsapp_cellphone: `52155000000${id}`, last_message_date: at(minutesAgo) }),
    { last_message_content: `Mensaje de ${name}`, ...overrides },
  );

const signIn = (user: { id: number; name: string }, rol: 'admin' | 'agent') =>
  setSession({ token: 'tok', user: { id: user.id, email: `${user.id}@x.mx`, name: user.name }, rol });

const tabs = () => screen.findAllByRole('tab');
const rowNames = () => [...document.querySelectorAll('.chat-row__name')].map((el) => el.textContent ?? '');
const lists = (all: { url: string }[]) =>
  all.map((c) => c.url).filter((u) => u.startsWith('/api/v1/admin/conversations'));

let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
});
afterEach(() => {
  restoreLayout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Chat views', () => {
  it(
    'gives an admin four tabs with their counts; a tab asks the server for its view, and the search stays inside it',
    async () => {
      signIn(ADMIN, 'admin');
      const rows = [
        row(1, 'Ana', 1, { assignee: ADMIN }),
        row(2, 'Luis', 2),
        row(3, 'Marta', 3, { assignee: PEDRO }),
        row(4, 'Sofía', 4, { status: 'resolved' }),
      ];
      const net = mockFetch({ 'GET /api/v1/admin/conversations': conversationsRoute(() => rows, ADMIN.id) });
      renderChat();
      await showList();
      expect((await tabs()).map((tab) => tab.textContent)).toEqual([
        'Míos 1',
        'Sin asignar 1',
        'Todos 3',
        'Resueltos',
      ]);
      // An admin starts on every open conversation.
      expect(screen.getByRole('tab', { name: 'Todos 3' })).toHaveAttribute('aria-selected', 'true');
      await waitFor(() => expect(rowNames()).toEqual(['Ana', 'Luis', 'Marta']));

      // The arrows move between the tabs (the tabs pattern), as a click does.
      screen.getByRole('tab', { name: 'Todos 3' }).focus();
      await userEvent.keyboard('{ArrowLeft}');
      expect(screen.getByRole('tab', { name: /^Sin asignar/ })).toHaveFocus();
      await waitFor(() => expect(rowNames()).toEqual(['Luis']));
      expect(screen.getByRole('tab', { name: /^Sin asignar/ })).toHaveAttribute('aria-selected', 'true');
      await userEvent.click(screen.getByRole('tab', { name: 'Resueltos' }));
      await waitFor(() => expect(rowNames()).toEqual(['Sofía']));
      await userEvent.type(screen.getByRole('searchbox'), 'Ana', { delay: null });
      expect(await screen.findByText('No hay clientes para mostrar')).toBeInTheDocument();
      expect(lists(net.calls)).toEqual([
        '/api/v1/admin/conversations?view=all&page=1&per_page=50',
        '/api/v1/admin/conversations?view=unassigned&page=1&per_page=50',
        '/api/v1/admin/conversations?view=resolved&page=1&per_page=50',
        '/api/v1/admin/conversations?view=resolved&page=1&per_page=50&search=Ana',
      ]);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "gives an agent 'Míos' and 'Sin asignar', and the other two when the company lets agents see everything",
    async () => {
      signIn(PEDRO, 'agent');
      const rows = [row(1, 'Ana', 1, { assignee: PEDRO }), row(2, 'Luis', 2)];
      mockFetch({ 'GET /api/v1/admin/conversations': conversationsRoute(() => rows, PEDRO.id) });
      const view = renderChat();
      await showList();
      await waitFor(() => expect(rowNames()).toEqual(['Ana']));
      expect((await tabs()).map((tab) => tab.textContent)).toEqual(['Míos 1', 'Sin asignar 1']);
      expect(screen.getByRole('tab', { name: 'Míos 1' })).toHaveAttribute('aria-selected', 'true');
      view.unmount();

      // The company lets agents see everything: a conversation of someone else is counted in 'Todos'.
      rows.push(row(3, 'Marta', 3, { assignee: ADMIN }));
      renderChat();
      await showList();
      await waitFor(async () =>
        expect((await tabs()).map((tab) => tab.textContent)).toEqual([
          'Míos 1',
          'Sin asignar 1',
          'Todos 3',
          'Resueltos',
        ]),
      );
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "shows an agent 'Todos' and 'Resueltos' when the server says they see everything, whatever the counts",
    async () => {
      signIn(PEDRO, 'agent');
      // Nothing of anyone else open yet: the counts alone could not tell.
      const rows = [row(1, 'Ana', 1, { assignee: PEDRO }), row(2, 'Luis', 2)];
      mockFetch({ 'GET /api/v1/admin/conversations': conversationsRoute(() => rows, PEDRO.id, true) });
      const view = renderChat();
      await showList();
      await waitFor(async () =>
        expect((await tabs()).map((tab) => tab.textContent)).toEqual([
          'Míos 1',
          'Sin asignar 1',
          'Todos 2',
          'Resueltos',
        ]),
      );
      view.unmount();

      // Someone else's conversation counted in 'Todos', but the company does not let agents see all.
      rows.push(row(3, 'Marta', 3, { assignee: ADMIN }));
      mockFetch({ 'GET /api/v1/admin/conversations': conversationsRoute(() => rows, PEDRO.id, false) });
      renderChat();
      await showList();
      await waitFor(() => expect(rowNames()).toEqual(['Ana']));
      expect((await tabs()).map((tab) => tab.textContent)).toEqual(['Míos 1', 'Sin asignar 1']);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "drops a conversation from an agent's 'Míos' when it is given to someone else, and adds the one given to them",
    async () => {
      signIn(PEDRO, 'agent');
      const stream = eventStream();
      const rows = [row(1, 'Ana', 1, { assignee: PEDRO }), row(2, 'Luis', 2)];
      mockFetch({
        'GET /api/v1/admin/events': () => stream.response(),
        'GET /api/v1/admin/conversations': conversationsRoute(() => rows, PEDRO.id),
      });
      renderChat();
      await showList();
      await waitFor(() => expect(rowNames()).toEqual(['Ana']));
      await stream.connected;

      // An admin gives Ana to themself: the server tells the agent who lost her (the previous assignee).
      rows[0] = { ...(rows[0] as Conversation), assignee: ADMIN };
      await stream.send('conversation.changed', { client_id: 1, conversation: rows[0] });
      await waitFor(() => expect(rowNames()).toEqual([]));
      expect(screen.getByRole('tab', { name: /^Míos/ })).toHaveTextContent('Míos 0');

      // Luis is given to the agent.
      rows[1] = { ...(rows[1] as Conversation), assignee: PEDRO };
      await stream.send('conversation.changed', { client_id: 2, conversation: rows[1] });
      await waitFor(() => expect(rowNames()).toEqual(['Luis']));
      expect(screen.getByRole('tab', { name: /^Míos/ })).toHaveTextContent('Míos 1');
      expect(screen.getByRole('tab', { name: /^Sin asignar/ })).toHaveTextContent('Sin asignar 0');
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'never raises the badge of the open conversation while the page is visible; a hidden page or another one does',
    async () => {
      signIn(ADMIN, 'admin');
      const stream = eventStream();
      const rows = [row(1, 'Ana', 1), row(2, 'Luis', 2)];
      let visibility: DocumentVisibilityState = 'visible';
      vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
      const net = mockFetch({
        'GET /api/v1/admin/events': () => stream.response(),
        'GET /api/v1/admin/conversations': conversationsRoute(() => rows, ADMIN.id),
        'GET /api/v1/admin/client/1/messages': [200, history([])],
        'PATCH /api/v1/admin/messages/1/mark-as-read': () => jsonResponse(200, { message: 'ok', updated: 1 }),
      });
      renderChat();
      await showList();
      await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
      await screen.findByRole('region', { name: 'Ana' });
      await stream.connected;
      const unread = (name: string) => {
        const item = screen.getByText(name, { selector: '.chat-row__name' }).closest('li') as HTMLElement;
        return within(item).queryByText(/sin leer/)?.textContent ?? null;
      };

      const write = (clientId: number, count: number) =>
        stream.send('client.unread', {
          client_id: clientId,
          unread_messages_count: count,
          last_message_content: 'Otro mensaje',
          last_message_date: new Date().toISOString(),
        });
      const preview = (name: string) =>
        screen
          .getByText(name, { selector: '.chat-row__name' })
          .closest('li')
          ?.querySelector('.chat-row__preview')?.textContent;
      await write(1, 1);
      // The event is in (the row shows its message), and the badge stayed down.
      await waitFor(() => expect(preview('Ana')).toBe('Otro mensaje'));
      expect(unread('Ana')).toBeNull();
      // Seen as it arrived: read on the server at once.
      await waitFor(() =>
        expect(callsTo(net.calls, 'PATCH', '/api/v1/admin/messages/1/mark-as-read')).toHaveLength(1),
      );
      await write(2, 1);
      await waitFor(() => expect(unread('Luis')).toBe('1 mensaje sin leer'));

      visibility = 'hidden';
      await write(1, 2);
      await waitFor(() => expect(unread('Ana')).toBe('2 mensajes sin leer'));
      expect(callsTo(net.calls, 'PATCH', '/api/v1/admin/messages/1/mark-as-read')).toHaveLength(1);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "keeps an internal note out of the list's last message",
    async () => {
      signIn(ADMIN, 'admin');
      const stream = eventStream();
      const rows = [row(1, 'Ana', 1), row(2, 'Luis', 2)];
      mockFetch({
        'GET /api/v1/admin/events': () => stream.response(),
        'GET /api/v1/admin/conversations': conversationsRoute(() => rows, ADMIN.id),
      });
      renderChat();
      await showList();
      await waitFor(() => expect(rowNames()).toEqual(['Ana', 'Luis']));
      await stream.connected;
      const note = { sender_type: 'admin' as const, author: { type: 'user' as const, id: 1, name: 'Admin' } };
      await stream.send('message.created', {
        client_id: 2,
        message: makeMessage({ id: 30, client_id: 2, kind: 'note', content: 'Cliente difícil', ...note }),
      });
      await stream.send('message.created', {
        client_id: 1,
        message: makeMessage({ id: 31, client_id: 1, content: 'Ya les escribo', ...note }),
      });
      await waitFor(() => expect(screen.getByText('Ya les escribo')).toBeInTheDocument());
      expect(rowNames()).toEqual(['Ana', 'Luis']);
      expect(screen.queryByText('Cliente difícil')).not.toBeInTheDocument();
      expect(screen.getByText('Mensaje de Luis')).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
});
