import type { ChatClient, Message } from '@hablabot/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { clearSession, setSession } from '../../lib/session';
import {
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  newQueryClient,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import ChatPage from './ChatPage';
import { makeMessage as baseMessage } from './inbox-test-data';

const NOW = Date.now();
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const VIEWER = 7;

/** A delivered message half an hour old unless told (the shared fixture's other defaults). */
const makeMessage = (overrides: Partial<Message> = {}): Message =>
  baseMessage({ status: 3, status_name: 'delivered', created_at: ago(30 * MIN), ...overrides });

const ana: ChatClient = makeClient({ id: 1, name: 'Ana', whatsapp_cellphone: '5215512345678' });

function renderChat() {
  const router = createMemoryRouter([{ path: '/admin/chat', element: <ChatPage /> }], {
    initialEntries: [
      {
        pathname: '/admin/chat',
        state: { client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } },
      },
    ],
  });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={newQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const history = (messages: Message[]) => ({
  messages,
  pagination: { current_page: 1, per_page: 10, total: messages.length, has_more_messages: false },
});

let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
  setSession({ token: 'tok-chat', user: { id: VIEWER, email: 'yo@b.c' }, rol: 'admin' });
});
afterEach(() => {
  restoreLayout();
  clearSession();
  vi.restoreAllMocks();
});

describe('chat authors and replies', () => {
  it(
    "names another agent's messages, calls the viewer's own 'Tú', and shows the quoted message above a reply",
    async () => {
      const stored = [
        makeMessage({ id: 1, content: '¿Abrís mañana?' }),
        makeMessage({
          id: 2,
          content: 'Sí, de 9 a 14',
          sender_type: 'admin',
          status: 2,
          status_name: 'read',
          author: { type: 'user', id: 12, name: 'Marta Ruiz' },
          reply_to: { id: 1, content: '¿Abrís mañana?', author: { type: 'customer' } },
        }),
        makeMessage({
          id: 3,
          content: 'Te esperamos',
          sender_type: 'admin',
          status: 1,
          status_name: 'sent',
          author: { type: 'user', id: VIEWER, name: 'Yo Mismo' },
        }),
      ];
      mockFetch({
        'GET /api/v1/admin/client/messages-summary': [
          200,
          { clients: [ana], pagination: { current_page: 1, per_page: 50, has_more: false } },
        ],
        'GET /api/v1/admin/client/1/messages': [200, history(stored)],
      });
      renderChat();
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      const bubble = (id: number) => conversation.querySelector(`[data-message-id="${id}"]`) as HTMLElement;
      await within(conversation).findByText('Te esperamos');
      expect(within(bubble(2)).getByText('Marta Ruiz')).toBeInTheDocument();
      expect(within(bubble(3)).getByText('Tú')).toBeInTheDocument();
      expect(within(bubble(3)).queryByText('Yo Mismo')).not.toBeInTheDocument();
      // The customer's own message names nobody; the reply quotes it under the customer's name.
      expect(bubble(1).querySelector('.chat-bubble__author')).toBeNull();
      const quote = bubble(2).querySelector('.chat-quote') as HTMLElement;
      expect(quote.textContent).toBe('Ana¿Abrís mañana?');
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "'Responder' quotes a message in the composer and sends its id; the quote can be dropped",
    async () => {
      const stored = [
        makeMessage({ id: 1, content: '¿Tenéis talla M?' }),
        makeMessage({ id: 2, content: 'Y en azul', created_at: ago(20 * MIN) }),
      ];
      const net = mockFetch({
        'GET /api/v1/admin/client/messages-summary': [
          200,
          { clients: [ana], pagination: { current_page: 1, per_page: 50, has_more: false } },
        ],
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
        'POST /api/v1/admin/message': (call) => {
          const body = call.body as { content: string; reply_to_id?: number };
          const quoted = stored.find((m) => m.id === body.reply_to_id);
          const message = makeMessage({
            id: 50,
            content: body.content,
            sender_type: 'admin',
            status: 1,
            status_name: 'sent',
            author: { type: 'user', id: VIEWER, name: 'Yo' },
            reply_to: quoted ? { id: quoted.id, content: quoted.content, author: quoted.author } : null,
            created_at: new Date().toISOString(),
          });
          stored.push(message);
          return jsonResponse(201, { message: 'ok', data: message });
        },
      });
      renderChat();
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('Y en azul');
      const replies = within(conversation).getAllByRole('button', { name: 'Responder' });
      expect(replies).toHaveLength(2);

      // Chosen, then dropped: nothing is quoted.
      await userEvent.click(replies[1] as HTMLElement);
      expect(within(conversation).getByTestId('chat-reply-preview').textContent).toBe(
        'Respondiendo a AnaY en azul',
      );
      await userEvent.click(within(conversation).getByRole('button', { name: 'Cancelar la respuesta' }));
      expect(within(conversation).queryByTestId('chat-reply-preview')).not.toBeInTheDocument();

      await userEvent.click(replies[0] as HTMLElement);
      expect(within(conversation).getByTestId('chat-reply-preview').textContent).toBe(
        'Respondiendo a Ana¿Tenéis talla M?',
      );
      await userEvent.type(within(conversation).getByRole('textbox'), 'Sí, quedan dos{Enter}');
      await waitFor(() =>
        expect(net.calls.filter((c) => c.method === 'POST')[0]?.body).toEqual({
          reply_to_id: 1,
          content: 'Sí, quedan dos',
          client_id: 1,
          phone: '5215512345678',
        }),
      );
      expect(within(conversation).queryByTestId('chat-reply-preview')).not.toBeInTheDocument();
      const sent = await waitFor(() => {
        const el = conversation.querySelector('[data-message-id="50"]') as HTMLElement;
        expect(el).not.toBeNull();
        return el;
      });
      expect(within(sent).getByText('Tú')).toBeInTheDocument();
      expect((sent.querySelector('.chat-quote') as HTMLElement).textContent).toBe('Ana¿Tenéis talla M?');
    },
    SCREEN_TEST_TIMEOUT,
  );
});
