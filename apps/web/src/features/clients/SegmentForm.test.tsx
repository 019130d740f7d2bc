import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSegment, mockFetch, renderWithQuery, SCREEN_TEST_TIMEOUT, setupTestI18n } from '../../test';
import { SegmentForm } from './SegmentForm';

function renderForm(segment = null as ReturnType<typeof makeSegment> | null) {
  const onClose = vi.fn();
  renderWithQuery(<SegmentForm segment={segment} onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: segment ? 'Editar segmento' : 'Crear segmento' });
  return { dialog, onClose };
}

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SegmentForm', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('starts with the default colour #7300ff and requires name, a #RRGGBB colour and rules', async () => {
    const api = mockFetch({});
    const { dialog } = renderForm();
    const user = userEvent.setup();
    const color = within(dialog).getByLabelText(/^Color/);
    expect(color).toHaveValue('#7300ff');
    await user.clear(color);
    await user.type(color, '#12');
    await user.click(within(dialog).getByRole('button', { name: 'Crear segmento' }));
    expect(await within(dialog).findByText('El campo nombre es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('El color debe tener el formato #RRGGBB.')).toBeVisible();
    expect(within(dialog).getByText('El campo reglas es obligatorio.')).toBeVisible();
    expect(api.calls).toHaveLength(0);
  });

  it('creates a segment with the picked colour, shows the message for 4 s and leaves the form blank', async () => {
    const api = mockFetch({
      'POST /api/v1/admin/segment': [
        201,
        { segment: makeSegment({ id: 5 }), message: 'Segmento creado con éxito.' },
      ],
    });
    const { dialog, onClose } = renderForm();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'Clientes VIP');
    await user.click(within(dialog).getByRole('button', { name: 'Usar el color #1a73e8' }));
    await user.type(within(dialog).getByLabelText(/^Reglas/), 'Más de 3 compras');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Crear segmento' }));
    expect(await within(dialog).findByText('Segmento creado con éxito.')).toBeVisible();
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/admin/segment',
      body: { name: 'Clientes VIP', color: '#1a73e8', rules: 'Más de 3 compras' },
    });
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveValue('');
    expect(within(dialog).getByLabelText(/^Color/)).toHaveValue('#7300ff');
    await act(async () => {
      vi.advanceTimersByTime(4100);
    });
    expect(within(dialog).queryByText('Segmento creado con éxito.')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes an edited segment 2 seconds after the save', async () => {
    const segment = makeSegment({ id: 3, name: 'VIP', color: '#1a73e8', rules: 'r' });
    const api = mockFetch({
      'PUT /api/v1/admin/segment/3': [200, { segment, message: 'Segmento actualizado con éxito.' }],
    });
    const { dialog, onClose } = renderForm(segment);
    const user = userEvent.setup();
    const name = within(dialog).getByLabelText(/^Nombre/);
    await user.clear(name);
    await user.type(name, 'Premium');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText('Segmento actualizado con éxito.')).toBeVisible();
    expect(api.calls[0].body).toEqual({ name: 'Premium', color: '#1a73e8', rules: 'r' });
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(2100);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows the server message on failure and a 409 on the name', async () => {
    mockFetch({
      'POST /api/v1/admin/segment': [409, { message: 'Ya existe un segmento con este nombre.' }],
    });
    const { dialog } = renderForm();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'VIP');
    await user.type(within(dialog).getByLabelText(/^Reglas/), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Crear segmento' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Error: Ya existe un segmento con este nombre.',
    );
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveAccessibleDescription(
      'Ya existe un segmento con este nombre.',
    );
  });

  it("says 'Ocurrió un error interno' when the call throws", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ 'POST /api/v1/admin/segment': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { dialog } = renderForm();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Nombre/), 'VIP');
    await user.type(within(dialog).getByLabelText(/^Reglas/), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Crear segmento' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Error: Ocurrió un error interno'),
    );
  });
});
