import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  makeMedia,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { MassMessageForm } from './MassMessageForm';
import { localInputToUtc, toLocalInput } from './schedule';
import { makeList, makeSend, makeTemplate } from './test-fixtures';

const templates = [
  makeTemplate({ id: 1, name: 'promo_diciembre' }),
  makeTemplate({ id: 2, name: 'pendiente', status: 'PENDING' }),
  makeTemplate({ id: 3, name: 'rechazada', status: 'REJECTED' }),
  makeTemplate({
    id: 4,
    name: 'catalogo',
    components: [
      { type: 'HEADER', format: 'IMAGE', text: null, buttons: [] },
      { type: 'BODY', format: null, text: 'Mira el catálogo, {{1}}', buttons: [] },
    ],
  }),
];
const lists = [makeList({ id: 7, name: 'Clientes VIP', clients_count: 3 })];

const ana = { id: 1, name: 'Ana', last_names: 'García', whatsapp_cellphone: '5215511111111', email: null };

function renderForm() {
  const onSent = vi.fn();
  renderWithQuery(<MassMessageForm templates={templates} lists={lists} onSent={onSent} />);
  const form = screen.getByRole('region', { name: 'Nuevo envío' });
  return { form, onSent, user: userEvent.setup() };
}

beforeEach(() => {
  setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('MassMessageForm', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('offers only APPROVED templates and needs a name, a template and a list', async () => {
    const api = mockFetch({});
    const { form, user } = renderForm();
    const select = within(form).getByLabelText(/^Plantilla/);
    const options = within(select)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Selecciona una plantilla aprobada', 'promo_diciembre (es)', 'catalogo (es)']);
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('El campo nombre es obligatorio.')).toBeVisible();
    expect(within(form).getByText('El campo plantilla es obligatorio.')).toBeVisible();
    expect(within(form).getByText('El campo lista de clientes es obligatorio.')).toBeVisible();
    expect(api.calls).toHaveLength(0);
    await expectNoSeriousA11yViolations();
  });

  it('fills placeholders with quick inserts, previews one real recipient and sends as JSON', async () => {
    let answer: (response: Response) => void = () => {};
    const api = mockFetch({
      'POST /api/v1/admin/messages-massive/preview': (call) => {
        const body = call.body as { bodyParameters: Record<string, string> };
        const text = `Hola ${body.bodyParameters['1']?.replace('{{Nombre}}', 'Ana')}, tu código es ${body.bodyParameters['2']}.`;
        return new Response(JSON.stringify({ data: { client: ana, text } }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
      'POST /api/v1/admin/messages-massive': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const { form, user, onSent } = renderForm();
    await user.type(within(form).getByLabelText(/^Nombre del envío/), 'Promo diciembre');
    await user.selectOptions(within(form).getByLabelText(/^Plantilla/), '1');
    await user.selectOptions(within(form).getByLabelText(/^Lista de clientes/), '7');
    const first = within(form).getByLabelText(/^Valor de \{\{1\}\}/);
    await user.type(first, 'Sr. ');
    await user.click(within(form).getByRole('button', { name: 'Insertar Nombre en {{1}}' }));
    expect(first).toHaveValue('Sr. {{Nombre}}');
    expect(
      within(form)
        .getAllByRole('button', { name: /en \{\{2\}\}$/ })
        .map((b) => b.textContent),
    ).toEqual(['Nombre', 'Apellido', 'Celular', 'Correo']);
    await user.type(within(form).getByLabelText(/^Valor de \{\{2\}\}/), 'X1');

    expect(await within(form).findByText('Así lo recibirá Ana García:')).toBeVisible();
    await waitFor(() =>
      expect(within(form).getByTestId('mass-preview')).toHaveTextContent('Hola Sr. Ana, tu código es X1.'),
    );
    const preview = api.calls.find((call) => call.url.endsWith('/preview'));
    expect(preview?.body).toEqual({
      message_template_id: 1,
      list_id: 7,
      bodyParameters: { '1': 'Sr. {{Nombre}}', '2': 'X1' },
    });

    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Enviando mensaje...')).toBeVisible();
    answer(
      new Response(JSON.stringify({ success: true, message: 'ok', data: makeSend() }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect(await within(form).findByText('Mensaje enviado con éxito.')).toBeVisible();
    expect(onSent).toHaveBeenCalled();
    const sent = api.calls.find((call) => call.url === '/api/v1/admin/messages-massive');
    expect(sent?.body).toEqual({
      name: 'Promo diciembre',
      message_template_id: 1,
      list_id: 7,
      message: 'Hola Sr. {{Nombre}}, tu código es X1.',
      bodyParameters: { '1': 'Sr. {{Nombre}}', '2': 'X1' },
    });
    // The form is ready for the next send.
    expect(within(form).getByLabelText(/^Nombre del envío/)).toHaveValue('');
  });

  it('asks for every placeholder before sending', async () => {
    const api = mockFetch({});
    const { form, user } = renderForm();
    await user.type(within(form).getByLabelText(/^Nombre del envío/), 'Promo');
    await user.selectOptions(within(form).getByLabelText(/^Plantilla/), '1');
    await user.selectOptions(within(form).getByLabelText(/^Lista de clientes/), '7');
    await user.type(within(form).getByLabelText(/^Valor de \{\{1\}\}/), 'Ana');
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Completa el valor de {{2}}.')).toBeVisible();
    expect(api.calls.filter((call) => call.url === '/api/v1/admin/messages-massive')).toHaveLength(0);
  });

  it('sends a schedule typed in local time as UTC and labels the button Programar', async () => {
    const api = mockFetch({
      'POST /api/v1/admin/messages-massive/preview': [200, { data: { client: ana, text: 'Hola Ana' } }],
      'POST /api/v1/admin/messages-massive': [201, { success: true, message: 'ok', data: makeSend() }],
    });
    const { form, user } = renderForm();
    await user.type(within(form).getByLabelText(/^Nombre del envío/), 'Programado');
    await user.selectOptions(within(form).getByLabelText(/^Plantilla/), '4');
    await user.selectOptions(within(form).getByLabelText(/^Lista de clientes/), '7');
    await user.click(within(form).getByRole('button', { name: 'Insertar Nombre en {{1}}' }));
    const local = toLocalInput(new Date(Date.now() + 3 * 24 * 3600_000));
    fireEvent.change(within(form).getByLabelText(/^Programar envío/), { target: { value: local } });
    expect(within(form).getByText(/Hora local \(.+\)\. Déjalo vacío para enviar ahora\./)).toBeVisible();

    // The template has an image header: a file is required, uploaded here.
    await user.click(within(form).getByRole('button', { name: 'Programar' }));
    expect(
      await within(form).findByText('La plantilla tiene un encabezado multimedia: elige un archivo.'),
    ).toBeVisible();
    const file = new File(['png'], 'promo.png', { type: 'image/png' });
    await user.upload(within(form).getByTestId('mass-file-input'), file);
    expect(within(form).getAllByText('promo.png').length).toBeGreaterThan(0);
    await user.click(within(form).getByRole('button', { name: 'Programar' }));
    expect(await within(form).findByText('Mensaje enviado con éxito.')).toBeVisible();

    const sent = api.calls.find((call) => call.url === '/api/v1/admin/messages-massive');
    expect(sent?.body).toBeInstanceOf(FormData);
    const body = sent?.body as FormData;
    expect(body.get('schedule')).toBe(localInputToUtc(local));
    expect(String(body.get('schedule'))).toMatch(/Z$/);
    expect(JSON.parse(String(body.get('bodyParameters')))).toEqual({ '1': '{{Nombre}}' });
    expect((body.get('file') as File).name).toBe('promo.png');
    expect(body.get('message_template_id')).toBe('4');
  });

  it('takes the header file from the media library', async () => {
    const api = mockFetch({
      'GET /api/v1/admin/media/user': [
        200,
        {
          media: [makeMedia({ id: 12, file_name: 'banner.png' })],
          pagination: { current_page: 1, per_page: 60, total: 1, last_page: 1 },
        },
      ],
      'POST /api/v1/admin/messages-massive/preview': [200, { data: { client: ana, text: 'Mira' } }],
      'POST /api/v1/admin/messages-massive': [201, { success: true, message: 'ok', data: makeSend() }],
    });
    const { form, user } = renderForm();
    await user.type(within(form).getByLabelText(/^Nombre del envío/), 'Catálogo');
    await user.selectOptions(within(form).getByLabelText(/^Plantilla/), '4');
    await user.selectOptions(within(form).getByLabelText(/^Lista de clientes/), '7');
    await user.type(within(form).getByLabelText(/^Valor de \{\{1\}\}/), 'amigo');
    await user.click(within(form).getByRole('button', { name: 'Elegir de la biblioteca' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: /banner\.png/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Mensaje enviado con éxito.')).toBeVisible();
    const sent = api.calls.find((call) => call.url === '/api/v1/admin/messages-massive');
    expect(sent?.body).toMatchObject({ media_id: 12, bodyParameters: { '1': 'amigo' } });
  });

  it('shows the server message, the generic text, or Error desconocido.', async () => {
    const api = mockFetch({
      'POST /api/v1/admin/messages-massive/preview': [200, { data: { client: ana, text: 'Hola' } }],
      'POST /api/v1/admin/messages-massive': [
        422,
        {
          message: 'La plantilla no está aprobada.',
          errors: { message_template_id: ['La plantilla no está aprobada.'] },
        },
      ],
    });
    const { form, user } = renderForm();
    await user.type(within(form).getByLabelText(/^Nombre del envío/), 'Promo');
    await user.selectOptions(within(form).getByLabelText(/^Plantilla/), '1');
    await user.selectOptions(within(form).getByLabelText(/^Lista de clientes/), '7');
    await user.type(within(form).getByLabelText(/^Valor de \{\{1\}\}/), 'a');
    await user.type(within(form).getByLabelText(/^Valor de \{\{2\}\}/), 'b');
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Error: La plantilla no está aprobada.')).toBeVisible();
    expect(within(form).getByText('Por favor corrige los siguientes errores:')).toBeVisible();

    api.set('POST /api/v1/admin/messages-massive', [500, { message: 'Ocurrió un error interno' }]);
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Error: Ocurrió un error al enviar el mensaje.')).toBeVisible();

    api.set('POST /api/v1/admin/messages-massive', [200, { success: false }]);
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(await within(form).findByText('Error: Error desconocido.')).toBeVisible();
  });

  it('speaks English', async () => {
    setupTestI18n('en');
    mockFetch({});
    renderWithQuery(<MassMessageForm templates={templates} lists={lists} />);
    const form = screen.getByRole('region', { name: 'New send' });
    const user = userEvent.setup();
    await user.selectOptions(within(form).getByLabelText(/^Template/), '1');
    expect(within(form).getByRole('button', { name: 'Insert First name into {{1}}' })).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findByText('The name field is required.')).toBeVisible();
  });
});
