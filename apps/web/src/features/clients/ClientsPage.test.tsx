import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import readXlsxFile from 'read-excel-file/node';
import type { Client } from '@hablabot/contract';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clientsListRoute,
  expectNoSeriousA11yViolations,
  jsonResponse,
  makeClient,
  makeSegment,
  mockFetch,
  type RecordedCall,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { i18next } from '../../lib/i18n';
import ClientsPage from './ClientsPage';

const DELETE_CLIENTS =
  '¿Estás seguro de que deseas eliminar estos clientes? Esta acción no se puede deshacer.';
const DELETE_SEGMENT =
  '¿Estás seguro de que deseas eliminar este segmento? Esta acción no se puede deshacer.';

function ChatProbe() {
  const location = useLocation();
  return <pre data-testid="chat-state">{JSON.stringify(location.state)}</pre>;
}

function renderPage() {
  return renderFeature(
    [
      { path: '/admin/clients', element: <ClientsPage /> },
      { path: '/admin/chat', element: <ChatProbe /> },
    ],
    '/admin/clients',
  );
}

const segments = [
  makeSegment({ id: 1, name: 'VIP', color: '#1a73e8', clients_count: 1 }),
  makeSegment({ id: 2, name: 'Sin color', color: 'blue', clients_count: 1 }),
];
const clients = [
  makeClient({ id: 1, name: 'Ana', last_names: 'García López', avatar: 'https://cdn.example.com/ana.png' }),
  makeClient({
    id: 2,
    name: 'Luis',
    last_names: 'Pérez',
    whatsapp_cellphone: '34600111222',
    email: 'luis@example.com',
    segments: [{ id: 2, name: 'Sin color', color: 'blue' }],
  }),
];

function standardApi(list: readonly Client[] = clients) {
  return mockFetch({
    'GET /api/v1/admin/client': clientsListRoute(list, {
      title: 'Gestión de clientes (servidor)',
      subtitle: 'Subtítulo del servidor',
    }),
    'GET /api/v1/admin/segment': [200, { segments, message: 'Segmentos obtenidos con éxito.' }],
  });
}

/** The query strings of the list calls the page made, as objects. */
function listQueries(calls: RecordedCall[]) {
  return calls
    .filter((c) => c.method === 'GET' && c.url.startsWith('/api/v1/admin/client?'))
    .map((c) => Object.fromEntries(new URL(c.url, 'http://localhost').searchParams));
}

/** `count` clients with ids 1..count and distinct names and phones. */
function manyClients(count: number) {
  return Array.from({ length: count }, (_, i) =>
    makeClient({
      id: i + 1,
      name: `Cliente${String(i + 1).padStart(5, '0')}`,
      last_names: 'Prueba',
      whatsapp_cellphone: `52155${String(i).padStart(8, '0')}`,
      email: `cliente${i + 1}@example.com`,
    }),
  );
}

function table() {
  return screen.getByRole('table', { name: 'Clientes' });
}

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ClientsPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the server heading, the segment chips, the actions and the table columns', async () => {
    standardApi();
    renderPage();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Gestión de clientes (servidor)' }),
    ).toBeVisible();
    expect(screen.getByText('Subtítulo del servidor')).toBeVisible();
    for (const name of ['Crear cliente', 'Exportar', 'Importar', 'Agregar segmento']) {
      expect(screen.getByRole('button', { name })).toBeVisible();
    }
    const segmentBar = screen.getByRole('region', { name: 'Segmentos' });
    expect(within(segmentBar).getByRole('button', { name: 'VIP' })).toBeVisible();
    expect(within(segmentBar).getByRole('button', { name: 'Eliminar el segmento VIP' })).toBeVisible();

    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(3));
    const headers = within(table())
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(expect.arrayContaining(['id', 'Nombre', 'Segmento', 'WhatsApp', 'Chat']));
    expect(table()).toHaveStyle({ minWidth: '1200px' });

    const ana = within(table()).getByText('Ana García López').closest('tr') as HTMLElement;
    expect(within(ana).getByText('+5215512345678')).toBeVisible();
    expect(within(ana).getByText('VIP').closest('.hb-chip')).toHaveAttribute('data-color', '#1a73e8');
    // A segment without a valid colour is drawn grey.
    const luis = within(table()).getByText('Luis Pérez').closest('tr') as HTMLElement;
    expect(within(luis).getByText('Sin color').closest('.hb-chip')).toHaveAttribute('data-color', '#CCCCCC');
    await expectNoSeriousA11yViolations();
  });

  it('marks a customer who opted out of campaigns with "Dado de baja" beside the phone', async () => {
    standardApi([
      { ...clients[0], opted_out_at: '2026-11-20T10:00:00.000Z' },
      { ...clients[1], opted_out_at: null },
    ]);
    renderPage();
    await waitFor(() => expect(within(table()).getAllByRole('row')).toHaveLength(3));
    const ana = within(table()).getByText('Ana García López').closest('tr') as HTMLElement;
    expect(within(ana).getByText('Dado de baja')).toHaveAttribute(
      'title',
      'Pidió no recibir campañas: los envíos masivos lo omiten.',
    );
    const luis = within(table()).getByText('Luis Pérez').closest('tr') as HTMLElement;
    expect(within(luis).queryByText('Dado de baja')).toBeNull();
  });

  it('falls back to its own heading while the list is missing and only logs a loading failure', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      'GET /api/v1/admin/client': [500, { message: 'Ocurrió un error interno' }],
      'GET /api/v1/admin/segment': [500, { message: 'Ocurrió un error interno' }],
    });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Gestión de clientes' })).toBeVisible();
    await waitFor(() => expect(error).toHaveBeenCalledWith('Loading the clients failed', expect.anything()));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Loading the segments failed', expect.anything()));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks the server for the first page of 10, sorted by id', async () => {
    const api = standardApi();
    renderPage();
    await within(table()).findByText('Ana García López');
    expect(listQueries(api.calls)).toEqual([{ page: '1', per_page: '10', sort: 'id', order: 'asc' }]);
    expect(screen.getByText('Pag 1 | 1')).toBeVisible();
  });

  it('searches on the server once typing pauses: by name, and by phone typed with its +', async () => {
    const api = standardApi();
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Ana García López');
    const filter = screen.getByRole('searchbox', { name: 'Filtrar' });
    await user.type(filter, 'PEREZ');
    await waitFor(() => expect(within(table()).queryByText('Ana García López')).toBeNull());
    expect(within(table()).getByText('Luis Pérez')).toBeVisible();
    // One request for the whole word, not one per keystroke.
    expect(listQueries(api.calls).filter((q) => q.search !== undefined)).toEqual([
      { search: 'PEREZ', page: '1', per_page: '10', sort: 'id', order: 'asc' },
    ]);
    await user.clear(filter);
    await user.type(filter, '+52155');
    await waitFor(() => expect(within(table()).queryByText('Luis Pérez')).toBeNull());
    expect(within(table()).getByText('Ana García López')).toBeVisible();
    expect(listQueries(api.calls).at(-1)?.search).toBe('52155');
    await user.clear(filter);
    await user.type(filter, 'nadie');
    expect(await within(table()).findByText('Ningún registro coincide con «nadie».')).toBeVisible();
  });

  it('pages and sorts on the server, keeping the page on screen while the next one loads', async () => {
    const api = standardApi(manyClients(25));
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Cliente00001 Prueba');
    expect(screen.getByText('Pag 1 | 3')).toBeVisible();
    expect(screen.getByText('1–10 de 25 registros')).toBeVisible();

    let release: () => void = () => {};
    const route = clientsListRoute(manyClients(25));
    api.set('GET /api/v1/admin/client', async (call) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return route(call);
    });
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    // While page 2 loads, page 1's rows stay (no empty table, no spinner in their place).
    expect(within(table()).getByText('Cliente00001 Prueba')).toBeVisible();
    await waitFor(() => expect(listQueries(api.calls).at(-1)).toMatchObject({ page: '2' }));
    release();
    expect(await within(table()).findByText('Cliente00011 Prueba')).toBeVisible();
    expect(screen.getByText('Pag 2 | 3')).toBeVisible();

    api.set('GET /api/v1/admin/client', route);
    await user.click(screen.getByRole('button', { name: 'Ordenar por Nombre' }));
    await user.click(screen.getByRole('button', { name: 'Ordenar por Nombre' }));
    expect(await within(table()).findByText('Cliente00025 Prueba')).toBeVisible();
    expect(listQueries(api.calls).at(-1)).toEqual({ page: '1', per_page: '10', sort: 'name', order: 'desc' });
    expect(screen.getByRole('button', { name: 'Ordenar por WhatsApp' })).toBeVisible();
    // The server does not sort by segment, so that column has no sort button.
    expect(within(screen.getByRole('columnheader', { name: 'Segmento' })).queryByRole('button')).toBeNull();

    await user.selectOptions(screen.getByLabelText('Filas por página'), '20');
    await waitFor(() =>
      expect(listQueries(api.calls).at(-1)).toEqual({
        page: '1',
        per_page: '20',
        sort: 'name',
        order: 'desc',
      }),
    );
  });

  it('exports every client, reading the list a thousand at a time with progress on the button', async () => {
    const all = manyClients(2500);
    const api = standardApi(all);
    let release: () => void = () => {};
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Cliente00001 Prueba');
    const route = clientsListRoute(all);
    api.set('GET /api/v1/admin/client', async (call) => {
      if (call.url.includes('page=2&')) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return route(call);
    });
    await user.type(screen.getByRole('searchbox', { name: 'Filtrar' }), 'Cliente00007');
    await screen.findByText('1–1 de 1 resultado');
    // jsdom has no object URLs: keep the file the browser would download.
    const files: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        files.push(blob);
        return 'blob:clients';
      },
      revokeObjectURL: () => {},
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    const busy = await screen.findByRole('button', { name: 'Exportando 1,000 de 2,500…' });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    release();
    await waitFor(() => expect(files).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Exportar' })).toBeEnabled());
    // The whole list, in a stable order, not the page or the filter on screen.
    const exportCalls = listQueries(api.calls).filter((q) => q.per_page === '1000');
    expect(exportCalls).toEqual([
      { page: '1', per_page: '1000', sort: 'id', order: 'asc' },
      { page: '2', per_page: '1000', sort: 'id', order: 'asc' },
      { page: '3', per_page: '1000', sort: 'id', order: 'asc' },
    ]);
    const sheets = await readXlsxFile(Buffer.from(await files[0].arrayBuffer()));
    const rows = sheets[0].data.slice(1);
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((row) => row[0])).size).toBe(2500);
    expect(rows[2499]).toEqual(expect.arrayContaining([2500, 'Cliente02500', 'Prueba']));
  });

  it('deletes a client only after the confirmation, then shows the green message for 4 seconds', async () => {
    const api = standardApi();
    api.set('DELETE /api/v1/admin/client', [200, { message: 'Clientes eliminados con éxito.' }]);
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Ana García López');

    await user.click(screen.getByRole('button', { name: 'Eliminar a Ana García López' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(DELETE_CLIENTS);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Eliminar a Ana García López' }));
    dialog = await screen.findByRole('alertdialog');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    const status = await screen.findByText('Clientes eliminados con éxito.');
    expect(status.closest('[role="status"]')).toHaveClass('hb-message--success');
    expect(api.calls.find((c) => c.method === 'DELETE')).toMatchObject({
      method: 'DELETE',
      url: '/api/v1/admin/client',
      body: { ids: [1] },
    });
    // The list is fetched again after the delete.
    expect(
      api.calls.filter((c) => c.method === 'GET' && c.url.startsWith('/api/v1/admin/client?page=1')).length,
    ).toBeGreaterThan(1);
    await act(async () => {
      vi.advanceTimersByTime(3900);
    });
    expect(screen.getByText('Clientes eliminados con éxito.')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Clientes eliminados con éxito.')).toBeNull();
  });

  it('deletes the selected clients in one call', async () => {
    const api = standardApi();
    api.set('DELETE /api/v1/admin/client', [200, { message: 'Clientes eliminados con éxito.' }]);
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Ana García López');
    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' }));
    const toolbarDelete = screen.getAllByRole('button', { name: 'Eliminar' })[0];
    await user.click(toolbarDelete);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(DELETE_CLIENTS);
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await screen.findByText('Clientes eliminados con éxito.');
    expect(api.calls.find((c) => c.method === 'DELETE')?.body).toEqual({ ids: [1, 2] });
  });

  it('shows the error when a delete fails and keeps the rows', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = standardApi();
    api.set('DELETE /api/v1/admin/client', [500, { message: 'Ocurrió un error interno' }]);
    renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Ana García López');
    await user.click(screen.getByRole('button', { name: 'Eliminar a Ana García López' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Eliminar' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Ocurrió un error interno');
    expect(within(table()).getByText('Ana García López')).toBeVisible();
  });

  it('asks before deleting a segment and calls DELETE /admin/segment/{id}', async () => {
    const api = standardApi();
    api.set('DELETE /api/v1/admin/segment/1', [200, { message: 'Segmento eliminado con éxito.' }]);
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Eliminar el segmento VIP' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(DELETE_SEGMENT);
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('Segmento eliminado con éxito.')).toBeVisible();
    expect(api.calls.some((c) => c.method === 'DELETE' && c.url === '/api/v1/admin/segment/1')).toBe(true);
  });

  it("'Ir al Chat' opens /admin/chat with the client's avatar, id, name and phone in the navigation state", async () => {
    standardApi();
    const { router } = renderPage();
    const user = userEvent.setup();
    await within(table()).findByText('Ana García López');
    await user.click(screen.getByRole('button', { name: 'Ir al chat con Ana García López' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/chat'));
    expect(JSON.parse(screen.getByTestId('chat-state').textContent ?? 'null')).toEqual({
      client: { avatar: 'https://cdn.example.com/ana.png', id: 1, name: 'Ana', phone: '5215512345678' },
    });
  });

  it('opens the edit modal from a segment chip and from a row', async () => {
    standardApi();
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'VIP' }));
    let dialog = await screen.findByRole('dialog', { name: 'Editar segmento' });
    expect(within(dialog).getByLabelText(/Nombre/)).toHaveValue('VIP');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    await within(table()).findByText('Luis Pérez');
    await user.click(screen.getByRole('button', { name: 'Editar a Luis Pérez' }));
    dialog = await screen.findByRole('dialog', { name: 'Editar cliente' });
    expect(within(dialog).getByLabelText(/Apellidos/)).toHaveValue('Pérez');
    expect(within(dialog).getByLabelText(/WhatsApp/)).toHaveValue('34600111222');
  });

  it('offers a template and lists accepted columns in the import modal', async () => {
    standardApi();
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Importar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar clientes' });
    expect(within(dialog).getByRole('link', { name: 'Descargar plantilla CSV' })).toHaveAttribute(
      'href',
      '/clientes-plantilla.csv',
    );
    for (const header of [
      'nombre',
      'name',
      'apellidos',
      'last_names',
      'celular',
      'whatsapp',
      'phone',
      'correo',
      'email',
      'proyectos',
      'projects',
      'segmentos',
      'segments',
    ]) {
      expect(within(dialog).getAllByText(header, { selector: 'code' }).length).toBeGreaterThan(0);
    }
  });

  it('tells the user when there is nothing to export, without calling the server', async () => {
    const api = mockFetch({
      'GET /api/v1/admin/client': clientsListRoute([]),
      'GET /api/v1/admin/segment': [200, { segments: [], message: 'ok' }],
    });
    renderPage();
    const user = userEvent.setup();
    expect(
      await screen.findByText('Aún no hay clientes. Crea el primero o importa un archivo CSV.'),
    ).toBeVisible();
    const before = api.calls.length;
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    expect(await screen.findByText('No hay clientes para exportar.')).toBeVisible();
    expect(api.calls.length).toBe(before);
  });

  it('offers to create the first segment from the client form and then lists it there', async () => {
    let created = false;
    mockFetch({
      'GET /api/v1/admin/client': clientsListRoute([]),
      'GET /api/v1/admin/segment': () =>
        jsonResponse(200, {
          segments: created ? [makeSegment({ id: 7, name: 'Primeros' })] : [],
          message: 'ok',
        }),
      'POST /api/v1/admin/segment': () => {
        created = true;
        return jsonResponse(201, {
          segment: makeSegment({ id: 7, name: 'Primeros' }),
          message: 'Segmento creado con éxito.',
        });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Crear cliente' }));
    const form = await screen.findByRole('dialog', { name: 'Crear cliente' });
    expect(within(form).getByText(/Aún no hay segmentos\./)).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Crear segmento' }));
    const segmentForm = await screen.findByRole('dialog', { name: 'Crear segmento' });
    await user.type(within(segmentForm).getByLabelText(/^Nombre/), 'Primeros');
    await user.type(within(segmentForm).getByLabelText(/^Reglas/), 'Los primeros clientes');
    await user.click(within(segmentForm).getByRole('button', { name: 'Crear segmento' }));
    expect(await within(segmentForm).findByText('Segmento creado con éxito.')).toBeVisible();
    await user.click(within(segmentForm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Crear segmento' })).toBeNull());
    await user.click(within(form).getByRole('combobox', { name: /Segmentos/ }));
    expect(await within(form).findByRole('option', { name: /Primeros/ })).toBeVisible();
  });

  it('fetches the heading again in the new language when the UI language changes', async () => {
    mockFetch({
      'GET /api/v1/admin/client': clientsListRoute(clients, {
        titles: {
          en: { title: 'Client management', subtitle: 'Manage your clients and segments' },
          es: { title: 'Gestión de clientes', subtitle: 'Administra tus clientes y segmentos' },
        },
      }),
      'GET /api/v1/admin/segment': [200, { segments, message: 'ok' }],
    });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Gestión de clientes' })).toBeVisible();
    // The switcher changes the UI before it stores the choice; the list must not wait for the store.
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Client management' })).toBeVisible();
    expect(screen.getByText('Manage your clients and segments')).toBeVisible();
  });

  it('renders in English with the English texts', async () => {
    await setupTestI18n('en');
    mockFetch({
      'GET /api/v1/admin/client': [200, { clients, message: 'ok' }],
      'GET /api/v1/admin/segment': [200, { segments, message: 'ok' }],
    });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Client management' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Create client' })).toBeVisible();
    await within(screen.getByRole('table', { name: 'Clients' })).findByText('Ana García López');
    expect(screen.getAllByText('Go to chat').length).toBe(2);
  });
});
