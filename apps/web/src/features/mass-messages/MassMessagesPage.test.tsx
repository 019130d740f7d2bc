import type { MassMessage } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import {
  eventStream,
  expectNoSeriousA11yViolations,
  jsonResponse,
  makeSegment,
  mockFetch,
  type RecordedCall,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import MassMessagesPage from './MassMessagesPage';
import { historyBody, makeCounts, makeList, makeRecipient, makeSend, makeTemplate } from './test-fixtures';

const lists = [
  makeList({ id: 1, name: 'Clientes VIP' }),
  makeList({ id: 2, name: 'Nuevos', clients_count: 1 }),
];

function baseRoutes(rows: MassMessage[]) {
  return {
    'GET /api/v1/admin/list-clients': [
      200,
      { data: lists, pagination: { current_page: 1, per_page: 50, total: 2, last_page: 1 } },
    ] as [number, unknown],
    'GET /api/v1/templates': [200, { data: [makeTemplate()] }] as [number, unknown],
    'GET /api/v1/admin/segment': [200, { segments: [makeSegment()], message: '' }] as [number, unknown],
    'GET /api/v1/admin/mass-message-history': (call: RecordedCall) => {
      const status = new URL(call.url, 'http://localhost').searchParams.get('status');
      return jsonResponse(200, historyBody(status ? rows.filter((row) => row.status === status) : rows));
    },
    'GET /api/v1/admin/events': () => new Promise<Response>(() => {}),
  };
}

function renderPage() {
  const utils = renderFeature(
    [{ path: '/admin/messages-massive', element: <MassMessagesPage /> }],
    '/admin/messages-massive',
  );
  return { ...utils, user: userEvent.setup() };
}

const historyTable = () => screen.getByRole('table', { name: 'Todos los envíos' });

beforeEach(() => {
  setupTestI18n('es');
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('MassMessagesPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the client list chips, the new send form and every send with its progress', async () => {
    const rows = [
      makeSend({
        id: 1,
        name: 'Promo diciembre',
        counts: makeCounts({ total: 10, queued: 4, sent: 3, delivered: 2, read: 1 }),
      }),
      makeSend({
        id: 2,
        name: 'Aviso',
        status: 'completed',
        list_name: 'Nuevos',
        scheduled_at: '2026-11-22T09:00:00.000Z',
        started_at: '2026-11-22T10:00:00.000Z',
        counts: makeCounts({ total: 1, queued: 0, failed: 1 }),
      }),
    ];
    const api = mockFetch(baseRoutes(rows));
    const { user } = renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Mensajes masivos' })).toBeVisible();
    const chips = screen.getByRole('region', { name: 'Lista de clientes' });
    expect(await within(chips).findByRole('button', { name: /^Clientes VIP/ })).toBeVisible();
    expect(within(chips).getByRole('button', { name: 'Crear lista' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Nuevo envío' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Todos los envíos' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers.slice(0, 4)).toEqual(['Nombre', 'Lista', 'Fecha', 'Estado']);
    expect(await within(table).findByText('Promo diciembre')).toBeVisible();
    expect(within(table).getByText('6 de 10 enviados')).toBeVisible();
    expect(within(table).getByText('Fallidos: 1')).toBeVisible();
    expect(within(table).getByText('Completado')).toBeVisible();
    // A scheduled send that started late (the server was down at its time) says so.
    expect(within(table).getByText('Inició con 60 minutos de retraso')).toBeVisible();

    // The filter: by state (server side).
    await user.selectOptions(screen.getByLabelText('Estado'), 'completed');
    await waitFor(() => expect(within(historyTable()).queryByText('Promo diciembre')).toBeNull());
    expect(api.calls.some((call) => call.url.includes('status=completed'))).toBe(true);
    await expectNoSeriousA11yViolations();
  });

  it('deletes a client list after the confirmation, and edits one on click', async () => {
    const api = mockFetch({
      ...baseRoutes([]),
      'DELETE /api/v1/admin/list-clients/2': [200, { message: 'Lista eliminada' }],
      'GET /api/v1/admin/client': [
        200,
        { clients: [], message: '', pagination: { current_page: 1, per_page: 25, total: 0, last_page: 1 } },
      ],
      'GET /api/v1/admin/list-clients/1/clients': [
        200,
        {
          data: {
            data: [1, 2].map((id) => ({
              id,
              name: `Cliente ${id}`,
              last_names: '',
              whatsapp_cellphone: '5215511111111',
              email: null,
            })),
            current_page: 1,
            per_page: 30,
            total: 2,
          },
        },
      ],
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Eliminar la lista Nuevos' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText(
        '¿Estás seguro de que deseas eliminar esta lista de clientes? Esta acción no se puede deshacer.',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Operación exitosa')).toBeVisible();
    expect(
      api.calls.some((call) => call.method === 'DELETE' && call.url === '/api/v1/admin/list-clients/2'),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: /^Clientes VIP/ }));
    const form = await screen.findByRole('dialog', { name: 'Editar lista de clientes' });
    expect(within(form).getByLabelText(/^Nombre/)).toHaveValue('Clientes VIP');
    expect(within(form).getByText('2 clientes seleccionados')).toBeVisible();
  });

  it('pages the client lists and searches them on the server for a send', async () => {
    // 120 lists: the page loads 50 at a time; the send form searches the rest by name.
    const many = Array.from({ length: 120 }, (_, i) =>
      makeList({ id: i + 1, name: `Lista ${String(i + 1).padStart(3, '0')}`, clients_count: 10 }),
    );
    const api = mockFetch({
      ...baseRoutes([]),
      'GET /api/v1/admin/list-clients': (call: RecordedCall) => {
        const query = new URL(call.url, 'http://localhost').searchParams;
        const search = query.get('search') ?? '';
        const page = Number(query.get('page'));
        const perPage = Number(query.get('per_page'));
        const matching = many.filter((list) => list.name.includes(search));
        return jsonResponse(200, {
          data: matching.slice((page - 1) * perPage, page * perPage),
          pagination: {
            current_page: page,
            per_page: perPage,
            total: matching.length,
            last_page: Math.max(1, Math.ceil(matching.length / perPage)),
          },
        });
      },
    });
    const { user } = renderPage();
    const chips = screen.getByRole('region', { name: 'Lista de clientes' });
    expect(await within(chips).findByRole('button', { name: /^Lista 050/ })).toBeVisible();
    expect(within(chips).queryByRole('button', { name: /^Lista 051/ })).toBeNull();
    await user.click(within(chips).getByRole('button', { name: 'Cargar más listas (50 de 120)' }));
    expect(await within(chips).findByRole('button', { name: /^Lista 100/ })).toBeVisible();

    const form = screen.getByRole('region', { name: 'Nuevo envío' });
    const select = within(form).getByLabelText(/^Lista de clientes/);
    await user.type(within(form).getByRole('searchbox', { name: 'Buscar una lista por nombre' }), '117');
    expect(
      await within(select).findByRole('option', { name: 'Lista 117 (10 clientes)' }),
    ).toBeInTheDocument();
    expect(api.calls.some((call) => call.url.includes('search=117'))).toBe(true);
    await user.selectOptions(select, 'Lista 117 (10 clientes)');
    // The chosen list stays an option whatever is searched next.
    await user.clear(within(form).getByRole('searchbox', { name: 'Buscar una lista por nombre' }));
    await user.type(within(form).getByRole('searchbox', { name: 'Buscar una lista por nombre' }), '00');
    await waitFor(() =>
      expect(within(select).getByRole('option', { name: /^Lista 001/ })).toBeInTheDocument(),
    );
    expect(select).toHaveValue('117');
    // No answer carried a list's members.
    expect(api.calls.filter((call) => call.url.includes('/clients?')).length).toBe(0);
    await expectNoSeriousA11yViolations();
  });

  it('follows the progress from the event stream and pauses, resumes and cancels', async () => {
    setSession({ token: 'tok', user: { id: 1, email: 'a@b.c' }, rol: 'admin' });
    const stream = eventStream();
    const running = makeSend({ id: 5, name: 'Promo', counts: makeCounts({ total: 100, queued: 100 }) });
    const api = mockFetch({
      ...baseRoutes([running]),
      'GET /api/v1/admin/events': () => stream.response(),
      'POST /api/v1/admin/messages-massive/5/pause': [
        200,
        { message: 'Envío en pausa', data: { ...running, status: 'paused' } },
      ],
      'POST /api/v1/admin/messages-massive/5/cancel': [
        200,
        { message: 'Envío cancelado', data: { ...running, status: 'cancelled' } },
      ],
    });
    const { user } = renderPage();
    const table = await screen.findByRole('table', { name: 'Todos los envíos' });
    expect(await within(table).findByText('0 de 100 enviados')).toBeVisible();
    await waitFor(() => expect(screen.getByText('En vivo')).toBeVisible());

    await stream.send('mass_message.progress', {
      mass_message_id: 5,
      status: 'sending',
      counts: makeCounts({ total: 100, queued: 40, sent: 50, delivered: 8, read: 2 }),
    });
    // The stream is read asynchronously: on a busy machine the row may change a little later.
    expect(await within(table).findByText('60 de 100 enviados')).toBeVisible();
    expect(within(table).getByText('Entregados: 8')).toBeVisible();
    expect(within(table).getByRole('progressbar', { name: '60 de 100 enviados' })).toHaveAttribute(
      'aria-valuenow',
      '60',
    );

    const historyCalls = api.calls.filter((call) =>
      call.url.startsWith('/api/v1/admin/mass-message-history'),
    ).length;
    // A send this page does not show yet: the history reloads.
    await stream.send('mass_message.progress', {
      mass_message_id: 99,
      status: 'queued',
      counts: makeCounts(),
    });
    await waitFor(() =>
      expect(
        api.calls.filter((call) => call.url.startsWith('/api/v1/admin/mass-message-history')).length,
      ).toBeGreaterThan(historyCalls),
    );

    await user.click(within(table).getByRole('button', { name: 'Pausar Promo' }));
    expect(await screen.findByText('Envío en pausa')).toBeVisible();
    expect(within(table).getByText('En pausa')).toBeVisible();
    expect(within(table).getByRole('button', { name: 'Reanudar Promo' })).toBeVisible();

    await user.click(within(table).getByRole('button', { name: 'Cancelar Promo' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar envío' }));
    expect(await screen.findByText('Envío cancelado')).toBeVisible();
    expect(within(table).queryByRole('button', { name: 'Cancelar Promo' })).toBeNull();
  });

  it('opens the per-recipient report, filters it by state and explains Meta’s error', async () => {
    const send = makeSend({
      id: 3,
      name: 'Promo',
      status: 'completed',
      counts: makeCounts({ total: 2, queued: 0, sent: 1, failed: 1 }),
    });
    const recipients = [
      makeRecipient({ id: 1, name: 'Ana' }),
      makeRecipient({
        id: 2,
        name: 'Luis',
        last_names: 'Pérez',
        status: 'failed',
        error_code: 131026,
        error_message: 'Message undeliverable',
        error: {
          code: 131026,
          title: 'Message undeliverable',
          explanation: 'WhatsApp no pudo entregar el mensaje a este número.',
          resendable: false,
        },
      }),
    ];
    const api = mockFetch({
      ...baseRoutes([send]),
      'GET /api/v1/admin/messages-massive/3/recipients': (call) => {
        const status = new URL(call.url, 'http://localhost').searchParams.get('status');
        const rows = status ? recipients.filter((row) => row.status === status) : recipients;
        return jsonResponse(200, { data: { data: rows, current_page: 1, per_page: 10, total: rows.length } });
      },
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Ver informe de Promo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe de «Promo»' });
    const table = within(dialog).getByRole('table', { name: 'Destinatarios' });
    expect(await within(table).findByText('Ana García')).toBeVisible();
    expect(within(table).getByText('WhatsApp no pudo entregar el mensaje a este número.')).toBeVisible();
    expect(within(table).getByText('(131026) Message undeliverable')).toBeVisible();
    await user.selectOptions(within(dialog).getByLabelText('Estado'), 'failed');
    await waitFor(() => expect(within(table).queryByText('Ana García')).toBeNull());
    expect(within(table).getByText('Luis Pérez')).toBeVisible();
    expect(
      api.calls.some((call) => call.url.includes('/recipients?') && call.url.includes('status=failed')),
    ).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Exportar' })).toBeVisible();

    // A failed recipient can be sent again, on purpose, after a warning.
    api.set('POST /api/v1/admin/messages-massive/3/resend', [
      200,
      { message: '1 destinatario en cola de nuevo.', data: { ...send, status: 'queued' }, requeued: 1 },
    ]);
    expect(within(table).queryByRole('button', { name: 'Reenviar a Ana García' })).toBeNull();
    await user.click(within(table).getByRole('button', { name: 'Reenviar a Luis Pérez' }));
    const warning = await screen.findByRole('alertdialog');
    expect(within(warning).getByText(/reenviarlos puede duplicarlos/)).toBeVisible();
    await user.click(within(warning).getByRole('button', { name: 'Reenviar' }));
    expect(await within(dialog).findByText('1 destinatario en cola de nuevo.')).toBeVisible();
    const resend = api.calls.find((call) => call.url.endsWith('/resend'));
    expect(resend?.body).toEqual({ recipient_ids: [2], statuses: ['unknown', 'failed'] });
  });

  it('resends the unknown recipients of a send in one go', async () => {
    const send = makeSend({
      id: 8,
      name: 'Corte',
      status: 'completed',
      counts: makeCounts({ total: 3, queued: 0, sent: 2, unknown: 1 }),
    });
    const api = mockFetch({
      ...baseRoutes([send]),
      'GET /api/v1/admin/messages-massive/8/recipients': [
        200,
        {
          data: {
            data: [makeRecipient({ id: 4, status: 'unknown' })],
            current_page: 1,
            per_page: 10,
            total: 1,
          },
        },
      ],
      'POST /api/v1/admin/messages-massive/8/resend': [
        200,
        { message: 'En cola de nuevo.', data: { ...send, status: 'queued' }, requeued: 1 },
      ],
    });
    const { user } = renderPage();
    expect(await screen.findByText('Desconocidos: 1')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Ver informe de Corte' }));
    const dialog = await screen.findByRole('dialog', { name: 'Informe de «Corte»' });
    await user.click(within(dialog).getByRole('button', { name: 'Reenviar los desconocidos' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reenviar' }),
    );
    expect(await within(dialog).findByText('En cola de nuevo.')).toBeVisible();
    expect(api.calls.find((call) => call.url.endsWith('/resend'))?.body).toEqual({ statuses: ['unknown'] });
    // The history row follows the answer.
    expect(within(historyTable()).getByText('En cola')).toBeVisible();
  });

  it('reads and saves the sending pace', async () => {
    const api = mockFetch({
      ...baseRoutes([]),
      'GET /api/v1/admin/mass-message-settings': [200, { data: { messages_per_second: 80 } }],
      'PUT /api/v1/admin/mass-message-settings': (call) =>
        jsonResponse(200, { message: 'Ritmo guardado.', data: call.body }),
    });
    const { user } = renderPage();
    await user.click(await screen.findByText('Ritmo de envío: 80 mensajes por segundo'));
    const input = screen.getByLabelText('Mensajes por segundo');
    expect(input).toHaveValue(80);
    await user.clear(input);
    await user.type(input, '5000');
    await user.click(screen.getByRole('button', { name: 'Guardar ritmo' }));
    expect(await screen.findByText('Escribe un número entero entre 1 y 1000.')).toBeVisible();
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
    await user.clear(input);
    await user.type(input, '1');
    await user.click(screen.getByRole('button', { name: 'Guardar ritmo' }));
    expect(await screen.findByText('Ritmo guardado.')).toBeVisible();
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ messages_per_second: 1 });
    // One is singular: the number and its noun agree.
    expect(screen.getByText('Ritmo de envío: 1 mensaje por segundo')).toBeVisible();
  });

  it('speaks English', async () => {
    setupTestI18n('en');
    mockFetch(baseRoutes([makeSend({ status: 'scheduled', scheduled_at: '2026-12-01T15:00:00.000Z' })]));
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Mass messages' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'Client lists' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'New send' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'All sends' });
    expect(await within(table).findByText('Scheduled')).toBeVisible();
    expect(within(table).getByText(/^Scheduled for /)).toBeVisible();
  });
});
