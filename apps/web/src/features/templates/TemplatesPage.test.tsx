import type { MessageTemplate } from '@hablabot/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session';
import {
  eventStream,
  expectNoSeriousA11yViolations,
  jsonResponse,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import TemplatesPage from './TemplatesPage';

const template = (patch: Partial<MessageTemplate>): MessageTemplate => ({
  id: 1,
  name: 'bienvenida',
  language: 'es',
  category: 'MARKETING',
  status: 'APPROVED',
  components: [{ type: 'BODY', format: null, text: 'Hola', buttons: [] }],
  rejected_reason: null,
  quality: 'GREEN',
  updated_at: '2026-11-26T10:00:00.000Z',
  ...patch,
});
const LIST = [
  template({}),
  template({
    id: 2,
    name: 'promo_rechazada',
    status: 'REJECTED',
    rejected_reason: 'INVALID_FORMAT',
    quality: null,
  }),
];

function setup() {
  const stream = eventStream();
  // The server's list as it stands: a creation adds to it, a deletion takes from it.
  let list = [...LIST];
  const api = mockFetch({
    'GET /api/v1/templates': () => jsonResponse(200, { data: list }),
    'GET /api/v1/admin/events': () => stream.response(),
    'POST /api/v1/templates': (call) => {
      const created = template({
        id: 3,
        name: (call.body as { name: string }).name,
        status: 'PENDING',
        quality: null,
      });
      list = [...list, created];
      return jsonResponse(201, {
        message: 'Plantilla «pedido_listo» enviada a WhatsApp para su revisión.',
        data: created,
      });
    },
    'DELETE /api/v1/templates/1': () => {
      list = list.filter((x) => x.id !== 1);
      return jsonResponse(200, { message: 'Plantilla «bienvenida» eliminada.' });
    },
  });
  renderFeature([{ path: '/admin/templates', element: <TemplatesPage /> }], '/admin/templates');
  return { api, stream };
}
const table = () => screen.getByRole('table', { name: 'Plantillas' });
const dialog = () => screen.getByRole('dialog', { name: 'Nueva plantilla' });

beforeEach(async () => {
  await setupTestI18n('es');
  setSession({ token: 't', rol: 'admin', user: { id: 1, name: 'Ana', email: 'ana@example.com' } });
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TemplatesPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists status with the reason and quality, filters by status, and takes a rejection live', async () => {
    const { stream } = setup();
    expect(await screen.findByText('promo_rechazada')).toBeInTheDocument();
    expect(within(table()).getByText('Motivo: formato no válido')).toBeInTheDocument();
    expect(within(table()).getByText('Alta')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Estado'), 'REJECTED');
    expect(within(table()).queryByText('bienvenida')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Estado'), '');

    await stream.send('template.updated', {
      deleted: false,
      template: template({ status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' }),
    });
    expect(await within(table()).findByText('Motivo: categoría incorrecta')).toBeInTheDocument();
    await expectNoSeriousA11yViolations(document.body);
  });

  it('checks Meta rules before sending, previews the bubble, then sends Meta shape', async () => {
    // The example fields come and go with the placeholders: React must be able to tell them apart.
    const consoleErrors = vi.spyOn(console, 'error');
    const user = userEvent.setup();
    const { api } = setup();
    await screen.findByText('bienvenida');
    await user.click(screen.getByRole('button', { name: 'Nueva plantilla' }));
    const form = dialog();
    await user.type(within(form).getByLabelText(/^Nombre/), 'Pedido Listo');
    await user.type(within(form).getByLabelText(/^Cuerpo del mensaje/), 'Hola {{{{1}}, pedido {{{{3}}');
    await user.click(screen.getByRole('button', { name: 'Enviar a revisión' }));
    expect(
      await within(form).findByText('El nombre solo puede llevar minúsculas, números y guiones bajos (_).'),
    ).toBeInTheDocument();
    expect(
      within(form).getByText('Las variables se numeran desde {{1}} sin saltos: falta la 2.'),
    ).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.clear(within(form).getByLabelText(/^Nombre/));
    await user.type(within(form).getByLabelText(/^Nombre/), 'pedido_listo');
    const body = within(form).getByLabelText(/^Cuerpo del mensaje/);
    await user.clear(body);
    await user.type(body, 'Hola {{{{1}}, pedido {{{{2}}');
    await user.type(within(form).getByLabelText(/^Ejemplo de la variable 1/), 'Ana');
    await user.click(screen.getByRole('button', { name: 'Enviar a revisión' }));
    expect(await within(form).findByText('Falta el ejemplo de la variable 2.')).toBeInTheDocument();
    await user.type(within(form).getByLabelText(/^Ejemplo de la variable 2/), '1234');
    await user.type(within(form).getByLabelText(/^Pie/), 'Tienda Sol');
    expect(within(form).getByTestId('template-preview')).toHaveTextContent('Hola Ana, pedido 1234Tienda Sol');

    await user.click(screen.getByRole('button', { name: 'Enviar a revisión' }));
    expect(
      await screen.findByText('Plantilla «pedido_listo» enviada a WhatsApp para su revisión.'),
    ).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'pedido_listo',
      language: 'es',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Hola {{1}}, pedido {{2}}', example: { body_text: [['Ana', '1234']] } },
        { type: 'FOOTER', text: 'Tienda Sol' },
      ],
    });
    expect(await within(table()).findByText('pedido_listo')).toBeInTheDocument();
    const keyWarnings = consoleErrors.mock.calls.filter((call) => call.join(' ').includes('unique "key"'));
    expect(keyWarnings).toEqual([]);
    consoleErrors.mockRestore();
  });

  it('words the rules in English', async () => {
    await setupTestI18n('en');
    const user = userEvent.setup();
    setup();
    await screen.findByText('bienvenida');
    await user.click(screen.getByRole('button', { name: 'New template' }));
    await user.type(screen.getByLabelText(/^Footer/), 'f'.repeat(61));
    await user.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByText('The message body is required.')).toBeInTheDocument();
    expect(screen.getByText('The footer may be at most 60 characters long.')).toBeInTheDocument();
  });

  it('deletes after confirmation', async () => {
    const user = userEvent.setup();
    const { api } = setup();
    await screen.findByText('bienvenida');
    await user.click(screen.getByRole('button', { name: 'Eliminar la plantilla bienvenida (es)' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Eliminar plantilla' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(await screen.findByText('Plantilla «bienvenida» eliminada.')).toBeInTheDocument();
    expect(within(table()).queryByText('bienvenida')).not.toBeInTheDocument();
  });
});
