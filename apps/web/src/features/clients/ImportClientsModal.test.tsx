import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  csvFile,
  expectNoSeriousA11yViolations,
  mockFetch,
  renderWithQuery,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import { ImportClientsModal } from './ImportClientsModal';

function renderModal() {
  const onClose = vi.fn();
  renderWithQuery(<ImportClientsModal onClose={onClose} />);
  const dialog = screen.getByRole('dialog', { name: 'Importar clientes' });
  return { dialog, onClose, user: userEvent.setup() };
}

const CSV =
  '\uFEFFnombre;apellidos;celular;correo;segmentos\n' +
  'Ana;García;5215512345678;ana@example.com;VIP\n' +
  '\n' +
  'Luis;Pérez;123;luis@example;VIP\n';

beforeEach(async () => {
  await setupTestI18n('es');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ImportClientsModal', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('parses the chosen CSV, posts its rows and lists Errores and Éxitos', async () => {
    let resolve: (r: Response) => void = () => {};
    const api = mockFetch({
      'POST /api/v1/import/clients': () => new Promise<Response>((r) => (resolve = r)),
    });
    const { dialog, user } = renderModal();
    const importButton = within(dialog).getByRole('button', { name: 'Importar' });
    expect(importButton).toBeDisabled();

    await user.upload(within(dialog).getByLabelText('Archivo CSV'), csvFile(CSV));
    expect(await within(dialog).findByText('2 filas listas para importar')).toBeVisible();
    expect(within(dialog).getByText('clientes.csv')).toBeVisible();
    await user.click(importButton);

    // Progress while the call runs.
    expect(
      await within(dialog).findByRole('progressbar', { name: 'Importando 2 clientes...' }),
    ).toBeVisible();
    expect(api.calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/v1/import/clients',
      body: {
        clients: [
          {
            nombre: 'Ana',
            apellidos: 'García',
            celular: '5215512345678',
            correo: 'ana@example.com',
            segmentos: 'VIP',
          },
          { nombre: 'Luis', apellidos: 'Pérez', celular: '123', correo: 'luis@example', segmentos: 'VIP' },
        ],
      },
    });
    resolve(
      new Response(
        JSON.stringify({
          message: 'Importación completada: 1 creados, 0 actualizados, 1 con errores.',
          data: {
            error: [
              {
                row: 2,
                name: 'Luis Pérez',
                message: 'El número de WhatsApp debe tener al menos 10 dígitos.',
              },
            ],
            success: [{ row: 1, name: 'Ana García', action: 'created' }],
          },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      ),
    );

    const errors = await within(dialog).findByRole('region', { name: 'Errores' });
    expect(within(errors).getByRole('listitem')).toHaveTextContent('Luis Pérez');
    expect(within(errors).getByRole('listitem')).toHaveTextContent(
      'El número de WhatsApp debe tener al menos 10 dígitos.',
    );
    const successes = within(dialog).getByRole('region', { name: 'Éxitos' });
    expect(within(successes).getByRole('listitem')).toHaveTextContent('Ana García');
    expect(
      within(dialog).getByText('Importación completada: 1 creados, 0 actualizados, 1 con errores.'),
    ).toBeVisible();
    await expectNoSeriousA11yViolations();
  });

  it("says 'No hay errores.' and 'No hay datos exitosos.' for empty lists", async () => {
    mockFetch({
      'POST /api/v1/import/clients': [200, { message: 'ok', data: { error: [], success: [] } }],
    });
    const { dialog, user } = renderModal();
    await user.upload(within(dialog).getByLabelText('Archivo CSV'), csvFile('name,email\nAna,a@b.co\n'));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    expect(await within(dialog).findByText('No hay errores.')).toBeVisible();
    expect(within(dialog).getByText('No hay datos exitosos.')).toBeVisible();
  });

  it('warns about missing required columns and refuses files it cannot import', async () => {
    const api = mockFetch({});
    const { dialog, user } = renderModal();
    const input = within(dialog).getByLabelText('Archivo CSV');
    await user.upload(input, csvFile('nombre,celular\nAna,5215512345678\n'));
    expect(
      await within(dialog).findByText(
        'Faltan columnas obligatorias: Apellidos, Correo electrónico. Esas filas se marcarán con error.',
      ),
    ).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Importar' })).toBeEnabled();

    await user.upload(input, csvFile('foo,bar\n1,2\n'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'No se reconoce ninguna columna. Usa los encabezados de la plantilla.',
    );
    expect(within(dialog).getByRole('button', { name: 'Importar' })).toBeDisabled();

    await user.upload(input, csvFile('nombre\n\n', 'vacio.csv'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'El archivo no contiene filas para importar.',
    );

    const upload = userEvent.setup({ applyAccept: false });
    await upload.upload(input, csvFile('x', 'clientes.xlsx', 'application/vnd.ms-excel'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Elige un archivo con extensión .csv.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('shows the server message when the import call is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({
      'POST /api/v1/import/clients': [
        422,
        { message: 'El archivo no contiene filas para importar.', errors: { clients: ['x'] } },
      ],
    });
    const { dialog, user } = renderModal();
    await user.upload(within(dialog).getByLabelText('Archivo CSV'), csvFile('name\nAna\n'));
    await user.click(await within(dialog).findByRole('button', { name: 'Importar' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert')).toHaveTextContent(
        'Error: El archivo no contiene filas para importar.',
      ),
    );
    // The parsed file stays, so the user can retry.
    expect(within(dialog).getByRole('button', { name: 'Importar' })).toBeEnabled();
  });
});
