import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  makeClient,
  makeSegment,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { ClientForm } from './ClientForm';

const segments = [
  makeSegment({ id: 1, name: 'VIP' }),
  makeSegment({ id: 2, name: 'Nuevos', color: '#7300ff' }),
];

function renderForm(client = null as ReturnType<typeof makeClient> | null) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithQuery(<ClientForm client={client} segments={segments} onClose={onClose} onSaved={onSaved} />);
  const dialog = screen.getByRole('dialog', { name: client ? 'Editar cliente' : 'Crear cliente' });
  return { dialog, onSaved, onClose, user: userEvent.setup() };
}

async function fillValid(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.type(within(dialog).getByLabelText(/^Nombre/), 'Ana');
  await user.type(within(dialog).getByLabelText(/^Apellidos/), 'García López');
  await user.type(within(dialog).getByLabelText(/^WhatsApp/), '+52 1 55 1234 5678');
  await user.type(within(dialog).getByLabelText(/^Correo electrónico/), 'Ana@Example.com');
  await user.click(within(dialog).getByRole('combobox', { name: /Segmentos/ }));
  await user.click(await screen.findByRole('option', { name: /VIP/ }));
  await user.keyboard('{Escape}');
}

function submitButton(dialog: HTMLElement) {
  return within(dialog).getByRole('button', { name: 'Crear cliente' });
}

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ClientForm validation', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('requires name, last names, phone, email and at least one segment; projects are optional', async () => {
    const api = mockFetch({});
    const { dialog, user } = renderForm();
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByText('El campo nombre es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('El campo apellidos es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('El campo número de WhatsApp es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('El campo correo electrónico es obligatorio.')).toBeVisible();
    expect(within(dialog).getByText('Debe seleccionar al menos un segmento')).toBeVisible();
    expect(within(dialog).queryByText(/proyectos/)).toBeNull();
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Nombre/)).toHaveAccessibleDescription(
      'El campo nombre es obligatorio.',
    );
    expect(api.calls).toHaveLength(0);
    await expectNoSeriousA11yViolations();
  });

  it('accepts only digits for the phone, at least 10 of them, and a valid email', async () => {
    mockFetch({});
    const { dialog, user } = renderForm();
    const phone = within(dialog).getByLabelText(/^WhatsApp/);
    const email = within(dialog).getByLabelText(/^Correo electrónico/);
    await user.type(phone, '55-ABC-1234');
    await user.type(email, 'ana@');
    await user.click(submitButton(dialog));
    expect(
      await within(dialog).findByText(
        'El número de WhatsApp solo puede contener dígitos, con el código de país.',
      ),
    ).toBeVisible();
    expect(
      within(dialog).getByText('El campo correo electrónico debe ser una dirección de correo válida.'),
    ).toBeVisible();
    await user.clear(phone);
    await user.type(phone, '123456789');
    await user.tab();
    expect(
      await within(dialog).findByText(
        'El número de WhatsApp debe tener al menos 10 dígitos, con el código de país.',
      ),
    ).toBeVisible();
    await user.clear(phone);
    await user.type(phone, '1234567890');
    await user.tab();
    await waitFor(() => expect(within(dialog).queryByText(/El número de WhatsApp/)).toBeNull());
  });

  it('posts the normalised values with segment ids and reports the server message', async () => {
    const created = makeClient({ id: 9 });
    const api = mockFetch({
      'POST /api/v1/admin/client': [201, { client: created, message: 'Cliente creado con éxito.' }],
    });
    const { dialog, user, onSaved } = renderForm();
    await fillValid(user, dialog);
    await user.click(submitButton(dialog));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith('Cliente creado con éxito.', created));
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/admin/client',
      body: {
        name: 'Ana',
        last_names: 'García López',
        whatsapp_cellphone: '5215512345678',
        email: 'ana@example.com',
        projects: null,
        avatar: null,
        segments: [1],
      },
    });
  });

  it('edits with PUT /admin/client/{id}, prefilled, keeping the avatar', async () => {
    const client = makeClient({
      id: 4,
      avatar: 'a.png',
      projects: 'Web',
      segments: [{ id: 2, name: 'Nuevos', color: '#7300ff' }],
    });
    const api = mockFetch({
      'PUT /api/v1/admin/client/4': [200, { client, message: 'Cliente actualizado con éxito.' }],
    });
    const { dialog, user, onSaved } = renderForm(client);
    expect(within(dialog).getByLabelText(/^Proyectos/)).toHaveValue('Web');
    const lastNames = within(dialog).getByLabelText(/^Apellidos/);
    await user.clear(lastNames);
    await user.type(lastNames, 'Ruiz');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.calls[0].body).toMatchObject({
      last_names: 'Ruiz',
      avatar: 'a.png',
      segments: [2],
      projects: 'Web',
    });
  });

  it("lists 422 errors under 'Por favor corrige los siguientes errores:' and marks the fields", async () => {
    mockFetch({
      'POST /api/v1/admin/client': [
        422,
        {
          message: 'Uno o más segmentos no existen.',
          errors: { segments: ['Uno o más segmentos no existen.'], email: ['El correo ya no es válido.'] },
        },
      ],
    });
    const { dialog, user } = renderForm();
    await fillValid(user, dialog);
    await user.click(submitButton(dialog));
    const list = await within(dialog).findByText('Por favor corrige los siguientes errores:');
    const box = list.closest('[role="alert"]') as HTMLElement;
    expect(
      within(box)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Uno o más segmentos no existen.', 'El correo ya no es válido.']);
    expect(within(dialog).getByLabelText(/^Correo electrónico/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows a 409 duplicate phone on the phone field', async () => {
    mockFetch({
      'POST /api/v1/admin/client': [
        409,
        {
          message: 'Ya existe un cliente con este número de WhatsApp.',
          errors: { whatsapp_cellphone: ['Ya existe un cliente con este número de WhatsApp.'] },
        },
      ],
    });
    const { dialog, user, onSaved } = renderForm();
    await fillValid(user, dialog);
    await user.click(submitButton(dialog));
    const phone = within(dialog).getByLabelText(/^WhatsApp/);
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription('Ya existe un cliente con este número de WhatsApp.'),
    );
    expect(phone).toHaveFocus();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('shows a 409 that carries only a message on the phone field (the one conflict a client has)', async () => {
    mockFetch({
      'POST /api/v1/admin/client': [409, { message: 'Ya existe un cliente con este número de WhatsApp.' }],
    });
    const { dialog, user, onSaved } = renderForm();
    await fillValid(user, dialog);
    await user.click(submitButton(dialog));
    const phone = within(dialog).getByLabelText(/^WhatsApp/);
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription('Ya existe un cliente con este número de WhatsApp.'),
    );
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).queryByText('Por favor corrige los siguientes errores:')).not.toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("shows 'Error al guardar el cliente' when the save fails otherwise", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ 'POST /api/v1/admin/client': [500, { message: 'Ocurrió un error interno' }] });
    const { dialog, user } = renderForm();
    await fillValid(user, dialog);
    await user.click(submitButton(dialog));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error: Error al guardar el cliente');
  });
});
