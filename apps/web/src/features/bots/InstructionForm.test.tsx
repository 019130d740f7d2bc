import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  makeMedia,
  makeSegment,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { InstructionForm, wouldOverflow } from './InstructionForm';
import { LibraryPicker } from './LibraryPicker';
import { makeInstruction } from './test-fixtures';

const MESSAGES = {
  askRequired: 'El nombre de la instrucción es obligatorio',
  askMin: 'El nombre debe tener al menos 3 caracteres',
  askMax: 'El nombre no puede exceder los 100 caracteres',
  replyRequired: 'La descripción de la instrucción es obligatoria',
  replyMax: 'La descripción no puede exceder los 1000 caracteres',
  segments: 'Debe seleccionar al menos un segmento',
  banner: 'Por favor, corrija los errores antes de continuar',
  media: 'No se puede agregar la imagen: excedería el límite de 1000 caracteres',
};

const segments = [
  makeSegment({ id: 1, name: 'VIP' }),
  makeSegment({ id: 2, name: 'Mayoristas', color: '#128c7e' }),
];
const MEDIA_LIST = 'GET /api/v1/admin/media/user';
const sofa = makeMedia({ id: 7, file_name: 'sofa.jpg', mime_type: 'image/jpeg' });
const MEDIA_URL = sofa.url;

/** The library as the server lists it (one page). */
function mediaList(media = [sofa]) {
  return { media, pagination: { current_page: 1, per_page: 60, total: media.length, last_page: 1 } };
}

function renderForm(
  options: { instruction?: ReturnType<typeof makeInstruction> | null; picker?: boolean } = {},
) {
  const onClose = vi.fn();
  const instruction = options.instruction ?? null;
  renderWithQuery(
    <InstructionForm
      botId={2}
      instruction={instruction}
      segments={segments}
      onClose={onClose}
      MediaPicker={options.picker ? LibraryPicker : undefined}
    />,
  );
  const dialog = screen.getByRole('dialog', {
    name: instruction ? 'Editar instrucción' : 'Crear instrucción',
  });
  const ask = within(dialog).getByLabelText(/^Nombre de la instrucción/) as HTMLInputElement;
  const reply = within(dialog).getByLabelText(/^Descripción/) as HTMLTextAreaElement;
  const submit = within(dialog).getByRole('button', {
    name: instruction ? 'Guardar cambios' : 'Crear instrucción',
  });
  return { dialog, ask, reply, submit, onClose };
}

async function chooseSegment(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, name: string) {
  await user.click(within(dialog).getByRole('combobox', { name: /^Segmentos/ }));
  await user.click(screen.getByRole('option', { name }));
  await user.keyboard('{Escape}');
}

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('wouldOverflow', () => {
  it('counts what an insertion adds over the selection it replaces', () => {
    expect(wouldOverflow({ value: 'abc', selectionStart: 3, selectionEnd: 3 }, 1, 3)).toBe(true);
    expect(wouldOverflow({ value: 'abc', selectionStart: 3, selectionEnd: 3 }, 1, 4)).toBe(false);
    expect(wouldOverflow({ value: 'abc', selectionStart: 0, selectionEnd: 3 }, 3, 3)).toBe(false);
    expect(wouldOverflow({ value: 'abc', selectionStart: 1, selectionEnd: 2 }, 2, 3)).toBe(true);
    expect(wouldOverflow({ value: 'abc', selectionStart: null, selectionEnd: null }, 1, 3)).toBe(true);
  });
});

describe('InstructionForm', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('checks every rule on submit, shows the banner for 3 s, then re-checks live as the user types', async () => {
    const api = mockFetch({});
    const { dialog, ask, reply, submit } = renderForm();
    const user = userEvent.setup();

    // Nothing is checked before the first submit.
    await user.type(ask, 'ab');
    expect(within(dialog).queryByText(MESSAGES.askMin)).toBeNull();
    await user.clear(ask);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(submit);
    expect(await within(dialog).findByText(MESSAGES.askRequired)).toBeVisible();
    expect(within(dialog).getByText(MESSAGES.replyRequired)).toBeVisible();
    expect(within(dialog).getByText(MESSAGES.segments)).toBeVisible();
    const banner = within(dialog).getByRole('alert');
    expect(banner).toHaveTextContent(new RegExp(`^${MESSAGES.banner}$`));
    expect(api.calls).toHaveLength(0);
    await act(async () => {
      vi.advanceTimersByTime(2900);
    });
    expect(within(dialog).getByText(MESSAGES.banner)).toBeVisible();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(within(dialog).queryByText(MESSAGES.banner)).toBeNull();
    vi.useRealTimers();

    // Live from now on.
    await user.type(ask, 'ab');
    expect(await within(dialog).findByText(MESSAGES.askMin)).toBeVisible();
    expect(within(dialog).queryByText(MESSAGES.askRequired)).toBeNull();
    await user.type(ask, 'c');
    expect(within(dialog).queryByText(MESSAGES.askMin)).toBeNull();
    await user.type(reply, 'Responde con el horario.');
    expect(within(dialog).queryByText(MESSAGES.replyRequired)).toBeNull();
    await chooseSegment(user, dialog, 'VIP');
    expect(within(dialog).queryByText(MESSAGES.segments)).toBeNull();
    expect(ask).toHaveAccessibleDescription(/3 de 100 caracteres/);
  });

  it('stops typing at 100 and 1000 characters with counters, and says why when the user tries to go past', async () => {
    mockFetch({});
    const { dialog, ask, reply } = renderForm();
    const user = userEvent.setup();

    await user.click(ask);
    await user.paste('x'.repeat(99));
    expect(within(dialog).getByText('99 / 100')).toBeVisible();
    await user.type(ask, 'y');
    expect(ask.value).toHaveLength(100);
    expect(within(dialog).getByText('100 / 100')).toBeVisible();
    expect(within(dialog).queryByText(MESSAGES.askMax)).toBeNull();
    await user.type(ask, 'z');
    expect(ask.value).toHaveLength(100);
    expect(within(dialog).getByText(MESSAGES.askMax)).toBeVisible();
    // Shorter than the limit again: the message goes.
    await user.type(ask, '{Backspace}');
    expect(within(dialog).queryByText(MESSAGES.askMax)).toBeNull();

    await user.click(reply);
    await user.paste('r'.repeat(1200));
    expect(reply.value).toHaveLength(1000);
    expect(within(dialog).getByText('1000 / 1000')).toBeVisible();
    expect(within(dialog).getByText(MESSAGES.replyMax)).toBeVisible();
    await user.type(reply, '{Backspace}');
    expect(within(dialog).queryByText(MESSAGES.replyMax)).toBeNull();
    await user.type(reply, 'q');
    expect(within(dialog).queryByText(MESSAGES.replyMax)).toBeNull();
    fireEvent.keyDown(reply, { key: 'w' });
    expect(within(dialog).getByText(MESSAGES.replyMax)).toBeVisible();
  });

  it('creates the instruction for the selected bot, shows the message and closes 2 seconds later', async () => {
    const api = mockFetch({
      'POST /api/v1/admin/instruction': [
        201,
        { message: 'Instrucción creada con éxito.', data: makeInstruction({ id: 30, bot_id: 2 }) },
      ],
    });
    const { dialog, ask, reply, submit, onClose } = renderForm();
    const user = userEvent.setup();
    await user.type(ask, 'Horario de atención');
    await user.type(reply, 'Atendemos de 9 a 18 h.');
    await chooseSegment(user, dialog, 'Mayoristas');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(submit);
    expect(await within(dialog).findByText('Instrucción creada con éxito.')).toBeVisible();
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/admin/instruction',
      body: { bot_id: 2, ask: 'Horario de atención', reply: 'Atendemos de 9 a 18 h.', segments: [2] },
    });
    await act(async () => {
      vi.advanceTimersByTime(1900);
    });
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('edits an instruction: its values are filled in and a PUT replaces them', async () => {
    const instruction = makeInstruction({
      id: 12,
      bot_id: 2,
      ask: 'Horario',
      reply: 'De 9 a 18 h.',
      segments: ['1'],
    });
    const api = mockFetch({
      'PUT /api/v1/admin/instruction/12': [
        200,
        { message: 'Instrucción actualizada con éxito.', data: instruction },
      ],
    });
    const { dialog, ask, reply, submit } = renderForm({ instruction });
    const user = userEvent.setup();
    expect(ask).toHaveValue('Horario');
    expect(reply).toHaveValue('De 9 a 18 h.');
    expect(within(dialog).getByText('VIP')).toBeVisible();
    await user.clear(reply);
    await user.type(reply, 'De 10 a 14 h.');
    await user.click(submit);
    expect(await within(dialog).findByText('Instrucción actualizada con éxito.')).toBeVisible();
    expect(api.calls[0].body).toEqual({ bot_id: 2, ask: 'Horario', reply: 'De 10 a 14 h.', segments: [1] });
  });

  it("puts a 422's messages on the fields and in the list", async () => {
    mockFetch({
      'POST /api/v1/admin/instruction': [
        422,
        {
          message: 'Uno o más segmentos no existen.',
          errors: { segments: ['Uno o más segmentos no existen.'], bot_id: ['El bot no existe.'] },
        },
      ],
    });
    const { dialog, ask, reply, submit } = renderForm();
    const user = userEvent.setup();
    await user.type(ask, 'Horario');
    await user.type(reply, 'x');
    await chooseSegment(user, dialog, 'VIP');
    await user.click(submit);
    expect(await within(dialog).findByText('Por favor corrige los siguientes errores:')).toBeVisible();
    expect(within(dialog).getByText('El bot no existe.')).toBeVisible();
    expect(within(dialog).getAllByText('Uno o más segmentos no existen.').length).toBeGreaterThanOrEqual(2);
  });

  it("'Agregar media' appends the file's address to the description, or refuses past 1000 characters for 3 s", async () => {
    const api = mockFetch({ [MEDIA_LIST]: [200, mediaList()] });
    const { dialog, reply } = renderForm({ picker: true });
    const user = userEvent.setup();
    await user.type(reply, 'Envía esta foto:');
    // The library is asked for only when the picker opens.
    expect(api.calls.filter((c) => c.url.startsWith('/api/v1/admin/media/user'))).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Agregar media' }));
    const picker = screen.getByRole('dialog', { name: 'Biblioteca de medios' });
    await user.click(await within(picker).findByRole('button', { name: 'Elegir sofa.jpg' }));
    expect(reply).toHaveValue(`Envía esta foto:\n${MEDIA_URL}`);
    expect(screen.queryByRole('dialog', { name: 'Biblioteca de medios' })).toBeNull();
    expect(within(dialog).getByText(`${reply.value.length} / 1000`)).toBeVisible();
    expect(api.calls.filter((c) => c.url.startsWith('/api/v1/admin/media/user'))).toHaveLength(1);

    await user.clear(reply);
    await user.click(reply);
    const full = 'x'.repeat(1000 - MEDIA_URL.length);
    await user.paste(full);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Agregar media' }));
    await user.click(await screen.findByRole('button', { name: 'Elegir sofa.jpg' }));
    expect(reply).toHaveValue(full);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(new RegExp(`^${MESSAGES.media}$`));
    await act(async () => {
      vi.advanceTimersByTime(2900);
    });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MESSAGES.media);
    await act(async () => {
      vi.advanceTimersByTime(200);
    });
    expect(within(dialog).queryByText(MESSAGES.media)).toBeNull();
    expect(reply).toHaveValue(full);
  });

  it("the picker says 'No hay archivos disponibles' for an empty library and closes with nothing added", async () => {
    mockFetch({ [MEDIA_LIST]: [200, mediaList([])] });
    const { dialog, reply } = renderForm({ picker: true });
    const user = userEvent.setup();
    await user.type(reply, 'Hola');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar media' }));
    const picker = screen.getByRole('dialog', { name: 'Biblioteca de medios' });
    expect(await within(picker).findByText('No hay archivos disponibles')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Biblioteca de medios' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Crear instrucción' })).toBeVisible();
    expect(reply).toHaveValue('Hola');
  });

  it('without a media picker there is no media button', () => {
    mockFetch({});
    const { dialog } = renderForm();
    expect(within(dialog).queryByRole('button', { name: 'Agregar media' })).toBeNull();
  });

  it('speaks English, with no serious accessibility problem', async () => {
    await setupTestI18n('en');
    mockFetch({});
    renderWithQuery(<InstructionForm botId={2} instruction={null} segments={segments} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Create instruction' });
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Instruction name/), 'ab');
    await user.click(within(dialog).getByRole('button', { name: 'Create instruction' }));
    expect(await within(dialog).findByText('The name must have at least 3 characters')).toBeVisible();
    expect(within(dialog).getByText('The instruction description is required')).toBeVisible();
    expect(within(dialog).getByText('You must select at least one segment')).toBeVisible();
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'Please correct the errors before continuing',
    );
    await expectNoSeriousA11yViolations();
  });
});
