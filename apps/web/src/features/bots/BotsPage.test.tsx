import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  makeClient,
  makeMedia,
  makeSegment,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import BotsPage from './BotsPage';
import { botsResponse, makeBot, makeInstruction } from './test-fixtures';

const DELETE_BOT = '¿Estás seguro de que deseas eliminar este bot? Esta acción no se puede deshacer.';

const segments = [
  makeSegment({ id: 1, name: 'VIP', color: '#1a73e8' }),
  makeSegment({ id: 2, name: 'Mayoristas', color: '#128c7e' }),
];

/** Bot 1 inactive, bots 2 and 3 active: bot 2 is both the first active one and the live one. */
function standardApi(
  bots = [
    makeBot({ id: 1, bot_name: 'Pausado', state: 0 }),
    makeBot({ id: 2, bot_name: 'Sofía', state: 1, instructions_count: 2 }),
    makeBot({ id: 3, bot_name: 'Lucas', state: 1 }),
  ],
) {
  return mockFetch({
    'GET /api/v1/admin/bot': [200, botsResponse(bots)],
    'GET /api/v1/admin/segment': [200, { segments, message: 'Segmentos obtenidos con éxito.' }],
    'GET /api/v1/admin/instructions/1': [200, { data: [], message: 'ok' }],
    'GET /api/v1/admin/instructions/2': [
      200,
      {
        data: [
          makeInstruction({ id: 10, bot_id: 2, ask: 'Horario de atención' }),
          makeInstruction({ id: 11, bot_id: 2, ask: 'Descuento VIP', segments: ['1', '2'] }),
        ],
        message: 'Instrucciones obtenidas con éxito.',
      },
    ],
    'GET /api/v1/admin/instructions/3': [
      200,
      { data: [makeInstruction({ id: 20, bot_id: 3, ask: 'Envíos' })], message: 'ok' },
    ],
  });
}

function renderPage() {
  return renderFeature([{ path: '/admin/bots', element: <BotsPage /> }], '/admin/bots');
}

const card = (id: number) => screen.getByTestId(`bot-card-${id}`);
const instructionsTable = () => screen.getByRole('table', { name: 'Instrucciones' });

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('BotsPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('shows the bot cards, selects the first active bot on load and lists its instructions', async () => {
    const api = standardApi();
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Bots e instrucciones' })).toBeVisible();
    await screen.findByText('Pausado');

    // Each card: checkbox, name, edit, red round delete, pause/resume and its label.
    const paused = within(card(1));
    expect(paused.getByRole('checkbox', { name: 'Seleccionar el bot Pausado' })).not.toBeChecked();
    expect(paused.getByText('Inactivo')).toBeVisible();
    expect(paused.getByRole('button', { name: 'Reanudar el bot Pausado' })).toBeVisible();
    expect(paused.getByRole('button', { name: 'Editar el bot Pausado' })).toBeVisible();
    expect(paused.getByRole('button', { name: 'Eliminar el bot Pausado' })).toHaveClass('bot-card__delete');
    const sofia = within(card(2));
    // The first active bot is selected once the list is in (an effect after the cards' render).
    await waitFor(() =>
      expect(sofia.getByRole('checkbox', { name: 'Seleccionar el bot Sofía' })).toBeChecked(),
    );
    expect(sofia.getByText('Activo')).toBeVisible();
    expect(sofia.getByRole('button', { name: 'Pausar el bot Sofía' })).toBeVisible();
    expect(sofia.getByText('2 instrucciones')).toBeVisible();
    expect(within(card(3)).getByRole('checkbox')).not.toBeChecked();

    // The live badge sits on the lowest-id active bot only.
    expect(sofia.getByText('En vivo')).toBeVisible();
    expect(within(card(3)).queryByText('En vivo')).toBeNull();
    expect(within(card(1)).queryByText('En vivo')).toBeNull();
    expect(screen.getByText(/Responde a tus clientes el bot activo con el id más bajo/)).toBeVisible();

    expect(screen.getByRole('heading', { name: 'Instrucciones de Sofía' })).toBeVisible();
    await within(instructionsTable()).findByText('Horario de atención');
    const headers = within(instructionsTable())
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(expect.arrayContaining(['id', 'Instrucción']));
    expect(within(instructionsTable()).getByText('Descuento VIP')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Editar la instrucción Descuento VIP' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Eliminar la instrucción Descuento VIP' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Crear instrucción' })).toBeVisible();
    expect(api.calls.some((c) => c.url === '/api/v1/admin/instructions/1')).toBe(false);
    await expectNoSeriousA11yViolations();
  });

  it('switches the instructions with the card checkbox; unchecking leaves no bot selected', async () => {
    standardApi();
    renderPage();
    const user = userEvent.setup();
    await within(instructionsTable()).findByText('Horario de atención');
    await user.click(within(card(3)).getByRole('checkbox'));
    await within(instructionsTable()).findByText('Envíos');
    expect(within(card(2)).getByRole('checkbox')).not.toBeChecked();
    expect(screen.getByRole('heading', { name: 'Instrucciones de Lucas' })).toBeVisible();

    await user.click(within(card(3)).getByRole('checkbox'));
    expect(screen.getByRole('heading', { name: 'Instrucciones' })).toBeVisible();
    expect(screen.getByText('Selecciona un bot para ver sus instrucciones.')).toBeVisible();
  });

  it("asks to select a bot first: 'Please select a Bot before creating an instruction.'", async () => {
    standardApi([makeBot({ id: 1, bot_name: 'Pausado', state: 0 })]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Pausado');
    // No bot is active, so none is selected on load, and nobody answers customers.
    expect(within(card(1)).getByRole('checkbox')).not.toBeChecked();
    expect(
      screen.getByText('Ningún bot está activo: nadie responde a tus clientes automáticamente.'),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Crear instrucción' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      /^Please select a Bot before creating an instruction\.$/,
    );
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(within(card(1)).getByRole('checkbox'));
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Crear instrucción' }));
    expect(await screen.findByRole('dialog', { name: 'Crear instrucción' })).toBeVisible();
  });

  it("pauses and resumes a bot after 'Are you sure you want to {action} this bot?', then reloads the list", async () => {
    const api = standardApi();
    api.set('POST /api/v1/admin/bot/2/toggle-bot-state', [
      200,
      { message: 'Bot desactivado con éxito.', bot: makeBot({ id: 2, state: 0 }) },
    ]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Sofía');
    const listCalls = () =>
      api.calls.filter((c) => c.method === 'GET' && c.url === '/api/v1/admin/bot').length;
    const before = listCalls();

    await user.click(within(card(2)).getByRole('button', { name: 'Pausar el bot Sofía' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to pause this bot?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(within(card(2)).getByRole('button', { name: 'Pausar el bot Sofía' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Pausar' }));
    await screen.findByText('Bot desactivado con éxito.');
    expect(api.calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/v1/admin/bot/2/toggle-bot-state',
      body: { state: 0 },
    });
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));

    api.set('POST /api/v1/admin/bot/1/toggle-bot-state', [
      200,
      { message: 'Bot activado con éxito.', bot: makeBot({ id: 1, state: 1 }) },
    ]);
    await user.click(within(card(1)).getByRole('button', { name: 'Reanudar el bot Pausado' }));
    dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Are you sure you want to resume this bot?');
    await user.click(within(dialog).getByRole('button', { name: 'Reanudar' }));
    await screen.findByText('Bot activado con éxito.');
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ state: 1 });
  });

  it('deletes a bot after the confirmation and shows the message for 4 seconds', async () => {
    const api = standardApi();
    api.set('DELETE /api/v1/admin/bot/2', [200, { message: 'Bot eliminado con éxito.' }]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Sofía');
    await user.click(within(card(2)).getByRole('button', { name: 'Eliminar el bot Sofía' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(DELETE_BOT);
    expect(dialog).toHaveTextContent('También se eliminarán sus 2 instrucciones.');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    const status = await screen.findByText('Bot eliminado con éxito.');
    expect(status.closest('[role="status"]')).toHaveClass('hb-message--success');
    expect(api.calls.find((c) => c.method === 'DELETE')?.url).toBe('/api/v1/admin/bot/2');
    await act(async () => {
      vi.advanceTimersByTime(3900);
    });
    expect(screen.getByText('Bot eliminado con éxito.')).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Bot eliminado con éxito.')).toBeNull();
  });

  it('deletes instructions after the confirmation, several at once in one call', async () => {
    const api = standardApi();
    api.set('DELETE /api/v1/admin/instruction', [200, { message: 'Instrucciones eliminadas con éxito.' }]);
    renderPage();
    const user = userEvent.setup();
    await within(instructionsTable()).findByText('Horario de atención');
    await user.click(screen.getByRole('button', { name: 'Eliminar la instrucción Horario de atención' }));
    let dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(
      '¿Estás seguro de que deseas eliminar esta instrucción? Esta acción no se puede deshacer.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await screen.findByText('Instrucciones eliminadas con éxito.');
    expect(api.calls.find((c) => c.method === 'DELETE')?.body).toEqual({ ids: [10] });

    await user.click(screen.getByRole('checkbox', { name: 'Seleccionar todas las filas de la página' }));
    await user.click(screen.getAllByRole('button', { name: 'Eliminar' })[0]);
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'DELETE').at(-1)?.body).toEqual({ ids: [10, 11] }),
    );
  });

  it('creates a bot in the modal, which closes 2 seconds after the save', async () => {
    const api = standardApi();
    api.set('POST /api/v1/admin/bot', [201, { message: 'Bot creado con éxito.', bot: makeBot({ id: 9 }) }]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Sofía');
    await user.click(screen.getByRole('button', { name: 'Crear bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear bot' });
    await user.click(within(dialog).getByRole('button', { name: 'Crear bot' }));
    expect(await within(dialog).findByText('El campo Bot Name es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('El campo personalidad es obligatorio.')).toBeVisible();
    await user.type(within(dialog).getByLabelText(/^Bot Name/), 'Nuevo');
    await user.type(within(dialog).getByLabelText(/^Personalidad/), 'Eres amable.');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Crear bot' }));
    expect(await within(dialog).findByText('Bot creado con éxito.')).toBeVisible();
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      bot_name: 'Nuevo',
      personality: 'Eres amable.',
    });
    await act(async () => {
      vi.advanceTimersByTime(1900);
    });
    expect(screen.getByRole('dialog', { name: 'Crear bot' })).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByRole('dialog', { name: 'Crear bot' })).toBeNull();
  });

  it('edits a bot with its values filled in', async () => {
    const api = standardApi();
    api.set('PUT /api/v1/admin/bot/3', [
      200,
      { message: 'Bot actualizado con éxito.', bot: makeBot({ id: 3 }) },
    ]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Lucas');
    await user.click(within(card(3)).getByRole('button', { name: 'Editar el bot Lucas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar bot' });
    const name = within(dialog).getByLabelText(/^Bot Name/);
    expect(name).toHaveValue('Lucas');
    await user.clear(name);
    await user.type(name, 'Lucas 2');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText('Bot actualizado con éxito.')).toBeVisible();
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ bot_name: 'Lucas 2' });
  });

  it('edits an instruction from its row, with its segments chosen', async () => {
    standardApi();
    renderPage();
    const user = userEvent.setup();
    await within(instructionsTable()).findByText('Descuento VIP');
    await user.click(screen.getByRole('button', { name: 'Editar la instrucción Descuento VIP' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar instrucción' });
    expect(within(dialog).getByLabelText(/^Nombre de la instrucción/)).toHaveValue('Descuento VIP');
    expect(within(dialog).getByText('VIP')).toBeVisible();
    expect(within(dialog).getByText('Mayoristas')).toBeVisible();
  });

  it("'Agregar media' in the instruction form opens the company's library and puts the chosen file's address in the description", async () => {
    const api = standardApi();
    const menu = makeMedia({ id: 4, file_name: 'menú.pdf', kind: 'document', mime_type: 'application/pdf' });
    const logo = makeMedia({ id: 5, file_name: 'logo.png' });
    api.set('GET /api/v1/admin/media/user', [
      200,
      { media: [logo, menu], pagination: { current_page: 1, per_page: 60, total: 2, last_page: 1 } },
    ]);
    renderPage();
    const user = userEvent.setup();
    await within(instructionsTable()).findByText('Descuento VIP');
    await user.click(screen.getByRole('button', { name: 'Editar la instrucción Descuento VIP' }));
    const form = await screen.findByRole('dialog', { name: 'Editar instrucción' });
    const reply = within(form).getByLabelText(/^Descripción/) as HTMLTextAreaElement;
    const before = reply.value;
    await user.click(within(form).getByRole('button', { name: 'Agregar media' }));
    const picker = screen.getByRole('dialog', { name: 'Biblioteca de medios' });
    await user.click(await within(picker).findByRole('button', { name: 'Elegir menú.pdf' }));
    expect(screen.queryByRole('dialog', { name: 'Biblioteca de medios' })).toBeNull();
    expect(reply).toHaveValue(`${before}\n${menu.url}`);
    expect(api.calls.filter((c) => c.url.startsWith('/api/v1/admin/media/user'))).toHaveLength(1);
  });

  it('"Probar bot": sends the segment and the message, and shows the prompt when there is no model reply', async () => {
    const api = standardApi();
    api.set('POST /api/v1/admin/bot/2/test', [
      200,
      {
        prompt: [
          { role: 'system', content: 'Eres Sofía.\n\n# Instructions\n\n## Horario\nDe 9 a 18 h.' },
          { role: 'user', content: '¿Abren el sábado?' },
        ],
        instruction_ids: [10],
        reply: null,
        model: null,
        model_error: null,
        message: 'No hay configuración de OpenAI: se muestra el prompt que se enviaría al modelo.',
      },
    ]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Sofía');
    const panel = screen.getByRole('region', { name: 'Probar bot' });
    await user.click(within(panel).getByRole('button', { name: 'Probar' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Elige un segmento o un cliente.');
    await user.selectOptions(within(panel).getByLabelText('Segmento'), 'VIP');
    await user.click(within(panel).getByRole('button', { name: 'Probar' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Escribe el mensaje del cliente.');
    await user.type(within(panel).getByLabelText('Mensaje del cliente'), '¿Abren el sábado?');
    await user.click(within(panel).getByRole('button', { name: 'Probar' }));
    expect(
      await within(panel).findByText(
        'No hay configuración de OpenAI: se muestra el prompt que se enviaría al modelo.',
      ),
    ).toBeVisible();
    expect(api.calls.find((c) => c.url === '/api/v1/admin/bot/2/test')?.body).toEqual({
      message: '¿Abren el sábado?',
      segment_id: 1,
    });
    expect(within(panel).getByText('Prompt que se enviaría')).toBeVisible();
    expect(within(panel).getByText('1 instrucción aplicada.')).toBeVisible();
    expect(within(panel).getByText(/## Horario/)).toBeVisible();
  });

  it('"Probar bot" with a client shows the model reply', async () => {
    const api = standardApi();
    api.set('GET /api/v1/admin/client', [
      200,
      {
        clients: [
          makeClient({ id: 5, name: 'Ana', last_names: 'García' }),
          makeClient({ id: 6, name: 'Luis', last_names: 'Pérez', whatsapp_cellphone: '34600111222' }),
        ],
        message: 'ok',
      },
    ]);
    api.set('POST /api/v1/admin/bot/2/test', [
      200,
      {
        prompt: [
          { role: 'system', content: 'Eres Sofía.' },
          { role: 'user', content: 'Hola' },
        ],
        instruction_ids: [],
        reply: '¡Hola! ¿En qué puedo ayudarte?',
        model: 'gpt-4o-mini',
        model_error: null,
        message: 'Respuesta del modelo obtenida.',
      },
    ]);
    renderPage();
    const user = userEvent.setup();
    await screen.findByText('Sofía');
    const panel = screen.getByRole('region', { name: 'Probar bot' });
    await user.click(within(panel).getByRole('radio', { name: 'Un cliente' }));
    await user.type(within(panel).getByLabelText('Buscar cliente'), 'perez');
    const select = within(panel).getByLabelText('Cliente');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    expect(within(select).getByRole('option', { name: 'Luis Pérez (+34600111222)' })).toBeInTheDocument();
    await user.selectOptions(select, '6');
    await user.type(within(panel).getByLabelText('Mensaje del cliente'), 'Hola');
    await user.click(within(panel).getByRole('button', { name: 'Probar' }));
    expect(await within(panel).findByText('¡Hola! ¿En qué puedo ayudarte?')).toBeVisible();
    expect(within(panel).getByRole('heading', { name: 'Respuesta del modelo (gpt-4o-mini)' })).toBeVisible();
    expect(api.calls.find((c) => c.url === '/api/v1/admin/bot/2/test')?.body).toEqual({
      message: 'Hola',
      client_id: 6,
    });
    expect(api.calls.find((c) => c.url.startsWith('/api/v1/admin/client?'))?.url).toContain('per_page=20');
  });

  it('reads in English', async () => {
    await setupTestI18n('en');
    standardApi([makeBot({ id: 4, bot_name: 'Max', state: 0 })]);
    renderPage();
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Bots and instructions' })).toBeVisible();
    await screen.findByText('Max');
    expect(within(card(4)).getByText('Inactive')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create instruction' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Please select a Bot before creating an instruction.',
    );
    await user.click(within(card(4)).getByRole('button', { name: 'Resume the bot Max' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      'Are you sure you want to resume this bot?',
    );
  });
});
