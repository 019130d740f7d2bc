import type { Message } from '@hablabot/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setSession } from '../../lib/session';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { i18next } from '../../lib/i18n';
import ClientsPage from '../clients/ClientsPage';
import ChatPage from './ChatPage';
import {
  clientsListRoute,
  expectNoSeriousA11yViolations,
  installTestLayout,
  jsonResponse,
  makeClient,
  mockFetch,
  newQueryClient,
  type RecordedCall,
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

// In the thread: the client details panel, following a quote to its message, a long press to answer.

const VIEWER = { id: 1, name: 'Marta' };
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ana = makeClient({
  id: 1,
  name: 'Ana',
  last_names: 'López',
  whatsapp_cellphone: '5215512345678',
  email: 'ana@correo.mx',
  projects: 'Reforma cocina',
  segments: [
    { id: 1, name: 'VIP', color: '#1a73e8' },
    { id: 2, name: 'Norte', color: '#0b8043' },
  ],
  mode_bot: 0,
  created_at: '2026-01-15T10:00:00.000Z',
  last_message_date: ago(5),
});
const anaRow = conversationOf(ana, { id: 501, assignee: VIEWER, mode_bot: 0, last_message_date: ago(5) });

/** GET /admin/client/1/messages by page, over `pages` (page 1 the newest). */
function pagedHistory(pages: Message[][]) {
  return (call: RecordedCall) => {
    const page = Number(new URL(call.url, 'http://x').searchParams.get('page') ?? '1');
    return jsonResponse(200, history(pages[page - 1] ?? [], page < pages.length, page));
  };
}

async function openAna() {
  renderChat();
  await showList();
  await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
  return screen.findByRole('region', { name: 'Ana' });
}

const scrollIntoView = Element.prototype.scrollIntoView;
let restoreLayout: () => void = () => {};
beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
  setSession({ token: 'tok', user: { id: VIEWER.id, email: 'marta@x.mx', name: VIEWER.name }, rol: 'admin' });
});
afterEach(() => {
  Element.prototype.scrollIntoView = scrollIntoView;
  restoreLayout();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('chat thread tools', () => {
  it(
    "'Detalles del cliente' opens a panel with the client and the conversation, focus inside, closed by Escape",
    async () => {
      const net = mockFetch({
        'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
        'GET /api/v1/admin/client/1/messages': () =>
          jsonResponse(200, history([makeMessage({ id: 1, content: 'Hola', created_at: ago(30) })])),
        'GET /api/v1/admin/client/1': () => jsonResponse(200, { client: ana }),
      });
      const conversation = await openAna();
      await within(conversation).findByText('Hola');
      const opener = within(conversation).getByRole('button', { name: 'Más opciones' });
      await userEvent.click(opener);
      await userEvent.click(screen.getByRole('menuitem', { name: 'Detalles del cliente' }));
      const panel = await screen.findByRole('dialog', { name: 'Detalles del cliente' });
      await within(panel).findByText('Ana López');
      const field = (label: string) =>
        within(panel).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
      expect(field('Nombre')).toBe('Ana López');
      expect(field('Teléfono')).toBe('+5215512345678');
      expect(field('Correo electrónico')).toBe('ana@correo.mx');
      expect(field('Segmentos')).toBe('VIP, Norte');
      expect(field('Proyectos')).toBe('Reforma cocina');
      expect(field('Bot')).toBe('En pausa');
      expect(field('Asignado a')).toBe('Marta');
      expect(field('Estado')).toBe('Abierta');
      expect(field('Mensajes')).toBe('1');
      expect(field('Primer contacto')).toMatch(/2026/);
      expect(field('Último contacto')).not.toBe('—');
      expect(within(panel).getByRole('link', { name: 'Editar cliente' })).toHaveAttribute(
        'href',
        '/admin/clients',
      );
      expect(callsTo(net.calls, 'GET', '/api/v1/admin/client/1')).toHaveLength(1);
      await expectNoSeriousA11yViolations(panel);

      // A dialog: the focus is inside it, Tab stays inside, Escape closes it.
      expect(panel.contains(document.activeElement)).toBe(true);
      await userEvent.tab();
      await userEvent.tab();
      await userEvent.tab();
      expect(panel.contains(document.activeElement)).toBe(true);
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(document.activeElement).toBe(opener);

      // An agent does not manage clients: no way to the clients screen.
      setSession({
        token: 'tok',
        user: { id: VIEWER.id, email: 'marta@x.mx', name: VIEWER.name },
        rol: 'agent',
      });
      await userEvent.click(opener);
      await userEvent.click(screen.getByRole('menuitem', { name: 'Detalles del cliente' }));
      const again = await screen.findByRole('dialog', { name: 'Detalles del cliente' });
      await within(again).findByText('Ana López');
      expect(within(again).queryByRole('link', { name: 'Editar cliente' })).toBeNull();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "'Editar cliente' opens the clients screen with the client's edit form",
    async () => {
      mockFetch({
        'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history([])),
        'GET /api/v1/admin/client/1': () => jsonResponse(200, { client: ana }),
        'GET /api/v1/admin/client': clientsListRoute([ana]),
        'GET /api/v1/admin/segment': [200, { segments: [], message: 'ok' }],
      });
      const router = createMemoryRouter(
        [
          { path: '/admin/chat', element: <ChatPage /> },
          { path: '/admin/clients', element: <ClientsPage /> },
        ],
        { initialEntries: ['/admin/chat'] },
      );
      render(
        <I18nextProvider i18n={i18next}>
          <QueryClientProvider client={newQueryClient()}>
            <RouterProvider router={router} />
          </QueryClientProvider>
        </I18nextProvider>,
      );
      await showList();
      await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(screen.getByRole('menuitem', { name: 'Detalles del cliente' }));
      const panel = await screen.findByRole('dialog', { name: 'Detalles del cliente' });
      await userEvent.click(await within(panel).findByRole('link', { name: 'Editar cliente' }));
      const form = await screen.findByRole('dialog', { name: 'Editar cliente' });
      expect(router.state.location.pathname).toBe('/admin/clients');
      expect(within(form).getByLabelText(/Apellidos/)).toHaveValue('López');
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'a click on a quote scrolls to the quoted message, reading older pages for it, and marks it',
    async () => {
      const scrolled: Element[] = [];
      Element.prototype.scrollIntoView = function (this: Element) {
        scrolled.push(this);
      };
      const quoteOf = (m: Message) => ({ id: m.id, content: m.content, author: m.author });
      const old = makeMessage({ id: 5, content: '¿Hacéis envíos a Monterrey?', created_at: ago(600) });
      const question = makeMessage({ id: 30, content: '¿Y cuánto cuesta?', created_at: ago(40) });
      const pages = [
        [
          question,
          makeMessage({
            id: 31,
            content: 'Sí, enviamos',
            sender_type: 'admin',
            author: { type: 'user', id: VIEWER.id, name: VIEWER.name },
            reply_to: quoteOf(old),
            created_at: ago(35),
          }),
          makeMessage({
            id: 32,
            content: 'Son 150 pesos',
            sender_type: 'admin',
            author: { type: 'user', id: VIEWER.id, name: VIEWER.name },
            reply_to: quoteOf(question),
            created_at: ago(30),
          }),
        ],
        [makeMessage({ id: 6, content: 'Buenas', created_at: ago(500) })],
        [old],
      ];
      const net = mockFetch({
        'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
        'GET /api/v1/admin/client/1/messages': pagedHistory(pages),
      });
      const conversation = await openAna();
      await within(conversation).findByText('Son 150 pesos');
      const bubble = (id: number) => conversation.querySelector(`[data-message-id="${id}"]`) as HTMLElement;
      const historyCalls = () => callsTo(net.calls, 'GET', '/api/v1/admin/client/1/messages').length;

      // Loaded already: no page is read.
      const before = historyCalls();
      await userEvent.click(within(bubble(32)).getByRole('button', { name: /¿Y cuánto cuesta\?/ }));
      await waitFor(() => expect(scrolled.at(-1)).toBe(bubble(30)));
      expect(bubble(30).classList).toContain('chat-message--highlighted');
      expect(historyCalls()).toBe(before);

      // Two pages back: both are read, then it is shown and marked.
      await userEvent.click(within(bubble(31)).getByRole('button', { name: /Monterrey/ }));
      await waitFor(() => expect(scrolled.at(-1)).toBe(bubble(5)));
      expect(bubble(5).classList).toContain('chat-message--highlighted');
      expect(historyCalls()).toBe(before + 2);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "a long press with a finger on a message starts a reply to it, as 'Responder' does",
    async () => {
      mockFetch({
        'GET /api/v1/admin/conversations': conversationsRoute(() => [anaRow], VIEWER.id),
        'GET /api/v1/admin/client/1/messages': () =>
          jsonResponse(
            200,
            history([makeMessage({ id: 1, content: '¿Tenéis talla M?', created_at: ago(30) })]),
          ),
      });
      const conversation = await openAna();
      await within(conversation).findByText('¿Tenéis talla M?');
      const bubble = conversation.querySelector('[data-message-id="1"]') as HTMLElement;
      fireEvent.pointerDown(bubble, { pointerType: 'touch', clientX: 10, clientY: 10 });
      const preview = await within(conversation).findByTestId('chat-reply-preview', {}, { timeout: 3000 });
      expect(preview.textContent).toBe('Respondiendo a Ana¿Tenéis talla M?');
    },
    SCREEN_TEST_TIMEOUT,
  );
});
