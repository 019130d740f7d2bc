import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clientsListRoute,
  expectNoSeriousA11yViolations,
  jsonResponse,
  makeClient,
  makeSegment,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { ClientListForm } from './ClientListForm';
import { makeList } from './test-fixtures';

const clients = [
  makeClient({ id: 1, name: 'Ana', last_names: 'García López', whatsapp_cellphone: '5215511111111' }),
  makeClient({ id: 2, name: 'Ángel', last_names: 'Núñez', whatsapp_cellphone: '5215522222222' }),
  ...Array.from({ length: 58 }, (_, i) =>
    makeClient({
      id: 10 + i,
      name: `Zoe${String(i).padStart(2, '0')}`,
      last_names: 'Pérez',
      whatsapp_cellphone: `52155${String(i).padStart(8, '0')}`,
    }),
  ),
];
const segments = [
  makeSegment({ id: 1, name: 'VIP', clients_count: 120 }),
  makeSegment({ id: 2, name: 'Nuevos', clients_count: 3400 }),
];

function renderForm(list = null as ReturnType<typeof makeList> | null) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithQuery(<ClientListForm list={list} segments={segments} onClose={onClose} onSaved={onSaved} />);
  const dialog = screen.getByRole('dialog', {
    name: list ? 'Editar lista de clientes' : 'Crear lista de clientes',
  });
  return { dialog, onSaved, onClose, user: userEvent.setup() };
}

beforeEach(() => {
  setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ClientListForm', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('needs a name and at least one client', async () => {
    const api = mockFetch({ 'GET /api/v1/admin/client': clientsListRoute(clients) });
    const { dialog, user } = renderForm();
    await user.click(within(dialog).getByRole('button', { name: 'Crear lista' }));
    expect(await within(dialog).findByText('El campo nombre es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('Selecciona al menos un cliente o un segmento.')).toBeVisible();
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await expectNoSeriousA11yViolations();
  });

  it('searches the clients on the server a page at a time and saves the chosen ones plus a segment', async () => {
    const api = mockFetch({
      'GET /api/v1/admin/client': clientsListRoute(clients),
      'POST /api/v1/admin/list-clients': [201, { message: 'Lista creada', data: makeList({ id: 9 }) }],
    });
    const { dialog, user, onSaved } = renderForm();
    expect(await within(dialog).findByText('60 clientes encontrados')).toBeVisible();
    expect(within(dialog).getAllByRole('checkbox')).toHaveLength(25);
    await user.click(within(dialog).getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(within(dialog).getAllByRole('checkbox')).toHaveLength(50));

    await user.type(within(dialog).getByLabelText(/^Clientes/), 'angel');
    expect(await within(dialog).findByText('1 cliente encontrado')).toBeVisible();
    const search = api.calls.filter((call) => call.url.includes('search=angel'));
    expect(search[0]?.url).toContain('per_page=25');
    await user.click(within(dialog).getByRole('checkbox', { name: /Ángel Núñez/ }));
    expect(within(dialog).getByText('1 cliente seleccionado')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Quitar a Ángel Núñez' })).toBeVisible();

    await user.selectOptions(within(dialog).getByLabelText('Agregar todos los clientes de un segmento'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar' }));
    expect(within(dialog).getByText('Nuevos · 3,400 clientes')).toBeVisible();

    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Promo');
    await user.click(within(dialog).getByRole('button', { name: 'Crear lista' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('Operación exitosa'));
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ name: 'Promo', client_ids: [2], segment_ids: [2] });
  });

  it('edits a list of 50,000 clients: names the first ones, counts the rest, saves them all', async () => {
    const list = makeList({ id: 4, name: 'Todos', clients_count: 50_000 });
    // The members route answers any page of ids 1 … 50,000; client 1 is Ana.
    const api = mockFetch({
      'GET /api/v1/admin/client': clientsListRoute(clients),
      'GET /api/v1/admin/list-clients/4/clients': (call) => {
        const query = new URL(call.url, 'http://localhost').searchParams;
        const page = Number(query.get('page'));
        const perPage = Number(query.get('per_page'));
        const first = (page - 1) * perPage + 1;
        const data = Array.from({ length: Math.max(0, Math.min(perPage, 50_001 - first)) }, (_, i) => ({
          id: first + i,
          name: first + i === 1 ? 'Ana' : `Cliente ${first + i}`,
          last_names: first + i === 1 ? 'García López' : '',
          whatsapp_cellphone: '5215511111111',
          email: null,
        }));
        return jsonResponse(200, { data: { data, current_page: page, per_page: perPage, total: 50_000 } });
      },
      'PUT /api/v1/admin/list-clients/4': [200, { message: 'Lista actualizada', data: list }],
    });
    const { dialog, user, onSaved } = renderForm(list);
    expect(await within(dialog).findByText('50,000 clientes seleccionados')).toBeVisible();
    // Every id came from the members route a page of 1,000 at a time; no list answer carries them.
    expect(api.calls.filter((call) => call.url.includes('per_page=1000'))).toHaveLength(50);
    expect(await within(dialog).findByRole('button', { name: 'Quitar a Ana García López' })).toBeVisible();
    expect(within(dialog).getByText('y 49,970 más')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Quitar a Ana García López' }));
    expect(within(dialog).getByText('49,999 clientes seleccionados')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const put = api.calls.find((call) => call.method === 'PUT');
    const saved = (put?.body ?? { client_ids: [] }) as { client_ids: number[] };
    expect(saved.client_ids).toHaveLength(49_999);
    expect(saved.client_ids[0]).toBe(2);
  });

  it('lists a 422 under the heading and words other failures', async () => {
    const api = mockFetch({
      'GET /api/v1/admin/client': clientsListRoute(clients),
      'POST /api/v1/admin/list-clients': [
        422,
        { message: 'El cliente 99 no existe.', errors: { client_ids: ['El cliente 99 no existe.'] } },
      ],
    });
    const { dialog, user } = renderForm();
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Promo');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Ana García López/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Crear lista' }));
    expect(await within(dialog).findByText('Por favor corrige los siguientes errores:')).toBeVisible();
    expect(within(dialog).getAllByText('El cliente 99 no existe.').length).toBeGreaterThan(0);

    api.set('POST /api/v1/admin/list-clients', [500, { message: 'boom' }]);
    await user.click(within(dialog).getByRole('button', { name: 'Crear lista' }));
    expect(
      await within(dialog).findByText(/Ocurrió un error interno, por favor intente nuevamente/),
    ).toBeVisible();

    api.set('POST /api/v1/admin/list-clients', [403, { message: 'No permitido' }]);
    await user.click(within(dialog).getByRole('button', { name: 'Crear lista' }));
    expect(await within(dialog).findByText(/Ocurrió un error en la operación/)).toBeVisible();
  });
});
