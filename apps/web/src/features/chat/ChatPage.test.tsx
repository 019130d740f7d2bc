import type { ChatClient, Message, MessageTemplate } from '@hablabot/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../lib/i18n';
import { setSession } from '../../lib/session';
import {
  eventStream,
  jsonResponse,
  makeClient,
  mockFetch,
  newQueryClient,
  type RecordedCall,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
  installTestLayout,
} from '../../test';
import { conversationOf, conversationsPage, makeMessage as baseMessage } from './inbox-test-data';
import ChatPage from './ChatPage';

const NOW = Date.now();
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
/** Noon of the day before today, in the machine's time zone: "Ayer" in the list at any hour the tests run. */
const YESTERDAY_NOON = (() => {
  const day = new Date(NOW);
  day.setDate(day.getDate() - 1);
  day.setHours(12, 0, 0, 0);
  return day.toISOString();
})();

/** A message an hour old unless told (the shared fixture's other defaults). */
const makeMessage = (overrides: Partial<Message> = {}): Message =>
  baseMessage({ created_at: ago(HOUR), ...overrides });

/** A page of GET /admin/conversations holding these clients' conversations (open, nobody's). */
function summary(clients: ChatClient[], hasMore = false, page = 1) {
  return conversationsPage(
    clients.map((client) => conversationOf(client)),
    { hasMore, page },
  );
}

function history(messages: Message[], hasMore = false, page = 1) {
  return {
    messages,
    pagination: { current_page: page, per_page: 10, total: messages.length, has_more_messages: hasMore },
  };
}

const ana = makeClient({
  id: 1,
  name: 'Ana',
  whatsapp_cellphone: '5215512345678',
  last_message_content: 'Hola, ¿tienen cita?',
  last_message_date: ago(5 * MIN),
  unread_messages_count: 2,
  mode_bot: 1,
});
const luis = makeClient({
  id: 2,
  name: 'Luis',
  whatsapp_cellphone: '5215599999999',
  last_message_content: 'Gracias',
  last_message_date: YESTERDAY_NOON,
  unread_messages_count: 0,
  mode_bot: 0,
});

function renderChat(state?: unknown) {
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
async function showList() {
  const viewport = await screen.findByTestId('chat-list-viewport');
  viewport.style.height = '600px';
  return viewport;
}

const calls = (all: RecordedCall[], method: string, path: string) =>
  all.filter((call) => call.method === method && call.url.split('?')[0] === path);

let restoreLayout: () => void = () => {};

beforeEach(() => {
  setupTestI18n('es');
  restoreLayout = installTestLayout({ rowHeight: 72 });
});

afterEach(() => {
  restoreLayout();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ChatPage', () => {
  it(
    'lists the conversations from the server and asks it again as the search is typed',
    async () => {
      const net = mockFetch({
        'GET /api/v1/admin/conversations': (call) =>
          jsonResponse(200, summary(call.url.includes('search=luis') ? [luis] : [ana, luis])),
      });
      renderChat();
      expect(screen.getByText('Selecciona un cliente para comenzar a chatear')).toBeInTheDocument();
      await showList();
      const list = await screen.findByRole('list', { name: 'Clientes' });
      const rows = within(list).getAllByRole('listitem');
      expect(rows).toHaveLength(2);
      expect(within(rows[0] as HTMLElement).getByText('Ana')).toBeInTheDocument();
      expect(within(rows[0] as HTMLElement).getByText('Hola, ¿tienen cita?')).toBeInTheDocument();
      expect(within(rows[0] as HTMLElement).getByText('2 mensajes sin leer')).toBeInTheDocument();
      expect(within(rows[1] as HTMLElement).getByText('Ayer')).toBeInTheDocument();
      expect(
        within(rows[0] as HTMLElement).getByRole('button', { name: 'Pausar el bot de Ana' }),
      ).toBeInTheDocument();
      expect(
        within(rows[1] as HTMLElement).getByRole('button', { name: 'Reanudar el bot de Luis' }),
      ).toBeInTheDocument();

      // Typed without pauses, so even a busy machine types the word within the debounce's window.
      await userEvent.type(screen.getByRole('searchbox', { name: 'Buscar clientes...' }), 'Luis', {
        delay: null,
      });
      await waitFor(() => expect(within(list).queryByText('Ana')).not.toBeInTheDocument());
      const searches = () =>
        calls(net.calls, 'GET', '/api/v1/admin/conversations')
          .map((c) => c.url)
          .filter((url) => url.includes('search='));
      // Debounced: the typing asks the server once, not once per letter.
      await waitFor(() =>
        expect(searches()).toEqual(['/api/v1/admin/conversations?view=all&page=1&per_page=50&search=Luis']),
      );
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'loads the next page of clients as the list scrolls, rendering only the rows on screen',
    async () => {
      const many = (page: number) =>
        Array.from({ length: 50 }, (_, i) =>
          makeClient({ id: page * 100 + i, name: `Cliente ${page}-${i}`, last_message_date: null }),
        );
      const net = mockFetch({
        'GET /api/v1/admin/conversations': (call) => {
          const page = Number(new URL(call.url, 'http://x').searchParams.get('page'));
          return jsonResponse(200, summary(many(page), page < 3, page));
        },
      });
      renderChat();
      const viewport = await showList();
      await screen.findByText('Cliente 1-0');
      expect(screen.getAllByRole('listitem').length).toBeLessThan(30);
      expect(calls(net.calls, 'GET', '/api/v1/admin/conversations')).toHaveLength(1);
      viewport.scrollTop = 45 * 72;
      fireEvent.scroll(viewport);
      await waitFor(() =>
        expect(calls(net.calls, 'GET', '/api/v1/admin/conversations').map((c) => c.url)).toContain(
          '/api/v1/admin/conversations?view=all&page=2&per_page=50',
        ),
      );
      expect(await screen.findByText('Cliente 2-0')).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'opens the client passed by the clients page, shows the history with the unread divider and marks it read after 5 s',
    async () => {
      const page1 = [
        makeMessage({
          id: 3,
          content: 'Te escribo **mañana**',
          sender_type: 'admin',
          status: 3,
          created_at: ago(3 * HOUR),
        }),
        makeMessage({ id: 4, content: 'Hola, ¿tienen cita?', status: 1, created_at: ago(2 * HOUR) }),
        makeMessage({ id: 5, content: '¿Hay respuesta?', status: 1, created_at: ago(HOUR) }),
      ];
      const page2 = [makeMessage({ id: 1, content: 'Mensaje antiguo', created_at: ago(10 * HOUR) })];
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana, luis])],
        'GET /api/v1/admin/client/1/messages': (call) =>
          jsonResponse(200, call.url.includes('page=2') ? history(page2, false, 2) : history(page1, true)),
        'PATCH /api/v1/admin/messages/1/mark-as-read': [200, { message: 'ok', updated: 2 }],
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      await showList();
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      expect(within(conversation).getByRole('heading', { name: 'Ana' })).toBeInTheDocument();
      expect(within(conversation).getByText('+5215512345678')).toBeInTheDocument();
      await within(conversation).findByText('¿Hay respuesta?');
      expect(calls(net.calls, 'GET', '/api/v1/admin/client/1/messages')[0]?.url).toBe(
        '/api/v1/admin/client/1/messages?page=1&per_page=10',
      );
      expect(calls(net.calls, 'PATCH', '/api/v1/admin/messages/1/mark-as-read')).toHaveLength(0);
      expect(within(conversation).getByText('mañana').tagName).toBe('STRONG');

      // The divider sits right before the first customer message not read yet.
      const divider = within(conversation).getByText('MENSAJES NO LEÍDOS');
      const bubbles = [...conversation.querySelectorAll('.chat-message, .chat-divider')];
      const at = bubbles.indexOf(divider.parentElement as Element);
      expect(bubbles[at + 1]?.textContent).toContain('Hola, ¿tienen cita?');
      expect(bubbles[at - 1]?.textContent).toContain('Te escribo');

      // Older messages go on top.
      await userEvent.click(within(conversation).getByRole('button', { name: 'Cargar más mensajes' }));
      await within(conversation).findByText('Mensaje antiguo');
      const texts = [...conversation.querySelectorAll('.chat-message')].map((el) => el.textContent);
      expect(texts[0]).toContain('Mensaje antiguo');
      expect(
        within(conversation).queryByRole('button', { name: 'Cargar más mensajes' }),
      ).not.toBeInTheDocument();

      // Marked read once the conversation has stayed open for a while (MARK_READ_DELAY_MS), not at once.
      await waitFor(
        () => expect(calls(net.calls, 'PATCH', '/api/v1/admin/messages/1/mark-as-read')).toHaveLength(1),
        { timeout: 10_000 },
      );
      await waitFor(() => expect(screen.queryByText('2 mensajes sin leer')).not.toBeInTheDocument());
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'sends with Enter (not Shift+Enter, never blank), shows the message at once and keeps a draft per client',
    async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const stored = [makeMessage({ id: 4, created_at: ago(HOUR) })];
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([{ ...ana, unread_messages_count: 0 }, luis])],
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
        'GET /api/v1/admin/client/2/messages': [
          200,
          history([makeMessage({ id: 9, client_id: 2, created_at: ago(HOUR) })]),
        ],
        'POST /api/v1/admin/message': async (call) => {
          await gate;
          const message = makeMessage({
            id: 50,
            content: (call.body as { content: string }).content,
            sender_type: 'admin',
            status: 1,
            created_at: new Date().toISOString(),
          });
          stored.push(message);
          return jsonResponse(201, { message: 'ok', data: message });
        },
      });
      renderChat();
      await showList();
      await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('Hola');
      expect(within(conversation).getByTestId('chat-window').textContent).toMatch(
        /^Tiempo restante: 2[23]h \d+m \d+s$/,
      );
      const input = within(conversation).getByRole('textbox');
      const send = within(conversation).getByRole('button', { name: 'Enviar' });
      expect(send).toBeDisabled();
      await userEvent.type(input, '   ');
      expect(send).toBeDisabled();
      await userEvent.type(input, '{Enter}');
      expect(calls(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(0);
      await userEvent.clear(input);
      await userEvent.type(input, 'Primera línea{Shift>}{Enter}{/Shift}segunda');
      expect(input).toHaveValue('Primera línea\nsegunda');
      expect(calls(net.calls, 'POST', '/api/v1/admin/message')).toHaveLength(0);
      await userEvent.type(input, '{Enter}');
      expect(input).toHaveValue('');
      // Shown at once as pending, then settled to what the server stored.
      const pending = await within(conversation).findByRole('img', { name: 'Pendiente' });
      expect(pending.closest('.chat-message')?.textContent).toContain('segunda');
      expect(calls(net.calls, 'POST', '/api/v1/admin/message')[0]?.body).toEqual({
        content: 'Primera línea\nsegunda',
        client_id: 1,
        phone: '5215512345678',
      });
      release();
      await within(conversation).findByRole('img', { name: 'Enviado' });
      expect(within(conversation).queryByRole('img', { name: 'Pendiente' })).not.toBeInTheDocument();
      const bubbles = [...conversation.querySelectorAll('.chat-message')].map((el) => el.textContent ?? '');
      expect(bubbles.filter((text) => text.includes('segunda'))).toHaveLength(1);

      // A draft stays with its conversation.
      await userEvent.type(input, 'borrador de Ana');
      await userEvent.click(screen.getByRole('button', { name: /^Luis/ }));
      const other = await screen.findByRole('region', { name: 'Luis' });
      expect(within(other).getByRole('textbox')).toHaveValue('');
      await userEvent.click(screen.getByRole('button', { name: /^Ana/ }));
      expect(within(await screen.findByRole('region', { name: 'Ana' })).getByRole('textbox')).toHaveValue(
        'borrador de Ana',
      );
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'disables the input when the 24-hour window is closed or the client never wrote',
    async () => {
      mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana, luis])],
        'GET /api/v1/admin/client/1/messages': [200, history([makeMessage({ created_at: ago(25 * HOUR) })])],
        'GET /api/v1/admin/client/2/messages': [200, history([])],
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      expect(
        await within(conversation).findByText('La ventana de 24 horas ya se ha cerrado'),
      ).toBeInTheDocument();
      const input = within(conversation).getByRole('textbox');
      expect(input).toBeDisabled();
      expect(input).toHaveAttribute(
        'placeholder',
        'La ventana de 24 horas está cerrada: usa un mensaje plantilla',
      );
      await showList();
      await userEvent.click(await screen.findByRole('button', { name: /^Luis/ }));
      const other = await screen.findByRole('region', { name: 'Luis' });
      expect(await within(other).findByText('No hay mensajes para mostrar')).toBeInTheDocument();
      expect(within(other).getByText('No hay mensajes del cliente')).toBeInTheDocument();
      expect(within(other).getByRole('textbox')).toBeDisabled();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'reads older pages when the newest hold only company messages, to find whether the window is open',
    async () => {
      const ours = Array.from({ length: 10 }, (_, i) =>
        makeMessage({
          id: 20 + i,
          sender_type: 'bot',
          content: `Respuesta ${i}`,
          status: 1,
          created_at: ago((10 - i) * MIN),
        }),
      );
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': (call) =>
          jsonResponse(
            200,
            call.url.includes('page=2')
              ? history([makeMessage({ id: 5, content: 'Pregunta', created_at: ago(3 * HOUR) })], false, 2)
              : history(ours, true),
          ),
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('Pregunta');
      expect(within(conversation).getByTestId('chat-window').textContent).toMatch(
        /^Tiempo restante: 2[01]h /,
      );
      expect(within(conversation).getByRole('textbox')).toBeEnabled();
      expect(calls(net.calls, 'GET', '/api/v1/admin/client/1/messages')).toHaveLength(2);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'shows an unsent message in red with its reason and sends it again; a bot failure has no resend',
    async () => {
      const stored = [
        makeMessage({ id: 4, created_at: ago(2 * HOUR) }),
        makeMessage({
          id: 6,
          sender_type: 'bot',
          content: '',
          status: 4,
          kind: 'bot_failure',
          error_message: 'El bot no pudo responder: Sin saldo de IA',
          created_at: ago(HOUR + MIN),
        }),
        makeMessage({
          id: 7,
          sender_type: 'admin',
          content: 'Reintento',
          status: 4,
          error_message: 'Número no válido',
          created_at: ago(HOUR),
        }),
      ];
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
        'POST /api/v1/admin/message': () => {
          const sent = { ...(stored[2] as Message), status: 1, error_message: null };
          stored[2] = sent;
          return jsonResponse(200, { message: 'ok', data: sent });
        },
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      expect(
        await within(conversation).findByText('El bot no pudo responder: Sin saldo de IA'),
      ).toBeInTheDocument();
      expect(within(conversation).getAllByText('Este mensaje no se ha enviado')).toHaveLength(1);
      expect(within(conversation).getByText('Número no válido')).toBeInTheDocument();
      const resend = within(conversation).getAllByRole('button', { name: 'Reenviar' });
      expect(resend).toHaveLength(1);
      await userEvent.click(resend[0] as HTMLElement);
      await waitFor(() =>
        expect(within(conversation).queryByText('Este mensaje no se ha enviado')).not.toBeInTheDocument(),
      );
      expect(calls(net.calls, 'POST', '/api/v1/admin/message')[0]?.body).toEqual({
        id: 7,
        content: 'Reintento',
        client_id: 1,
        phone: '5215512345678',
      });
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'fetches protected media with the token into an object address, released when the bubble goes',
    async () => {
      setSession({ token: 'tok-chat', user: { id: 1, email: 'a@b.c' }, rol: 'admin' });
      const created: string[] = [];
      const revoked: string[] = [];
      vi.stubGlobal(
        'URL',
        Object.assign(URL, {
          createObjectURL: () => {
            created.push(`blob:test/${created.length}`);
            return created.at(-1) as string;
          },
          revokeObjectURL: (url: string) => revoked.push(url),
        }),
      );
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const net = mockFetch({
        'GET /api/v1/admin/events': () => new Promise<Response>(() => {}),
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': [
          200,
          history([
            makeMessage({ id: 8, message_type: 'audio', content: '', media_url: '/api/v1/admin/files/8' }),
            makeMessage({
              id: 9,
              message_type: 'document',
              content: 'factura.pdf',
              media_caption: 'factura.pdf',
              media_url: '/api/v1/admin/files/9',
            }),
          ]),
        ],
        'GET /api/v1/admin/files/8': async () => {
          await gate;
          return new Response('a', { status: 200 });
        },
        'GET /api/v1/admin/files/9': () => new Response('d', { status: 200 }),
      });
      const view = renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      expect(
        await within(conversation).findByRole('status', { name: 'Cargando archivo…' }),
      ).toBeInTheDocument();
      const link = await within(conversation).findByRole('link', { name: 'Descargar documento' });
      expect(within(conversation).getByText('factura.pdf')).toBeInTheDocument();
      release();
      await waitFor(() => expect(conversation.querySelector('audio')).not.toBeNull());
      expect(conversation.querySelector('audio')?.textContent).toBe(
        'Tu navegador no soporta el elemento de audio.',
      );
      expect(link.getAttribute('href')).toMatch(/^blob:test\//);
      const fileCall = net.fetchMock.mock.calls.find(([url]) => String(url).endsWith('/admin/files/8'));
      expect(new Headers(fileCall?.[1]?.headers).get('Authorization')).toBe('Bearer tok-chat');
      view.unmount();
      expect([...revoked].sort()).toEqual([...created].sort());
      expect(created).toHaveLength(2);
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'toggles the bot of a client from its row',
    async () => {
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'POST /api/v1/admin/client/1/toggle-bot-mode': [
          200,
          { message: 'ok', client: { ...ana, mode_bot: 0 } },
        ],
      });
      renderChat();
      await showList();
      await userEvent.click(await screen.findByRole('button', { name: 'Pausar el bot de Ana' }));
      expect(await screen.findByRole('button', { name: 'Reanudar el bot de Ana' })).toBeInTheDocument();
      expect(calls(net.calls, 'POST', '/api/v1/admin/client/1/toggle-bot-mode')[0]?.body).toEqual({
        mode: 0,
      });
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'shows one pane at a time on a phone, with a way back to the list',
    async () => {
      vi.stubGlobal('matchMedia', (query: string) => ({
        matches: query === '(max-width: 768px)',
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }));
      mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': [200, history([])],
      });
      renderChat();
      await showList();
      expect(screen.queryByText('Selecciona un cliente para comenzar a chatear')).not.toBeInTheDocument();
      await userEvent.click(await screen.findByRole('button', { name: /^Ana/ }));
      await screen.findByRole('region', { name: 'Ana' });
      expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Volver' }));
      expect(await screen.findByRole('searchbox', { name: 'Buscar clientes...' })).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Ana' })).not.toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    "closes the composer's '+' menu on Escape and on a click elsewhere",
    async () => {
      mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': [200, history([])],
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      expect(screen.getByRole('menu')).toBeInTheDocument();
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
      await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
      await userEvent.click(within(conversation).getByRole('heading', { name: 'Ana' }));
      expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
});

const templates: MessageTemplate[] = [
  {
    id: 1,
    name: 'bienvenida',
    language: 'es',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [{ type: 'BODY', format: null, text: 'Hola {{1}}, tu cita es el {{2}}', buttons: [] }],
  },
  {
    id: 2,
    name: 'promo_pendiente',
    language: 'es',
    category: 'MARKETING',
    status: 'PENDING',
    components: [{ type: 'BODY', format: null, text: 'Promo', buttons: [] }],
  },
];

describe('ChatPage templates', () => {
  async function openTemplates() {
    const conversation = await screen.findByRole('region', { name: 'Ana' });
    await userEvent.click(within(conversation).getByRole('button', { name: 'Más opciones' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Mensaje plantilla' }));
    return screen.findByRole('dialog', { name: 'Mensaje plantilla' });
  }

  it(
    'sends an approved template once every field is filled, with a live preview',
    async () => {
      const stored: Message[] = [];
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
        'GET /api/v1/templates': [200, { data: templates }],
        'POST /api/v1/admin/messages/send-template-message': () => {
          const message = makeMessage({
            id: 70,
            sender_type: 'admin',
            content: 'Hola Ana, tu cita es el lunes',
            status: 1,
            created_at: new Date().toISOString(),
          });
          stored.push(message);
          return jsonResponse(201, { success: true, message: 'Enviado', data: message });
        },
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const dialog = await openTemplates();
      expect(await within(dialog).findByText('bienvenida')).toBeInTheDocument();
      expect(within(dialog).getByRole('radio', { name: /promo_pendiente/ })).toBeDisabled();
      const sendButton = within(dialog).getByRole('button', { name: 'Enviar mensaje' });
      expect(sendButton).toBeDisabled();
      await userEvent.click(within(dialog).getByRole('radio', { name: /bienvenida/ }));
      expect(within(dialog).getAllByText('Categoría: Marketing')).toHaveLength(2);
      // Meta's values in the screen's language, never raw.
      expect(within(dialog).getByText('Estado: Aprobada')).toBeInTheDocument();
      expect(within(dialog).getByText('Estado: Pendiente')).toBeInTheDocument();
      expect(within(dialog).queryByText(/APPROVED|PENDING|MARKETING/)).toBeNull();
      await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valor de {{1}}' }), 'Ana');
      expect(within(dialog).getByTestId('template-preview')).toHaveTextContent(
        'Hola Ana, tu cita es el {{2}}',
      );
      expect(sendButton).toBeDisabled();
      await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valor de {{2}}' }), 'lunes');
      expect(within(dialog).getByTestId('template-preview')).toHaveTextContent(
        'Hola Ana, tu cita es el lunes',
      );
      await userEvent.click(sendButton);
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(calls(net.calls, 'POST', '/api/v1/admin/messages/send-template-message')[0]?.body).toEqual({
        client_id: 1,
        phone: '5215512345678',
        templateName: 'bienvenida',
        language: 'es',
        message: 'Hola Ana, tu cita es el lunes',
        bodyParameters: { '1': 'Ana', '2': 'lunes' },
      });
      expect(await screen.findByText('Hola Ana, tu cita es el lunes')).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );

  it(
    'reports a sync for 4 seconds and alerts the server message when a send is refused',
    async () => {
      const alert = vi.spyOn(globalThis, 'alert').mockImplementation(() => {});
      const net = mockFetch({
        'GET /api/v1/admin/conversations': [200, summary([ana])],
        'GET /api/v1/admin/client/1/messages': [200, history([])],
        'GET /api/v1/templates': [200, { data: templates }],
        'GET /api/v1/templates/sync': [200, { success: true, message: 'ok', data: templates }],
        'POST /api/v1/admin/messages/send-template-message': [
          502,
          { message: 'WhatsApp rechazó la plantilla' },
        ],
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      const dialog = await openTemplates();
      await within(dialog).findByText('bienvenida');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Sincronizar Plantillas' }));
      expect(await within(dialog).findByText('Plantillas sincronizadas exitosamente!')).toBeInTheDocument();
      net.set('GET /api/v1/templates/sync', [500, {}]);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Sincronizar Plantillas' }));
      expect(await within(dialog).findByText(/Error al sincronizar las plantillas/)).toBeInTheDocument();

      await userEvent.click(within(dialog).getByRole('radio', { name: /bienvenida/ }));
      await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valor de {{1}}' }), 'Ana');
      await userEvent.type(within(dialog).getByRole('textbox', { name: 'Valor de {{2}}' }), 'lunes');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar mensaje' }));
      await waitFor(() => expect(alert).toHaveBeenCalledWith('WhatsApp rechazó la plantilla'));
      net.set('POST /api/v1/admin/messages/send-template-message', [500, {}]);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Enviar mensaje' }));
      await waitFor(() => expect(alert).toHaveBeenLastCalledWith('Error al enviar el mensaje'));
      expect(screen.getByRole('dialog')).toBeInTheDocument();
    },
    SCREEN_TEST_TIMEOUT,
  );
});

describe('ChatPage live events', () => {
  it(
    'appends, moves, ticks, badges and flags from the event stream, never showing a message twice',
    async () => {
      setSession({ token: 'tok-chat', user: { id: 1, email: 'a@b.c' }, rol: 'admin' });
      const stream = eventStream();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const stored = [
        makeMessage({
          id: 3,
          sender_type: 'admin',
          content: 'Buenos días',
          status: 1,
          created_at: ago(2 * HOUR),
        }),
        makeMessage({ id: 4, content: 'Hola', status: 2, created_at: ago(HOUR) }),
      ];
      // A message event carries the same Message as the history.
      const newMessage = (id: number, overrides: Partial<Message> = {}) =>
        makeMessage({
          id,
          content: 'Nuevo',
          status: 1,
          status_name: 'sent',
          created_at: new Date().toISOString(),
          ...overrides,
        });
      mockFetch({
        'GET /api/v1/admin/events': () => stream.response(),
        'GET /api/v1/admin/conversations': [200, summary([{ ...ana, unread_messages_count: 0 }, luis])],
        'GET /api/v1/admin/client/1/messages': () => jsonResponse(200, history(stored)),
        'POST /api/v1/admin/message': async () => {
          await gate;
          return jsonResponse(201, { message: 'ok', data: stored.find((m) => m.id === 60) });
        },
      });
      renderChat({ client: { id: 1, name: 'Ana', phone: '5215512345678', avatar: null } });
      await showList();
      const conversation = await screen.findByRole('region', { name: 'Ana' });
      await within(conversation).findByText('Buenos días');
      const texts = () =>
        [...conversation.querySelectorAll('.chat-message')].map((el) => el.textContent ?? '');

      // A customer message arrives for the open conversation, twice over (a replay): shown once.
      await stream.send('message.created', {
        client_id: 1,
        message: newMessage(20, { content: '¿Siguen ahí?' }),
      });
      await stream.send('message.created', {
        client_id: 1,
        message: newMessage(20, { content: '¿Siguen ahí?' }),
      });
      await waitFor(() => expect(texts().filter((text) => text.includes('¿Siguen ahí?'))).toHaveLength(1));

      // Luis writes: his row goes to the top with its badge.
      await stream.send('message.created', {
        client_id: 2,
        message: newMessage(21, { client_id: 2, content: 'Soy Luis otra vez' }),
      });
      await stream.send('client.unread', {
        client_id: 2,
        unread_messages_count: 3,
        last_message_content: 'Soy Luis otra vez',
        last_message_date: new Date().toISOString(),
      });
      const rows = () => within(screen.getByRole('list', { name: 'Clientes' })).getAllByRole('listitem');
      await waitFor(() =>
        expect(within(rows()[0] as HTMLElement).getByText('3 mensajes sin leer')).toBeInTheDocument(),
      );
      expect(rows()[0]?.textContent).toContain('Luis');
      expect(rows()[0]?.textContent).toContain('Soy Luis otra vez');

      // Ticks, bot mode and a bot failure.
      await stream.send('message.status', { client_id: 1, message_id: 3, status: 2, error: null });
      const first = conversation.querySelector('[data-message-id="3"]') as HTMLElement;
      expect(await within(first).findByRole('img', { name: 'Leído' })).toBeInTheDocument();
      await stream.send('client.bot_mode', { client_id: 1, mode_bot: 0 });
      expect(await screen.findByRole('button', { name: 'Reanudar el bot de Ana' })).toBeInTheDocument();
      // The engine announces the failure and stores its note, which arrives as a message of its own.
      await stream.send('bot.failed', {
        client_id: 1,
        reason: 'El bot no pudo responder: Sin crédito de IA',
        message_id: 20,
      });
      await stream.send('message.created', {
        client_id: 1,
        message: newMessage(22, {
          sender_type: 'bot',
          content: '',
          status: 4,
          kind: 'bot_failure',
          error_message: 'El bot no pudo responder: Sin crédito de IA',
        }),
      });
      expect(
        await within(conversation).findByText('El bot no pudo responder: Sin crédito de IA'),
      ).toBeInTheDocument();
      expect(within(conversation).queryByRole('button', { name: 'Reenviar' })).not.toBeInTheDocument();

      // The stream brings our own message before the send answers: still shown once.
      const input = within(conversation).getByRole('textbox');
      await userEvent.type(input, 'Ya les atiendo{Enter}');
      await within(conversation).findByRole('img', { name: 'Pendiente' });
      const sent = makeMessage({
        id: 60,
        sender_type: 'admin',
        content: 'Ya les atiendo',
        status: 1,
        created_at: new Date().toISOString(),
      });
      stored.push(sent);
      await stream.send('message.created', { client_id: 1, message: { ...newMessage(60), ...sent } });
      await waitFor(() =>
        expect(within(conversation).queryByRole('img', { name: 'Pendiente' })).not.toBeInTheDocument(),
      );
      expect(texts().filter((text) => text.includes('Ya les atiendo'))).toHaveLength(1);
      release();
      await waitFor(() => expect(texts().filter((text) => text.includes('Ya les atiendo'))).toHaveLength(1));
    },
    SCREEN_TEST_TIMEOUT,
  );
});
