import type { CompanyOverview } from '@hablabot/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  mockFetch,
  renderFeature,
  SCREEN_TEST_TIMEOUT,
  setupTestI18n,
} from '../../test';
import CompaniesPage from './CompaniesPage';

const acme: CompanyOverview = {
  id: 7,
  name: 'Acme',
  created_at: '2026-11-01T10:00:00.000Z',
  admins: [{ id: 2, name: 'Ana', email: 'ana@acme.test' }],
  clients_count: 1250,
  messages_this_month: 98,
  whatsapp_configured: true,
  last_webhook_at: '2026-11-24T09:30:00.000Z',
};
const quiet: CompanyOverview = {
  ...acme,
  id: 8,
  name: 'Quieta',
  admins: [],
  clients_count: 0,
  messages_this_month: 0,
  whatsapp_configured: false,
  last_webhook_at: null,
};

function renderPage() {
  return renderFeature(
    [
      { path: '/super-admin/companies', element: <CompaniesPage /> },
      { path: '/super-admin/users', element: <p>users page</p> },
    ],
    '/super-admin/companies',
  );
}

beforeEach(async () => {
  await setupTestI18n('es');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CompaniesPage', { timeout: SCREEN_TEST_TIMEOUT }, () => {
  it('lists companies with admins, clients, messages and WhatsApp state, and opens their users', async () => {
    mockFetch({ 'GET /api/v1/super-admin/companies/overview': [200, { data: [acme, quiet] }] });
    const { router, container } = renderPage();
    expect(screen.getByRole('heading', { name: 'Compañías' })).toBeInTheDocument();
    const row = (await screen.findByText('ana@acme.test')).closest('tr')!;
    expect(row).toHaveTextContent('Ana');
    expect(row).toHaveTextContent(/1\D?250/);
    expect(row).toHaveTextContent('98');
    expect(row).toHaveTextContent('Configurado');
    expect(row).toHaveTextContent('Último mensaje recibido');
    const other = screen.getByText('Quieta').closest('tr')!;
    expect(other).toHaveTextContent('Sin configurar');
    expect(other).toHaveTextContent('Aún no ha recibido mensajes');
    await expectNoSeriousA11yViolations(container);
    await userEvent.setup().click(within(row).getByRole('link', { name: 'Ver los usuarios de Acme' }));
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/super-admin/users?company=7',
    );
  });

  it('renames a company and shows a refused name on the field', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      'GET /api/v1/super-admin/companies/overview': [200, { data: [acme, quiet] }],
      'PUT /api/v1/super-admin/companies/7': [
        409,
        {
          message: 'Ya existe una compañía con este nombre.',
          errors: { name: ['Ya existe una compañía con este nombre.'] },
        },
      ],
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Renombrar Acme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Renombrar compañía' });
    const name = within(dialog).getByLabelText(/^Nombre/);
    await user.clear(name);
    await user.type(name, 'Quieta');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await within(dialog).findByText('Ya existe una compañía con este nombre.')).toBeInTheDocument();
    api.set('PUT /api/v1/super-admin/companies/7', [
      200,
      { success: true, message: 'Compañía actualizada con éxito.' },
    ]);
    await user.clear(name);
    await user.type(name, 'Acme Norte');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(await screen.findByText('Compañía actualizada con éxito.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({ name: 'Acme Norte' });
  });

  it('creates a company from the page, showing a refused name on the field', async () => {
    const user = userEvent.setup();
    const api = mockFetch({
      'GET /api/v1/super-admin/companies/overview': [200, { data: [acme] }],
      'POST /api/v1/super-admin/companies': [
        409,
        {
          message: 'Ya existe una compañía con este nombre.',
          errors: { name: ['Ya existe una compañía con este nombre.'] },
        },
      ],
    });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Crear compañía' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear compañía' });
    const name = within(dialog).getByLabelText(/^Nombre/);
    expect(name).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(name, 'acme');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await within(dialog).findByText('Ya existe una compañía con este nombre.')).toBeInTheDocument();
    api.set('POST /api/v1/super-admin/companies', [
      201,
      {
        success: true,
        message: 'Compañía creada con éxito.',
        data: { id: 9, name: 'Nueva', created_at: acme.created_at },
      },
    ]);
    await user.clear(name);
    await user.type(name, 'Nueva');
    await user.click(within(dialog).getByRole('button', { name: 'Crear' }));
    expect(await screen.findByText('Compañía creada con éxito.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({ name: 'Nueva' });
  });
});
